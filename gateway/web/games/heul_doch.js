// Heul doch! Mau Mau: each seat builds its own pile; a card that matches a
// neighbour's top must be given to that neighbour; onions (face-down cards)
// devalue numbers in the own pile at the end.

import {h, panel, plural, table} from "../dom.js";

export const summary =
  "Build your own pile of high cards, but a card that matches a neighbour's top card must go to that " +
  "neighbour. Lay cards face down as onions when you must; too many onions devalue your numbers.";

const SPECIALS = {catapult: "Catapult", beach_towel: "Beach Towel", carousel: "Carousel", werewolf: "Werewolf"};
// The action that plays each special card, by the card's name.
const SPECIAL_ACTION = {catapult: "catapult", beach_towel: "beachTowel", carousel: "carousel", werewolf: "werewolf"};

const sameCard = (a, b) => a.special ? a.special === b.special : a.colour === b.colour && a.number === b.number;
const cardName = (c) => c.special ? SPECIALS[c.special] || c.special : `${c.colour} ${c.number}`;

function face(c) {
  return c.special ? [h("span", {class: "value"}, "★"), h("span", {class: "kind"}, SPECIALS[c.special] || c.special)]
    : [h("span", {class: "value"}, String(c.number)), h("span", {class: "kind"}, c.colour)];
}

function card(c, extra = "") {
  return h("span", {class: `card ${c.special ? "special" : `suit c-${c.colour}`} ${extra}`, title: cardName(c)}, face(c));
}

function pileCard(p) {
  if (!p) return h("span", {class: "card empty", title: "empty pile"}, h("span", {class: "kind"}, "empty"));
  if (p.onion && !p.card) return h("span", {class: "card onion", title: "onion (face down)"},
    h("span", {class: "value"}, "●"), h("span", {class: "kind"}, "onion"));
  return card(p.card, p.onion ? "onion-shown" : "");
}

export function render(ctx) {
  const {game, viewer} = ctx;
  const n = game.seats.length;
  const parts = [];
  const left = viewer === null ? null : (viewer + 1) % n;
  const right = viewer === null ? null : (viewer - 1 + n) % n;
  const where = (seat) => seat === viewer ? "your pile" : seat === left ? "your left neighbour" : seat === right ? "your right neighbour" : "";

  parts.push(panel("piles-title", "Piles",
    h("p", {}, `Draw pile: ${plural(game.drawPile, "card")}. `,
      game.turn !== undefined ? `${ctx.name(game.turn)} to play.` : game.finished ? "Every hand is empty." : ""),
    h("div", {class: "piles"}, game.seats.map((s) => h("figure", {class: `pile${s.seat === game.turn ? " to-act" : ""}`},
      pileCard(s.top),
      h("figcaption", {}, h("strong", {}, ctx.name(s.seat)), where(s.seat) ? h("small", {}, ` (${where(s.seat)})`) : null,
        h("br"), `${plural(s.pileHeight, "card")}, ${plural(s.onions, "onion")}, ${s.handSize} in hand`)))),
    game.specialPile.length ? h("p", {}, "Special pile: ", game.specialPile.map(cardName).join(", ")) : null));

  if (viewer !== null && game.hand.length) {
    const target = {own: "your pile", left: `${ctx.name(left)} (left)`, right: `${ctx.name(right)} (right)`};
    // Every legal action names its card (or, for a special played face up, the
    // special's kind): each hand card shows the moves that play it.
    const movesFor = (c) => ctx.find((a) => (a.faceUp && sameCard(a.faceUp.card, c)) || (a.onion && sameCard(a.onion.card, c)) ||
      (c.special && a[SPECIAL_ACTION[c.special]] !== undefined)).map((action) => {
      const a = ctx.part(action);
      let label;
      if (a.faceUp) label = `Face up on ${target[a.faceUp.pile] || a.faceUp.pile}`;
      else if (a.onion) label = "As an onion";
      else if (a.beachTowel) label = `Swap tops with ${ctx.name(a.beachTowel.seat)}`;
      else if (a.carousel) label = `Turn tops to the ${a.carousel.direction}`;
      else label = `Play the ${cardName(c)}`;
      return ctx.actionButton(action, label, {class: "move", label: `${cardName(c)}: ${label}`});
    });
    const seen = [];
    parts.push(panel("hand-title", "Your hand",
      ctx.actions.length ? h("p", {class: "note"}, "Your turn: play one card.") : null,
      h("div", {class: "hand-moves"}, game.hand.map((c) => {
        // A second copy of a card shows no buttons again: both would play the same card.
        const twin = seen.some((s) => sameCard(s, c));
        seen.push(c);
        return h("div", {class: "hand-card"}, card(c), twin ? null : h("div", {class: "moves"}, movesFor(c)));
      }))));
  }

  if (game.finished) {
    parts.push(panel("scores-title", "Piles in full",
      h("p", {class: "small"}, "Cards with a dashed edge were laid as onions."),
      table(null, ["Player", "Pile (bottom first)", "Onions", "Devalued", "Points", "Lost"], game.seats.map((s) => [
        ctx.name(s.seat),
        h("span", {class: "cards small"}, s.pile.map(pileCard)),
        String(s.onions), s.devalued.length ? s.devalued.join(", ") : "-",
        String(s.score ?? 0), String(s.lost ?? 0)]))));
  }
  return parts;
}

export function describe(e, ctx) {
  if (e.dealt) return `The cards are dealt; ${ctx.name(e.dealt.firstSeat)} plays first.`;
  if (e.cardPlayed) {
    const {seat, card, onto} = e.cardPlayed;
    return `${ctx.name(seat)} played ${cardName(card)} ${onto === seat ? "on their own pile" : `onto ${ctx.name(onto)}'s pile`}.`;
  }
  if (e.onionLaid) return `${ctx.name(e.onionLaid.seat)} laid an onion.`;
  if (e.specialPlayed) {
    const s = e.specialPlayed;
    const extra = s.target !== undefined ? ` with ${ctx.name(s.target)}` : s.direction ? ` to the ${s.direction}` : "";
    return `${ctx.name(s.seat)} played a ${SPECIALS[s.special] || s.special}${extra}.`;
  }
  if (e.cardsDrawn) return `${ctx.name(e.cardsDrawn.seat)} drew ${e.cardsDrawn.cards && e.cardsDrawn.cards.length
    ? e.cardsDrawn.cards.map(cardName).join(", ") : plural(e.cardsDrawn.count, "card")}.`;
  if (e.gameOver) return `Every hand is empty: ${e.gameOver.results.map((r) => `${ctx.name(r.seat)} ${r.score}`).join(", ")}.`;
  return null;
}
