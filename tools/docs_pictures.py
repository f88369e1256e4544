"""Draws the pictures of docs/rules.md with hexengine's own SVG drawing (hexengine/svg.py).

Every picture comes from a fixed list of moves, so the same hexengine draws the
same bytes::

    python tools/docs_pictures.py              # writes docs/img/rules/*.svg
    python tools/docs_pictures.py --out DIR    # writes them somewhere else

tests/test_docs_pictures.py draws them into a temporary folder and fails when a
committed picture differs, so a change to the drawing comes with the pictures it
changes: run this script and commit docs/img/rules.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import hexengine as hx
from hexengine.svg import board_svg

OUT = Path(__file__).resolve().parent.parent / "docs" / "img" / "rules"

# The games behind the pictures; docs/rules.md plays the same moves in its examples.
HEX_WON = ["d2", "d3", "c3", "c4", "b4", "a5", "b5", "a1", "d1"]
BRIDGE = ["c1", "a2", "b3"]
SWAP_FIRST = "d2"
REX_LOST = ["b1", "a1", "c4", "d4", "c1", "a2", "c3", "d3", "b4", "d1", "d2", "a4", "a3", "b2", "b3", "c2"]
DARK = ["c3", "c3", "b4", "d2", "c2"]


def played(variant: hx.Variant, size: int, moves: Sequence[str], swap: hx.SwapForm | None = None) -> hx.Game:
    """A new game with ``moves`` played."""
    game = hx.Game(variant, size=size, swap=swap)
    for move in moves:
        game.play(move)
    return game


def empty_board() -> str:
    """An empty 5x5 board: the red edges carry the column letters, the blue edges the row numbers."""
    return hx.svg(hx.Game("hex", size=5))


def hex_won() -> str:
    """Red has joined the two red edges: the winning chain is outlined."""
    return hx.svg(played("hex", 5, HEX_WON, swap="off"))


def bridge() -> str:
    """Red's c1 and b3 share two empty neighbours, b2 and c2 (outlined): whichever Blue
    takes, Red takes the other."""
    game = played("hex", 3, BRIDGE, swap="off")
    carrier = [hx.Cell("b2"), hx.Cell("c2")]
    return board_svg(game.board, chain=carrier, title="A bridge: c1 and b3 share b2 and c2")


def swap_before(form: hx.SwapForm) -> Callable[[], str]:
    def draw() -> str:
        return hx.svg(played("hex", 5, [SWAP_FIRST], swap=form))

    draw.__doc__ = f"Red's first stone on d2; Blue may swap ({form} form)."
    return draw


def swap_after(form: hx.SwapForm) -> Callable[[], str]:
    def draw() -> str:
        return hx.svg(played("hex", 5, [SWAP_FIRST, "swap"], swap=form))

    draw.__doc__ = f"Right after Blue's swap ({form} form)."
    return draw


def rex_lost() -> str:
    """Rex on 4x4: Blue's last move fills the board and completes Blue's chain, so Blue loses."""
    return hx.svg(played("rex", 4, REX_LOST, swap="off"))


def dark(who: str) -> Callable[[], str]:
    def draw() -> str:
        game = played("dark", 5, DARK)
        views = {"red": game.view(hx.RED), "blue": game.view(hx.BLUE), "spectator": game.spectator_view()}
        return hx.svg(game if who == "true" else views[who])

    draw.__doc__ = f"The Dark Hex position of docs/rules.md section 5: {who} (the true board or a view)."
    return draw


PICTURES: dict[str, Callable[[], str]] = {
    "board-5x5.svg": empty_board,
    "hex-won.svg": hex_won,
    "bridge.svg": bridge,
    "swap-sides-before.svg": swap_before("sides"),
    "swap-sides-after.svg": swap_after("sides"),
    "swap-pieces-before.svg": swap_before("pieces"),
    "swap-pieces-after.svg": swap_after("pieces"),
    "rex-lost.svg": rex_lost,
    "dark-true.svg": dark("true"),
    "dark-red.svg": dark("red"),
    "dark-blue.svg": dark("blue"),
    "dark-spectator.svg": dark("spectator"),
}
"""Each picture's file name and the function that draws it."""


def pictures() -> dict[str, bytes]:
    """Every picture's file name and its bytes (UTF-8, one final newline, whatever the platform)."""
    return {name: (draw() + "\n").encode("utf-8") for name, draw in PICTURES.items()}


def write(out: Path) -> list[Path]:
    """Writes every picture into ``out`` (created if needed) and returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in pictures().items():
        path = out / name
        path.write_bytes(data)
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draws the pictures of docs/rules.md.")
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write the SVG files into")
    args = parser.parse_args(argv)
    for path in write(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
