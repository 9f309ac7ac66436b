// Parlor in the browser: the games and their rules, the lobby, and a table for
// each match. Routes live in the address's fragment: `#/` is the start page,
// `#/m/<matchId>` a match's table (the link to share).
//
// The page never decides what is legal: it shows the seat's legal actions
// (GET /legal-actions) as buttons and posts the one clicked back unchanged.

import {api, ApiError, LiveEvents, newKey, withRetry} from "./api.js";
import {field, h, plural, seatLabel, select, table} from "./dom.js";
import {renderMarkdown} from "./markdown.js";
import * as heck from "./games/heck.js";
import * as heulDoch from "./games/heul_doch.js";
import * as hiFu from "./games/hi_fu.js";
import * as whatTheHeck from "./games/what_the_heck.js";
import * as whatever from "./games/whatever.js";

const MODULES = {what_the_heck: whatTheHeck, hi_fu: hiFu, heul_doch: heulDoch, whatever, heck};
// The game's field in views, actions and events: its id in lowerCamelCase.
const fieldOf = (game) => game.replace(/_(\w)/g, (_, c) => c.toUpperCase());

// ---- what the browser keeps -------------------------------------------------

// Each seat's token is kept under its match's own key, so that a reload (or a
// return days later) finds the seat again, and no match sees another's token.
const store = {
  get(key) {
    try {
      return JSON.parse(localStorage.getItem(key));
    } catch {
      return null; // storage off, or not ours
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch { /* storage full or off: the seat lasts as long as the page */ }
  },
  drop(key) {
    try {
      localStorage.removeItem(key);
    } catch { /* as above */ }
  },
};
const SEAT_PREFIX = "parlor.seat.";
const seatOf = (matchId) => store.get(SEAT_PREFIX + matchId);
const keepSeat = (matchId, seat) => store.set(SEAT_PREFIX + matchId, seat);
const forgetSeat = (matchId) => store.drop(SEAT_PREFIX + matchId);
/** Keeps the seat a join (or quick match) answered with; returns what is kept. */
function keepJoined(matchId, joined, game, title) {
  const seat = {seat: joined.seat, token: joined.token, game, title, at: Date.now()};
  keepSeat(matchId, seat);
  return seat;
}

function mySeats() {
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key.startsWith(SEAT_PREFIX)) found.push({matchId: key.slice(SEAT_PREFIX.length), ...store.get(key)});
    }
  } catch { /* storage off */ }
  return found.sort((a, b) => (b.at || 0) - (a.at || 0));
}

const myName = () => store.get("parlor.name") || "";
const keepName = (name) => store.set("parlor.name", name);

let gamesList = null; // GET /v1/games, once per page load
const titles = {}; // game id -> title, once the list has come
const games = () => (gamesList ??= api.games().then((r) => {
  for (const g of r.games) titles[g.id] = g.title;
  return r.games;
}).catch((err) => {
  gamesList = null; // asked again next time
  throw err;
}));

// ---- routing ------------------------------------------------------------------

const main = document.getElementById("main");
let page = null;

