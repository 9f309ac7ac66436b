"""The web client, in headless Chromium against the real stack: every game
played to its end by clicking, against random bots; two browsers at one table
with a spectator; a reload mid-match; a phone-sized screen; the keyboard.

The page decides nothing itself, so the tests do not either: they click one of
the enabled move buttons (each a legal action from the API) at random, with a
fixed seed, and wait on the page's state, never on the clock."""

from __future__ import annotations

import random
import re
import time
from contextlib import contextmanager

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.integration]

MOVES = "button[data-action]:not([disabled])"
FINISHED = ".match[data-status=FINISHED]"


class Pages:
    """open_page(width=1000) -> a new page in a context of its own (its own
    storage: another person's browser), on the start page. The test fails if
    any page logs an error (a script error, a Content-Security-Policy
    violation, a failed request), but for failed requests while `outage()`
    lasts."""

    def __init__(self, browser, base_url: str) -> None:
        self.browser, self.base_url = browser, base_url
        self.contexts, self.problems = [], []
        self.in_outage = False

    def __call__(self, width: int = 1000, height: int = 900, base_url: str | None = None):
        context = self.browser.new_context(viewport={"width": width, "height": height},
                                           base_url=base_url or self.base_url)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.on("pageerror", lambda err: self.problems.append(f"script error: {err}"))
        page.on("console", self._console)
        page.goto("/")
        page.locator("article.game").first.wait_for()
        return page

    def _console(self, message) -> None:
        if message.type != "error":
            return
        if self.in_outage and message.text.startswith("Failed to load resource"):
            return  # (the server is away: requests fail, and are tried again)
        self.problems.append(f"console error: {message.text}")

    @contextmanager
    def outage(self):
        self.in_outage = True
        try:
            yield
        finally:
            self.in_outage = False

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def own_gateway(stack):
    """A gateway of its own in front of the session's service (so its bots
    and Redis), to stop and start again: the session's gateway stays up."""
    from ..support import Stack

    gateway = Stack.on_redis_of(stack, env={"PARLOR_SERVICE_TARGET": f"127.0.0.1:{stack.grpc_port}"})
    gateway.start_gateway()
    yield gateway
    gateway.stop()
    log = gateway.log("gateway")
    assert "Traceback" not in log and "unhandled error" not in log, log[-3000:]


@pytest.fixture
def open_page(stack, browser):
    pages = Pages(browser, f"http://127.0.0.1:{stack.http_port}")
    yield pages
    pages.close()
    assert not pages.problems, pages.problems


def match_id_of(page) -> str:
    found = re.search(r"#/m/([a-z2-7]{24})$", page.url)
    assert found, page.url
    return found.group(1)


def create_table(page, game: str, players: int, seats: dict[int, str] | None = None, options: dict | None = None,
                 seed: str | None = None, name: str = "Ann", public: bool = False) -> str:
    """Creates a match through the start page's form: seat 1 (the API's 0) is
    the creator's, every other seat a random bot unless `seats` says otherwise
    ("open", "random", "strong"). Returns the match id, once its table shows."""
    page.fill("input[name=name]", name)
    card = page.locator(f"#game-{game}")
    card.locator("details.create-box > summary").click()
    form = card.locator("form.create")
    form.locator("select[name=players]").select_option(str(players))
    for seat, choice in (seats or {}).items():
        form.locator(f"select[data-seat='{seat}']").select_option(choice)
    for option, value in (options or {}).items():
        control = form.locator(f"[name='option.{option}']")
        if isinstance(value, bool):
            control.set_checked(value)
        else:
            control.fill(str(value))
    form.locator("input[name=public]").set_checked(public)
    if seed is not None:
        form.locator("details.advanced > summary").click()
        form.locator("input[name=seed]").fill(seed)
    form.locator("button[type=submit]").click()
    page.locator(".match[data-status]").wait_for()
    return match_id_of(page)


def wait_for_move_or_end(page, timeout: float = 30_000) -> bool:
    """True once the match is over, False once a move can be made."""
    page.locator(f"{FINISHED}, {MOVES}").first.wait_for(timeout=timeout)
    return page.locator(FINISHED).count() > 0


def click_a_move(page, chooser: random.Random) -> bool:
    """Clicks one of the enabled moves; False if they went away meanwhile
    (the page re-read the match: the loop looks again)."""
    moves = page.locator(MOVES)
    count = moves.count()
    if not count:
        return False
    try:
        moves.nth(chooser.randrange(count)).click(timeout=2_000)
    except Exception as err:  # (Playwright's TimeoutError: the button was replaced before the click)
        if "Timeout" not in type(err).__name__:
            raise
        return False
    return True


