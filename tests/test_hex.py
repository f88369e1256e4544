"""Classic Hex: turns, edges and corners, neighbours, the end of the game, resigning and time-outs."""

from __future__ import annotations

import numpy as np
import pytest
from oracle import neighbours

import hexengine as hx


def play_all(game: hx.Game, moves: list[str]) -> hx.Game:
    for move in moves:
        game.play(move)
    return game


def test_red_moves_first_and_turns_alternate() -> None:
    """Red moves first; each placement passes the turn to the other colour."""
    game = hx.Game("hex", size=5, swap="off")
    assert game.to_move is hx.RED
    for k, move in enumerate(["a1", "b1", "c1", "d1"]):
        assert game.to_move is (hx.RED if k % 2 == 0 else hx.BLUE)
        assert game.play(move) is hx.MoveResult.PLACED
    assert game.to_move is hx.RED
    assert [a.color for a in game.history] == [hx.RED, hx.BLUE, hx.RED, hx.BLUE]


@pytest.mark.parametrize(
    ("moves", "winner", "chain"),
    [
        # Red down column a: both obtuse corners a1 and a3 serve as red edge cells.
        (["a1", "b1", "a2", "b2", "a3"], hx.RED, ["a1", "a2", "a3"]),
        # Blue along row 1: the same corners a1 and c1 serve as blue edge cells.
        (["a2", "a1", "b2", "b1", "c3", "c1"], hx.BLUE, ["a1", "b1", "c1"]),
        # Red on the short diagonal: the acute corners c1 and a3 are red edge cells...
        (["c1", "a1", "b2", "b1", "a3"], hx.RED, ["c1", "b2", "a3"]),
        # ... and blue edge cells too.
        (["a1", "c1", "b1", "b2", "c3", "a3"], hx.BLUE, ["a3", "b2", "c1"]),
    ],
)
def test_corner_cells_count_as_edge_cells_for_both_colours(
    moves: list[str], winner: hx.Color, chain: list[str]
) -> None:
    """Each corner touches one red and one blue edge, and a chain through it wins for either colour."""
    game = play_all(hx.Game("hex", size=3, swap="off"), moves)
    assert game.is_over and game.winner is winner and game.end_reason == "connection"
    assert [c.name for c in game.completed_chain()] == chain


def test_single_cell_board_is_won_by_the_first_stone() -> None:
    """On 1x1 the only cell is a corner of all four edges: Red's first stone joins both red edges."""
    game = hx.Game("hex", size=1)
    game.play("a1")
    assert game.winner is hx.RED and game.completed_chain() == [(0, 0)]


def test_oracle_neighbours_are_the_six_of_the_rules() -> None:
    """The tests' reference neighbours are exactly docs/rules.md's six, clipped at the board's border."""
    assert sorted(neighbours((2, 2), 5, 5)) == [(1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2)]
    assert sorted(neighbours((0, 0), 5, 5)) == [(0, 1), (1, 0)]
    assert sorted(neighbours((0, 4), 5, 5)) == [(0, 3), (1, 3), (1, 4)]
    assert sorted(neighbours((4, 0), 5, 5)) == [(3, 0), (3, 1), (4, 1)]
    assert sorted(neighbours((4, 4), 5, 5)) == [(3, 4), (4, 3)]


@pytest.mark.parametrize("cols", [1, 2, 4, 7])
def test_red_stones_on_two_rows_touch_exactly_below_and_below_left(cols: int) -> None:
    """On a two-row board Red wins with (0, c) and (1, c') exactly when c' is c or c - 1:
    the neighbours (r+1, c) and (r+1, c-1) of the rules, and no others."""
    for c in range(cols):
        for c2 in range(cols):
            game = hx.Game("hex", rows=2, cols=cols, swap="off")
            game.play((0, c))
            if cols > 1:  # a harmless Blue stone: one stone cannot join Blue's edges here
                game.play(next((1, x) for x in range(cols) if x != c2))
                game.play((1, c2))
                assert game.is_over == (c2 in (c, c - 1)), (c, c2)
            else:  # a one-column board: Blue's first stone joins its edges
                game.play((1, 0))
                assert game.winner is hx.BLUE


