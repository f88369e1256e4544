"""The move priors of Hex and Rex: learned local patterns, read by the C++ core (cpp/search/patterns.h)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hexengine as hx
from hexengine import _core


def prior(view: hx.View) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return _core.cell_patterns(view._core)


def played(size: int, moves: list[str], variant: str = "hex") -> hx.Game:
    game = hx.Game(variant, size=size)  # type: ignore[arg-type]
    for move in moves:
        game.play(move)
    return game


def random_game(size: int, plies: int, rng: random.Random, variant: str = "hex") -> list[hx.Cell]:
    game = hx.Game(variant, size=size)  # type: ignore[arg-type]
    cells = []
    while len(cells) < plies:
        move = rng.choice(game.view(game.to_move).legal_moves())
        game.play(move)
        if game.is_over:
            break
        cells.append(move)
    return cells


@pytest.mark.parametrize("size", [7, 11])
def test_the_prior_saves_an_intruded_bridge(size: int) -> None:
    # Red's bridge d4-e5 with Blue in e4: d5 keeps the two stones joined.
    game = played(size, ["d4", "a1", "e5", "e4"])
    _, _, last, weight = prior(game.view(hx.RED))
    assert hx.Cell.parse("d5") == hx.Cell(*np.unravel_index(np.nanargmax(weight), weight.shape))
    assert last[hx.Cell.parse("d5")] == 0  # a neighbour of the last move
    # The same for Blue, with Red in d5.
    blue = played(size, ["a1", "d4", "a2", "e5", "d5"])
    _, _, _, weight = prior(blue.view(hx.BLUE))
    assert hx.Cell.parse("e4") == hx.Cell(*np.unravel_index(np.nanargmax(weight), weight.shape))


def test_stones_have_no_weight_and_empty_cells_have_one() -> None:
    rng = random.Random(3)
    for _ in range(20):
        cells = random_game(9, rng.randrange(1, 40), rng)
        game = played(9, [c.name for c in cells])
        key, inner, last, weight = prior(game.view(game.to_move))
        stones = game.view(hx.RED).board != 0
        assert (key[stones] == -1).all() and (inner[stones] == -1).all() and (last[stones] == -1).all()
        assert np.isnan(weight[stones]).all()
        assert np.isfinite(weight[~stones]).all()
        assert (key[~stones] >= 0).all() and (key[~stones] < 1 << 24).all()
        assert set(np.unique(last[~stones])) <= {0, 1, 2}


def test_a_half_turn_of_the_board_turns_the_prior() -> None:
    # The board turned half a turn is the same position for both players.
    rng = random.Random(7)
    size = 11
    for _ in range(30):
        cells = random_game(size, rng.randrange(1, 60), rng)
        game = played(size, [c.name for c in cells])
        turned = played(size, [hx.Cell(size - 1 - c.row, size - 1 - c.col).name for c in cells])
        a = prior(game.view(game.to_move))
        b = prior(turned.view(turned.to_move))
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y[::-1, ::-1])


def test_the_prior_needs_every_stone_shown() -> None:
    game = hx.Game("dark", size=5)
    game.play("c3")
    with pytest.raises(hx.RulesError, match="hides"):
        prior(game.view(hx.BLUE))
    over = played(2, ["a1", "b1", "a2"])
    assert over.is_over
    with pytest.raises(hx.RulesError, match="over"):
        prior(over.view(hx.RED))


TOOLS = Path(__file__).resolve().parent.parent / "tools"
needs_tools = pytest.mark.skipif(not TOOLS.exists(), reason="tools/ is not next to the tests")


# Each variant's table of learned weights.
TABLES = {"hex": "prior_weights.inc", "rex": "prior_weights_rex.inc"}


def shipped_weights(variant: str) -> tuple[dict[int, float], dict[int, float], np.ndarray]:
    """The tables of the variant's cpp/search/prior_weights*.inc, read back."""
    text = (TOOLS.parent / "cpp" / "search" / TABLES[variant]).read_text()
    last = re.search(r"kLastMoveWeights\[3\] = \{([^}]*)\}", text)
    assert last is not None
    tables = {}
    for name in ("kInnerPatternWeights", "kFullPatternWeights"):
        body = text[text.index(name) :]
        body = body[: body.index("};")]
        tables[name] = {int(k): float(w) for k, w in re.findall(r"\{(\d+)u, (-?[\d.]+)f\}", body)}
    lam = np.array([float(x.strip().rstrip("f")) for x in last.group(1).split(",")])
    return tables["kFullPatternWeights"], tables["kInnerPatternWeights"], lam


