// The public REST API, and nothing else: the same calls any client makes
// (README, "API"). Seat tokens travel in the Authorization header.

export class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

async function call(method, path, {body, token, key, accept} = {}) {
  const headers = {Accept: accept || "application/json"};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (key) headers["Idempotency-Key"] = key;
  let response;
  try {
    response = await fetch(path, {method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (err) {
    throw new ApiError(0, "NETWORK", "The server cannot be reached; check the connection.");
  }
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204) return null;
  const type = response.headers.get("Content-Type") || "";
  return type.includes("json") ? response.json() : response.text();
}

async function errorOf(response) {
  try {
    const {error} = await response.json();
    return new ApiError(response.status, error.code, error.message, error.details || {});
  } catch {
    return new ApiError(response.status, "HTTP_ERROR", `The server answered ${response.status}.`);
  }
}

/** A key as hard to guess as a token (joins hand back the token to a retry
 * with the same key). crypto.randomUUID needs a secure context; this does not. */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const enc = encodeURIComponent;

export const api = {
  games: () => call("GET", "/v1/games"),
  rules: (game) => call("GET", `/v1/games/${enc(game)}/rules`, {accept: "text/markdown"}),
  lobby: (status, limit = 12) => call("GET", `/v1/matches?status=${enc(status)}&limit=${limit}`),
  create: (body) => call("POST", "/v1/matches", {body}),
  // Joins and quick matches carry a key, so that a retry after a lost answer
  // gets the same seat and token rather than a second seat.
  join: (matchId, body, key = newKey()) => call("POST", `/v1/matches/${enc(matchId)}/seats`, {body, key}),
  quickMatch: (body, key = newKey()) => call("POST", "/v1/quick-match", {body: {...body, idempotencyKey: key}}),
  leave: (matchId, seat, token) => call("DELETE", `/v1/matches/${enc(matchId)}/seats/${seat}`, {token}),
  match: (matchId, token) => call("GET", `/v1/matches/${enc(matchId)}`, {token}),
  legalActions: (matchId, token) => call("GET", `/v1/matches/${enc(matchId)}/legal-actions`, {token}),
  act: (matchId, token, action, key) =>
    call("POST", `/v1/matches/${enc(matchId)}/actions`, {body: {action}, token, key}),
};

/** Retries `fn` when its answer is lost on the way (a network error, 503, 504)
 * or the match was busy (409 CONFLICT): safe for reads, and for writes that
 * carry an idempotency key. Other errors are answers, and are thrown. */
export async function withRetry(fn, attempts = 3) {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      const lost = err.code === "NETWORK" || err.status === 503 || err.status === 504 || err.code === "CONFLICT";
      if (!lost || i >= attempts) throw err;
      await sleep(300 * i);
    }
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Live events of a match: Server-Sent Events read with fetch, so that a seat's
 * stream can carry its Authorization header (EventSource cannot send one) and
 * the seat sees its own secrets as they happen.
 *
 * onEvent(event) gets each event once, in order; onState(state) hears
 * "live", "reconnecting", "ended" (the match is over and everything was sent)
 * or "failed" (with the ApiError: a token no longer valid, no such match).
 * The stream resumes after the last event it delivered whenever the server
 * ends it (its time limit, a restart) or the connection drops.
 */
export class LiveEvents {
  constructor({matchId, token, after = 0, onEvent, onState}) {
    Object.assign(this, {matchId, token, last: after, onEvent, onState});
    this.controller = new AbortController();
    this.stopped = false;
  }

  start() {
    this.run();
    return this;
  }

  stop() {
    this.stopped = true;
    this.controller.abort();
    this.retryNow();
  }

  /** Ends the wait before the next attempt (the server answers again). */
  retryNow() {
    if (this.wake) this.wake();
  }

  async run() {
    let retry = 1000; // the server's `retry:` after a stream it ended
    let backoff = 1000; // after a failure, doubling up to 5 s
    while (!this.stopped) {
      let failed = false;
      try {
        const headers = {Accept: "text/event-stream"};
        if (this.token) headers.Authorization = `Bearer ${this.token}`;
        const response = await fetch(`/v1/matches/${enc(this.matchId)}/events?after=${this.last}`,
          {headers, cache: "no-store", signal: this.controller.signal});
        if (response.status === 204) { // over, and nothing left to send
          this.onState("ended");
          return;
        }
        if (!response.ok) {
          const err = await errorOf(response);
          // 429 (no stream slot free here now) and 5xx pass; the rest are final.
          if (err.status !== 429 && err.status < 500) {
            this.onState("failed", err);
            return;
          }
          throw err;
        }
        this.onState("live");
        backoff = 1000;
        retry = await this.read(response.body) ?? retry;
      } catch (err) {
        if (this.stopped) return;
        failed = true;
        this.onState("reconnecting", err);
      }
      if (this.stopped) return;
      const wait = (failed ? backoff : retry) + Math.random() * 250; // jitter: clients dropped together come back apart
      if (failed) backoff = Math.min(backoff * 2, 5000);
      await new Promise((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, wait);
      });
      this.wake = null;
    }
  }

  /** Reads one response's messages; returns the last `retry:` it named. */
  async read(body) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let data = [];
    let retry = null;
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return retry;
      buffer += value;
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop(); // an incomplete last line waits for the next chunk
      for (const line of lines) {
        if (line === "") { // the end of a message
          if (data.length) this.deliver(data.join("\n"));
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue; // a keep-alive comment
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        // (`id:` is not needed: an event's own number is where a stream resumes.)
        if (name === "data") data.push(value);
        else if (name === "retry" && /^\d+$/.test(value)) retry = Number(value);
      }
    }
  }

  deliver(text) {
    const event = JSON.parse(text);
    if (event.number <= this.last) return; // (seen before a reconnect)
    this.last = event.number;
    this.onEvent(event);
  }
}
