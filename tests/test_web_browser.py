# ruff: noqa: E402
"""The web table in a real browser: Playwright for Python driving the system's Chromium.

Skipped when no Chromium is installed (set HEXENGINE_CHROMIUM to its path, or
install Debian's ``chromium``). Tests click cells by their ``data-cell``
coordinate, never by pixel, and read only what the page shows.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = (
    os.environ.get("HEXENGINE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
)
if not CHROMIUM:
    pytest.skip("no Chromium found (install chromium or set HEXENGINE_CHROMIUM)", allow_module_level=True)

from _webserver import ServerThread

import hexengine as hx

pytestmark = pytest.mark.browser
DIRECTIONS = re.compile(r"\b(top|bottom|left|right|north|south|east|west|horizontal|vertical)\b", re.I)
DOCS = Path(__file__).resolve().parent.parent / "docs"


def game(variant, n):
    """A variant and a square board as the pages name them ("Hex 7\u00d77")."""
    return f"{variant} {n}\u00d7{n}"


def quick_bots(level, rules):
    if rules.is_dark:
        return hx.RandomBot(swap=False)
    return hx.MCTSBot(simulations=30, allow_swap=level != "easy")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with ServerThread(tmp_path_factory.mktemp("web") / "web.db", bots=quick_bots, frame_rate=40.0) as s:
        yield s


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1000, "height": 760})
    yield ctx
    ctx.close()


def page_of(context):
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def more_settings(page):
    """Opens the lobby's "More settings" (the full form under the quick-play presets)."""
    if not page.eval_on_selector("#more", "d => d.open"):
        page.click("#more > summary")


def create(page, web, *, name="Ann", mode="online", variant="hex", size=7, **options):
    """Opens a table through the lobby's full form, as a person would."""
    page.goto(web.url + "/")
    page.fill("#name", name)
    more_settings(page)
    page.check(f'input[name=mode][value="{mode}"]')
    page.select_option("#variant", variant)
    page.select_option("#size", str(size))
    if mode == "computer":
        page.select_option("#level", options.get("level", "easy"))
    if mode == "one-device":
        page.fill("#opponent_name", options.get("opponent", "Bob"))
    if "first" in options:
        page.select_option("#first", options["first"])
    if "time" in options:
        page.select_option("#time", options["time"])
    if "main_minutes" in options:
        page.fill("#main_minutes", str(options["main_minutes"]))
        page.fill("#increment", str(options.get("increment", 0)))
    if "days" in options:
        page.select_option("#days", str(options["days"]))
    if options.get("rated"):
        page.check("#rated")
    if options.get("tap"):
        page.tap("#open")
    else:
        page.click("#open")
    page.wait_for_url(re.compile(r"/t/[0-9a-f]+$"))
    page.wait_for_selector("svg.board", state="attached")
    return page.url.rsplit("/", 1)[1]


def join(page, invite, name="Bob"):
    page.goto(invite)
    page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_selector("svg.board")


def play(page, cell, color):
    """Clicks ``cell`` once it is this page's turn and waits for the stone to appear."""
    page.wait_for_selector(f'svg.board.playable [data-cell="{cell}"].legal')
    page.click(f'[data-cell="{cell}"]')
    page.wait_for_selector(f'[data-cell="{cell}"].{color}')


def stones(page):
    return page.eval_on_selector_all(
        "[data-cell].red, [data-cell].blue", "els => els.map(e => e.dataset.cell)"
    )


def wait_until(page, expression, arg=None, timeout=20.0):
    """Polls a JavaScript expression (a function when ``arg`` is given) until it is truthy.
    Unlike ``page.wait_for_function`` it works under the pages' Content-Security-Policy,
    which forbids the eval that Playwright's in-page polling needs."""
    end = time.monotonic() + timeout
    while not (page.evaluate(expression) if arg is None else page.evaluate(expression, arg)):
        if time.monotonic() > end:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(50)


def no_junk(page):
    """No value the page failed to turn into words ("null", "undefined", "NaN")."""
    text = page.inner_text("body")
    assert not re.search(r"\b(null|undefined|NaN)\b", text), "the page shows a missing value"


def no_directions(page):
    text = page.inner_text("body")
    assert not DIRECTIONS.search(text), f"the page speaks of directions: {DIRECTIONS.search(text)}"


def online_game(browser, web, variant, size=7):
    """Ann (Red) joins a1..a7 while Bob (Blue) fills column g; returns the pages after the end."""
    ann_ctx = browser.new_context(viewport={"width": 1000, "height": 760})
    bob_ctx = browser.new_context(viewport={"width": 1000, "height": 760})
    ann, bob = page_of(ann_ctx), page_of(bob_ctx)
    create(ann, web, variant=variant, size=size)
    ann.wait_for_selector("#invite-box:not([hidden])")
    join(bob, ann.input_value("#invite"))
    last = chr(ord("a") + size - 1)
    for row in range(1, size + 1):
        play(ann, f"a{row}", "red")
        if row < size:
            play(bob, f"{last}{row}", "blue")
    for page in (ann, bob):
        page.wait_for_selector("#rematch:not([hidden])")
    return ann, bob, ann_ctx, bob_ctx