@needs_tools
@pytest.mark.parametrize(("variant", "size", "most_plies"), [("hex", 11, 50), ("rex", 7, 30)])
def test_the_search_scores_cells_as_the_trainer_does(variant: str, size: int, most_plies: int) -> None:
    """cell_patterns' weight is the trainer's score from the variant's shipped
    tables: the full pattern's weight, else its neighbours', plus the last move's."""
    full, inner, lam = shipped_weights(variant)
    assert len(full) > 1000 and len(inner) > 100
    rng = random.Random(11)
    seen_full = seen_inner = 0
    for _ in range(40):
        cells = random_game(size, rng.randrange(1, most_plies), rng, variant)
        game = played(size, [c.name for c in cells], variant)
        key, inner_key, last, weight = prior(game.view(game.to_move))
        empty = key >= 0
        for k, i, m, w in zip(key[empty], inner_key[empty], last[empty], weight[empty], strict=True):
            seen_full += int(k) in full
            seen_inner += int(k) not in full and int(i) in inner
            expected = full.get(int(k), inner.get(int(i), 0.0)) + lam[m]
            assert w == pytest.approx(expected, abs=1e-4)
    assert seen_full > 0 and seen_inner > 0


@needs_tools
def test_the_trainer_generates_and_fits(tmp_path: Path) -> None:
    """tools/train_prior.py on two tiny games: positions saved, weights written as C++."""
    script = str(TOOLS / "train_prior.py")
    data, out = tmp_path / "a.npz", tmp_path / "w.inc"
    subprocess.run(
        [sys.executable, script, "generate", "--games", "3", "--simulations", "300", "--out", str(data)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    saved = np.load(data)
    assert len(saved["game"]) > 10 and saved["board"].shape[1:] == (11, 11)
    assert set(np.unique(saved["mover"])) <= {0, 1}
    proc = subprocess.run(
        [sys.executable, script, "fit", str(data), "--write", str(out)],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert "prior:" in proc.stdout
    text = out.read_text()
    assert (
        "kLastMoveWeights[3]" in text and "kInnerPatternWeights[]" in text and "kFullPatternWeights[]" in text
    )


@needs_tools
def test_the_trainer_learns_rex_from_several_sizes(tmp_path: Path) -> None:
    """Rex games of two sizes fit one Rex table; files of two variants are refused."""
    script = str(TOOLS / "train_prior.py")
    files = []
    for size in (6, 7):
        files.append(tmp_path / f"rex{size}.npz")
        subprocess.run(
            [sys.executable, script, "generate", "--variant", "rex", "--size", str(size),
             "--games", "2", "--simulations", "300", "--out", str(files[-1])],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
        saved = np.load(files[-1])
        assert str(saved["variant"]) == "rex" and saved["board"].shape[1:] == (size, size)
    out = tmp_path / "rex.inc"
    subprocess.run(
        [sys.executable, script, "fit", *map(str, files), "--write", str(out)],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    head = out.read_text().splitlines()[:3]
    assert "Rex move prior" in head[0] and head[2].endswith("6x6/7x7 games")
    hex_file = tmp_path / "hex.npz"
    subprocess.run(
        [sys.executable, script, "generate", "--size", "5", "--games", "1", "--simulations", "100",
         "--out", str(hex_file)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    mixed = subprocess.run(
        [sys.executable, script, "fit", str(files[0]), str(hex_file)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert mixed.returncode != 0 and "mix variants" in mixed.stderr