function route() {
  if (page) page.stop();
  const match = location.hash.match(/^#\/m\/([A-Za-z0-9]+)$/);
  page = match ? new MatchPage(match[1]) : new HomePage();
  main.replaceChildren(page.root);
  page.start();
}

function go(matchId) {
  location.hash = `#/m/${matchId}`;
}

function errorText(err) {
  return err instanceof ApiError ? err.message : `Something went wrong: ${err.message || err}`;
}

// ---- the start page -----------------------------------------------------------

class HomePage {
  constructor() {
    this.nameInput = h("input", {type: "text", name: "name", maxlength: "64", autocomplete: "nickname",
      value: myName(), placeholder: "Ann", oninput: () => keepName(this.nameInput.value.trim())});
    this.notice = h("p", {class: "notice", role: "alert"});
    this.gamesBox = h("div", {class: "games"}, h("p", {}, "Loading the games…"));
    this.lobbyBox = h("div", {class: "lobby"});
    this.root = h("div", {class: "home"},
      h("h1", {}, "Parlor: five small card games"),
      h("p", {}, "Play at a table with friends (share its link), against bots, or watch."),
      field("Your name", this.nameInput, "Shown to the other players."),
      this.notice,
      this.yourTables(),
      h("section", {"aria-labelledby": "games-title"}, h("h2", {id: "games-title"}, "Games"), this.gamesBox),
      h("section", {"aria-labelledby": "lobby-title"},
        h("h2", {id: "lobby-title"}, "Lobby"),
        h("button", {type: "button", class: "secondary", onclick: () => this.loadLobby()}, "Refresh the lobby"),
        this.lobbyBox));
  }

  start() {
    document.title = "Parlor";
    games().then((list) => this.gamesBox.replaceChildren(...list.map((g) => this.gameCard(g))))
      .catch((err) => this.gamesBox.replaceChildren(h("p", {class: "notice"}, errorText(err))));
    this.loadLobby();
    this.timer = setInterval(() => this.loadLobby(), 5000);
  }

  stop() {
    clearInterval(this.timer);
  }

  name() {
    const name = this.nameInput.value.trim();
    if (!name) {
      this.nameInput.focus();
      throw new ApiError(0, "NAME", "Type your name first.");
    }
    return name;
  }

  yourTables() {
    const mine = mySeats();
    if (!mine.length) return null;
    return h("section", {"aria-labelledby": "yours-title"}, h("h2", {id: "yours-title"}, "Your tables"),
      h("ul", {class: "links"}, mine.slice(0, 8).map((s) => h("li", {},
        h("a", {href: `#/m/${s.matchId}`}, `${s.title || s.game || "A match"}, ${seatLabel(s.seat)}`)))));
  }

  gameCard(game) {
    const module = MODULES[game.id];
    const players = playersSelect(game);
    const fill = select("fill", [[15, "after 15 s"], [30, "after 30 s"], [60, "after a minute"], [0, "never"]], 30);
    return h("article", {class: "game", id: `game-${game.id}`, "aria-labelledby": `title-${game.id}`},
      h("h3", {id: `title-${game.id}`}, game.title),
      h("p", {class: "meta"}, `${game.minPlayers}-${game.maxPlayers} players`),
      h("p", {}, module ? module.summary : ""),
      h("div", {class: "quick"},
        field("Players", players),
        field("Bots take empty seats", fill),
        h("button", {type: "button", class: "primary", "data-quick": game.id, "aria-label": `Play now: ${game.title}`,
          onclick: (event) => this.quickMatch(game, Number(players.value), Number(fill.value), event.currentTarget)},
        "Play now")),
      h("details", {class: "create-box"}, h("summary", {}, "New table: choose players, bots and options"),
        this.createForm(game)),
      rulesPanel(game.id, `Full rules of ${game.title}`, "rules-box", "notice"));
  }

  async quickMatch(game, players, fillAfter, button) {
    button.disabled = true;
    this.notice.textContent = "";
    try {
      const body = {game: game.id, players, name: this.name()};
      if (fillAfter) body.fillWithBotsAfter = fillAfter;
      const key = newKey();
      const joined = await withRetry(() => api.quickMatch(body, key));
      keepJoined(joined.matchId, joined, game.id, game.title);
      go(joined.matchId);
    } catch (err) {
      this.notice.textContent = errorText(err);
    } finally {
      button.disabled = false;
    }
  }

  createForm(game) {
    const form = h("form", {class: "create", "data-game": game.id});
    const players = playersSelect(game);
    const seatsBox = h("fieldset", {class: "seats-choice"});
    const optionsBox = h("div", {class: "options"});
    const visibility = h("input", {type: "checkbox", name: "public"});
    const clock = select("turnSeconds", [[0, "no clock"], [30, "30 s"], [60, "1 min"], [300, "5 min"]], 0);
    const onTimeout = select("onTimeout", [["default", "a default move is played"], ["bot", "a bot takes the seat"]], "default");
    const seed = h("input", {type: "text", name: "seed", maxlength: "256", autocomplete: "off"});
    const submit = h("button", {type: "submit", class: "primary"}, "Create the table and sit down");

    const drawSeats = () => {
      const n = Number(players.value);
      const mine = select("mySeat", range(0, n - 1).map((s) => [s, seatLabel(s)]), 0);
      const others = h("div", {class: "others"});
      const drawOthers = () => others.replaceChildren(...range(0, n - 1).filter((s) => s !== Number(mine.value)).map((s) =>
        field(seatLabel(s), select(`seat${s}`, [["random", "Random bot"], ["strong", "Strong bot"],
          ["open", "Open: for a friend"]], "random", {"data-seat": String(s)}))));
      mine.addEventListener("change", drawOthers);
      drawOthers();
      seatsBox.replaceChildren(h("legend", {}, "Seats"), field("Your seat", mine), others);
      optionsBox.replaceChildren(...game.options.map((o) => optionField(o, n)));
    };
    players.addEventListener("change", drawSeats);
    drawSeats();

    form.append(field("Players", players), seatsBox, optionsBox,
      h("label", {class: "check"}, visibility, " List it in the lobby (public)"),
      field("Turn clock", clock), field("When a clock runs out", onTimeout),
      h("details", {class: "advanced"}, h("summary", {}, "Advanced"),
        field("Fixed seed", seed, "Fixes every shuffle, for demos and tests; only servers run with " +
          "PARLOR_ALLOW_FIXED_SEED=1 accept one.")),
      submit);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      submit.disabled = true;
      this.notice.textContent = "";
      try {
        const n = Number(players.value);
        const mySeat = Number(form.elements.mySeat.value);
        const bots = [...form.querySelectorAll("select[data-seat]")]
          .filter((s) => s.value !== "open").map((s) => ({seat: Number(s.dataset.seat), level: s.value}));
        const body = {game: game.id, players: n, options: readOptions(game, form), bots,
          visibility: visibility.checked ? "public" : "private"};
        if (Number(clock.value)) Object.assign(body, {turnSeconds: Number(clock.value), onTimeout: onTimeout.value});
        if (seed.value) body.seed = seed.value;
        const name = this.name();
        const match = await api.create(body);
        const key = newKey();
        const joined = await withRetry(() => api.join(match.matchId, {name, seat: mySeat}, key));
        keepJoined(match.matchId, joined, game.id, game.title);
        go(match.matchId);
      } catch (err) {
        this.notice.textContent = errorText(err);
        this.notice.scrollIntoView({block: "nearest"});
      } finally {
        submit.disabled = false;
      }
    });
    return form;
  }

  async loadLobby() {
    if (document.hidden) return; // (nobody looks: the next tick will do)
    try {
      const [waiting, active] = await Promise.all([api.lobby("WAITING"), api.lobby("ACTIVE"), games()]);
      const entry = (m, verb) => h("li", {},
        h("a", {href: `#/m/${m.matchId}`}, `${verb} ${titles[m.game] || m.game}`),
        ` · ${plural(m.players, "player")}`, m.status === "WAITING" ? ` · ${plural(m.openSeats, "open seat")}` : "",
        ` · ${m.seats.filter((s) => s.joined).map((s) => s.name).join(", ") || "nobody yet"}`,
        m.turnSeconds ? ` · ${m.turnSeconds} s clock` : "");
      this.lobbyBox.replaceChildren(
        h("h3", {}, "Open tables"),
        waiting.matches.length ? h("ul", {class: "links"}, waiting.matches.map((m) => entry(m, "Join")))
          : h("p", {class: "note"}, "No public table is waiting for players. Press a game's play button to open one."),
        h("h3", {}, "Being played"),
        active.matches.length ? h("ul", {class: "links"}, active.matches.map((m) => entry(m, "Watch")))
          : h("p", {class: "note"}, "No public match is being played right now."));
    } catch (err) {
      this.lobbyBox.replaceChildren(h("p", {class: "notice"}, errorText(err)));
    }
  }
}

