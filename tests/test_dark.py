"""Dark Hex: hits, classic and abrupt turn order, forbidden targets, no swap, and what each side is told."""

from __future__ import annotations

import numpy as np
import pytest

import hexengine as hx

PLACED, HIT = hx.MoveResult.PLACED, hx.MoveResult.HIT
DARK = ["dark", "dark-abrupt"]


def play_all(game: hx.Game, moves: list[str]) -> list[hx.MoveResult]:
    return [game.play(move) for move in moves]


@pytest.mark.parametrize("variant", DARK)
def test_a_hit_places_nothing_and_reveals_the_stone_to_the_mover_only(variant: str) -> None:
    """Moving onto a hidden enemy stone is a hit: no stone is placed, the mover now sees that stone,
    the owner is told one of its stones was hit (not which), spectators see nothing."""
    game = hx.Game(variant, size=3)
    game.play("b2")
    before = game.board
    assert game.play("b2") is HIT
    assert np.array_equal(game.board, before)
    assert game.history[-1] == hx.Action(hx.BLUE, hx.Cell(1, 1), HIT)
    blue, red, spectator = game.view(hx.BLUE), game.view(hx.RED), game.spectator_view()
    assert blue.board[1, 1] == hx.RED and blue.hits == [(1, 1)] and blue.hidden_enemy_stones == 0
    assert red.hits_received == 1 and red.history[-1] == hx.Action(hx.BLUE, None, HIT)
    assert not spectator.board.any() and spectator.hidden_enemy_stones == 1


def test_classic_a_hit_gives_the_mover_another_move() -> None:
    """In 'dark' (classic) the hitter moves again; the turn passes only with a placement."""
    game = hx.Game("dark", size=3)
    game.play("b2")
    assert game.play("b2") is HIT and game.to_move is hx.BLUE
    assert game.play("a1") is PLACED and game.to_move is hx.RED


def test_abrupt_a_hit_ends_the_turn() -> None:
    """In 'dark-abrupt' a hit ends the hitter's turn: the opponent moves next."""
    game = hx.Game("dark-abrupt", size=3)
    game.play("b2")
    assert game.play("b2") is HIT and game.to_move is hx.RED
    assert game.play("a1") is PLACED and game.to_move is hx.BLUE


def test_classic_repeated_hits_keep_the_turn_until_a_placement() -> None:
    """In classic Dark Hex a player may hit several times in a row; each hit is recorded and told."""
    game = hx.Game("dark", size=4)
    play_all(game, ["a1", "d4", "b1", "c4"])  # Red a1, b1; Blue d4, c4
    assert play_all(game, ["d4", "c4"]) == [HIT, HIT]  # Red hits both blue stones
    assert game.to_move is hx.RED
    assert game.play("c3") is PLACED and game.to_move is hx.BLUE
    red, blue = game.view(hx.RED), game.view(hx.BLUE)
    assert red.hits == [(3, 3), (3, 2)] and red.hidden_enemy_stones == 0
    assert blue.hits_received == 2 and blue.hidden_enemy_stones == 3
    assert [a.result for a in blue.history] == [PLACED, PLACED, PLACED, PLACED, HIT, HIT, PLACED]
    assert [a.cell for a in blue.history if a.color is hx.RED] == [None] * 5


def test_abrupt_repeated_hits_take_one_turn_each() -> None:
    """In abrupt Dark Hex each hit costs the turn, so hits alternate with the opponent's moves."""
    game = hx.Game("dark-abrupt", size=4)
    play_all(game, ["a1", "d4", "b1", "c4"])
    assert game.play("d4") is HIT and game.to_move is hx.BLUE
    assert game.play("b1") is HIT and game.to_move is hx.RED
    assert game.play("c4") is HIT and game.to_move is hx.BLUE
    assert [a.color for a in game.history[-3:]] == [hx.RED, hx.BLUE, hx.RED]


@pytest.mark.parametrize("variant", DARK)
def test_own_stones_and_found_stones_are_illegal_targets(variant: str) -> None:
    """Your own stones ('own-stone') and enemy stones you have found ('found-stone') are forbidden;
    the error names the cell; the game does not change."""
    game = hx.Game(variant, size=3)
    play_all(game, ["a1", "c3"])  # Red a1, Blue c3
    with pytest.raises(hx.IllegalMove, match="a1 already holds your own Red stone") as info:
        game.play("a1")
    assert (info.value.rule, info.value.cell) == ("own-stone", (0, 0))
    assert game.play("c3") is HIT  # Red finds c3
    if variant == "dark-abrupt":
        game.play("b2")  # Blue's turn in abrupt; back to Red
    actions = len(game.history)
    with pytest.raises(hx.IllegalMove, match="c3 holds a Blue stone that Red has already found") as info:
        game.play("c3")
    assert (info.value.rule, info.value.cell) == ("found-stone", (2, 2))
    assert game.to_move is hx.RED and len(game.history) == actions