@pytest.mark.parametrize(
    "size", [7, pytest.param(11, marks=pytest.mark.slow), pytest.param(19, marks=pytest.mark.slow)]
)
@pytest.mark.parametrize("variant", ["hex", "rex", "dark", "dark-abrupt"])
def test_two_browsers_play_a_full_online_game(browser, web, variant, size):
    """Two browser contexts (two people) play a whole game by clicking cells: the invite link
    seats the friend, the end shows the result in colours, the completed chain is highlighted
    (Red's in Hex and Dark Hex, Red's losing one in Rex), and a rematch starts game 2 with Red
    alternated."""
    ann, bob, *contexts = online_game(browser, web, variant, size)
    winner = "Blue" if variant == "rex" else "Red"
    for page in (ann, bob):
        status = page.inner_text("#status")
        assert (
            status.endswith(f"{winner} wins")
            or status == f"{winner} joined their two {winner.lower()} edges and wins"
        )
        chain = page.eval_on_selector_all("[data-cell].chain", "els => els.map(e => e.dataset.cell)")
        assert sorted(chain) == sorted(f"a{r}" for r in range(1, size + 1))
        no_directions(page)
        no_junk(page)
    if variant.startswith("dark"):
        assert len(stones(bob)) == 2 * size - 1, "after a connection the whole board is revealed"
    ann.click("#rematch")
    bob.click("#rematch")
    bob.wait_for_selector("svg.board.playable")  # Bob plays Red in game 2
    assert "Red" in bob.inner_text("#seat-B .chip")
    assert not ann.errors and not bob.errors
    for c in contexts:
        c.close()


def test_a_spectator_of_dark_hex_sees_nothing_until_the_end(browser, web):
    """A spectator's page holds no stone and no cell of a move while a Dark Hex game runs; after
    the connection it shows every stone, and the replay page shows every stone of every step."""
    ann_ctx, bob_ctx, eve_ctx = (browser.new_context() for _ in range(3))
    ann, bob, eve = page_of(ann_ctx), page_of(bob_ctx), page_of(eve_ctx)
    table = create(ann, web, variant="dark")
    ann.wait_for_selector("#invite-box:not([hidden])")
    eve.goto(f"{web.url}/t/{table}/watch")
    join(bob, ann.input_value("#invite"))
    for row in range(1, 8):
        play(ann, f"a{row}", "red")
        if row < 7:
            play(bob, f"g{row}", "blue")
            wait_until(eve, f"document.querySelectorAll('#moves li').length >= {2 * row}")
            assert stones(eve) == []
            assert not re.search(r"\b[a-g][1-7]\b", eve.inner_text("#moves")), (
                "a move's cell reached the spectator"
            )
            assert "red" not in eve.content().split("<svg", 1)[1].split("</svg>")[0].replace("edge red", "")
    eve.wait_for_selector("#replay:not([hidden])")
    assert len(stones(eve)) == 13
    eve.click("#replay")
    eve.wait_for_selector("#position:has-text('13 / 13')")
    assert len(stones(eve)) == 13
    for c in (ann_ctx, bob_ctx, eve_ctx):
        c.close()


def test_one_device_dark_hex_with_the_curtain(context, web):
    """Hot-seat Dark Hex: at every hand-over a curtain names the next player by colour; while it
    is up the page holds no stone and no move; after lifting, each player sees only their own
    stones and what happened since their last turn (a hit received)."""
    page = page_of(context)
    create(page, web, mode="one-device", variant="dark", opponent="Bob")

    def lift(color):
        page.wait_for_selector("#curtain:not([hidden])")
        assert f"Pass the device to {color}" in page.inner_text("#curtain-text")
        assert stones(page) == [] and page.locator("#moves li").count() == 0
        no_directions(page)
        page.click("#lift")
        page.wait_for_selector("#curtain", state="hidden")

    def hand_over(cell):
        page.wait_for_selector(f'svg.board.playable [data-cell="{cell}"].legal')
        page.click(f'[data-cell="{cell}"]')

    lift("Red")
    hand_over("a1")
    lift("Blue")
    assert stones(page) == [], "Blue cannot see Red's stone"
    page.wait_for_selector("svg.board.playable")
    page.click('[data-cell="a1"]')  # a hit: Blue finds Red's stone and moves again
    page.wait_for_selector('[data-cell="a1"].red')
    assert "again" in page.inner_text("#status")
    hand_over("g1")
    lift("Red")
    assert "hit" in page.inner_text("#since")
    assert sorted(stones(page)) == ["a1"], "Red does not see Blue's stone"
    for row in range(2, 8):
        hand_over(f"a{row}")
        if row < 7:
            lift("Blue")
            hand_over(f"g{row}")
            lift("Red")
    page.wait_for_selector("#rematch:not([hidden])")
    assert "Red" in page.inner_text("#status") and len(stones(page)) == 13
    assert not page.errors


