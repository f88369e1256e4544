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


def create(page, web, *, name="Ann", mode="online", variant="hex", size=7, **options):
    """Opens a table through the lobby form, as a person would."""
    page.goto(web.url + "/")
    page.fill("#name", name)
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
            eve.wait_for_function(f"document.querySelectorAll('#moves li').length >= {2 * row}")
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
    assert not page.errors
    page.goto(web.url + "/leaderboard")
    page.wait_for_selector("#rows tr")
    names = page.inner_text("#rows")
    assert "Ann" in names and "Computer (easy)" in names


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
    """The lobby form has every setting of RULES.md section 6: variant, size 7-19, swap and its
    form, who is Red first, alternating, time limit none/30/60/custom, rated, computer level."""
    page = page_of(context)
    page.goto(web.url + "/")
    values = lambda sel: page.eval_on_selector_all(f"{sel} option", "os => os.map(o => o.value)")  # noqa: E731
    assert values("#variant") == ["hex", "rex", "dark", "dark-abrupt"]
    assert values("#size") == [str(n) for n in range(7, 20)]
    assert values("#swap") == ["sides", "pieces"]
    assert values("#first") == ["A", "B", "alternate"]
    assert values("#time") == ["", "30", "60", "custom"]
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
def test_screenshots_for_the_readme(browser, web):
    """Takes the README's screenshots (written to docs/ when HEXENGINE_SCREENSHOTS=1)."""
    out = DOCS if os.environ.get("HEXENGINE_SCREENSHOTS") else Path(web.url and "/tmp")
    ctx = browser.new_context(viewport={"width": 900, "height": 700})
    page = page_of(ctx)
    page.goto(web.url + "/")
    page.fill("#name", "Ann")
    page.screenshot(path=str(out / "web-lobby.png"))
    ann, _bob, *contexts = online_game(browser, web, "dark")
    ann.set_viewport_size({"width": 900, "height": 620})
    ann.screenshot(path=str(out / "web-finished.png"))
    for c in [ctx, *contexts]:
        c.close()