@pytest.mark.parametrize("rows", [3, 4, 7])
def test_blue_stones_on_two_columns_touch_exactly_right_and_up_right(rows: int) -> None:
    """On a two-column board Blue wins with (r, 0) and (r', 1) exactly when r' is r or r - 1:
    the neighbours (r, c+1) and (r-1, c+1) of the rules, and no others."""
    for r in range(rows):
        for r2 in range(rows):
            game = hx.Game("hex", rows=rows, cols=2, swap="off")
            spare = [(x, y) for x in range(rows) for y in range(2) if (x, y) not in ((r, 0), (r2, 1))]
            game.play(spare[0])  # Red needs a stone in each of 3+ rows, so two stones never win here
            game.play((r, 0))
            game.play(spare[-1])
            game.play((r2, 1))
            assert game.is_over == (r2 in (r, r - 1)), (r, r2)
            assert game.winner in ((hx.BLUE,) if r2 in (r, r - 1) else (None,))


def test_a_middle_cell_joins_rows_through_its_upper_and_lower_neighbours() -> None:
    """Red's (1, 1) on a 3x3 board joins (0, 1), (0, 2) above and (2, 0), (2, 1) below, and nothing else."""
    for top in range(3):
        for bottom in range(3):
            game = hx.Game("hex", size=3, swap="off")
            # Blue's (1, 0) and (1, 2) cannot cross without (1, 1).
            for cell in [(0, top), (1, 0), (2, bottom), (1, 2), (1, 1)]:
                game.play(cell)
            red_won = game.winner is hx.RED
            assert red_won == (top in (1, 2) and bottom in (0, 1)), (top, bottom)


def test_the_game_ends_the_moment_a_chain_is_completed() -> None:
    """The placement that completes the chain ends the game: no one is to move and no move is legal."""
    game = play_all(hx.Game("hex", size=3, swap="off"), ["a1", "b1", "a2", "b2"])
    assert not game.is_over and game.winner is None and game.end_reason is None
    game.play("a3")
    assert game.is_over and game.winner is hx.RED and game.to_move is None
    assert game.legal_moves() == [] and game.view(hx.BLUE).legal_moves() == []


def test_completed_chain_leaves_out_stones_that_are_not_needed() -> None:
    """The reported chain is the winner's, links its two edges and has no removable stone (b2 is extra)."""
    game = play_all(hx.Game("hex", size=3, swap="off"), ["a1", "c3", "b2", "b3", "a2", "c2", "a3"])
    assert game.winner is hx.RED
    assert [c.name for c in game.completed_chain()] == ["a1", "a2", "a3"]


def test_moves_after_the_end_are_illegal_and_change_nothing() -> None:
    """Once the game is over every action raises IllegalMove 'game-over' and the game stays as it was."""
    game = play_all(hx.Game("hex", size=3), ["a1", "b1", "a2", "b2", "a3"])
    with pytest.raises(hx.IllegalMove, match=r"^cannot play c3: the game is over") as info:
        game.play("c3")
    assert (info.value.rule, info.value.cell) == ("game-over", (2, 2))
    before = (game.history, game.board.tobytes(), game.winner, game.end_reason)
    for action in (
        lambda: game.play("c3"),
        lambda: game.play("a1"),
        lambda: game.play("swap"),
        lambda: game.resign(hx.BLUE),
        lambda: game.resign(hx.RED),
        lambda: game.timeout(hx.BLUE),
    ):
        with pytest.raises(hx.IllegalMove, match="over") as info:
            action()
        assert info.value.rule == "game-over"
    assert (game.history, game.board.tobytes(), game.winner, game.end_reason) == before