def play_to_the_end(page, chooser: random.Random, each_move=None, limit: int = 600) -> int:
    """Clicks moves until the match is over; returns how many were made.
    `each_move(page, moves_so_far)` runs once before each move."""
    made, before = 0, -1
    while not wait_for_move_or_end(page):
        assert made < limit, "the match did not end"
        if each_move is not None and before != made:
            before = made
            each_move(page, made)
        if click_a_move(page, chooser):
            made += 1
    return made


def shown_result(page) -> dict:
    """The result as the page shows it: scores in seat order, and the winners."""
    page.locator("[data-result]").wait_for()
    rows = page.locator("[data-result] tr[data-seat]")
    scores, winners = [], []
    for i in range(rows.count()):
        row = rows.nth(i)
        seat = int(row.get_attribute("data-seat"))
        assert seat == i
        scores.append(int(row.locator("td.score").inner_text()))
        if row.locator("td.won").inner_text().strip() == "winner":
            winners.append(seat)
    return {"scores": scores, "winners": winners}


def api_result(rest, match_id: str) -> dict:
    view = rest.get(f"/v1/matches/{match_id}")
    assert view.status == 200, view.body
    assert view.body["status"] == "FINISHED"
    result = view.body["result"]
    return {"scores": result.get("scores", []), "winners": sorted(result.get("winners", []))}


