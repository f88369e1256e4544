"""The HTP client (hexengine.htp.popen / HtpClient): driving `hexengine htp` and misbehaving engines."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import hexengine as hx
from hexengine.htp import EngineError, EngineTimeout, HtpError, Limit

FAKE = str(Path(__file__).with_name("_fake_htp.py"))
HEXENGINE = [sys.executable, "-m", "hexengine.cli", "htp", "--simulations", "50"]


def fake(mode: str, name: str = "fake", **kwargs: object) -> hx.htp.HtpClient:
    return hx.htp.popen([sys.executable, FAKE, mode, name], **kwargs)  # type: ignore[arg-type]


def test_plays_whole_games_against_hexengine_htp():
    """The client plays hexengine's own HTP engine through whole Hex and Rex games on square and
    non-square boards (with a sides swap): every answer is legal in the referee's game, and
    only the new moves are sent between calls."""
    with hx.htp.popen(HEXENGINE) as engine:
        assert engine.name == "hexengine" and engine.dialect == "standard"
        commands: list[str] = []
        send = engine.send
        engine.send = lambda command, **kw: commands.append(command) or send(command, **kw)  # type: ignore[method-assign]
        for rules in (hx.Rules("hex", 5, 5), hx.Rules("rex", 4, 4, "pieces"), hx.Rules("hex", 3, 5, "off")):
            game = hx.Game(rules)
            bot = hx.MCTSBot(simulations=50)
            sent_before: list[tuple[str, str]] = []
            while not game.is_over:
                if game.to_move is hx.RED:
                    game.play(bot.choose(game.view(hx.RED)))
                    continue
                commands.clear()
                result = engine.play(game.view(hx.BLUE), Limit(simulations=30))
                assert not result.resigned and result.move in game.legal_moves()
                if sent_before:  # only the moves made since the last genmove were sent
                    new = game.history[len(sent_before) :]
                    plays = [f"play b {a.cell.name}" for a in new]  # type: ignore[union-attr]
                    assert [c for c in commands if not c.startswith("param")] == [*plays, "genmove w"]
                sent_before = list(engine._sent)  # type: ignore[arg-type]
                game.play(result.move)  # type: ignore[arg-type]
            assert game.winner is not None
        assert "level custom" in engine.send("param_hexengine") and "simulations 30" in engine.send(
            "param_hexengine"
        )
    assert not engine.alive


def test_resynchronises_when_the_game_changes():
    """Asking about a different game (or after new_game) clears the engine's board first, so its
    answer is a legal move there; a swap in the game is sent with the dialect's name."""
    with hx.htp.popen(HEXENGINE) as engine:
        a = hx.Game("hex", size=4)
        a.play("a1")
        assert engine.play(a).move in a.legal_moves()
        b = hx.Game("hex", size=4)
        for move in ["b2", "swap", "c3"]:
            b.play(move)
        assert engine.play(b).move in b.legal_moves()
        assert ("w", "swap-sides") in engine._sent  # type: ignore[operator]
        engine.new_game()
        assert engine.play(b).move in b.legal_moves()


def test_refuses_what_htp_cannot_do():
    """Dark Hex, a finished game and a non-game are refused before anything is sent."""
    with hx.htp.popen(HEXENGINE) as engine:
        with pytest.raises(hx.ConfigError, match="Dark Hex"):
            engine.play(hx.Game("dark", size=3))
        over = hx.Game("hex", size=3)
        over.resign(hx.RED)
        with pytest.raises(hx.ConfigError, match="over"):
            engine.play(over)
        with pytest.raises(TypeError):
            engine.play("a1 b2")  # type: ignore[arg-type]
        with pytest.raises(HtpError, match="unknown command"):
            engine.send("fly")
        with pytest.raises(hx.ConfigError):
            engine.send("name\nquit")


def test_engine_failures_raise_engine_errors():
    """A crash, silence past the timeout, a non-move answer and a '?' answer each raise an
    EngineError subclass naming the problem; resign is a result, not an error."""
    game = hx.Game("hex", size=3, swap="off")
    with pytest.raises(EngineError, match="exited"):
        fake("die").play(game)
    silent = fake("silent", timeout=0.5)
    with pytest.raises(EngineTimeout, match="no answer"):
        silent.play(game)
    assert not silent.alive
    with pytest.raises(EngineError, match="not a move"):
        fake("garbage").play(game)
    with pytest.raises(EngineError, match="not a move"):
        fake("pass").play(game)
    with pytest.raises(HtpError, match="I will not"):
        fake("refuse").play(game)
    resigner = fake("resign")
    assert resigner.play(game) == hx.htp.PlayResult(None, True, "resign")
    resigner.quit()
    resigner.quit()
    with pytest.raises(EngineError, match="closed"):
        resigner.send("name")
    with pytest.raises(EngineError, match="cannot start"):
        hx.htp.popen(["/no/such/engine"])
    with pytest.raises(hx.ConfigError):
        hx.htp.popen("")


def test_benzene_dialect_reads_swap_pieces_as_the_sides_swap():
    """An engine that calls itself MoHex speaks Benzene's dialect: its 'swap-pieces' is the
    sides swap (board unchanged, White moves next); in a pieces-form game it is refused."""
    engine = fake("swap", "MoHex")
    assert engine.dialect == "benzene"
    game = hx.Game("hex", size=5)
    game.play("c3")
    assert engine.play(game).move == hx.SWAP
    hexgui = fake("swap", "SomeEngine")
    with pytest.raises(EngineError, match="not this game's swap"):
        hexgui.play(game)
    pieces = hx.Game("hex", size=5, swap="pieces")
    pieces.play("c3")
    assert hexgui.play(pieces).move == hx.SWAP
    for client in (engine, hexgui):
        client.quit()


def test_engines_without_a_rex_command_are_warned_about():
    """A Rex game sent to an engine with no known way to be told the variant warns that it may
    play Hex; hexengine's own engine is told with param_game."""
    engine = fake("first-free")
    with pytest.warns(RuntimeWarning, match="rex"):
        engine.play(hx.Game("rex", size=3))
    engine.quit()
