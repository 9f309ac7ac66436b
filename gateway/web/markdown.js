// A small Markdown renderer for the rulebook pages (GET /v1/games/{id}/rules):
// headings, paragraphs, nested lists, pipe tables, block quotes, fenced code,
// and inline code, bold, italics and links. It builds DOM nodes, never HTML
// text, so whatever the Markdown holds is shown as text and cannot inject
// markup; links go only to http(s) addresses or this site's own paths.

import {h} from "./dom.js";

export function renderMarkdown(text) {
  const lines = text.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").split("\n");
  return h("div", {class: "markdown"}, blocks(lines));
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

const indentOf = (line) => line.match(/^ */)[0].length;
const blank = (line) => line.trim() === "";

function blocks(lines) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (blank(line)) {
      i++;
    } else if (FENCE.test(line)) {
      const fence = line.trim().slice(0, 3);
      const code = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence); i++) code.push(lines[i]);
      i++; // the closing fence
      out.push(h("pre", {}, h("code", {}, code.join("\n"))));
    } else if (HEADING.test(line)) {
      const [, marks, title] = line.match(HEADING);
      // The page's own title is the game's card heading: rules' headings sit below it.
      out.push(h(`h${Math.min(6, marks.length + 2)}`, {}, inline(title)));
      i++;
    } else if (RULE.test(line)) {
      out.push(h("hr"));
      i++;
    } else if (startsTable(lines, i)) {
      const rows = [];
      for (; i < lines.length && lines[i].trim().startsWith("|"); i++) rows.push(lines[i]);
      out.push(pipeTable(rows));
    } else if (line.trim().startsWith(">")) {
      const quoted = [];
      for (; i < lines.length && lines[i].trim().startsWith(">"); i++) quoted.push(lines[i].trim().replace(/^>\s?/, ""));
      out.push(h("blockquote", {}, blocks(quoted)));
    } else if (ITEM.test(line)) {
      i = list(lines, i, out);
    } else {
      const text = [];
      for (; i < lines.length && !blank(lines[i]) && !startsBlock(lines, i); i++) text.push(lines[i].trim());
      out.push(h("p", {}, inline(text.join(" "))));
    }
  }
  return out;
}

function startsBlock(lines, i) {
  const line = lines[i];
  return HEADING.test(line) || FENCE.test(line) || ITEM.test(line) || line.trim().startsWith(">") ||
    startsTable(lines, i);
}

/** A pipe table: a row, then a separator row under it. */
function startsTable(lines, i) {
  return lines[i].trim().startsWith("|") && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1]);
}

/** A list starting at lines[i]: its items are the lines marked at the first
 * item's indent; what follows an item, indented deeper, is that item's (its
 * paragraphs and nested lists). Returns the index after the list. */
function list(lines, i, out) {
  const [, indent, marker] = lines[i].match(ITEM);
  const ordered = /\d/.test(marker);
  const level = indent.length;
  const items = [];
  while (i < lines.length) {
    const match = lines[i].match(ITEM);
    if (!match || match[1].length !== level || /\d/.test(match[2]) !== ordered) break;
    const body = [match[3]];
    i++;
    let gap = false;
    for (; i < lines.length; i++) {
      const next = lines[i];
      if (blank(next)) {
        gap = true;
        body.push("");
        continue;
      }
      const nested = indentOf(next) > level;
      // A line indented under the item belongs to it; so does a plain line
      // right after it (a lazy continuation), but not after a blank line.
      if (!nested && (gap || startsBlock(lines, i))) break;
      gap = false;
      body.push(nested ? next.slice(Math.min(indentOf(next), level + marker.length + 1)) : next.trim());
    }
    while (body.length && blank(body[body.length - 1])) body.pop();
    items.push(body);
  }
  const attrs = ordered && parseInt(marker, 10) !== 1 ? {start: String(parseInt(marker, 10))} : {};
  out.push(h(ordered ? "ol" : "ul", attrs, items.map((body) => {
    const content = blocks(body);
    // A tight item's single paragraph is shown without the paragraph's margins.
    if (content.length && content[0].tagName === "P" && !body.includes("")) {
      const first = content.shift();
      return h("li", {}, [...first.childNodes], content);
    }
    return h("li", {}, content);
  })));
  return i;
}

function pipeTable(rows) {
  const cells = (row) => {
    const trimmed = row.trim().replace(/^\|/, "").replace(/\|$/, "");
    return trimmed.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
  };
  const [head, , ...body] = rows;
  return h("div", {class: "scroll"}, h("table", {},
    h("thead", {}, h("tr", {}, cells(head).map((cell) => h("th", {scope: "col"}, inline(cell))))),
    h("tbody", {}, body.map((row) => h("tr", {}, cells(row).map((cell) => h("td", {}, inline(cell))))))));
}

// Inline spans, tried at each position in this order.
const SPANS = [
  [/^`([^`]+)`/, (m) => h("code", {}, m[1])],
  [/^\*\*(?!\s)(.+?)\*\*/, (m) => h("strong", {}, inline(m[1]))],
  [/^__(?!\s)(.+?)__(?!\w)/, (m) => h("strong", {}, inline(m[1]))],
  [/^\*(?![\s*])([^*]+?)\*/, (m) => h("em", {}, inline(m[1]))],
  [/^_(?![\s_])([^_]+?)_(?!\w)/, (m) => h("em", {}, inline(m[1]))],
  [/^\[([^\]]+)\]\(([^()\s]+)\)/, (m) => link(m[1], m[2])],
  [/^\\([\\`*_{}[\]()#+\-.!|>])/, (m) => m[1]],
];

function inline(text) {
  const out = [];
  let plain = "";
  for (let i = 0; i < text.length;) {
    const rest = text.slice(i);
    // `_` opens emphasis only at the start of a word (snake_case stays as it is).
    const wordStart = i === 0 || !/\w/.test(text[i - 1]);
    let matched = null;
    for (const [pattern, make] of SPANS) {
      if (pattern.source.startsWith("^_") && !wordStart) continue;
      const m = rest.match(pattern);
      if (m) {
        matched = [m[0].length, make(m)];
        break;
      }
    }
    if (matched) {
      if (plain) out.push(plain);
      plain = "";
      out.push(matched[1]);
      i += matched[0];
    } else {
      plain += text[i];
      i++;
    }
  }
  if (plain) out.push(plain);
  return out;
}

function link(text, href) {
  let url;
  try {
    url = new URL(href, location.href);
  } catch {
    return text;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return text; // javascript:, data:, ...
  const external = url.origin !== location.origin;
  return h("a", {href: url.href, rel: external ? "noopener noreferrer" : null,
    target: external ? "_blank" : null}, inline(text));
}
