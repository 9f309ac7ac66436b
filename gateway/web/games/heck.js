// Heck: lonely snakes bet eggs, at once and in secret, on hiss, slither, chomp
// or the heck space to befriend the critters in the three slots.

import {h, panel, plural, table} from "../dom.js";

export const summary =
  "Lonely snakes bet their eggs in secret on hiss, slither, chomp or the heck space to befriend critters. " +
  "Five friends, or a clique of three that speak the same word, win at once.";

const TRAITS = ["hiss", "slither", "chomp"];
const HECK_CARDS = {friendship: "Friendship", found_egg: "Found egg", cracked_egg: "Cracked egg", runaway: "Runaway",
  shoo: "Shoo", stampede: "Stampede"};

const traitText = (t) => t.threshold ? `${t.trait} ${t.threshold}+` : `most ${t.trait}`;
const heckCard = (c) => c ? (HECK_CARDS[c.kind] || c.kind) + (c.word ? ` (${c.word})` : "") : "nothing";
const betText = (b) => b.safe ? "all safe" : TRAITS.concat("heck").filter((k) => b[k]).map((k) => `${k} ${b[k]}`).join(", ") || "nothing";

function critter(c) {
  return h("span", {class: `card critter word-${c.word}`, title: c.name},
    h("span", {class: "value"}, c.name),
    h("span", {class: "kind"}, `“${c.word}” · `, c.heckOnly ? "heck only" : c.traits.map(traitText).join(" + ")));
}

export function render(ctx) {
  const {game, viewer} = ctx;
  const parts = [];
  const max = game.options.maxRounds;

  parts.push(panel("slots-title", game.finished ? "Game over" : `Round ${game.round}${max ? ` of at most ${max}` : ""}`,
    h("p", {}, `${ctx.name(game.firstPlayer)} holds the first-player marker. Win with ${game.friendsToWin} friends ` +
      `or a clique of ${game.cliqueToWin}. Supply: ${plural(game.supply, "egg")} (${game.supplyBrown} brown).`),
    h("div", {class: "slots"}, game.slots.map((s) => h("figure", {class: "slot"},
      s.critter ? critter(s.critter) : h("span", {class: "card empty"}, h("span", {class: "kind"}, "empty")),
      h("figcaption", {}, `Slot ${s.slot}`)))),
    h("p", {class: "small"}, `Decks: ${game.critterDeckSize} critters, ${game.snakeDeckSize} snakes ` +
      `(${game.snakeDiscardSize} discarded), ${game.heckDeckSize} heck cards (${game.heckDiscardSize} discarded).`)));

  if (viewer !== null && (game.snake || game.bet)) {
    const bets = ctx.find(() => true);
    parts.push(panel("bet-title", "Your eggs",
      game.snake ? h("p", {}, `Your snake lets you place at most hiss ${game.snake.hiss}, slither ${game.snake.slither}, ` +
        `chomp ${game.snake.chomp} (heck: any). You hold ${plural(game.seats[viewer].eggs, "egg")}.`) : null,
      game.bet ? h("p", {class: "note"}, `You bet: ${betText(game.bet)}. Waiting for the others.`) : null,
      bets.length ? table("Pick a bet (all your eggs are placed)", ["Bet", ...TRAITS, "heck", ""], bets.map((action) => {
        const b = ctx.part(action);
        return [b.safe ? "Safe" : "Spread", ...TRAITS.concat("heck").map((k) => String(b[k] || 0)),
          ctx.actionButton(action, "Bet", {class: "move", label: `Bet ${betText(b)}`})];
      }), {class: "bets"}) : null));
  }

  parts.push(panel("seats-title", "Snakes",
    table(null, ["Player", "Eggs", "Friends", "Held cards", "This round"], game.seats.map((s) => [
      ctx.name(s.seat),
      `${s.eggs}${s.brownEggs ? ` (${s.brownEggs} brown)` : ""}`,
      s.friends.length ? h("span", {class: "friends"}, `${s.friends.length}: `, s.friends.map((f) => `${f.name} (${f.word})`).join(", ")) : "0",
      s.held.length ? s.held.map(heckCard).join(", ") : "-",
      game.finished ? "-" : s.committed ? "bet ✓" : "thinking"]))));

  if (game.lastReveal && game.lastReveal.bets && game.lastReveal.bets.length) {
    parts.push(panel("reveal-title", `Bets of round ${game.lastReveal.round}`,
      table(null, ["Player", "Snake (hiss/slither/chomp)", "Bet"], game.lastReveal.bets.map((b) => [
        ctx.name(b.seat), b.snake ? `${b.snake.hiss}/${b.snake.slither}/${b.snake.chomp}` : "-", betText(b)]))));
  }
  return parts;
}

export function describe(e, ctx) {
  if (e.roundStarted) return `Round ${e.roundStarted.round} begins` +
    (e.roundStarted.snake ? `; your snake: hiss ${e.roundStarted.snake.hiss}, slither ${e.roundStarted.snake.slither}, ` +
      `chomp ${e.roundStarted.snake.chomp}.` : ".");
  if (e.deckReshuffled) return `The ${e.deckReshuffled.deck} deck is reshuffled.`;
  if (e.betCommitted) return `${ctx.name(e.betCommitted.seat)} placed their eggs` +
    (e.betCommitted.bet ? ` (${betText(e.betCommitted.bet)}).` : ".");
  if (e.betsRevealed) return `Bets: ${e.betsRevealed.bets.map((b) => `${ctx.name(b.seat)} ${betText(b)}`).join("; ")}.`;
  if (e.eggTaken) return `${ctx.name(e.eggTaken.seat)} takes a ${e.eggTaken.colour || ""} egg.`;
  if (e.eggReturned) return `${ctx.name(e.eggReturned.seat)} returns an egg (cracked).`;
  if (e.heckCardDrawn) return `${ctx.name(e.heckCardDrawn.seat)} draws ${heckCard(e.heckCardDrawn.card)}.`;
  if (e.cardHeld) return `${ctx.name(e.cardHeld.seat)} holds ${heckCard(e.cardHeld.card)}.`;
  if (e.heldCardDiscarded) return `${ctx.name(e.heldCardDiscarded.seat)} discards ${heckCard(e.heldCardDiscarded.card)}.`;
  if (e.critterBefriended) return `${ctx.name(e.critterBefriended.seat)} befriends ${e.critterBefriended.critter.name}.`;
  if (e.critterUnclaimed) return `Nobody wins ${e.critterUnclaimed.critter.name} (${e.critterUnclaimed.reason}).`;
  if (e.critterLost) return `${ctx.name(e.critterLost.seat)} loses ${e.critterLost.critter.name} (${e.critterLost.cause}).`;
  if (e.noEffect) return `${heckCard(e.noEffect.card)} has no effect.`;
  if (e.stampede) return `Stampede! ${e.stampede.critters.map((c) => c.name).join(", ") || "No critter"} run off.`;
  if (e.slotRefilled) return `${e.slotRefilled.critter.name} appears in slot ${e.slotRefilled.slot}.`;
  if (e.gameEnded) return `Game over (${e.gameEnded.reason.replace("_", " ")}).`;
  return null;
}