/** How many players: from the game's fewest to its most, three when it can. */
function playersSelect(game) {
  return select("players", range(game.minPlayers, game.maxPlayers).map((n) => [n, String(n)]),
    Math.min(Math.max(3, game.minPlayers), game.maxPlayers));
}

/** A game's rulebook, read the first time it is opened. `errorClass` styles
 * a failed read (none on a table, whose `.notice` is its own alert box). */
function rulesPanel(gameId, summary, cls, errorClass) {
  const box = h("div", {class: "rules"});
  const details = h("details", {class: cls, ontoggle: async () => {
    if (!details.open || box.dataset.loaded) return;
    box.replaceChildren(h("p", {}, "Loading…"));
    try {
      box.replaceChildren(renderMarkdown(await api.rules(gameId)));
      box.dataset.loaded = "yes";
    } catch (err) {
      box.replaceChildren(h("p", {class: errorClass}, errorText(err)));
    }
  }}, h("summary", {}, summary), box);
  return details;
}

function range(from, to) {
  return Array.from({length: Math.max(0, to - from + 1)}, (_, i) => from + i);
}

/** A form field for one of the game's options (GET /v1/games: name, type,
 * description, default, choices, minimum, maximum). */
function optionField(option, players) {
  const label = option.name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  const name = `option.${option.name}`;
  if (option.type === "bool") {
    return h("label", {class: "check"}, h("input", {type: "checkbox", name, checked: option.default === true}),
      ` ${label}`, h("small", {class: "hint"}, option.description));
  }
  if (option.type === "seat") {
    return field(label, select(name, [["", "drawn at random"], ...range(0, players - 1).map((s) => [s, seatLabel(s)])], ""),
      option.description);
  }
  if (option.choices && option.choices.length) {
    return field(label, select(name, option.choices.map((c) => [c, c]), option.default ?? option.choices[0]), option.description);
  }
  if (option.type === "int") {
    return field(label, h("input", {type: "number", name, value: String(option.default ?? ""), step: "1",
      min: option.minimum !== undefined ? String(option.minimum) : null,
      max: option.maximum !== undefined ? String(option.maximum) : null}), option.description);
  }
  return field(label, h("input", {type: "text", name, value: String(option.default ?? "")}), option.description);
}