def test_occupied_cells_are_illegal_and_the_error_names_cell_and_rule() -> None:
    """Playing on any stone raises IllegalMove naming the cell and the rule 'occupied'."""
    game = play_all(hx.Game("hex", size=5), ["c3", "d4"])
    for cell, owner in (("c3", "Red"), ("d4", "Blue")):
        with pytest.raises(hx.IllegalMove, match=f"{cell} already holds a {owner} stone") as info:
            game.play(cell)
        assert info.value.rule == "occupied" and info.value.cell == hx.Cell.parse(cell)
    assert game.to_move is hx.RED and len(game.history) == 2


@pytest.mark.parametrize("resigner", [hx.RED, hx.BLUE])
@pytest.mark.parametrize("moves", [[], ["a1"], ["a1", "b2"], ["a1", "b2", "c3"]])
def test_either_player_may_resign_at_any_time(resigner: hx.Color, moves: list[str]) -> None:
    """Resigning works before any move, on turn and out of turn; the opponent wins by resignation."""
    game = play_all(hx.Game("hex", size=5), moves)
    game.resign(resigner)
    assert game.is_over and game.winner is resigner.opponent and game.end_reason == "resignation"
    assert game.to_move is None and game.completed_chain() == [] and game.legal_moves() == []
    assert len(game.history) == len(moves)


def test_only_the_player_to_move_can_run_out_of_time() -> None:
    """timeout(color) ends the game for the player to move; for the other player it is an IllegalMove."""
    game = play_all(hx.Game("hex", size=5), ["a1"])
    with pytest.raises(hx.IllegalMove, match="Red cannot run out of time: it is Blue's turn") as info:
        game.timeout(hx.RED)
    assert info.value.rule == "not-on-turn" and not game.is_over
    game.timeout(hx.BLUE)
    assert game.winner is hx.RED and game.end_reason == "timeout" and game.completed_chain() == []


@pytest.mark.parametrize("bad", [1, 2, None, "red", "RED", 1.0, True])
def test_colour_arguments_must_be_colours(bad: object) -> None:
    """resign/timeout/view take hx.RED or hx.BLUE; anything else is a clear error, not a guess."""
    game = hx.Game("hex", size=3)
    for method in (game.resign, game.timeout, game.view):
        with pytest.raises(hx.IllegalMove, match=r"expected hx\.RED or hx\.BLUE") as info:
            method(bad)  # type: ignore[arg-type]
        assert info.value.rule == "colour"
    assert not game.is_over


def test_legal_moves_are_the_empty_cells_in_row_major_order() -> None:
    """legal_moves() lists every empty cell as a Cell, row by row, plus 'swap' exactly when allowed."""
    game = hx.Game("hex", rows=2, cols=3)
    assert game.legal_moves() == [hx.Cell(r, c) for r in range(2) for c in range(3)]
    game.play("b1")
    assert game.legal_moves() == [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2), "swap"]
    game.play("a2")
    assert game.legal_moves() == [(0, 0), (0, 2), (1, 1), (1, 2)]


@pytest.mark.parametrize(
    "move", ["f6", "F6", " f6 ", (5, 5), hx.Cell(5, 5), 60, np.int64(60), (np.int32(5), np.uint8(5))]
)
def test_every_cell_form_names_the_same_cell(move: object) -> None:
    """A move may be a name, a (row, col) pair, a Cell, or an index row*cols+col (numpy ints too)."""
    game = hx.Game("hex", size=11)
    game.play(move)  # type: ignore[arg-type]
    assert game.history == [hx.Action(hx.RED, hx.Cell(5, 5), hx.MoveResult.PLACED)]
    assert game.board[5, 5] == hx.RED and np.count_nonzero(game.board) == 1


