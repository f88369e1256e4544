"""The pictures of docs/rules.md are what tools/docs_pictures.py draws today, every picture the
page shows exists, and the Dark Hex pictures show each viewer only what the rules let them see."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from _scripts import load_script

import hexengine as hx

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "docs_pictures.py"
PICTURES = ROOT / "docs" / "img" / "rules"
PAGES = [ROOT / "docs" / "rules.md", ROOT / "docs" / "tutorial.md"]

pytestmark = pytest.mark.skipif(
    not SCRIPT.exists(), reason="tools/ and docs/ are not next to the tests (installed without the source)"
)


def test_the_committed_pictures_are_byte_identical_to_a_fresh_drawing(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    fresh = {p.name: p.read_bytes() for p in tmp_path.glob("*.svg")}
    committed = {p.name: p.read_bytes() for p in PICTURES.glob("*.svg")}
    assert fresh, "the script drew nothing"
    assert sorted(fresh) == sorted(committed), "run python tools/docs_pictures.py and commit docs/img/rules"
    stale = sorted(name for name in fresh if fresh[name] != committed[name])
    assert not stale, f"{stale} differ from what the drawing draws now: run python tools/docs_pictures.py"


def test_drawing_twice_gives_the_same_bytes() -> None:
    script = load_script("tools/docs_pictures.py")
    assert script.pictures() == script.pictures()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_image_a_page_shows_exists(page: Path) -> None:
    links = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", page.read_text(encoding="utf-8"))
    missing = [link for link in links if not (page.parent / link).is_file()]
    assert not missing, f"{page.name} shows images that do not exist: {missing}"


def test_the_rules_page_shows_every_picture() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"!\[[^\]]*\]\(img/rules/([^)\s]+)\)", text))
    assert shown == {p.name for p in PICTURES.glob("*.svg")}


def stones(svg: str) -> tuple[int, int]:
    return svg.count('class="stone red"'), svg.count('class="stone blue"')


def test_the_dark_hex_pictures_show_each_viewer_only_their_own_knowledge() -> None:
    script = load_script("tools/docs_pictures.py")
    game = script.played("dark", 5, script.DARK)
    drawn = {name: data.decode("utf-8") for name, data in script.pictures().items()}
    assert [a.result for a in game.history].count(hx.MoveResult.HIT) == 1  # Blue hit Red's c3
    assert stones(drawn["dark-true.svg"]) == (2, 2)
    assert stones(drawn["dark-red.svg"]) == (2, 0)  # Red has found no blue stone
    assert stones(drawn["dark-blue.svg"]) == (1, 2)  # Blue sees the red stone it hit, and its own
    assert stones(drawn["dark-spectator.svg"]) == (0, 0)
    assert 'class="last"' not in drawn["dark-red.svg"]  # Red does not know where Blue just played