function readOptions(game, form) {
  const options = {};
  for (const option of game.options) {
    const input = form.elements[`option.${option.name}`];
    if (!input) continue;
    if (option.type === "bool") options[option.name] = input.checked;
    else if (input.value === "") continue; // left to the game's default (or the draw)
    else if (option.type === "int" || option.type === "seat") options[option.name] = Number(input.value);
    else options[option.name] = input.value;
  }
  return options;
}

// ---- a match's table ------------------------------------------------------------

const GENERAL_EVENTS = {
  seatJoined: (e) => e.bot ? `A ${e.bot} bot sat down at ${seatLabel(e.seat)}.` : `${e.name} sat down at ${seatLabel(e.seat)}.`,
  seatLeft: (e, name) => `${name(e.seat)} left` + (e.bot ? `; a ${e.bot} bot plays on for them.` : "."),
  turnTimedOut: (e, name) => `${name(e.seat)} ran out of time` + (e.bot ? `; a ${e.bot} bot takes over.` : ": a default move is played."),
  matchStarted: () => "Every seat is taken: play starts.",
  matchFinished: () => "The game is over.",
};

class MatchPage {
  constructor(matchId) {
    this.matchId = matchId;
    this.mine = seatOf(matchId); // {seat, token, ...} when this browser holds a seat here
    this.view = null;
    this.actions = [];
    this.busy = false;
    this.lastEvent = 0;
    this.stopped = false;
    this.keyboard = false; // the last move was made from the keyboard: keep the focus on the moves

    this.head = h("div", {class: "match-head"});
    this.statusLine = h("p", {class: "status", role: "status", "aria-live": "polite"});
    this.liveBadge = h("span", {class: "live", "aria-hidden": "true"});
    this.noticeBox = h("div", {class: "notice", role: "alert"});
    this.body = h("div", {class: "match-body"});
    this.logList = h("ol", {class: "log-list", reversed: true});
    this.root = h("div", {class: "match"},
      h("button", {type: "button", class: "skip-moves", onclick: () => this.focusMoves(true)}, "Jump to your moves"),
      this.head, this.statusLine, this.noticeBox, this.body,
      h("section", {class: "panel log", "aria-labelledby": "log-title"},
        h("h2", {id: "log-title"}, "What happened ", this.liveBadge), this.logList));
  }

  start() {
    this.head.replaceChildren(h("p", {}, "Loading the table…"));
    games().then(() => this.render()).catch(() => { /* the game's id stands in for its title */ });
    this.refresh().then(() => {
      if (!this.stopped && this.view) this.openStream();
    });
    this.ticker = setInterval(() => this.tick(), 1000);
  }

  stop() {
    this.stopped = true;
    clearInterval(this.ticker);
    clearInterval(this.pollTimer);
    clearTimeout(this.retryTimer);
    if (this.stream) this.stream.stop();
  }

  // -- reading the match ---------------------------------------------------------

