// Whatever: the auctioneer secretly draws a card and auctions it for tokens;
// the winner adds it to its row, where specials take effect.

import {h, panel, plural, table} from "../dom.js";

export const summary =
  "Take turns auctioning a secretly drawn card for tokens. Build a row worth 10 or more, or holding three " +
  "Whatevers, while Trash, Copy and Upset cards wreck and twist the rows.";

const KINDS = {whatever: "Whatever", trash: "Trash", copy: "Copy", upset: "Upset"};

const signed = (v) => (v > 0 ? `+${v}` : String(v));
const cardName = (c) => (c.kind === "point" ? signed(c.value) : KINDS[c.kind] || c.kind) + (c.isCopy ? " (copied)" : "");

function face(c) {
  return [h("span", {class: "value"}, c.kind === "point" ? signed(c.value) : (KINDS[c.kind] || c.kind)),
    h("span", {class: "kind"}, c.isCopy ? "copy" : c.kind === "point" ? "points" : c.pending ? "waiting" : "")];
}

const tone = (c) => c.kind === "point" ? (c.value < 0 ? "minus" : "plus") : c.kind;

function card(c, extra = "") {
  return h("span", {class: `card w-${tone(c)}${c.pending ? " pending" : ""} ${extra}`, title: cardName(c)}, face(c));
}

export function render(ctx) {
  const {game, viewer} = ctx;
  const parts = [];
  const auction = game.phase === "auction";

  parts.push(panel("auction-title", game.phase === "over" ? "Game over"
    : `Turn ${game.turn}: ${ctx.name(game.auctioneer)} auctions a card`,
    h("p", {}, `Deck: ${plural(game.deckSize, "card")}. Middle: ${plural(game.middle, "token")}. `,
      auction ? (game.highBid ? `High bid ${game.highBid} by ${ctx.name(game.highBidder)}. ` : "No bid yet. ") : "",
      auction && game.bidder !== undefined ? `${ctx.name(game.bidder)} to bid or pass.` : "",
      game.phase === "exchange" ? `${ctx.name(game.auctioneer)} may exchange a point card.` : ""),
    game.drawnCard ? h("div", {class: "drawn"}, h("span", {}, "You drew (only you see it): "), card(game.drawnCard)) : null,
    game.endReason ? h("p", {}, {points: "A row reached 10 points.", whatevers: "A row holds three Whatevers.",
      deck_empty: "The deck ran out."}[game.endReason] || game.endReason) : null));

  const bids = ctx.find((a) => a.bid || a.pass);
  if (bids.length) {
    const me = game.seats[viewer];
    parts.push(panel("bid-title", "Your bid",
      h("p", {class: "note"}, `You hold ${plural(me.tokens, "token")}` + (me.bid ? ` and bid ${me.bid}.` : ".")),
      h("div", {class: "moves", role: "group", "aria-label": "Bid or pass"}, bids.map((action) => {
        const a = ctx.part(action);
        return ctx.actionButton(action, a.pass ? "Pass" : `Bid ${a.bid.amount}`, {class: "move"});
      }))));
  }

  const exchanges = ctx.find((a) => a.exchange || a.skip);
  parts.push(panel("rows-title", "Rows",
    exchanges.length ? h("p", {class: "note"}, "You may discard a point card from your row: a plus card earns its value " +
      "from the middle, a minus card costs its value.") : null,
    h("div", {class: "rows"}, game.seats.map((s) => {
      const mine = s.seat === viewer;
      const row = s.row.map((c, position) => {
        const action = mine && ctx.find((a) => a.exchange && (a.exchange.position ?? 0) === position)[0];
        return action ? ctx.actionButton(action, face(c), {class: `card w-${tone(c)}`,
          label: `Exchange ${cardName(c)} (position ${position + 1})`}) : card(c);
      });
      const skip = mine && ctx.find((a) => a.skip)[0];
      return h("div", {class: `row-of${s.seat === game.auctioneer ? " auctioneer" : ""}`},
        h("h3", {}, ctx.name(s.seat), s.seat === game.auctioneer && game.phase !== "over" ? " (auctioneer)" : ""),
        h("p", {class: "small"}, `${plural(s.tokens, "token")}`, s.bid ? `, bid ${s.bid}` : "", s.passed ? ", passed" : "",
          ` · total ${s.total} · ${plural(s.whatevers, "Whatever")}`),
        h("div", {class: "cards"}, row.length ? row : h("span", {class: "note"}, "empty row")),
        skip ? ctx.actionButton(skip, "Keep my row (no exchange)", {class: "move"}) : null);
    }))));

  if (game.discarded.length) {
    parts.push(panel("discarded-title", `Discarded cards (${game.discarded.length})`,
      h("div", {class: "cards small"}, game.discarded.map((c) => card(c)))));
  }
  if (game.phase === "over") {
    parts.push(panel(null, "Totals",
      table(null, ["Player", "Total", "Whatevers"], game.seats.map((s) => [ctx.name(s.seat), String(s.total), String(s.whatevers)]))));
  }
  return parts;
}

export function describe(e, ctx) {
  if (e.cardDrawn) return `Turn ${e.cardDrawn.turn}: ${ctx.name(e.cardDrawn.auctioneer)} drew a card` +
    (e.cardDrawn.card ? ` (${cardName(e.cardDrawn.card)}).` : ".");
  if (e.bidMade) return `${ctx.name(e.bidMade.seat)} bid ${e.bidMade.amount}.`;
  if (e.passed) return `${ctx.name(e.passed.seat)} passed.`;
  if (e.cardWon) {
    const w = e.cardWon;
    return `${ctx.name(w.seat)} takes ${cardName(w.card)}` + (w.free ? " for free." : ` for ${plural(w.price, "token")}.`);
  }
  if (e.rowChanged) return `Row of ${ctx.name(e.rowChanged.seat)}: total ${e.rowChanged.total}` +
    (e.rowChanged.effects.length ? ` (${e.rowChanged.effects.map((x) => x.kind).join(", ")}).` : ".");
  if (e.exchanged) return `${ctx.name(e.exchanged.seat)} exchanged ${cardName(e.exchanged.card)}.`;
  if (e.exchangeSkipped) return `${ctx.name(e.exchangeSkipped.seat)} kept the row.`;
  if (e.tokensRedistributed) return `Tokens dealt out again: ${e.tokensRedistributed.each} each.`;
  if (e.gameEnded) return `Game over: ${e.gameEnded.winners.map(ctx.name).join(" and ")} won.`;
  return null;
}