@pytest.mark.parametrize(
    ("move", "rule", "words"),
    [
        ("f1", "off-board", "off the 4x5 board"),
        ("a5", "off-board", "off the 4x5 board"),
        ((4, 0), "off-board", "off the 4x5 board"),
        ((0, 5), "off-board", "off the 4x5 board"),
        ((-1, 0), "off-board", "off the 4x5 board"),
        (20, "off-board", "off the 4x5 board"),
        (-1, "off-board", "off the 4x5 board"),
        ("a0", "notation", "row numbers start at 1"),
        ("11", "notation", "column letter"),
        ("pass", "notation", "not a cell"),
        (None, "notation", "cannot read None"),
        (1.5, "notation", "cannot read 1.5"),
        ((0, 1, 2), "notation", "cannot read"),
        (("a", 1), "notation", "must be integers"),
    ],
)
def test_bad_cells_raise_illegal_move_naming_the_problem(move: object, rule: str, words: str) -> None:
    """Off-board cells and unreadable moves raise IllegalMove with a message that says what is wrong."""
    game = hx.Game("hex", rows=4, cols=5)
    with pytest.raises(hx.IllegalMove, match=words) as info:
        game.play(move)  # type: ignore[arg-type]
    assert info.value.rule == rule
    assert game.history == [] and game.to_move is hx.RED


def test_copy_is_independent_of_the_original() -> None:
    """A copy plays on without changing the original, and the other way round."""
    game = play_all(hx.Game("hex", size=4), ["a1", "b2"])
    clone = game.copy()
    clone.play("c3")
    game.play("d4")
    assert [a.cell.name for a in game.history] == ["a1", "b2", "d4"]
    assert [a.cell.name for a in clone.history] == ["a1", "b2", "c3"]
    assert game.board[2, 2] == 0 and clone.board[3, 3] == 0


def test_history_and_board_after_replay_every_action() -> None:
    """history lists every action; board_after(k) is the board after the first k of them."""
    game = play_all(hx.Game("hex", size=3, swap="off"), ["b2", "a1", "c1"])
    assert [str(a) for a in game.history] == ["Red b2", "Blue a1", "Red c1"]
    boards = [game.board_after(k) for k in range(4)]
    assert [int(np.count_nonzero(b)) for b in boards] == [0, 1, 2, 3]
    assert np.array_equal(boards[-1], game.board)
    assert [a for a, _ in game.replay()] == [None, *game.history]


def _first_player_wins(game: hx.Game, memo: dict[bytes, bool]) -> bool:
    """Whether the player to move wins with perfect play, searched through the engine itself."""
    key = game.board.tobytes() + bytes([int(game.to_move)])
    if key not in memo:
        me = game.to_move
        memo[key] = False
        for move in game.legal_moves():
            child = game.copy()
            child.play(move)
            if child.winner is me or (not child.is_over and not _first_player_wins(child, memo)):
                memo[key] = True
                break
    return memo[key]


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (2, 2), (3, 3), (2, 3), (3, 2)])
def test_small_boards_have_the_known_theoretical_winner(rows: int, cols: int) -> None:
    """Solved through the engine: on n x n without swap the first player (Red) wins; on a non-square
    board the colour with the shorter crossing wins even moving second (Red crosses rows, Blue
    columns), so Red wins exactly when rows <= cols."""
    game = hx.Game("hex", rows=rows, cols=cols, swap="off")
    red_wins = _first_player_wins(game, {})
    assert red_wins == (rows <= cols)


@pytest.mark.parametrize("text", ["\ud800", "a\udfff1", " \udc80 "])
def test_text_utf8_cannot_encode_is_a_notation_error(text: str) -> None:
    """Strings with lone surrogates are read like other bad names: IllegalMove 'notation', not TypeError."""
    game = hx.Game("hex", size=5)
    with pytest.raises(hx.IllegalMove, match="is not a cell") as info:
        game.play(text)
    assert info.value.rule == "notation" and game.history == []
    with pytest.raises(hx.IllegalMove, match="is not a cell"):
        hx.Cell.parse(text)
