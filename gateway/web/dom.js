// Building DOM nodes. Text always goes in as text nodes, never as HTML, so
// nothing a player or the server writes (names, rules) can inject markup; and
// no inline style is ever set (the Content-Security-Policy forbids them).

/**
 * h("button", {class: "x", onclick: f, disabled: true}, "text", child, [more])
 * Props: `class`, `dataset` (an object), `on<event>` (listeners), DOM
 * properties given as non-strings (disabled: true, value: 3), other strings as
 * attributes. null, undefined and false props and children are skipped.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "style" || key === "innerHTML") throw new Error(`h(): ${key} is not allowed`);
    else if (typeof value !== "string" && key in el) el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A table with a header row and body rows (each an array of cells). */
export function table(caption, headers, rows, props = {}) {
  return h("div", {class: "scroll"},
    h("table", props,
      caption ? h("caption", {}, caption) : null,
      h("thead", {}, h("tr", {}, headers.map((text) => h("th", {scope: "col"}, text)))),
      h("tbody", {}, rows.map((row) => row instanceof Node ? row
        : h("tr", {}, row.map((cell, i) => i === 0 ? h("th", {scope: "row"}, cell) : h("td", {}, cell)))))));
}

/** A panel of the table: <section class="panel"> headed by an <h2> that
 * labels it (`titleId` null: a heading without an id, and no label). */
export function panel(titleId, title, ...children) {
  return h("section", {class: "panel", "aria-labelledby": titleId}, h("h2", {id: titleId}, title), children);
}

/** A labelled form field: <label>text <control></label>. */
export function field(text, control, hint) {
  return h("label", {class: "field"}, h("span", {class: "label"}, text), control,
    hint ? h("small", {class: "hint"}, hint) : null);
}

export function select(name, choices, value, props = {}) {
  return h("select", {name, ...props},
    choices.map(([v, text]) => h("option", {value: String(v), selected: String(v) === String(value)}, text)));
}

/** Seat numbers as people read them: the API counts from 0, tables from 1. */
export function seatLabel(seat) {
  return `Seat ${seat + 1}`;
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}
