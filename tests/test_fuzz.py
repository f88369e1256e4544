"""Fuzzing the public boundary with hypothesis: random calls with random arguments in random order.

Whatever a caller passes, the engine answers with a result or a hexengine.HexError
(IllegalMove or RulesError) whose message says what is wrong; it never crashes,
hangs or raises anything else, and a rejected call leaves the game exactly as it was.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import VARIANTS, check_all_views, check_completed_chain, examples

import hexengine as hx

RULE_NAMES = {
    "occupied",
    "own-stone",
    "found-stone",
    "swap-off",
    "swap-timing",
    "game-over",
    "off-board",
    "notation",
    "not-on-turn",
    "colour",
}

WORDS = st.sampled_from(
    [
        "swap", "SWAP", " swap ", "swapx", "pass", "resign", "a1", "A1", "b2", "s19", "t1", "a20", "a0",
        "z99", "a01", "1a", "aa1", "", " ", "\t", "\x00", "a1\x00", "é1", "a\u0661", "\ud800", "a\udfff1",
        "a" * 1000, "-1", "0", "1e3", "(1, 2)",
    ]
)  # fmt: skip
INTS = st.one_of(
    st.integers(-3, 400),
    st.integers(),
    st.sampled_from([2**31 - 1, 2**31, -(2**31) - 1, 2**63 - 1, 2**63, -(2**63), 2**64, 10**100, -(10**100)]),
)
NUMPY = st.one_of(
    st.builds(np.int64, st.integers(-(2**63), 2**63 - 1)),
    st.builds(np.uint64, st.integers(0, 2**64 - 1)),
    st.builds(np.int8, st.integers(-128, 127)),
    st.builds(np.uint8, st.integers(0, 255)),
    st.builds(np.float64, st.floats()),
    st.builds(np.bool_, st.booleans()),
)
SCALARS = st.one_of(
    WORDS,
    st.text(max_size=6),
    st.text(st.characters(codec="utf-8"), max_size=4),
    st.binary(max_size=4),
    INTS,
    NUMPY,
    st.floats(),
    st.none(),
    st.booleans(),
    st.complex_numbers(allow_nan=True),
    st.sampled_from([hx.RED, hx.BLUE, hx.MoveResult.HIT, hx.SWAP, object(), Ellipsis, float("inf")]),
)
JUNK = st.one_of(
    SCALARS,
    st.tuples(INTS, INTS),
    st.tuples(SCALARS, SCALARS),
    st.tuples(NUMPY, NUMPY),
    st.builds(hx.Cell, INTS, INTS),
    st.tuples(INTS),
    st.tuples(INTS, INTS, INTS),
    st.lists(st.integers(0, 20), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.frozensets(st.integers(0, 3), max_size=2),
)
COLOURS = st.one_of(st.sampled_from([hx.RED, hx.BLUE]), JUNK)
OPERATIONS = st.sampled_from(
    ["legal", "legal", "legal", "junk", "junk", "swap", "resign", "timeout", "view", "spectator", "copy"]
)


def snapshot(game: hx.Game) -> tuple:
    """Everything observable about a game, to check that a rejected call changed nothing."""
    views = [game.view(hx.RED), game.view(hx.BLUE), game.spectator_view()]
    return (
        game.history,
        game.board.tobytes(),
        game.to_move,
        game.winner,
        game.end_reason,
        game.legal_moves(),
        game.completed_chain(),
        [v._core.state() for v in views],
    )


def check_error(error: Exception, argument: object, game: hx.Game) -> None:
    """The error is one of hexengine's, with a short message that names the problem."""
    assert isinstance(error, hx.HexError), f"{type(error).__name__}: {error} for {argument!r}"
    message = str(error)
    assert message.strip(), f"empty message for {argument!r}"
    assert len(message) < 300 + len(repr(argument)), message[:300]
    if isinstance(error, hx.IllegalMove):
        assert error.rule in RULE_NAMES, error.rule
        if error.cell is not None:
            assert 0 <= error.cell.row < game.rules.rows and 0 <= error.cell.col < game.rules.cols
            assert error.cell.name in message