def no_sideways_scrolling(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.evaluate("window.innerWidth")
    assert width <= viewport, f"the page is {width} px wide on a {viewport} px screen"


def no_error_shown(page) -> None:
    notice = page.locator(".match .notice").inner_text().strip()
    assert not notice, notice


# Each game against random bots in every other seat, with a fixed seed; the
# options keep the longer games short (Heck: a few rounds).
GAMES = [
    ("what_the_heck", 3, {}),
    ("hi_fu", 4, {}),
    ("heul_doch", 3, {"special_cards": True}),
    ("whatever", 2, {}),
    ("heck", 3, {"max_rounds": 4}),
]


@pytest.mark.parametrize("game,players,options", GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_match_against_bots_by_clicking(request, open_page, rest, artifacts, game, players, options):
    """Created through the form, played to the end by clicking the page's moves;
    the page shows the result the API gives. Hi-Fu!! (the widest table) plays
    on a 360 px screen; Heul doch! is reloaded halfway and goes on; during
    Whatever the page's gateway restarts, and the page reconnects and plays on."""
    phone = game == "hi_fu"
    gateway = request.getfixturevalue("own_gateway") if game == "whatever" else None
    page = open_page(width=360 if phone else 1000, height=740 if phone else 900,
                     base_url=gateway and f"http://127.0.0.1:{gateway.http_port}")
    if phone:
        no_sideways_scrolling(page)
    match_id = create_table(page, game, players, options=options, seed=f"browser-{game}")
    assert page.locator(".match-head").inner_text().count("You play Seat 1") == 1

    done = set()

    def each_move(page, made: int) -> None:
        if made == 0 and game == "heck":  # an open rulebook stays open while the table changes
            page.locator(".match details.rules-box > summary").click()
            page.locator(".match .rules .markdown").wait_for()
        if made == 2:  # (every game lasts longer: Heck may end after four bets)
            page.screenshot(path=artifacts / f"{game}-table.png", full_page=True)
            if phone:
                no_sideways_scrolling(page)
        if made == 8 and game == "heul_doch":
            # A reload finds the seat again (its token kept for this match) and goes on.
            assert page.evaluate(f"localStorage.getItem('parlor.seat.{match_id}') !== null")
            page.reload()
            page.locator(".match[data-status=ACTIVE]").wait_for()
            assert "You play Seat 1" in page.locator(".match-head").inner_text()
            done.add("reload")
        if made == 6 and game == "whatever":
            # A drop: the gateway goes away (its streams end, calls fail) and comes back.
            page.locator(".live[data-state=live]").wait_for()
            with open_page.outage():
                gateway.stop_process("gateway")
                page.locator(".live[data-state=reconnecting]").wait_for()
                gateway.start_gateway()
                page.locator(".live[data-state=live]").wait_for()
                page.locator(MOVES).first.wait_for()
            done.add("drop")

    started = time.monotonic()
    made = play_to_the_end(page, random.Random(game), each_move)
    page.screenshot(path=artifacts / f"{game}-end.png", full_page=True)
    assert made >= 3, made
    assert done == {"heul_doch": {"reload"}, "whatever": {"drop"}}.get(game, set()), "the match ended too soon"
    assert shown_result(page) == api_result(rest, match_id)
    assert page.locator(MOVES).count() == 0
    no_error_shown(page)
    if game == "heck":
        assert page.locator(".match details.rules-box[open] .markdown").count() == 1
    if phone:
        no_sideways_scrolling(page)
    print(f"{game}: {made} moves in {time.monotonic() - started:.1f} s")


def test_two_browsers_and_a_spectator_at_one_table(open_page, rest, artifacts):
    """Ann creates a two-seat public table with the second seat open and
    shares its link; a spectator finds it in the lobby and watches without
    joining; Bea opens the link, takes the seat, and both play to the end. Each seat's stream shows its own
    bids live, the spectator's nobody's until the reveal."""
    ann = open_page()
    match_id = create_table(ann, "what_the_heck", 2, seats={1: "open"}, name="Ann", public=True)
    ann.locator(".match[data-status=WAITING]").wait_for()
    link = ann.locator("input.link").input_value()
    assert link.endswith(f"/#/m/{match_id}")

    watcher = open_page()  # finds the table in the start page's lobby, and watches
    watcher.locator(f".lobby a[href='#/m/{match_id}']").click()
    watcher.locator(".match[data-status=WAITING]").wait_for()
    assert "You are watching" in watcher.locator(".match-head").inner_text()

    bea = open_page()
    bea.goto(link)
    bea.locator("form.join").wait_for()
    bea.fill("form.join input[name=name]", "Bea")
    bea.click("form.join button[type=submit]")
    for page in (ann, bea, watcher):
        page.locator(".match[data-status=ACTIVE]").wait_for()
    # Bea's page may show the table active (from the spectator's stream it follows
    # until the join's answer comes) a moment before it shows her seat.
    bea.locator(".match-head", has_text="You play Seat 2").wait_for()
    assert watcher.locator(MOVES).count() == 0

    # Both bid in every round, in either order: whoever has a move makes it.
    chooser, deadline = random.Random(2), time.monotonic() + 60
    while not all(page.locator(FINISHED).count() for page in (ann, bea)):
        assert time.monotonic() < deadline, "the match did not end"
        for page in (ann, bea):
            try:
                if not wait_for_move_or_end(page, timeout=250):
                    click_a_move(page, chooser)
            except Exception as err:  # (no move on this page yet: look at the other)
                if "Timeout" not in type(err).__name__:
                    raise
    watcher.locator(FINISHED).wait_for()

    expected = api_result(rest, match_id)
    for page in (ann, bea, watcher):
        assert shown_result(page) == expected
        no_error_shown(page)
    # Live events: each seat saw its own bids as it made them; the watcher no bid before its reveal.
    assert re.search(r"Bea \(you\) bid \d+\.", bea.locator(".log-list").inner_text())
    assert re.search(r"Ann \(you\) bid \d+\.", ann.locator(".log-list").inner_text())
    assert not re.search(r"bid \d+\.", watcher.locator(".log-list").inner_text())
    assert watcher.locator(MOVES).count() == 0
    watcher.screenshot(path=artifacts / "spectator-end.png", full_page=True)


def test_play_now_seats_two_people_together_and_a_bot_takes_a_seat_left(open_page, rest):
    """"Play now" (quick match) seats Ann at a new public table and Bea at
    the same one. Ann leaves: a bot plays on for her, her page watches, and Bea
    plays to the end against it."""
    pages = []
    for name in ("Ann", "Bea"):
        page = open_page()
        page.fill("input[name=name]", name)
        card = page.locator("#game-what_the_heck")
        card.locator("select[name=players]").first.select_option("2")
        card.locator("select[name=fill]").select_option("0")  # no bots: wait for people
        card.locator("button[data-quick]").click()
        page.locator(".match[data-status]").wait_for()
        pages.append(page)
    ann, bea = pages
    assert match_id_of(ann) == match_id_of(bea)
    match_id = match_id_of(ann)
    for page in pages:
        page.locator(".match[data-status=ACTIVE]").wait_for()
    assert "You play Seat 1" in ann.locator(".match-head").inner_text()
    assert "You play Seat 2" in bea.locator(".match-head").inner_text()

    ann.once("dialog", lambda dialog: dialog.accept())
    ann.get_by_role("button", name="Leave this table").click()
    ann.locator(".match-head", has_text="You are watching").wait_for()
    bea.locator(".seat-list li[data-seat='0'] .tag", has_text="random bot").wait_for()
    assert not ann.evaluate(f"localStorage.getItem('parlor.seat.{match_id}')")

    assert play_to_the_end(bea, random.Random(5)) == 12
    ann.locator(FINISHED).wait_for()
    assert shown_result(bea) == shown_result(ann) == api_result(rest, match_id)


def test_the_rules_render_from_markdown_and_never_as_html(open_page):
    """Every game's rulebook page shows with its headings, lists and tables;
    markup inside Markdown stays text, and only http(s) links are made."""
    page = open_page()
    for game in ("what_the_heck", "hi_fu", "heul_doch", "whatever", "heck"):
        card = page.locator(f"#game-{game}")
        card.locator("details.rules-box > summary").click()
        rules = card.locator(".rules .markdown")
        rules.wait_for()
        assert rules.locator("h3, h4").count() >= 3, game
        assert rules.locator("li").count() >= 3, game
        card.locator("details.rules-box > summary").click()  # (closed again)
    assert page.locator("#game-hi_fu .markdown table").count() >= 1
    rendered = page.evaluate("""import('/web/markdown.js').then(({renderMarkdown}) => {
        const md = '# T <img src=x onerror=alert(1)>\\n\\n<script>alert(2)</script> **b** `c`\\n\\n' +
                   '[bad](javascript:alert(3)) [good](https://example.com/x) [home](/v1/games)\\n\\n' +
                   '| a | b |\\n|---|---|\\n| <b>x</b> | y |\\n\\n- one\\n  - two';
        const el = renderMarkdown(md);
        return {html: el.innerHTML, text: el.textContent,
                links: [...el.querySelectorAll('a')].map((a) => a.getAttribute('href')),
                tags: [...el.querySelectorAll('*')].map((e) => e.tagName.toLowerCase())};
    })""")
    assert not {"img", "script", "b"} & set(rendered["tags"]), rendered
    assert {"strong", "code", "table", "ul"} <= set(rendered["tags"]), rendered
    assert "<script>alert(2)</script>" in rendered["text"]
    assert rendered["links"] == ["https://example.com/x", f"{page.url.split('#')[0].rstrip('/')}/v1/games"], rendered


def focused(page) -> str:
    """What has the keyboard focus: 'move' (an enabled move button), or the
    element's tag and classes."""
    return page.evaluate("""(() => {
        const el = document.activeElement;
        if (el && el.matches('button[data-action]:not([disabled])')) return 'move';
        return el ? `${el.tagName.toLowerCase()}.${el.className}` : 'none';
    })()""")


def tab_to(page, selector: str, limit: int = 120) -> None:
    """Presses Tab until `selector` has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement && document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_the_keyboard_alone_creates_a_table_and_plays_it_to_the_end(open_page, rest):
    """From the start page to the result with the keyboard only: the name, the
    create form, the moves. After each move the focus stays on the moves."""
    page = open_page()
    tab_to(page, "input[name=name]")
    page.keyboard.type("Kay")
    tab_to(page, "#game-what_the_heck details.create-box > summary")
    page.keyboard.press("Enter")
    tab_to(page, "#game-what_the_heck select[name=players]")
    page.keyboard.press("ArrowUp")  # 3 -> 2 players
    tab_to(page, "#game-what_the_heck form.create button[type=submit]")
    page.keyboard.press("Enter")
    page.locator(".match[data-status=ACTIVE]").wait_for()
    match_id = match_id_of(page)
    assert page.locator(".seat-list li").count() == 2

    tab_to(page, "button.skip-moves")  # "Jump to your moves"
    page.keyboard.press("Enter")
    moves = 0
    while True:
        page.locator(f"{FINISHED}, {MOVES}:focus").first.wait_for()
        if page.locator(FINISHED).count():
            break
        assert focused(page) == "move"
        if moves % 3 == 1:  # now and then the next card rather than the first
            page.keyboard.press("Tab")
            if focused(page) != "move":
                page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")
        moves += 1
        assert moves <= 20
    assert moves == 12  # two players: twelve rounds, one bid each
    assert shown_result(page) == api_result(rest, match_id)
