// Hi-Fu!!: a must-follow trick-taking game; take exactly two of the round's
// nine tricks. Each round starts with a hidden discard down to nine cards.

import {h, panel, plural, table} from "../dom.js";

export const summary =
  "Trick-taking where the aim is exactly two tricks a round. Remove cards down to nine, follow the lead " +
  "colour, and stand your pawn on the round board with your second trick; a third knocks it over.";

const PHASES = {discard: "Everyone removes cards down to 9", play: "Tricks", over: "Game over"};

const sameCard = (a, b) => a.colour === b.colour && a.number === b.number;
const cardName = (c) => `${c.colour} ${c.number}`;

const face = (c) => [h("span", {class: "value"}, String(c.number)), h("span", {class: "kind"}, c.colour)];

function card(c, extra = "") {
  return h("span", {class: `card suit c-${c.colour} ${extra}`, title: cardName(c)}, face(c));
}

function played(ctx, list) {
  return h("div", {class: "cards"}, list.map((p) => h("figure", {class: "played"},
    card(p.card), h("figcaption", {}, ctx.name(p.seat)))));
}

export function render(ctx) {
  const {game, viewer} = ctx;
  const parts = [];
  const active = game.phase !== "over";

  parts.push(panel("round-title", `Round ${game.round} of ${game.rounds}: ${PHASES[game.phase] || game.phase}`,
    game.phase === "play" ? h("p", {}, `Trick ${Math.min(game.tricksPlayed + 1, 9)} of 9. `,
      game.leadColour ? `Lead colour: ${game.leadColour}. ` : "",
      game.turn !== undefined ? `${ctx.name(game.turn)} to play.` : "") : null,
    game.phase === "discard" && game.leader !== undefined
      ? h("p", {}, `${ctx.name(game.leader)} leads the first trick.`) : null,
    active ? h("div", {class: "trick", "aria-label": "Cards on the table"},
      game.trick.length ? played(ctx, game.trick) : h("p", {class: "note"}, "No card on the table yet.")) : null,
    game.lastTrick && game.lastTrick.cards && game.lastTrick.cards.length
      ? h("div", {class: "last-trick"}, h("h3", {}, `Trick ${game.lastTrick.number} went to ${ctx.name(game.lastTrick.winner)}`),
        played(ctx, game.lastTrick.cards)) : null));

  if (viewer !== null && (game.hand.length || game.removed.length || game.putAway.length)) {
    const removing = game.phase === "discard";
    const hand = game.hand.map((c) => {
      const action = ctx.find((a) => removing ? a.discard && a.discard.cards.length === 1 && sameCard(a.discard.cards[0], c)
        : a.play && sameCard(a.play, c))[0];
      if (!action) return card(c, "idle");
      return ctx.actionButton(action, face(c),
        {class: `card suit c-${c.colour}`, label: `${removing ? "Remove" : "Play"} ${cardName(c)}`});
    });
    const me = game.seats[viewer];
    parts.push(panel("hand-title", "Your hand",
      removing && me.toRemove ? h("p", {class: "note"}, `Remove ${plural(me.toRemove, "more card")} (hidden from everyone).`) : null,
      !removing && ctx.actions.length ? h("p", {class: "note"}, "Your turn: play a card.") : null,
      me.out ? h("p", {class: "note"}, "Mii! You took a third trick and are out of this round.") : null,
      h("div", {class: "cards hand", role: "group", "aria-label": "Your cards"}, hand),
      game.removed.length ? h("p", {}, "Removed this round: ", game.removed.map(cardName).join(", ")) : null,
      game.putAway.length ? h("p", {}, "Put away: ", game.putAway.map(cardName).join(", ")) : null));
  }

  parts.push(panel("seats-title", "Players",
    table(null, ["Player", "Cards", "Tricks", "Pawn", "Score"], game.seats.map((s) => [
      ctx.name(s.seat),
      game.phase === "discard" && s.toRemove ? `${s.handSize} (removing ${s.toRemove})` : String(s.handSize),
      String(s.tricks) + (s.out ? " (out)" : ""),
      s.place === undefined ? "-" : `place ${s.place}${s.out ? ", knocked over" : ""}`,
      String(s.score)]))));

  // The round board: one column per round, one row per place.
  const places = Math.max(...game.board.map((r) => r.values.length));
  const rows = [];
  for (let place = 1; place <= places; place++) {
    rows.push([`Place ${place}`, ...game.board.map((r) => {
      const pawn = r.pawns.find((p) => p.place === place);
      return h("span", {class: pawn ? (pawn.standing ? "pawn" : "pawn down") : ""},
        `${r.values[place - 1]} pt`, pawn ? ` · ${ctx.name(pawn.seat)}${pawn.standing ? "" : " (over)"}` : "");
    })]);
  }
  parts.push(panel("board-title", `Round board (${game.options.board || "front"} side)`,
    h("p", {class: "small"}, "A pawn still standing at a round's end scores its place's points."),
    table(null, ["", ...game.board.map((r) => r.round === game.round ? `${r.round}R (now)` : `${r.round}R`)], rows,
      {class: "board"})));
  return parts;
}

export function describe(e, ctx) {
  if (e.roundStarted) return `Round ${e.roundStarted.round}: ${e.roundStarted.dealt} cards dealt each; ` +
    `keep ${e.roundStarted.keep}. ${ctx.name(e.roundStarted.leader)} will lead.`;
  if (e.cardsRemoved) {
    const r = e.cardsRemoved;
    return `${ctx.name(r.seat)} removed ${r.cards && r.cards.length ? r.cards.map(cardName).join(", ") : plural(r.count, "card")}` +
      (r.toRemove ? ` (${r.toRemove} to go).` : " and holds 9.");
  }
  if (e.playStarted) return `Everyone holds 9: ${ctx.name(e.playStarted.leader)} leads.`;
  if (e.cardPlayed) return `${ctx.name(e.cardPlayed.seat)} played ${cardName(e.cardPlayed.card)}.`;
  if (e.trickWon) return `${ctx.name(e.trickWon.seat)} took trick ${e.trickWon.trick} ` +
    `(${plural(e.trickWon.tricks, "trick")} this round).`;
  if (e.hiFu) return `Hi-Fu! ${ctx.name(e.hiFu.seat)} stands on place ${e.hiFu.place} (${e.hiFu.points} points if it stays).`;
  if (e.mii) return `Mii! ${ctx.name(e.mii.seat)} took a third trick and is out of the round.`;
  if (e.roundScored) return `Round ${e.roundScored.round} scored: ` +
    e.roundScored.scores.map((s, seat) => `${ctx.name(seat)} ${s}`).join(", ") + ".";
  if (e.gameOver) return e.gameOver.reason === "ten_points" ? "Somebody reached 10 points: the game is over."
    : "Five rounds played: the game is over.";
  return null;
}
