"""Rex (misère Hex): completing your own chain loses, even when you have no other move."""

from __future__ import annotations

import pytest
from oracle import board_connects

import hexengine as hx

# Rex 4x4 without swap; Red to move. Every empty cell (a1, b1, c1, c2) joins Red's chain
# a2-b2-b3-b4 (or c3) to the top row, so whatever Red plays, Red completes its chain:
#     a b c d
#  1  . . . X  1
#   2  X X . O  2
#    3  O X X O  3
#     4  O X O O  4
FORCED = ["b3", "a4", "d1", "c4", "b2", "d4", "b4", "a3", "a2", "d3", "c3", "d2"]


def play_all(game: hx.Game, moves: list[str]) -> hx.Game:
    for move in moves:
        game.play(move)
    return game


def test_completing_your_own_chain_loses() -> None:
    """The player who joins their own two edges loses; the game ends at once; the opponent wins."""
    game = play_all(hx.Game("rex", size=3, swap="off"), ["a1", "c1", "a2", "c2"])
    assert not game.is_over
    game.play("a3")
    assert game.is_over and game.end_reason == "connection"
    assert game.winner is hx.BLUE and game.to_move is None


def test_completed_chain_is_the_losers() -> None:
    """In Rex the reported chain is the loser's: the stones that joined the loser's own edges."""
    game = play_all(hx.Game("rex", size=3, swap="off"), ["a1", "a2", "b1", "b2", "a3", "c2"])
    assert game.winner is hx.RED
    chain = game.completed_chain()
    assert [c.name for c in chain] == ["a2", "b2", "c2"]
    assert all(game.board[c] == hx.BLUE for c in chain)
    assert board_connects(game.board, hx.BLUE) and not board_connects(game.board, hx.RED)


def test_forced_loss_on_a_nearly_full_board() -> None:
    """When every empty cell completes the mover's chain the mover must still play one and lose:
    there is no pass, and each of the four moves ends the game with the opponent as winner."""
    game = play_all(hx.Game("rex", size=4, swap="off"), FORCED)
    assert game.to_move is hx.RED and not game.is_over
    assert [m.name for m in game.legal_moves()] == ["a1", "b1", "c1", "c2"]
    with pytest.raises(hx.IllegalMove) as info:
        game.play("pass")
    assert info.value.rule == "notation"
    for move in game.legal_moves():
        trial = game.copy()
        trial.play(move)
        assert trial.is_over and trial.winner is hx.BLUE and trial.end_reason == "connection"
        assert move in trial.completed_chain()
        assert all(trial.board[c] == hx.RED for c in trial.completed_chain())


def test_hex_on_the_same_position_is_a_forced_win() -> None:
    """The same moves in Hex: every one of Red's moves wins, which shows the Rex result is the reversal."""
    game = play_all(hx.Game("hex", size=4, swap="off"), FORCED)
    for move in game.legal_moves():
        trial = game.copy()
        trial.play(move)
        assert trial.winner is hx.RED


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 5)])
def test_on_one_row_the_first_stone_loses(rows: int, cols: int) -> None:
    """On one row each red stone touches both red edges: Red's first move completes a chain and loses."""
    game = hx.Game("rex", rows=rows, cols=cols)
    game.play((0, cols // 2))
    assert game.winner is hx.BLUE and game.completed_chain() == [(0, cols // 2)]


def test_on_one_column_blues_first_stone_loses() -> None:
    """On a one-column board any blue stone touches both blue edges: Blue's first placement loses."""
    game = hx.Game("rex", rows=5, cols=1, swap="off")
    game.play("a1")
    game.play("a3")
    assert game.winner is hx.RED and game.completed_chain() == [(2, 0)]


def _mover_wins(game: hx.Game, memo: dict[bytes, bool]) -> bool:
    """Whether the player to move wins with perfect play, searched through the engine."""
    key = game.board.tobytes() + bytes([int(game.to_move)])
    if key not in memo:
        me = game.to_move
        memo[key] = False
        for move in game.legal_moves():
            child = game.copy()
            child.play(move)
            if child.winner is me or (not child.is_over and not _mover_wins(child, memo)):
                memo[key] = True
                break
    return memo[key]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_small_boards_follow_lagarias_sleator(n: int) -> None:
    """Solved through the engine: in Rex on n x n without swap the first player wins when n is even
    and the second player when n is odd (Lagarias and Sleator, 1999)."""
    assert _mover_wins(hx.Game("rex", size=n, swap="off"), {}) == (n % 2 == 0)