def test_a_double_tap_on_the_curtain_plays_no_cell(browser, web):
    """One device, Dark Hex 7x7 in a 1100x820 window: the "tap when ready" button lies over a
    cell of the board. A second tap 200 ms after the first (and a double click) lifts the
    curtain once and plays nothing: the board ignores taps for a moment after the curtain
    lifts. A tap after that moment plays as usual."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 820})
    page = page_of(ctx)
    create(page, web, mode="one-device", variant="dark", size=7, opponent="Bob")
    page.wait_for_selector("#curtain:not([hidden])")
    box = page.locator("#lift").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(200)
    page.mouse.click(x, y)
    page.wait_for_selector("#curtain", state="hidden")
    page.wait_for_timeout(600)
    assert page.is_hidden("#curtain"), "the second tap played a cell: the curtain is up for Blue"
    under = page.evaluate("([x, y]) => (document.elementFromPoint(x, y) || {}).dataset", [x, y])
    assert under and under.get("cell"), "the button no longer lies over a cell: the test proves nothing"
    page.wait_for_selector("svg.board.playable")
    assert stones(page) == [] and page.locator("#moves li").count() == 0, "the second tap played a cell"
    page.click('[data-cell="a1"]')  # after the guard a tap plays
    page.wait_for_selector("#curtain:not([hidden])")
    assert "Blue" in page.inner_text("#curtain-text")
    page.dblclick("#lift")
    page.wait_for_selector("#curtain", state="hidden")
    page.wait_for_timeout(600)
    assert page.is_hidden("#curtain"), "the double click played a cell: the curtain is up for Red"
    page.wait_for_selector("svg.board.playable")
    assert stones(page) == [] and page.locator("#moves li").count() == 1, "the double click played a cell"
    assert not page.errors
    ctx.close()


def test_closing_and_reopening_the_page_returns_to_the_seat(browser, web):
    """Closing the tab and opening the table again in the same browser gives the seat back (the
    token in localStorage, rotated on each use) with everything that happened meanwhile."""
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    ann, bob = page_of(ann_ctx), page_of(bob_ctx)
    table = create(ann, web, variant="hex")
    ann.wait_for_selector("#invite-box:not([hidden])")
    join(bob, ann.input_value("#invite"))
    play(ann, "c3", "red")
    token = ann.evaluate(f"JSON.parse(localStorage.getItem('hexengine:table:{table}')).token")
    ann.close()
    bob.wait_for_selector("#seat-A .note:has-text('away')")
    play(bob, "d4", "blue")
    again = page_of(ann_ctx)
    again.goto(f"{web.url}/t/{table}")
    again.wait_for_selector('[data-cell="d4"].blue')
    assert again.evaluate(f"JSON.parse(localStorage.getItem('hexengine:table:{table}')).token") != token
    play(again, "c4", "red")
    bob.wait_for_selector('[data-cell="c4"].red')
    for c in (ann_ctx, bob_ctx):
        c.close()


def test_a_game_against_the_computer(context, web):
    """Against the computer (easy level, rated) the person clicks any legal cell each turn; the
    computer answers every move until the game ends, the result is shown, and the leaderboard
    page lists the person and the computer's level."""
    page = page_of(context)
    create(page, web, mode="computer", variant="hex", size=7, level="easy", rated=True)
    for _ in range(30):
        page.wait_for_selector("svg.board.playable, #rematch:not([hidden])")
        if page.is_visible("#rematch"):
            break
        cell = page.eval_on_selector("svg.board.playable .cell.legal", "e => e.dataset.cell")
        page.click(f'[data-cell="{cell}"]')
        page.wait_for_selector(f'[data-cell="{cell}"].red')
    page.wait_for_selector("#rematch:not([hidden])")
    assert "wins" in page.inner_text("#status")
    assert "computer" in page.inner_text("#seat-B")
    page.wait_for_selector("#ratings:not([hidden])")
    ratings = page.inner_text("#ratings")
    assert ratings.startswith(f"Ratings ({game('Hex', 7)}): Ann 1500 → "), ratings
    assert not page.errors
    page.goto(web.url + "/leaderboard")
    page.wait_for_selector("#rows tr")
    names = page.inner_text("#rows")
    assert "Ann" in names and "Computer (easy)" in names
    assert page.input_value("#pool") == "hex:7x7", "the leaderboard of one variant and size"
    ann = page.locator("#rows tr", has_text="Ann")
    assert re.fullmatch(r"\d{3,4}", ann.locator("td.rating").inner_text())
    ann.locator("svg.spark circle").wait_for()
    page.wait_for_selector("#me:not([hidden])")
    mine = page.inner_text("#my-pools")
    assert mine.startswith(game("Hex", 7) + ": ") and "1 game" in mine, mine
    assert not page.errors


def play_out(page, color="red"):
    """Clicks the first legal cell on every turn until the game ends."""
    for _ in range(200):
        page.wait_for_selector("svg.board.playable, #rematch:not([hidden])")
        if page.is_visible("#rematch"):
            return
        cell = page.eval_on_selector("svg.board.playable .cell.legal", "e => e.dataset.cell")
        page.click(f'[data-cell="{cell}"]')
        page.wait_for_selector(f'[data-cell="{cell}"].{color}, #rematch:not([hidden])')
    raise AssertionError("the game did not end")


def test_the_leaderboard_has_one_list_per_variant_and_size(browser, web):
    """Rated games on 5x5 Hex and 5x5 Rex rate the player in two pools: the leaderboard offers
    each (and every game at once, with the game named on each row), and "Your ratings" lists
    both with their history."""
    ctx = browser.new_context()
    page = page_of(ctx)
    page.add_init_script("localStorage.setItem('hexengine:player', 'pools-test-player-0001')")
    for variant in ("hex", "rex"):
        create(page, web, name="Pia", mode="computer", variant=variant, size=5, level="easy", rated=True)
        play_out(page)
        page.wait_for_selector("#ratings:not([hidden])")
        assert f"({game(variant.capitalize(), 5)})" in page.inner_text("#ratings")
    page.goto(web.url + "/leaderboard")
    page.wait_for_selector("#rows tr")
    pools = page.eval_on_selector_all("#pool option", "os => os.map(o => o.value)")
    assert {"", "hex:5x5", "rex:5x5"} <= set(pools)
    for pool in ("hex:5x5", "rex:5x5"):
        page.select_option("#pool", pool)
        wait_until(
            page,
            "pool => [...document.querySelectorAll('#rows tr')].every(r => r.dataset.pool === pool)",
            arg=pool,
        )
        assert "Pia" in page.inner_text("#rows")
        assert page.is_hidden("th.for-all")
    page.select_option("#pool", "")
    page.wait_for_selector("th.for-all:not([hidden])")
    wait_until(page, "document.querySelectorAll('#rows tr[data-pool=\"rex:5x5\"]').length > 0")
    assert game("Rex", 5) in page.inner_text("#rows") and game("Hex", 5) in page.inner_text("#rows")
    page.wait_for_selector("#me:not([hidden])")
    mine = page.inner_text("#my-pools")
    assert game("Hex", 5) + ": " in mine and game("Rex", 5) + ": " in mine
    assert page.locator("#my-pools svg.spark").count() == 2
    assert not page.errors
    ctx.close()


