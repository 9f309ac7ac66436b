// What the Heck?: every seat bids a number card at once for the prize cards in
// the pot; equal bids cancel out.

import {h, panel, plural, table} from "../dom.js";

export const summary =
  "Everyone bids a number card (1-15) at once for the prize card turned up: mice are worth points, " +
  "buzzards cost them. The highest unique bid takes a mouse, the lowest a buzzard; equal bids cancel out.";

const prize = (value) => h("span", {class: `card prize ${value < 0 ? "buzzard" : "mouse"}`,
  title: value < 0 ? `Buzzard ${value}` : `Mouse +${value}`},
  h("span", {class: "value"}, value > 0 ? `+${value}` : String(value)),
  h("span", {class: "kind"}, value < 0 ? "buzzard" : "mouse"));

const numbers = (list) => list.length ? list.join(", ") : "none";

export function render(ctx) {
  const {game, viewer} = ctx;
  const me = viewer === null ? null : game.seats[viewer];
  const over = ctx.view.status === "FINISHED";
  const parts = [];

  parts.push(over ? panel(null, `All ${game.rounds} rounds played`)
    : panel("pot-title", `Round ${game.round} of ${game.rounds}`,
      h("div", {class: "cards"}, game.pot.map(prize)),
      h("p", {}, game.pot.length > 1 ? `The pot carries over: worth ${game.potValue}. ` : "",
        game.potValue >= 0 ? "The highest unique bid takes it." : "The lowest unique bid takes it.",
        " ", plural(game.prizesLeft, "prize card"), " still to come.")));

  if (me && !over) {
    const bids = game.hand.map((n) => {
      const action = ctx.find((a) => a.bid === n)[0];
      return action ? ctx.actionButton(action, String(n), {class: "card number", label: `Bid ${n}`})
        : h("span", {class: "card number idle"}, String(n));
    });
    parts.push(panel("hand-title", "Your hand",
      me.bid !== undefined ? h("p", {class: "note"}, `You bid ${me.bid}; waiting for the others.`)
        : ctx.actions.length ? h("p", {class: "note"}, "Pick a card to bid.") : null,
      h("div", {class: "cards hand", role: "group", "aria-label": "Your bids"}, bids)));
  }

  parts.push(panel("seats-title", "Players",
    table(null, ["Player", "Cards", "This round", "Prize cards won", "Score", "Played"],
      game.seats.map((s) => [ctx.name(s.seat), String(s.handSize), over ? "-" : s.committed ? "bid ✓" : "thinking",
        s.won.length ? s.won.map((v) => (v > 0 ? `+${v}` : v)).join(" ") : (s.cardsWon ? plural(s.cardsWon, "card") : "-"),
        s.score === undefined ? "hidden" : String(s.score), numbers(s.played)]))));

  if (game.history.length) {
    parts.push(panel("history-title", "Rounds played",
      table(null, ["Round", "Pot", ...game.seats.map((s) => ctx.name(s.seat)), "Taken by"],
        [...game.history].reverse().map((r) => [String(r.round), r.pot.join(" "), ...r.bids.map(String),
          r.winner === undefined ? "nobody" : ctx.name(r.winner)]))));
  }
  if (game.discarded.length) parts.push(h("p", {}, `Out of play: ${game.discarded.join(" ")}`));
  return parts;
}

export function describe(e, ctx) {
  if (e.roundStarted) return `Round ${e.roundStarted.round}: ${e.roundStarted.turned > 0 ? "a mouse" : "a buzzard"} ` +
    `(${e.roundStarted.turned}) is turned up.`;
  if (e.bidCommitted) return `${ctx.name(e.bidCommitted.seat)} bid` +
    (e.bidCommitted.bid !== undefined ? ` ${e.bidCommitted.bid}.` : ".");
  if (e.bidsRevealed) {
    const r = e.bidsRevealed;
    const bids = r.bids.map((b, seat) => `${ctx.name(seat)} ${b}`).join(", ");
    const outcome = r.winner !== undefined ? `${ctx.name(r.winner)} takes ${r.pot.join(" ")}.`
      : r.discarded ? "Nobody takes it: the pot is out of play." : "Nobody takes it: the pot carries over.";
    return `Bids: ${bids}. ${outcome}`;
  }
  return null;
}
