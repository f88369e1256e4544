"""The table's messages, snapshots, states and records, byte for byte, against a golden file.

A fixed set of sessions (every variant; two devices, one device with and without the
curtain, spectators, computer seats with and without autoplay, resignations, time-outs,
disconnects and takeovers, rematches, ratings, replays, restarts from ``to_state``)
runs through the public API. Every message the table queues (in its order), what each
poll returns, every return value and refusal, the table's public facts after each call,
and at the end its state and records are written as JSON lines (keys in the order the
table made them) and compared with
``tests/golden/table_sessions.jsonl``. A change of the protocol fails here first.

Regenerate (only for an intended protocol change): ``python tests/test_table_golden.py --write``.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import random
import secrets
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import hexengine as hx

GOLDEN = Path(__file__).resolve().parent / "golden" / "table_sessions.jsonl"

Op = tuple[Any, ...]


@contextlib.contextmanager
def seeded_secrets(seed: int = 0) -> Iterator[None]:
    """Tokens and table ids drawn from a seeded generator, so digests in states are fixed."""
    rng = random.Random(seed)
    saved = secrets.token_urlsafe, secrets.token_hex
    secrets.token_urlsafe = lambda n=32: "tok-" + "".join(rng.choice("abcdefghjk") for _ in range(n))  # type: ignore[assignment]
    secrets.token_hex = lambda n=32: "".join(rng.choice("0123456789abcdef") for _ in range(2 * n))  # type: ignore[assignment]
    try:
        yield
    finally:
        secrets.token_urlsafe, secrets.token_hex = saved


def random_bots(seed: int) -> Callable[[str, hx.Rules], hx.RandomBot]:
    return lambda level, rules: hx.RandomBot(seed=seed, swap=level != "easy")


def plain(value: Any) -> Any:
    """A return value as JSON."""
    if isinstance(value, hx.MoveResult):
        return value.value
    if isinstance(value, hx.table.ComputerTurn):
        return {"turn": [value.table, value.game, value.ply, value.seat, value.color.name]}
    return value


def facts(table: hx.Table) -> dict[str, Any]:
    """What the table shows of itself through its properties."""
    return {
        "repr": repr(table),
        "mode": table.mode,
        "recipients": table.recipients,
        "game": table.game_number,
        "rules": None if table.rules is None else repr(table.rules),
        "colors": [table.seat_of(hx.RED), table.seat_of(hx.BLUE), table.color_of("A"), table.color_of("B")],
        "seats": table.seats,
        "series": table.series,
        "curtain": table.curtain,
        "deadline": table.deadline,
        "next_event": table.next_event_time(),
        "records": len(table.records),
    }


class Session:
    """One table driven by a list of operations; every step becomes one JSON line."""

    def __init__(
        self,
        name: str,
        settings: hx.TableSettings,
        *,
        seed: int = 0,
        table_id: str | None = None,
        **kwargs: Any,
    ) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.clock = hx.FakeClock(1000.0)
        self.sent: list[dict[str, Any]] = []
        self.kwargs = {"clock": self.clock, "bots": random_bots(seed), "listener": self.listen, **kwargs}
        self.table = hx.Table(settings, table_id=table_id, **self.kwargs)
        self.tokens: dict[str, str] = {}
        self.turn: hx.table.ComputerTurn | None = None
        self.lines: list[dict[str, Any]] = []
        self.facts: dict[str, Any] = {}

    def listen(self, recipient: str, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def run(self, ops: list[Op]) -> list[dict[str, Any]]:
        for op in ops:
            self.step(op)
        self.finish()
        return self.lines

    def step(self, op: Op) -> None:
        self.sent = []
        line: dict[str, Any] = {"session": self.name, "op": list(op)}
        try:
            line["ret"] = plain(self.call(op))
        except hx.TableError as e:
            line["refused"] = [e.code, str(e)]
        except hx.HexError as e:
            line["refused"] = [type(e).__name__]
        line["sent"] = self.sent
        line["polled"] = {r: [m["seq"] for m in self.table.poll(r)] for r in self.table.recipients}
        if line.get("ret") in self.sent:
            line["ret"] = "queued"
        now = facts(self.table)
        line["facts"] = {k: v for k, v in now.items() if self.facts.get(k, ()) != v}
        self.facts = now
        self.lines.append(line)

    def call(self, op: Op) -> Any:
        table, kind, args = self.table, op[0], op[1:]
        token = self.tokens.get(args[0], args[0]) if args and isinstance(args[0], str) else None
        if kind == "sit":
            self.tokens[args[0]] = table.sit(args[0], args[1], player_id=args[2] if len(args) > 2 else None)
        elif kind == "sit_together":
            ids = args[2] if len(args) > 2 else (None, None)
            self.tokens["device"] = table.sit_together(args[0], args[1], ids=ids)
        elif kind == "sit_computer":
            table.sit_computer(*args)
        elif kind == "play":
            return table.play(token, args[1], ply=args[2] if len(args) > 2 else None)
        elif kind == "resign":
            return table.resign(token, *args[1:])
        elif kind == "lift":
            return table.lift_curtain(token, *args[1:])
        elif kind == "raise":
            return table.raise_curtain(token)
        elif kind == "rematch":
            return table.rematch(token)
        elif kind == "disconnect":
            return table.disconnect(token)
        elif kind == "reconnect":
            return table.reconnect(token)
        elif kind == "rotate":
            self.tokens[args[0]] = new = table.rotate_token(token)
            return new
        elif kind == "advance":
            self.clock.advance(args[0])
        elif kind == "tick":
            return table.tick()
        elif kind == "spectate":
            return table.spectate()
        elif kind == "snapshot":
            return table.snapshot(args[0])
        elif kind == "replay":
            return table.request_replay(*args)
        elif kind == "poll":
            return table.poll(args[0])
        elif kind == "computer_turn":
            self.turn = table.computer_turn()
            return self.turn
        elif kind == "submit":
            assert self.turn is not None
            return table.submit(self.turn, self.turn.run())
        elif kind == "play_computers":
            return table.play_computers()
        elif kind == "auto":
            return [plain(self.auto_move(args[0])) for _ in range(args[1])]
        elif kind == "restore":
            state = json.loads(json.dumps(table.to_state()))
            self.table = hx.Table.from_state(state, absent=args[0], **self.kwargs)
        elif kind == "state":
            return {
                "state": table.to_state(),
                "record": None if table.record() is None else table.record().to_dict(),  # type: ignore[union-attr]
            }
        else:
            raise AssertionError(f"unknown op {kind}")
        return None

    def auto_move(self, ply: Any) -> Any:
        """The player to move plays a seeded random legal move of their own view (lifting the
        curtain first on one device; the computer's pending decision if it is the computer's)."""
        table, game = self.table, self.table.referee
        if game is None or game.is_over:
            return None
        if table.computer_turn() is not None:
            turn = table.computer_turn()
            return table.submit(turn, turn.run())  # type: ignore[union-attr]
        seat = table.seat_of(game.to_move)  # type: ignore[arg-type]
        token = self.tokens.get("device") or self.tokens[seat]  # type: ignore[index]
        if table.curtain is not None and table.curtain["up"]:
            table.lift_curtain(token)
        moves = game.view(game.to_move).legal_moves()  # type: ignore[arg-type]
        move = moves[self.rng.randrange(len(moves))]
        return table.play(token, move, ply=len(game.history) if ply == "ply" else None)

    def finish(self) -> None:
        table = self.table
        final: dict[str, Any] = {"session": self.name, "op": ["final"]}
        snapshots = {r: table.snapshot(r) for r in table.recipients}
        final["state"] = table.to_state()
        final["records"] = [r.to_json() for r in table.records]
        again = hx.Table.from_state(json.loads(json.dumps(final["state"])), **self.kwargs)
        restored = {r: again.snapshot(r) for r in again.recipients}
        final["restored"] = "same" if restored == snapshots else [snapshots, restored]
        final["restored_state"] = "same" if again.to_state() == final["state"] else again.to_state()
        self.lines.append(final)


def scripted() -> list[tuple[str, hx.TableSettings, dict[str, Any], list[Op]]]:
    """Sessions written out step by step, each aimed at a part of the table."""
    S = hx.TableSettings
    return [
        (
            "hex-online-series",
            S(variant="hex", size=3, time_limit=30),
            {"table_id": "hex1"},
            [
                ("spectate",),
                ("sit", "A", "Ann", "ann"),
                ("sit", "A", "Eve"),
                ("sit", "C", "Eve"),
                ("sit", "B", " "),
                ("sit", "B", "Bob"),
                ("play", "B", "a1"),
                ("play", "nope", "a1"),
                ("play", "A", "b2", 5),
                ("play", "A", "b2", 0),
                ("play", "B", "b2"),
                ("play", "B", "swap"),
                ("resign", "B", "A"),
                ("auto", None, 3),
                ("advance", 12.5),
                ("auto", "ply", 10),
                ("play", "A", "a1"),
                ("snapshot", "A"),
                ("snapshot", "X"),
                ("replay", "spectators"),
                ("replay", "A", 7),
                ("rematch", "A"),
                ("rematch", "A"),
                ("rematch", "B"),
                ("rematch", "B"),
                ("resign", "A"),
                ("replay", "B", 1),
                ("rematch", "B"),
                ("rematch", "A"),
                ("advance", 31),
                ("tick",),
                ("rotate", "A"),
                ("rematch", "A"),
                ("rematch", "B"),
                ("auto", None, 1),
                ("state",),
            ],
        ),
        (
            "rex-sides-swap",
            S(variant="rex", size=3, swap="sides", first="B"),
            {"table_id": "rex"},
            [
                ("sit", "A", "Ann"),
                ("sit", "B", "Bob"),
                ("play", "B", "a1"),
                ("play", "A", "swap"),
                ("auto", None, 20),
                ("replay", "A"),
                ("rematch", None),
            ],
        ),
        (
            "hex-pieces-swap",
            S(variant="hex", size=3, swap="pieces", time_limit=60),
            {"table_id": "pcs"},
            [
                ("sit", "A", "Ann"),
                ("sit", "B", "Bob"),
                ("play", "A", "c1"),
                ("advance", 4),
                ("play", "B", "swap"),
                ("auto", None, 1),
                ("state",),
            ],
        ),
        (
            "dark-one-device-curtain",
            S(variant="dark", size=3, time_limit=20, grace=5),
            {"table_id": "curtain"},
            [
                ("sit_together", "Ann", "Bob"),
                ("sit", "A", "Eve"),
                ("play", "device", "b2"),
                ("lift", "device", "B"),
                ("lift", "device"),
                ("lift", "device"),
                ("advance", 5),
                ("raise", "device"),
                ("raise", "device"),
                ("advance", 100),
                ("tick",),
                ("lift", "device"),
                ("play", "device", "b2"),
                ("auto", None, 1),
                ("lift", "device"),
                ("disconnect", "device"),
                ("advance", 2),
                ("reconnect", "device"),
                ("auto", None, 1),
                ("state",),
                ("resign", "device", "B"),
                ("lift", "device"),
                ("lift", "device", "A"),
                ("raise", "device"),
                ("lift", "device", "B"),
                ("rematch", "device"),
                ("auto", None, 2),
                ("advance", 21),
                ("lift", "device"),
                ("advance", 21),
                ("tick",),
                ("lift", "device", "A"),
                ("snapshot", "device"),
                ("rematch", "device"),
                ("disconnect", "device"),
                ("advance", 6),
                ("tick",),
                ("reconnect", "device"),
            ],
        ),
        (
            "dark-abrupt-one-device-reveal",
            S(variant="dark-abrupt", rows=2, cols=3),
            {"table_id": "abrupt", "seed": 3},
            [
                ("sit_together", "Ann", "Bob", ("ann", None)),
                ("auto", None, 40),
                ("raise", "device"),
                ("replay", "device"),
            ],
        ),
        (
            "dark-online-hits-timeout",
            S(variant="dark", size=3, time_limit=10, first="alternate"),
            {"table_id": "dark2", "seed": 5},
            [
                ("spectate",),
                ("sit", "A", "Ann"),
                ("lift", "A"),
                ("sit", "B", "Bob"),
                ("play", "A", "b2"),
                ("play", "B", "b2"),
                ("play", "B", "a1"),
                ("play", "B", "a1"),
                ("advance", 9),
                ("play", "A", "c1"),
                ("advance", 11),
                ("play", "B", "c3"),
                ("replay", "A"),
                ("replay", "spectators"),
                ("rematch", "A"),
                ("rematch", "B"),
                ("state",),
            ],
        ),
        (
            "hex-computer-autoplay",
            S(variant="hex", size=3, first="B", time_limit=30),
            {"table_id": "cpu", "seed": 2},
            [
                ("sit_computer", "B", "robot"),
                ("sit_computer", "B", "easy"),
                ("sit", "A", "Ann"),
                ("auto", None, 5),
                ("resign", "A", "B"),
                ("resign", "A"),
                ("rematch", None),
                ("rematch", "A"),
                ("auto", None, 3),
            ],
        ),
        (
            "dark-computer-worker",
            S(variant="dark", size=3, grace=2, time_limit=15),
            {"table_id": "worker", "autoplay": False, "seed": 4},
            [
                ("sit", "A", "Ann"),
                ("sit_computer", "B", "hard"),
                ("computer_turn",),
                ("auto", None, 1),
                ("computer_turn",),
                ("submit",),
                ("submit",),
                ("disconnect", "A"),
                ("disconnect", "A"),
                ("play", "A", "a1"),
                ("advance", 3),
                ("tick",),
                ("computer_turn",),
                ("reconnect", "A"),
                ("submit",),
                ("auto", None, 3),
                ("disconnect", "A"),
                ("advance", 2),
                ("play_computers",),
                ("state",),
                ("reconnect", "A"),
            ],
        ),
        (
            "two-computers",
            S(variant="rex", rows=2, cols=3, swap="off", first="alternate"),
            {"table_id": "cc", "seed": 6},
            [
                ("spectate",),
                ("sit_computer", "A", "medium"),
                ("sit_computer", "B", "easy"),
                ("rematch", "A"),
                ("rematch", None),
                ("replay", "spectators", 1),
            ],
        ),
        (
            "hex-takeover-and-return",
            S(variant="hex", size=3, time_limit=30, grace=10, takeover_level="easy"),
            {"table_id": "away", "seed": 8},
            [
                ("sit", "A", "Ann"),
                ("sit", "B", "Bob"),
                ("auto", None, 2),
                ("advance", 5),
                ("disconnect", "A"),
                ("play", "A", "c3"),
                ("advance", 9),
                ("tick",),
                ("advance", 2),
                ("tick",),
                ("auto", None, 2),
                ("reconnect", "A"),
                ("reconnect", "A"),
                ("auto", None, 1),
                ("disconnect", "B"),
                ("advance", 11),
                ("tick",),
                ("rotate", "B"),
                ("reconnect", "B"),
                ("auto", None, 3),
            ],
        ),
        (
            "hex-one-device",
            S(variant="hex", size=3, time_limit=30),
            {"table_id": "hot", "seed": 9},
            [
                ("sit_together", "Ann", "Bob", "bad"),
                ("sit_together", "Ann", "Bob"),
                ("lift", "device"),
                ("auto", None, 3),
                ("disconnect", "device"),
                ("reconnect", "device"),
                ("resign", "device"),
                ("rematch", "device"),
            ],
        ),
        (
            "restore-mid-game",
            S(variant="dark", size=3, time_limit=30, grace=3),
            {"table_id": "restore", "seed": 10},
            [
                ("sit_together", "Ann", "Bob"),
                ("auto", None, 3),
                ("raise", "device"),
                ("restore", True),
                ("tick",),
                ("advance", 4),
                ("tick",),
                ("play_computers",),
                ("reconnect", "device"),
                ("auto", None, 4),
                ("restore", False),
                ("auto", None, 40),
                ("restore", False),
                ("rematch", "device"),
            ],
        ),
        (
            "restore-online",
            S(variant="hex", size=3, swap="sides", time_limit=30),
            {"table_id": "restore2", "seed": 11},
            [
                ("sit", "A", "Ann"),
                ("sit", "B", "Bob"),
                ("play", "A", "a1"),
                ("play", "B", "swap"),
                ("restore", True),
                ("play", "A", "b2"),
                ("reconnect", "A"),
                ("reconnect", "B"),
                ("auto", None, 12),
                ("restore", False),
                ("rematch", "A"),
                ("rematch", "B"),
            ],
        ),
    ]


def rated() -> list[Op]:
    return [
        ("sit", "A", "Ann", "ann"),
        ("sit", "B", "Bob", "computer:easy"),
        ("sit", "B", "Bob", "bob"),
        ("auto", None, 6),
        ("rematch", "A"),
        ("rematch", "B"),
        ("resign", "B"),
    ]


KINDS = ["move"] * 8 + ["illegal", "resign", "disconnect", "reconnect", "wait", "wait", "tick", "lift"]
KINDS += ["raise", "rematch", "rematch", "spectate", "snapshot", "replay", "rotate", "restore"]


def random_ops(rng: random.Random, mode: str) -> list[Op]:
    """A seeded mix of every operation, in the manner of test_table_property."""
    seats = {
        "online": [("sit", "A", "Ann"), ("sit", "B", "Bob")],
        "computer": [("sit", "A", "Ann"), ("sit_computer", "B", "medium")],
        "one-device": [("sit_together", "Ann", "Bob")],
    }[mode]
    ops: list[Op] = list(seats)
    for _ in range(14):
        kind = rng.choice(KINDS)
        who = "device" if mode == "one-device" else rng.choice("AB")
        if kind == "move":
            ops.append(("auto", None, 1))
        elif kind == "illegal":
            ops.append(("play", who, rng.choice(["a1", "b2", "swap", "z9"])))
        elif kind == "resign":
            ops.append(("resign", who, rng.choice("AB")) if who == "device" else ("resign", who))
        elif kind in ("disconnect", "reconnect", "raise", "rotate"):
            ops.append((kind, who))
        elif kind == "lift":
            ops.append(("lift", who, rng.choice("AB")) if rng.random() < 0.5 else ("lift", who))
        elif kind == "wait":
            ops.append(("advance", rng.choice([0.5, 3.0, 10.0, 31.0])))
        elif kind == "rematch":
            ops.append(("rematch", who))
        elif kind in ("tick", "spectate"):
            ops.append((kind,))
        elif kind == "snapshot":
            ops.append(("snapshot", rng.choice(["A", "B", "device", "spectators"])))
        elif kind == "replay":
            ops.append(("replay", rng.choice(["A", "B", "device", "spectators"])))
        else:
            ops.append(("restore", rng.random() < 0.5))
    return ops


def sessions() -> Iterator[list[dict[str, Any]]]:
    """Every session's lines, in order."""
    for name, settings, kwargs, ops in scripted():
        seed = kwargs.pop("seed", 0)
        yield Session(name, settings, seed=seed, **kwargs).run(ops)
    ratings = hx.Ratings(hx.MemoryRatingStore())
    settings = hx.TableSettings(variant="hex", size=3, rated=True, first="alternate")
    yield Session("rated", settings, seed=12, ratings=ratings, table_id="rated").run(rated())
    rng = random.Random(2024)
    for k in range(2):
        variant = ["dark", "dark-abrupt"][k]
        mode = ["one-device", "online"][k]
        settings = hx.TableSettings(
            variant=variant,
            rows=rng.randint(2, 4),
            cols=rng.randint(2, 4),
            swap=None if variant.startswith("dark") else rng.choice(["sides", "off"]),
            first=rng.choice(["A", "B", "alternate"]),
            time_limit=rng.choice([None, 5.0, 30.0]),
            grace=rng.choice([0.0, 4.0, 20.0]),
            takeover_level=rng.choice(hx.table.LEVELS),
        )
        autoplay = mode != "computer" or k % 2 == 0
        ops = random_ops(rng, mode)
        yield Session(f"random-{k}-{variant}-{mode}", settings, seed=k, autoplay=autoplay).run(ops)