def test_after_a_resignation_in_dark_hex_the_board_stays_hidden_until_the_replay(browser, web):
    """When a Dark Hex game ends by resignation, each player keeps only their own view (nothing is
    revealed at the table) and the replay page shows every stone."""
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    ann, bob = page_of(ann_ctx), page_of(bob_ctx)
    table = create(ann, web, variant="dark")
    ann.wait_for_selector("#invite-box:not([hidden])")
    join(bob, ann.input_value("#invite"))
    play(ann, "c3", "red")
    play(bob, "e5", "blue")
    ann.click("#resign")
    ann.click("#resign:has-text('Confirm')")
    bob.wait_for_selector("#rematch:not([hidden])")
    assert "resigned" in bob.inner_text("#status") and "Blue wins" in bob.inner_text("#status")
    assert stones(bob) == ["e5"] and stones(ann) == ["c3"]
    bob.goto(f"{web.url}/t/{table}/replay/1")
    bob.wait_for_selector("#position:has-text('2 / 2')")
    assert sorted(stones(bob)) == ["c3", "e5"]
    for c in (ann_ctx, bob_ctx):
        c.close()


def test_the_lobby_offers_every_table_setting(context, web):
    """The lobby form has every setting of docs/rules.md section 6: variant, size 7-19, swap and its
    form, who is Red first, alternating, time limit none/30/60/custom, rated, computer level."""
    page = page_of(context)
    page.goto(web.url + "/")
    more_settings(page)
    page.wait_for_selector("#create[data-options=loaded]", state="attached")
    values = lambda sel: page.eval_on_selector_all(f"{sel} option", "os => os.map(o => o.value)")  # noqa: E731
    assert values("#variant") == ["hex", "rex", "dark", "dark-abrupt"]
    sizes = web.get("/api/options")[1]["sizes"]
    assert values("#size") == [str(n) for n in sizes], "the sizes the server accepts"
    assert {str(n) for n in range(7, 20)} <= set(values("#size"))
    assert page.input_value("#size") == "11"
    assert values("#swap") == ["sides", "pieces"]
    assert values("#first") == ["A", "B", "alternate"]
    assert values("#time") == ["", "30", "60", "custom", "fischer", "correspondence"]
    assert values("#days") == ["1", "2", "3", "5", "7", "14"]
    assert values("#level") == ["easy", "medium", "hard"]
    for sel in ("#swap_on", "#alternate", "#rated", "#grace", 'input[value="one-device"]'):
        assert page.locator(sel).count() == 1
    page.select_option("#variant", "dark")
    assert page.is_disabled("#swap_on"), "Dark Hex has no swap"
    no_directions(page)


