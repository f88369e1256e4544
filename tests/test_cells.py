"""Cells: names, parsing, and text forms that never fail."""

from __future__ import annotations

import pytest

import hexengine as hx


@pytest.mark.parametrize(
    ("name", "cell"), [("a1", (0, 0)), ("s1", (0, 18)), ("a19", (18, 0)), ("K11", (10, 10))]
)
def test_names_and_cells_convert_both_ways(name: str, cell: tuple[int, int]) -> None:
    """A name is the column letter and the 1-based row; parsing it gives (row, col) back."""
    assert hx.Cell.parse(name) == cell and hx.Cell(*cell).name == name.lower()
    assert repr(hx.Cell(*cell)) == f"Cell({name.lower()!r})" and str(hx.Cell(*cell)) == name.lower()


@pytest.mark.parametrize(
    "cell", [(0, -98), (-1, 0), (0, 19), (19, 0), (0, 2**31 - 97), (-(10**30), 5), ("a", 1)]
)
def test_cells_off_every_board_have_text_but_no_name(cell: tuple[int, int]) -> None:
    """A Cell built from coordinates off every board still has a repr and str (used in error messages),
    while asking for its name is an IllegalMove 'off-board', not a ValueError from chr()."""
    c = hx.Cell(*cell)
    assert repr(c) == f"Cell({cell[0]!r}, {cell[1]!r})" and str(c) == repr(tuple(cell))
    with pytest.raises(hx.IllegalMove, match="off every board") as info:
        _ = c.name
    assert info.value.rule == "off-board"


def test_error_messages_about_odd_cells_are_built_without_failing() -> None:
    """Passing an off-board Cell where a colour or a move belongs gives the usual IllegalMove."""
    game = hx.Game("hex", size=4)
    with pytest.raises(hx.IllegalMove, match=r"expected hx\.RED or hx\.BLUE"):
        game.resign(hx.Cell(0, -98))  # type: ignore[arg-type]
    with pytest.raises(hx.IllegalMove, match="off the 4x4 board"):
        game.play(hx.Cell(0, 2**31 - 97))


@pytest.mark.parametrize("value", [None, 3, 1.5, b"c4", hx.Cell(2, 3), hx.RED])
def test_parse_takes_only_names(value: object) -> None:
    """Cell.parse of something that is not a string is a TypeError that says
    what it wants (it was an AttributeError from deep inside)."""
    with pytest.raises(TypeError, match=r"Cell\.parse takes a cell's name such as 'c4'"):
        hx.Cell.parse(value)  # type: ignore[arg-type]