def golden_lines() -> list[str]:
    """The sessions as JSON lines (keys in the order the table wrote them)."""
    with seeded_secrets():
        return [json.dumps(line, separators=(",", ":")) for lines in sessions() for line in lines]


def first_difference(expected: list[str], actual: list[str]) -> str | None:
    """A readable account of the first line that differs, or ``None``."""
    for k, (want, got) in enumerate(zip(expected, actual, strict=False)):
        if want != got:
            a = json.dumps(json.loads(want), indent=1).splitlines()
            b = json.dumps(json.loads(got), indent=1).splitlines()
            diff = "\n".join(list(difflib.unified_diff(a, b, "golden", "now", n=4, lineterm=""))[:80])
            op = json.loads(want).get("session"), json.loads(want).get("op")
            return f"line {k + 1} ({op[0]}: {op[1]}) differs:\n{diff}"
    if len(expected) != len(actual):
        agree = min(len(expected), len(actual))
        return f"{len(expected)} golden lines, {len(actual)} now (the first {agree} agree)"
    return None


def test_every_session_sends_the_golden_messages() -> None:
    """Messages, refusals, snapshots, states and records of every session are exactly the golden ones."""
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    problem = first_difference(expected, golden_lines())
    assert problem is None, problem


def test_the_sessions_cover_every_message_type_and_refusal() -> None:
    """The golden file is not vacuous: every message type and most refusal codes appear."""
    text = GOLDEN.read_text(encoding="utf-8")
    for kind in ["snapshot", "game_started", "your_turn", "turn", "moved", "you_hit", "opponent_moved"]:
        assert f'"type":"{kind}"' in text, kind
    for kind in ["stone_hit", "action", "clock", "curtain", "seat", "game_over", "reveal", "ratings"]:
        assert f'"type":"{kind}"' in text, kind
    assert '"type":"rematch"' in text and '"type":"replay"' in text
    for code in ["bad-token", "seat-taken", "no-seat", "bad-name", "no-game", "game-over", "game-running"]:
        assert f'"refused":["{code}"' in text, code
    for code in ["not-your-turn", "curtain-up", "no-curtain", "stale", "disconnected", "bad-level"]:
        assert f'"refused":["{code}"' in text, code
    assert len(text) < 1_000_000


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_table_golden.py --write   (rewrites the golden file)")
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text("\n".join(golden_lines()) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN} ({GOLDEN.stat().st_size:,} bytes)")