def test_a_phone_in_portrait_gets_a_turned_board(browser, web):
    """On a phone-sized portrait screen the board turns 90 degrees to fit, keeps one element per
    cell, and fits the screen's width."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = page_of(ctx)
    create(page, web, mode="computer", variant="hex", size=11, level="easy", tap=True)
    page.wait_for_selector("svg.board.rotated")
    assert page.locator("[data-cell]").count() == 121
    box = page.locator("svg.board").bounding_box()
    assert box["width"] <= 390
    page.tap('[data-cell="f6"]')
    page.wait_for_selector('[data-cell="f6"].red')
    ctx.close()


@pytest.mark.slow
def test_screenshots_for_the_docs(browser, web):
    """Takes the screenshots of docs/web-table.md (written to docs/ when HEXENGINE_SCREENSHOTS=1,
    else to the system's temporary folder): the lobby, a running game with Fischer clocks and a
    hover preview, a finished Dark Hex game, the replay with the engine's analysis, and the
    dark theme."""
    out = DOCS if os.environ.get("HEXENGINE_SCREENSHOTS") else Path(tempfile.gettempdir())
    ctx = browser.new_context(viewport={"width": 900, "height": 640}, color_scheme="light")
    page = page_of(ctx)
    page.goto(web.url + "/")
    page.fill("#name", "Ann")
    page.wait_for_selector("#create[data-options=loaded]", state="attached")
    page.screenshot(path=str(out / "web-lobby.png"))
    ctx.close()
    ann_ctx = browser.new_context(viewport={"width": 900, "height": 620}, color_scheme="light")
    bob_ctx = browser.new_context(viewport={"width": 900, "height": 620}, color_scheme="dark")
    ann, bob = page_of(ann_ctx), page_of(bob_ctx)
    create(ann, web, variant="hex", size=9, time="fischer", main_minutes=5, increment=3)
    ann.wait_for_selector("#invite-box:not([hidden])")
    join(bob, ann.input_value("#invite"))
    for ann_cell, bob_cell in (("e5", "f3"), ("d7", "c6"), ("e6", "d6")):
        play(ann, ann_cell, "red")
        play(bob, bob_cell, "blue")
    ann.wait_for_selector("svg.board.playable")
    ann.hover('[data-cell="c7"]')
    ann.screenshot(path=str(out / "web-table.png"))
    bob.screenshot(path=str(out / "web-dark.png"))
    for c in (ann_ctx, bob_ctx):
        c.close()
    ann, _bob, *contexts = online_game(browser, web, "dark")
    ann.set_viewport_size({"width": 900, "height": 620})
    ann.screenshot(path=str(out / "web-finished.png"))
    ann.click("#analyse-link")
    ann.select_option("#depth", "1000")
    ann.keyboard.press("Home")
    for _ in range(4):
        ann.keyboard.press("ArrowRight")
    ann.wait_for_selector("#analysis-moves li:has-text('visits')", timeout=90_000)
    ann.screenshot(path=str(out / "web-replay.png"))
    for c in contexts:
        c.close()


def test_the_replay_names_the_winner_shows_the_chain_and_steps_with_the_keys(browser, web):
    """The replay reads the record's result: it names the winning colour and person and how the
    game was won, highlights the completed chain on the last position only, draws its step
    buttons as icons (no font needed), and steps with the arrow keys, Home and End."""
    ann, _bob, *contexts = online_game(browser, web, "hex")
    ann.click("#replay")
    ann.wait_for_selector("#position:has-text('13 / 13')")
    assert ann.inner_text("#result").startswith("Red (Ann) won by connection.")
    assert " won ." not in ann.inner_text("#result")
    chain = ann.eval_on_selector_all("[data-cell].chain", "els => els.map(e => e.dataset.cell)")
    assert sorted(chain) == [f"a{r}" for r in range(1, 8)]
    for button in ("#first", "#prev", "#next", "#last"):
        assert ann.locator(f"{button} svg.icon path").count() == 1
        assert ann.locator(button).inner_text().strip() == "", "a glyph a font may lack"
        assert ann.locator(f"{button} svg.icon").bounding_box()["width"] > 8
    ann.keyboard.press("ArrowLeft")
    ann.wait_for_selector("#position:has-text('12 / 13')")
    assert ann.locator("[data-cell].chain").count() == 0
    assert len(stones(ann)) == 12
    ann.keyboard.press("Home")
    ann.wait_for_selector("#position:has-text('0 / 13')")
    assert stones(ann) == []
    ann.keyboard.press("ArrowRight")
    ann.wait_for_selector("#position:has-text('1 / 13')")
    assert stones(ann) == ["a1"]
    ann.keyboard.press("End")
    ann.wait_for_selector("#position:has-text('13 / 13')")
    ann.click("#prev")
    ann.wait_for_selector("#position:has-text('12 / 13')")
    assert not ann.errors
    for c in contexts:
        c.close()


def test_a_taken_seat_offers_watching_instead(browser, web):
    """An invite link opened after the friend has joined offers watching, not the seat; and
    when the seat is taken between opening the link and pressing "Take the seat", the refusal
    takes the form away and offers watching too."""
    ann_ctx, bob_ctx, cat_ctx, dan_ctx = (browser.new_context() for _ in range(4))
    ann, bob, cat, dan = (page_of(c) for c in (ann_ctx, bob_ctx, cat_ctx, dan_ctx))
    table = create(ann, web, variant="hex")
    ann.wait_for_selector("#invite-box:not([hidden])")
    invite = ann.input_value("#invite")
    cat.goto(invite)  # Cat opens the link first, Bob joins before she presses the button
    cat.wait_for_selector("#join-button")
    join(bob, invite)
    cat.fill("#join-name", "Cat")
    cat.click("#join-button")
    cat.wait_for_selector("#join-watch:not([hidden])")
    assert cat.is_hidden("#join-button")
    assert "taken" in cat.inner_text("#join-error")
    dan.goto(invite)  # Dan opens it afterwards
    dan.wait_for_selector("#join-watch:not([hidden])")
    assert dan.is_hidden("#join-button")
    dan.click("#watch-instead")
    dan.wait_for_url(re.compile(rf"/t/{table}/watch$"))
    dan.wait_for_selector("svg.board")
    play(ann, "c3", "red")
    dan.wait_for_selector('[data-cell="c3"].red')
    assert not cat.errors and not dan.errors
    for c in (ann_ctx, bob_ctx, cat_ctx, dan_ctx):
        c.close()


def test_quick_play_presets_open_a_table_in_one_click(browser, web):
    """The lobby's presets open a table at once: against the computer (9x9, 3 min + 2 s), with
    a friend online (Dark Hex 7x7, with an invite link; correspondence only with a friend);
    the full form stays under "More settings"."""
    ctx = browser.new_context(viewport={"width": 1000, "height": 760})
    page = page_of(ctx)
    page.goto(web.url + "/")
    assert not page.eval_on_selector("#more", "d => d.open"), "the long form is folded away"
    page.wait_for_selector("#create[data-options=loaded]", state="attached")
    assert page.locator("#presets button").count() >= 5
    page.click("#preset-hex-9-3m")
    assert "name" in page.inner_text("#quick-error"), "a name is needed first"
    page.fill("#name", "Ann")
    page.click('#quick-mode [data-mode="computer"]')
    assert page.locator("#preset-hex-11-3d").count() == 0, "no correspondence against the computer"
    page.click('#quick-level [data-level="easy"]')
    page.click("#preset-hex-9-3m")
    page.wait_for_url(re.compile(r"/t/[0-9a-f]+$"))
    page.wait_for_selector("svg.board")
    assert page.locator("[data-cell]").count() == 81
    assert "computer, easy" in page.inner_text("#seat-B")
    assert "3 min + 2 s" in page.inner_text("#title")
    page.goto(web.url + "/")
    page.click('#quick-mode [data-mode="online"]')
    assert page.is_hidden("#quick-level")
    page.click("#preset-dark-7")
    page.wait_for_selector("#invite-box:not([hidden])")
    assert page.locator("[data-cell]").count() == 49
    assert "Dark Hex" in page.inner_text("#title")
    assert not page.errors
    ctx.close()


def test_fischer_and_correspondence_clocks(browser, web):
    """With main time and an increment each player's clock shows their bank and the increment;
    the bank of the player to move runs down and the increment is added when they move. A
    correspondence table (days per move, from the quick-play presets) shows days and hours."""
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    ann, bob = page_of(ann_ctx), page_of(bob_ctx)
    create(ann, web, variant="hex", time="fischer", main_minutes=1, increment=5)
    assert "1 min + 5 s" in ann.inner_text("#title")
    ann.wait_for_selector("#invite-box:not([hidden])")
    join(bob, ann.input_value("#invite"))
    ann.wait_for_selector("#seat-A .clock.running")
    assert "+5 s" in ann.inner_text("#seat-A .clock") and "+5 s" in ann.inner_text("#seat-B .clock")
    wait_until(bob, "document.querySelector('#seat-B .clock').textContent.startsWith('1:00')")
    wait_until(ann, "document.querySelector('#seat-A .clock').textContent.startsWith('0:5')")
    play(ann, "c3", "red")
    # Ann's bank got the increment: more than the 0:5x it showed, at most 1:05
    bob.wait_for_selector("#seat-B .clock.running")
    assert re.match(r"1:0[0-5]", bob.inner_text("#seat-A .clock")), bob.inner_text("#seat-A .clock")
    no_junk(bob)
    assert bob.locator("#seat-A .clock.running").count() == 0
    page = page_of(ann_ctx)
    page.goto(web.url + "/")
    page.wait_for_selector("#create[data-options=loaded]", state="attached")
    page.click('#quick-mode [data-mode="online"]')
    page.click("#preset-hex-11-3d")
    page.wait_for_selector("#invite-box:not([hidden])")
    assert "3 days a move" in page.inner_text("#title")
    join(bob, page.input_value("#invite"))
    page.wait_for_selector("#seat-A .clock.running")
    assert re.match(r"(3d 0h|2d 23h)", page.inner_text("#seat-A .clock")), page.inner_text("#seat-A .clock")
    assert not ann.errors and not bob.errors and not page.errors
    for c in (ann_ctx, bob_ctx):
        c.close()


def test_preview_stone_and_confirmed_moves(browser, web):
    """Hovering a cell on your turn shows a stone of your colour there; with "Confirm each move"
    (kept in localStorage) the first tap only marks a cell and a second tap on it plays."""
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    ann, bob = page_of(ann_ctx), page_of(bob_ctx)
    table = create(ann, web, variant="hex")
    ann.wait_for_selector("#invite-box:not([hidden])")
    join(bob, ann.input_value("#invite"))
    fill = "e => getComputedStyle(e).fill"
    ann.wait_for_selector("svg.board.playable.preview-red")
    plain = ann.eval_on_selector('[data-cell="d4"]', fill)
    ann.hover('[data-cell="d4"]')
    preview = ann.eval_on_selector('[data-cell="d4"]', fill)
    assert preview != plain and preview == "rgb(233, 138, 142)", preview
    bob.hover('[data-cell="d4"]')
    assert bob.locator("svg.board.playable").count() == 0, "no preview when it is not your turn"
    ann.check("#pref-confirm")
    ann.click('[data-cell="c3"]')
    ann.wait_for_selector('[data-cell="c3"].armed')
    assert stones(ann) == [] and "again" in ann.inner_text("#status")
    ann.click('[data-cell="e5"]')  # another cell moves the mark
    ann.wait_for_selector('[data-cell="e5"].armed')
    assert ann.locator(".armed").count() == 1 and stones(ann) == []
    assert ann.inner_text("#confirm-move") == "Play e5"
    ann.click('[data-cell="e5"]')
    ann.wait_for_selector('[data-cell="e5"].red')
    bob.wait_for_selector("svg.board.playable.preview-blue")
    bob.hover('[data-cell="d4"]')
    assert bob.eval_on_selector('[data-cell="d4"]', fill) == "rgb(138, 168, 228)"
    play(bob, "d4", "blue")
    again = page_of(ann_ctx)  # the setting is remembered by this browser
    again.goto(f"{web.url}/t/{table}")
    again.wait_for_selector("svg.board.playable")
    assert again.is_checked("#pref-confirm")
    again.click('[data-cell="c3"]')
    again.wait_for_selector("#confirm-move:not([hidden])")
    again.click("#confirm-move")
    again.wait_for_selector('[data-cell="c3"].red')
    assert not ann.errors and not bob.errors and not again.errors
    for c in (ann_ctx, bob_ctx):
        c.close()


def test_whose_turn_shows_in_the_tab_title_with_an_optional_beep(browser, web):
    """The tab title says whose move it is ("● Your move — hexengine" on the page of the player
    to move); with "Sound when it is your move" on, the page beeps when the turn comes to it."""
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    ann, bob = page_of(ann_ctx), page_of(bob_ctx)
    create(ann, web, variant="hex")
    ann.wait_for_selector("#invite-box:not([hidden])")
    join(bob, ann.input_value("#invite"))
    wait_until(ann, "document.title === '● Your move — hexengine'")
    wait_until(bob, "document.title === 'Red (Ann) to move — hexengine'")
    assert "mine" in ann.get_attribute("#turn", "class")
    assert "mine" not in (bob.get_attribute("#turn", "class") or "")
    assert not bob.is_checked("#pref-sound"), "sound is off by default"
    bob.check("#pref-sound")
    beeps = bob.evaluate("HX.beeps")
    play(ann, "c3", "red")
    wait_until(bob, "document.title === '● Your move — hexengine'")
    wait_until(bob, f"HX.beeps === {beeps + 1}")
    wait_until(ann, "document.title === 'Blue (Bob) to move — hexengine'")
    play(bob, "d4", "blue")
    wait_until(ann, "document.title === '● Your move — hexengine'")
    assert ann.evaluate("HX.beeps") == 0, "no sound unless it was asked for"
    assert not ann.errors and not bob.errors
    for c in (ann_ctx, bob_ctx):
        c.close()


def test_the_board_flips_and_the_theme_follows_the_system_or_the_toggle(browser, web):
    """The flip button turns the board half a turn (a1 goes to the other end), remembered in
    localStorage; the dark theme follows prefers-color-scheme until the toggle picks one, which
    is remembered too."""
    ctx = browser.new_context(viewport={"width": 1000, "height": 760}, color_scheme="dark")
    page = page_of(ctx)
    create(page, web, mode="computer", variant="hex", size=7, level="easy")
    page.wait_for_selector("svg.board.playable")
    bg = "() => getComputedStyle(document.documentElement).backgroundColor"
    assert page.evaluate("document.documentElement.classList.contains('theme-dark')")
    dark_bg = page.evaluate(bg)
    box = lambda cell: page.locator(f'[data-cell="{cell}"]').bounding_box()  # noqa: E731
    a1, g7 = box("a1"), box("g7")
    assert a1["y"] < g7["y"]
    page.click("#flip")
    page.wait_for_selector("svg.board.flipped")
    a1, g7 = box("a1"), box("g7")
    assert a1["y"] > g7["y"] and a1["x"] > g7["x"], "a1 is at the other end of the board"
    play(page, "d4", "red")  # the cells still play
    page.click("#theme")
    wait_until(page, "!document.documentElement.classList.contains('theme-dark')")
    assert page.evaluate(bg) != dark_bg
    page.reload()
    page.wait_for_selector("svg.board.flipped")
    assert not page.evaluate("document.documentElement.classList.contains('theme-dark')")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert not page.errors
    ctx.close()
    light = browser.new_context(color_scheme="light")
    page = page_of(light)
    page.goto(web.url + "/")
    assert not page.evaluate("document.documentElement.classList.contains('theme-dark')")
    page.click("#theme")
    assert page.evaluate("document.documentElement.classList.contains('theme-dark')")
    light.close()


def test_takebacks_asked_declined_and_accepted(browser, web):
    """Online, a player asks to take back their last move: the opponent sees the request and
    declines it, then accepts the next one, after which both boards lose the asker's move
    and the reply, and the asker moves again. Against the computer at an unrated table the
    takeback is accepted at once; in Dark Hex there is no takeback button."""
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    ann, bob = page_of(ann_ctx), page_of(bob_ctx)
    create(ann, web, variant="hex")
    ann.wait_for_selector("#invite-box:not([hidden])")
    join(bob, ann.input_value("#invite"))
    assert ann.is_hidden("#takeback"), "nothing to take back yet"
    play(ann, "c3", "red")
    play(bob, "d4", "blue")
    ann.click("#takeback")
    bob.wait_for_selector("#request-box:not([hidden])")
    assert "Ann asks to take back" in bob.inner_text("#request-text")
    ann.wait_for_selector("#request-box:not([hidden])")
    assert ann.is_hidden("#accept-takeback") and ann.inner_text("#decline-takeback") == "Withdraw"
    bob.click("#decline-takeback")
    ann.wait_for_selector("#note:has-text('declined')")
    ann.wait_for_selector("#request-box", state="hidden")
    assert sorted(stones(ann)) == ["c3", "d4"]
    ann.click("#takeback")
    bob.wait_for_selector("#accept-takeback:not([hidden])")
    bob.click("#accept-takeback")
    for page in (ann, bob):
        page.wait_for_selector("#note:has-text('Taken back')")
        wait_until(page, "document.querySelectorAll('[data-cell].red, [data-cell].blue').length === 0")
        assert page.locator("#moves li").count() == 0
    play(ann, "e5", "red")
    bob.wait_for_selector('[data-cell="e5"].red')
    assert not ann.errors and not bob.errors
    for c in (ann_ctx, bob_ctx):
        c.close()
    ctx = browser.new_context()
    page = page_of(ctx)
    create(page, web, mode="computer", variant="hex", size=7, level="easy")
    play(page, "d4", "red")
    page.wait_for_selector("svg.board.playable")  # the computer has answered
    assert len(stones(page)) == 2
    page.click("#takeback")
    wait_until(page, "document.querySelectorAll('[data-cell].red, [data-cell].blue').length === 0")
    page.wait_for_selector("svg.board.playable")
    create(page, web, mode="one-device", variant="dark", size=5)
    page.wait_for_selector("#curtain:not([hidden])")
    page.click("#lift")
    page.wait_for_selector("svg.board.playable")
    page.click('[data-cell="c3"]')
    page.wait_for_selector("#curtain:not([hidden])")
    page.click("#lift")
    page.wait_for_selector("svg.board.playable")
    assert page.is_hidden("#takeback"), "Dark Hex has no takebacks"
    assert not page.errors
    ctx.close()


def test_a_game_can_be_aborted_before_its_second_move(browser, web):
    """Before the second move either player may abort (with a confirming second click): both
    pages say so, no replay is offered, and a rematch starts a new game. After the second
    move the abort button is gone."""
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    ann, bob = page_of(ann_ctx), page_of(bob_ctx)
    create(ann, web, variant="hex")
    ann.wait_for_selector("#invite-box:not([hidden])")
    join(bob, ann.input_value("#invite"))
    bob.wait_for_selector("#abort:not([hidden])")
    play(ann, "c3", "red")
    bob.click("#abort")
    bob.click("#abort:has-text('Confirm')")
    for page in (ann, bob):
        page.wait_for_selector("#rematch:not([hidden])")
        assert "aborted" in page.inner_text("#status")
        assert page.is_hidden("#replay") and page.is_hidden("#abort") and page.is_hidden("#resign")
    wait_until(ann, "document.title === 'Game over — hexengine'")
    ann.click("#rematch")
    bob.click("#rematch")
    bob.wait_for_selector("svg.board.playable")  # game 2: Bob plays Red
    play(bob, "d4", "red")
    play(ann, "c3", "blue")
    bob.wait_for_selector("#abort", state="hidden")
    assert ann.is_hidden("#abort")
    assert not ann.errors and not bob.errors
    for c in (ann_ctx, bob_ctx):
        c.close()


def test_a_recovery_link_moves_the_identity_and_the_seat(browser, web):
    """ "Move to another device" on a table page gives a one-time link: opened in another
    browser it brings the secret player id (the ratings' identity) and the seat, so the game
    goes on there while the first page lets go of the seat; the link works once. The lobby's
    link moves the identity alone."""
    old_ctx, new_ctx, third_ctx = (browser.new_context() for _ in range(3))
    old, new, third = page_of(old_ctx), page_of(new_ctx), page_of(third_ctx)
    table = create(old, web, name="Ann", mode="computer", variant="hex", size=7, level="easy")
    play(old, "d4", "red")
    old.wait_for_selector("svg.board.playable")
    old.click("#recovery")
    old.wait_for_selector("#recovery-panel:not([hidden])")
    link = old.input_value("#recovery-link")
    assert link.startswith(f"{web.url}/t/{table}#recover=")
    secret = old.evaluate("localStorage.getItem('hexengine:player')")
    new.goto(link)
    new.wait_for_selector("#recovered")
    assert "holds your seat" in new.inner_text("#recovered")
    assert new.evaluate("localStorage.getItem('hexengine:player')") == secret
    assert new.evaluate("localStorage.getItem('hexengine:name')") == "Ann"
    assert "#" not in new.url, "the code leaves the address bar"
    new.wait_for_selector('[data-cell="d4"].red')
    old.wait_for_selector("#connection:has-text('another window')")
    cell = new.eval_on_selector("svg.board.playable .cell.legal", "e => e.dataset.cell")
    play(new, cell, "red")
    third.goto(link)  # used once already
    third.wait_for_selector("#recovered.error")
    assert "used" in third.inner_text("#recovered")
    assert third.evaluate("localStorage.getItem('hexengine:player')") != secret
    third.wait_for_selector("svg.board")
    assert third.is_hidden("#resign"), "no seat from a used link"
    new.goto(web.url + "/")
    new.click("#move-identity")
    new.wait_for_selector("#identity-panel:not([hidden])")
    link = new.input_value("#identity-link")
    assert link.startswith(f"{web.url}/#recover=")
    third.goto(link)
    third.wait_for_selector("#recovered:not(.error)")
    assert third.evaluate("localStorage.getItem('hexengine:player')") == secret
    assert not old.errors and not new.errors and not third.errors
    for c in (old_ctx, new_ctx, third_ctx):
        c.close()


def test_the_replay_downloads_sgf_and_shows_the_engines_analysis(browser, web):
    """A finished game's replay links its SGF file and, on request, shows the engine's win rate
    and top moves for the position on the board (drawn on the cells), following the steps.
    The table page offers the analysis only once the game is over; in a running Dark Hex game
    no page has it."""
    ann, bob, *contexts = online_game(browser, web, "hex")
    ann.wait_for_selector("#analyse-link:not([hidden])")
    ann.click("#replay")
    ann.wait_for_selector("#position:has-text('13 / 13')")
    href = ann.get_attribute("#sgf", "href")
    status, sgf = web.get(href)
    assert status == 200 and sgf.startswith("(;") and "a7" in sgf
    ann.select_option("#depth", "1000")
    ann.click("#analyse")
    ann.wait_for_selector("#position:has-text('12 / 13')")  # the last position has no move
    ann.wait_for_selector("#analysis-head:has-text('to win')")
    head = ann.inner_text("#analysis-head")
    assert head.startswith("Red to move: ") and re.search(r"\d+% to win", head), head
    assert ann.locator("#analysis-moves li").count() >= 1
    assert ann.locator("svg.board .hints text").count() >= 1
    assert ann.locator("svg.board .hints text.best").count() == 1
    assert "a7" in ann.inner_text("#analysis-head"), "the winning move"
    ann.keyboard.press("ArrowLeft")
    ann.wait_for_selector("#analysis-head:has-text('Blue to move')")
    assert "stops" in ann.inner_text("#analysis-head"), "a forced block"
    ann.keyboard.press("Home")
    ann.wait_for_selector("#analysis-moves li:has-text('visits')")
    assert re.match(r"Red to move: \d+% to win; the engine plays", ann.inner_text("#analysis-head"))
    assert ann.locator("svg.board .hints text").count() == ann.locator("#analysis-moves li").count()
    ann.click("#analyse")  # hides it
    ann.wait_for_selector("#analysis", state="hidden")
    assert ann.locator("svg.board .hints text").count() == 0
    assert not ann.errors
    for c in contexts:
        c.close()
    ann_ctx, bob_ctx, eve_ctx = (browser.new_context() for _ in range(3))
    ann, bob, eve = page_of(ann_ctx), page_of(bob_ctx), page_of(eve_ctx)
    table = create(ann, web, variant="dark")
    ann.wait_for_selector("#invite-box:not([hidden])")
    join(bob, ann.input_value("#invite"))
    eve.goto(f"{web.url}/t/{table}/watch")
    play(ann, "c3", "red")
    for page in (ann, bob, eve):
        assert page.is_hidden("#analyse-link")
    status, answer = web.get(f"/api/tables/{table}/games/1/analysis?ply=1")
    assert status == 403 and answer["code"] == "hidden"
    for c in (ann_ctx, bob_ctx, eve_ctx):
        c.close()