@pytest.mark.parametrize("variant", DARK)
def test_legal_moves_are_the_cells_not_known_to_be_occupied(variant: str) -> None:
    """The mover may choose any cell it does not know to be occupied: hidden enemy stones included,
    own stones and found stones excluded; the view and the game agree."""
    game = hx.Game(variant, size=3)
    play_all(game, ["a1", "b1", "c1"])  # Red a1, Blue b1, Red c1
    assert game.play("a1") is HIT  # Blue finds a1
    if variant == "dark-abrupt":
        game.play("a3")  # Red
    blue = game.view(hx.BLUE)
    expected = [c for c in (hx.Cell(r, k) for r in range(3) for k in range(3)) if c not in ((0, 0), (0, 1))]
    assert blue.legal_moves() == expected == game.legal_moves()
    assert (0, 2) in blue.legal_moves()  # c1 holds a hidden red stone: a legal target


def test_hidden_enemy_stones_count_the_opponents_unfound_placements() -> None:
    """Each view counts the enemy stones on the board it has not found; every player could deduce it."""
    game = hx.Game("dark", size=5)
    play_all(game, ["a1", "e5", "b1", "d5", "c1"])
    assert game.view(hx.BLUE).hidden_enemy_stones == 3
    assert game.view(hx.RED).hidden_enemy_stones == 2
    game.play("b1")  # Blue hits b1
    assert game.view(hx.BLUE).hidden_enemy_stones == 2
    assert game.spectator_view().hidden_enemy_stones == 5


@pytest.mark.parametrize("variant", DARK)
@pytest.mark.parametrize("swap", ["sides", "pieces"])
def test_swap_in_dark_hex_is_a_rules_error(variant: str, swap: str) -> None:
    """Dark Hex never swaps (Blue cannot see Red's first stone): asking for it is a RulesError."""
    with pytest.raises(hx.RulesError, match="not available in"):
        hx.Game(variant, size=5, swap=swap)  # type: ignore[arg-type]
    with pytest.raises(hx.RulesError):
        hx.Rules(variant, 5, 5, swap)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", DARK)
def test_swap_off_is_accepted_and_swap_moves_are_refused(variant: str) -> None:
    """swap='off' (also the default) is accepted in Dark Hex; playing 'swap' raises IllegalMove 'swap-off'."""
    assert hx.Game(variant, size=5, swap="off").rules.swap == "off"
    game = hx.Game(variant, size=5)
    assert game.rules.swap == "off"
    game.play("c3")
    assert "swap" not in game.legal_moves() and "swap" not in game.view(hx.BLUE).legal_moves()
    with pytest.raises(hx.IllegalMove, match="no swap in Dark Hex") as info:
        game.play("swap")
    assert info.value.rule == "swap-off" and game.to_move is hx.BLUE and len(game.history) == 1


@pytest.mark.parametrize("variant", DARK)
def test_a_connection_reveals_the_whole_board_to_everyone(variant: str) -> None:
    """When a chain is completed the whole board becomes visible to both players and to spectators."""
    game = hx.Game(variant, size=2)
    play_all(game, ["a1", "b2", "a2"])
    assert game.is_over and game.winner is hx.RED and game.end_reason == "connection"
    for view in (game.view(hx.RED), game.view(hx.BLUE), game.spectator_view()):
        assert np.array_equal(view.board, game.board) and view.hidden_enemy_stones == 0
        assert view.history == game.history


@pytest.mark.parametrize("variant", DARK)
@pytest.mark.parametrize("end", ["resign", "timeout"])
def test_after_resignation_or_timeout_views_stay_hidden_but_the_record_is_complete(
    variant: str, end: str
) -> None:
    """A resignation or time-out ends the game without revealing anything to the players or spectators;
    the referee's history and replay show every stone."""
    game = hx.Game(variant, size=4)
    play_all(game, ["a1", "d4", "b2"])
    before = {v: game.view(v) for v in (hx.RED, hx.BLUE)}
    if end == "resign":
        game.resign(hx.RED)  # out of turn
    else:
        game.timeout(hx.BLUE)
    assert game.winner is (hx.BLUE if end == "resign" else hx.RED)
    for color, old in before.items():
        now = game.view(color)
        assert np.array_equal(now.board, old.board) and now.history == old.history
        assert now.hidden_enemy_stones == old.hidden_enemy_stones > 0
    assert not game.spectator_view().board.any()
    assert [a.cell.name for a in game.history] == ["a1", "d4", "b2"]
    _, final = list(game.replay())[-1]
    assert np.array_equal(final, game.board) and np.count_nonzero(final) == 3


def test_the_game_ends_with_a_winner_even_after_many_hits() -> None:
    """Hits never loop: a classic game where Blue keeps hitting still ends with a connection."""
    game = hx.Game("dark", size=2)
    play_all(game, ["a1", "a1"])  # Blue hits a1
    play_all(game, ["b1"])  # Blue places b1
    assert game.play("b1") is HIT  # Red hits b1
    play_all(game, ["a2"])  # Red completes a1-a2
    assert game.winner is hx.RED and [c.name for c in game.completed_chain()] == ["a1", "a2"]
