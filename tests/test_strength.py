"""The short version of the strength match against OpenSpiel's MCTSBot (the full one is
``bench/strength_openspiel.py``, 100+ games; its figures are in the README).

Both bots get the same simulations per move, colours alternate, swap is off, and game i
seeds both sides with i, so these games are the first games of the benchmark and replay
identically. The counts asserted are below what the full match measured, so a pass means
the bot still plays at that level, and a regression in search or knowledge turns it red.
"""

from __future__ import annotations

import pytest
from _scripts import load_script

pytest.importorskip("pyspiel")


def match(variant: str, size: int, simulations: int, games: int) -> int:
    """hexengine's wins in the first ``games`` games of the benchmark match."""
    bench = load_script("bench/strength_openspiel.py")
    return sum(bench.play_game(variant, size, simulations, i)[0] for i in range(games))


def test_hex_11x11_beats_openspiel_at_equal_simulations() -> None:
    """11x11 Hex, 1,000 simulations a move: every game of 4 (the full match: 100 of 100)."""
    assert match("hex", 11, 1000, 4) == 4


def test_rex_7x7_beats_openspiel_at_equal_simulations() -> None:
    """7x7 Rex, 1,000 simulations a move: at least 5 of 6 (the full match: 97 of 100; Red,
    who moves first, loses 7x7 Rex with perfect play, so the Red games are the hard ones)."""
    assert match("rex", 7, 1000, 6) >= 5


@pytest.mark.slow
def test_longer_matches() -> None:
    """20 games of each at 1,000 simulations a move: at least 19 (Hex) and 18 (Rex)."""
    assert match("hex", 11, 1000, 20) >= 19
    assert match("rex", 7, 1000, 20) >= 18