  /** Reads the view (and, when this seat may act, its legal actions) again.
   * Calls made while one runs are folded into one more read after it. */
  async refresh() {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      for (let round = 1; round <= 8 && !this.stopped; round++) {
        this.again = false;
        try {
          await this.read(round === 8);
        } catch (err) {
          this.failed(err); // (which may ask for another read: `again`)
        }
        if (!this.again) break;
      }
    })();
    try {
      await this.refreshing;
    } finally {
      this.refreshing = null;
    }
  }

  /** One read of the view and, if this seat may act, its moves. A state
   * caught halfway (the match moved on between the two calls) is not shown
   * but read again, unless it is the `last` try: moves are offered only for
   * the state on the screen, and the moves shown never blink away while it is
   * this seat's turn (which would lose the keyboard's place). */
  async read(last) {
    const token = this.mine && this.mine.token;
    const view = await withRetry(() => api.match(this.matchId, token));
    if (this.view && view.version < this.view.version) { // an older answer overtaken by a newer one
      this.again = true;
      return;
    }
    let actions = [];
    if (token && view.status === "ACTIVE" && view.awaiting.includes(view.viewerSeat)) {
      const legal = await withRetry(() => api.legalActions(this.matchId, token));
      if (legal.version === view.version) actions = legal.actions;
      else {
        this.again = true;
        if (!last && this.view) return;
      }
    }
    this.view = view;
    this.actions = actions;
    if (this.troubled) this.notify("");
    this.render();
    if (this.stream && this.wasDown) this.stream.retryNow(); // the server answers again: so may the stream
  }

  failed(err) {
    if (err.code === "INVALID_TOKEN") {
      // The seat is no longer this browser's (left, or taken over by a bot after
      // its clock ran out): watch from here on. (A second call, from a read
      // made with the old token, has nothing left to do.)
      if (this.mine) {
        forgetSeat(this.matchId);
        this.mine = null;
        this.notify("This seat is no longer yours (a bot plays it now). You are watching.");
        this.restartStream();
      }
      this.refresh();
      return;
    }
    if (err.code === "MATCH_NOT_FOUND") {
      forgetSeat(this.matchId);
      this.view = null;
      this.stop();
      this.head.replaceChildren(h("h1", {}, "No such table"),
        h("p", {}, "This match does not exist, or it ended long enough ago to be gone."), h("a", {href: "#/"}, "Back to the games"));
      this.body.replaceChildren();
      return;
    }
    this.notify(`${errorText(err)} Trying again…`);
    this.troubled = true; // (cleared by the next read that works)
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.refresh(), 3000);
  }

  openStream() {
    this.stream = new LiveEvents({
      matchId: this.matchId,
      token: this.mine && this.mine.token,
      after: this.lastEvent,
      onEvent: (event) => this.onEvent(event),
      onState: (state, err) => this.onStreamState(state, err),
    }).start();
  }

  restartStream() {
    if (this.stream) this.stream.stop();
    if (!this.stopped) this.openStream();
  }

  onEvent(event) {
    this.lastEvent = event.number;
    this.logEvent(event);
    // The view already shows this event's change if it is at its version (our
    // own move's events, or the events of the backlog read on arrival).
    if (!this.view || event.version > this.view.version) this.refresh();
  }

  onStreamState(state, err) {
    this.liveBadge.textContent = {live: "live", reconnecting: "reconnecting…", ended: "", failed: "offline"}[state] ?? "";
    this.liveBadge.dataset.state = state;
    // While the stream is down (no slot free, the server restarting, the network
    // gone), the table is read every few seconds instead, so play goes on.
    clearInterval(this.pollTimer);
    if (state === "reconnecting") this.pollTimer = setInterval(() => this.refresh(), 3000);
    if (state === "live" && this.wasDown) this.refresh(); // missed events come again, but the view may lag
    this.wasDown = state === "reconnecting";
    if (state === "failed") this.failed(err);
  }

  notify(text) {
    if (text) this.noticeBox.replaceChildren(h("p", {}, text));
    else this.noticeBox.replaceChildren();
    this.troubled = false;
  }

  // -- acting ----------------------------------------------------------------------

  async act(action, event) {
    if (this.busy || !this.mine) return;
    this.keyboard = event && event.detail === 0; // (a click from Enter or Space counts no mouse clicks)
    this.busy = true;
    this.notify("");
    // No second move until this one is answered and the moves are read again.
    for (const button of this.root.querySelectorAll("[data-action]")) button.disabled = true;
    const key = newKey(); // the same for each retry: a move is made at most once
    let fresh = false; // the moves after this one were read too
    try {
      const reply = await withRetry(() => api.act(this.matchId, this.mine.token, action, key));
      this.actions = [];
      if (!this.view || reply.match.version >= this.view.version) {
        this.view = reply.match;
        // The reply is the view after the move: only the next moves are missing
        // (when this seat still has one, as in a Hi-Fu!! discard).
        fresh = !reply.match.awaiting.includes(reply.match.viewerSeat);
        if (!fresh) {
          const legal = await withRetry(() => api.legalActions(this.matchId, this.mine.token));
          fresh = legal.version === this.view.version;
          if (fresh) this.actions = legal.actions;
        }
      }
    } catch (err) {
      if (err.code === "INVALID_TOKEN") {
        this.busy = false;
        this.failed(err);
        return;
      }
      this.notify(errorText(err));
      this.actions = []; // read again below: no move is offered twice on the old list
    } finally {
      this.busy = false;
    }
    this.render();
    if (!fresh) await this.refresh();
  }

  async join(body, button) {
    button.disabled = true;
    try {
      const key = newKey();
      const joined = await withRetry(() => api.join(this.matchId, body, key));
      if (joined.token) {
        this.mine = keepJoined(this.matchId, joined, this.view.game, this.title);
        if (body.name) keepName(body.name);
        this.restartStream(); // the seat's own stream: its secrets too
      }
      this.notify("");
    } catch (err) {
      this.notify(errorText(err));
    } finally {
      button.disabled = false;
    }
    await this.refresh();
  }

  async leave(button) {
    if (!window.confirm("Leave this table? A bot takes your seat if play has started.")) return;
    button.disabled = true;
    // Nothing may use the token once it is given up: no stream, no read, no move.
    this.busy = true;
    if (this.stream) this.stream.stop();
    await this.refreshing;
    try {
      await api.leave(this.matchId, this.mine.seat, this.mine.token);
    } catch (err) {
      if (err.code !== "INVALID_TOKEN") { // (already gone: as good as left)
        this.notify(errorText(err));
        this.busy = false;
        button.disabled = false;
        this.restartStream();
        return;
      }
    }
    forgetSeat(this.matchId);
    this.mine = null;
    this.busy = false;
    this.restartStream();
    await this.refresh();
  }

  // -- showing it --------------------------------------------------------------------

  name(seat) {
    const seats = this.view.seats;
    const own = seats[seat] && seats[seat].name;
    if (!own) return seatLabel(seat);
    if (this.view.viewerSeat === seat) return `${own} (you)`;
    // Two "Random bot"s: tell them apart by their seats.
    return seats.filter((s) => s.name === own).length > 1 ? `${own} (${seatLabel(seat)})` : own;
  }

  get title() {
    const game = this.view ? this.view.game : (this.mine && this.mine.game);
    return titles[game] || (this.mine && this.mine.title) || game || "";
  }

  render() {
    if (!this.view) return;
    const view = this.view;
    const focus = this.rememberFocus();
    const viewer = view.viewerSeat ?? null;
    const module = MODULES[view.game];
    this.root.dataset.status = view.status;
    this.root.dataset.game = view.game;

    // The invite link, the rules and the name typed to join are built once and
    // moved into each new rendering, so a re-render (any event) loses neither
    // what is typed or selected there nor an opened rulebook.
    this.share ??= this.shareBox();
    this.rules ??= rulesPanel(view.game, "Rules", "panel rules-box", null);
    this.head.replaceChildren(
      h("h1", {}, this.title),
      h("p", {class: "small"}, viewer === null ? "You are watching." : `You play ${seatLabel(viewer)}.`,
        view.visibility === "public" ? " Listed in the lobby." : ""),
      this.share);
    const waitingFor = view.awaiting.filter((s) => s !== viewer).map((s) => this.name(s));
    const status = view.status === "WAITING" ? `Waiting for ${plural(view.seats.filter((s) => !s.joined).length, "more player")}.`
      : view.status === "FINISHED" ? "Game over."
        : this.actions.length ? "Your turn." + (waitingFor.length ? ` (Also waiting for ${waitingFor.join(", ")}.)` : "")
          : waitingFor.length ? `Waiting for ${waitingFor.join(", ")}.` : "…";
    if (this.statusLine.textContent !== status) this.statusLine.textContent = status;
    document.title = `${view.status === "ACTIVE" && this.actions.length ? "Your turn · " : ""}${this.title} · Parlor`;

    const parts = [this.seatsPanel(view, viewer)];
    if (view.status === "WAITING") parts.push(this.joinPanel(view));
    if (view.status === "FINISHED") parts.push(this.resultPanel(view));
    if (view.status !== "WAITING" && module) {
      const used = new Set();
      const ctx = this.context(view, viewer, used);
      parts.push(h("div", {class: "table-area", id: "table", tabindex: "-1"}, module.render(ctx)));
      const rest = this.actions.filter((a) => !used.has(JSON.stringify(a)));
      if (rest.length) { // moves the table does not show (a shape it does not know): offered all the same
        parts.push(h("section", {class: "panel"}, h("h2", {}, "Other moves"),
          h("div", {class: "moves"}, rest.map((a) => ctx.actionButton(a, JSON.stringify(ctx.part(a)), {class: "move"})))));
      }
    }
    parts.push(this.rules);
    if (this.mine && view.status !== "FINISHED") {
      parts.push(h("p", {}, h("button", {type: "button", class: "secondary", onclick: (e) => this.leave(e.currentTarget)},
        "Leave this table")));
    }
    this.body.replaceChildren(...parts);
    this.restoreFocus(focus);
    this.tick();
  }

  context(view, viewer, used) {
    const gameField = fieldOf(view.game);
    const part = (action) => action[gameField];
    return {
      view, viewer, game: view[gameField], actions: this.actions, part,
      name: (seat) => this.name(seat),
      /** The legal actions whose game part passes `test`. */
      find: (test) => this.actions.filter((a) => part(a) && test(part(a))),
      /** A button that posts `action` (one of the legal actions) unchanged. */
      actionButton: (action, content, {class: cls = "move", label = null} = {}) => {
        const key = JSON.stringify(action);
        used.add(key);
        return h("button", {type: "button", class: cls, "aria-label": label, "data-action": key,
          disabled: this.busy, onclick: (event) => this.act(action, event)}, content);
      },
    };
  }

  shareBox() {
    const link = `${location.origin}${location.pathname}#/m/${this.matchId}`;
    const input = h("input", {type: "text", readonly: true, value: link, class: "link", onfocus: () => input.select()});
    const done = h("span", {class: "small", role: "status"});
    const copy = async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(link);
        done.textContent = " Copied.";
      } catch {
        done.textContent = " Select the link and copy it.";
      }
    };
    return h("div", {class: "share"}, field("Invite link (others join or watch here)", input),
      h("button", {type: "button", class: "secondary", onclick: copy}, "Copy link"), done);
  }

  seatsPanel(view, viewer) {
    const deadlines = Object.fromEntries((view.deadlines || []).map((d) => [d.seat, Date.parse(d.at)]));
    return h("section", {class: "panel seats", "aria-labelledby": "seats-list-title"},
      h("h2", {id: "seats-list-title", class: "visually-hidden"}, "Seats"),
      h("ul", {class: "seat-list"}, view.seats.map((s) => h("li", {
        class: [view.awaiting.includes(s.seat) ? "to-act" : "", s.seat === viewer ? "me" : ""].join(" "),
        "data-seat": String(s.seat)},
      h("strong", {}, s.joined ? this.name(s.seat) : `${seatLabel(s.seat)}: open`),
      s.bot ? h("span", {class: "tag"}, `${s.bot} bot`) : null,
      view.awaiting.includes(s.seat) ? h("span", {class: "tag act"}, "to act") : null,
      deadlines[s.seat] ? h("span", {class: "deadline", "data-at": String(deadlines[s.seat])}) : null))),
      view.turnSeconds ? h("p", {class: "small"}, `Turn clock: ${view.turnSeconds} s; then ` +
        (view.onTimeout === "bot" ? "a bot takes the seat." : "a default move is played.")) : null);
  }

  joinPanel(view) {
    const open = view.seats.filter((s) => !s.joined);
    const parts = [h("h2", {id: "join-title"}, "Seats open")];
    if (!this.mine) {
      const name = this.joinName ??= h("input", {type: "text", name: "name", maxlength: "64", value: myName(),
        autocomplete: "nickname"});
      const seat = select("seat", [["", "the first open seat"], ...open.map((s) => [s.seat, seatLabel(s.seat)])], "");
      const take = h("button", {type: "submit", class: "primary"}, "Take a seat");
      parts.push(h("form", {class: "join", onsubmit: (event) => {
        event.preventDefault();
        const body = {name: name.value.trim()};
        if (!body.name) {
          this.notify("Type your name first.");
          name.focus();
          return;
        }
        if (seat.value !== "") body.seat = Number(seat.value);
        this.join(body, take);
      }}, field("Your name", name), field("Seat", seat), take));
    }
    parts.push(h("p", {class: "small"}, this.mine ? "Share the invite link above, or let a bot take a seat:"
      : "Or let a bot take an open seat:"),
      h("div", {class: "moves"}, open.flatMap((s) => ["random", "strong"].map((level) =>
        h("button", {type: "button", class: "secondary", onclick: (e) => this.join({bot: level, seat: s.seat}, e.currentTarget)},
          `${level === "random" ? "Random" : "Strong"} bot at ${seatLabel(s.seat)}`)))));
    return h("section", {class: "panel", "aria-labelledby": "join-title"}, parts);
  }

  resultPanel(view) {
    const {scores = [], winners = []} = view.result || {};
    const others = winners.filter((s) => s !== view.viewerSeat).map((s) => this.name(s));
    const headline = winners.length === 0 ? "Nobody wins."
      : winners.includes(view.viewerSeat) ? (others.length ? `You share the win with ${others.join(" and ")}!` : "You win!")
        : `${others.join(" and ")} ${others.length > 1 ? "win" : "wins"}.`;
    return h("section", {class: "panel result", "aria-labelledby": "result-title", "data-result": ""},
      h("h2", {id: "result-title"}, `Game over. ${headline}`),
      table(null, ["Player", "Score", ""], view.seats.map((s) => h("tr", {"data-seat": String(s.seat),
        class: winners.includes(s.seat) ? "winner" : ""},
      h("th", {scope: "row"}, this.name(s.seat)),
      h("td", {class: "score"}, String(scores[s.seat] ?? 0)),
      h("td", {class: "won"}, winners.includes(s.seat) ? "winner" : "")))),
      h("p", {}, h("a", {href: "#/"}, "Play again")));
  }

  logEvent(event) {
    const kind = Object.keys(GENERAL_EVENTS).find((k) => event[k]);
    let text = null;
    const name = (seat) => (this.view ? this.name(seat) : seatLabel(seat));
    if (kind) text = GENERAL_EVENTS[kind](event[kind], name);
    else if (this.view) {
      const module = MODULES[this.view.game];
      const own = event[fieldOf(this.view.game)];
      if (module && own) text = module.describe(own, {name});
    }
    if (!text) return;
    this.logList.prepend(h("li", {value: String(event.number)}, text));
    while (this.logList.children.length > 60) this.logList.lastChild.remove();
  }

  tick() {
    for (const el of this.root.querySelectorAll(".deadline[data-at]")) {
      const left = Math.max(0, Math.round((Number(el.dataset.at) - Date.now()) / 1000));
      el.textContent = `${left} s left`;
    }
  }

  // -- keyboard focus across re-renders ---------------------------------------------------

  rememberFocus() {
    const active = document.activeElement;
    if (!active || !this.root.contains(active)) return null;
    const text = active.tagName === "INPUT" && active.type === "text";
    return {element: active, key: active.dataset.action, // (a move's: undefined for anything else)
      selection: text ? [active.selectionStart, active.selectionEnd] : null};
  }

  restoreFocus(focus) {
    if (focus && focus.element.isConnected && document.activeElement !== focus.element) {
      // A kept element (the name being typed, the invite link) moved into the new rendering.
      focus.element.focus({preventScroll: true});
      if (focus.selection) focus.element.setSelectionRange(...focus.selection);
      return;
    }
    if (focus && focus.key) {
      const same = [...this.body.querySelectorAll("[data-action]")].find((el) => el.dataset.action === focus.key);
      if (same && !same.disabled) {
        same.focus();
        return;
      }
    }
    // The focused move went away (played, or the moves changed): keep the
    // keyboard on the moves rather than back at the top of the page.
    if ((focus && focus.key) || (this.keyboard && document.activeElement === document.body)) this.focusMoves(false);
  }

  focusMoves(fromLink) {
    const move = this.body.querySelector("[data-action]:not([disabled])");
    // (Scrolled to only for the keyboard: a mouse is where the moves are already.)
    if (move) move.focus({preventScroll: !fromLink && !this.keyboard});
    else if (fromLink || this.keyboard) {
      const area = this.body.querySelector("#table");
      if (area) area.focus({preventScroll: !fromLink});
    }
  }
}

// ---- start ---------------------------------------------------------------------------

window.addEventListener("hashchange", route);
document.querySelector(".skip").addEventListener("click", (event) => {
  event.preventDefault(); // (the fragment is the route: leave it alone)
  main.focus();
});
route();