@st.composite
def rule_sets(draw: st.DrawFn) -> hx.Rules:
    variant = draw(st.sampled_from(VARIANTS))
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    swap = "off" if variant.startswith("dark") else draw(st.sampled_from(["off", "sides", "pieces"]))
    if swap == "pieces":
        cols = rows
    return hx.Rules(variant, rows, cols, swap)  # type: ignore[arg-type]


@settings(max_examples=examples(300))
@given(rules=rule_sets(), data=st.data())
def test_random_calls_never_crash_and_rejected_calls_change_nothing(
    rules: hx.Rules, data: st.DataObject
) -> None:
    """Random sequences of play (legal moves, junk of every type), swap, resign, timeout, view,
    spectator_view and copy: each call succeeds or raises a HexError with a clear message, and a
    rejected call leaves history, board, turn, result, legal moves and every view unchanged."""
    game = hx.Game(rules)
    for _ in range(data.draw(st.integers(1, 40), label="calls")):
        operation = data.draw(OPERATIONS, label="operation")
        if operation == "legal" and game.legal_moves():
            argument: object = data.draw(st.sampled_from(game.legal_moves()), label="move")
            call = game.play
        elif operation in ("legal", "junk"):
            argument, call = data.draw(JUNK, label="move"), game.play
        elif operation == "swap":
            argument, call = "swap", game.play
        elif operation in ("resign", "timeout", "view"):
            argument, call = data.draw(COLOURS, label="colour"), getattr(game, operation)
        elif operation == "spectator":
            argument, call = None, lambda _, g=game: g.spectator_view()
        else:
            clone = game.copy()
            assert snapshot(clone) == snapshot(game)
            game = clone
            continue
        before = snapshot(game)
        try:
            call(argument)  # type: ignore[operator]
        except Exception as error:  # the point is to see every kind
            check_error(error, argument, game)
            assert snapshot(game) == before, f"{operation}({argument!r}) was rejected but changed the game"
        else:
            if operation in ("view", "spectator"):
                assert snapshot(game) == before
    check_all_views(game)
    if game.is_over:
        check_completed_chain(game)


SIZES = st.one_of(
    st.integers(-2, 22), INTS, NUMPY, st.none(), st.floats(), st.text(max_size=3), st.booleans()
)
NAMES = st.one_of(st.sampled_from([*VARIANTS, "sides", "pieces", "off"]), WORDS, st.text(max_size=5), SCALARS)


@settings(max_examples=examples(400))
@given(variant=NAMES, size=SIZES, rows=SIZES, cols=SIZES, swap=st.one_of(st.none(), NAMES))
def test_random_rule_sets_give_a_game_or_a_rules_error(
    variant: object, size: object, rows: object, cols: object, swap: object
) -> None:
    """hx.Game(variant, size, rows=, cols=, swap=) with arbitrary arguments builds a valid game or raises
    RulesError with a message naming the problem; never anything else."""
    kwargs = {"rows": rows, "cols": cols} if rows is not None and cols is not None else {}
    try:
        game = hx.Game(variant, size, swap=swap, **kwargs)  # type: ignore[arg-type]
    except Exception as error:
        assert isinstance(error, hx.RulesError), f"{type(error).__name__}: {error}"
        assert str(error).strip()
        assert len(str(error)) < 300 + len(repr((variant, size, rows, cols, swap)))
    else:
        r = game.rules
        assert r.variant in VARIANTS and 1 <= r.rows <= 19 and 1 <= r.cols <= 19
        assert r.swap in ("sides", "pieces", "off")
        assert game.board.shape == (r.rows, r.cols) and len(game.legal_moves()) == r.rows * r.cols
