# ruff: noqa: E402
"""The web table's server over real loopback websockets: protocol, reliability, hidden information.

Each test starts the Starlette app under uvicorn in a thread (tests/_webserver.py)
and talks to it as a browser would: HTTP to open and join tables, a websocket
per client. Computer seats use a random bot so games are quick; clocks are fake
where time matters, so no test sleeps through a time limit.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
ConnectionClosed = pytest.importorskip("websockets.exceptions").ConnectionClosed

from _webserver import Client, ServerThread, free_port, http
from _wirecheck import check_connection
from oracle import EXAMPLES

import hexengine as hx
from hexengine.server import create_app, database_path, default_database, parse_frame
from hexengine.server.app import MAX_FRAME, FrameError


def quick_bots(level, rules):
    return hx.RandomBot(seed=7, swap=level != "easy")


@pytest.fixture
def server(tmp_path):
    with ServerThread(tmp_path / "hx.db", clock=hx.FakeClock(1000.0), bots=quick_bots) as s:
        yield s


def online(server, size=5, idle=True, **settings):
    """Opens an online table and seats Ann (A) and Bob (B), both connected."""
    status, a = server.post(
        "/api/tables",
        {"mode": "online", "name": "Ann", "settings": {"variant": "hex", "size": size, **settings}},
    )
    assert status == 201, a
    code = a["invite"].split("invite=")[1]
    status, b = server.post(f"/api/tables/{a['table']}/join", {"code": code, "name": "Bob"})
    assert status == 200, b
    ann = server.client(a["table"], a["token"])
    bob = server.client(a["table"], b["token"])
    sync(server, ann, bob, idle=idle)
    return a["table"], ann, bob


def sync(server, *clients, idle=True):
    """Waits until the computer is idle and every frame sent so far reached each client."""
    if idle:
        server.call(server.hub.idle())
    for c in clients:
        rid = f"sync{time.monotonic_ns()}"
        c.send({"type": "ping", "id": rid})
        c.wait(lambda f, rid=rid: f.get("type") == "pong" and f.get("id") == rid)


def wait_for_departure(client, seat):
    """Waits for the seat frame saying `seat` disconnected: the server sees a
    closed socket in its own time, so a ping sent after the close can beat it."""
    client.wait(lambda f: f.get("type") == "seat" and f.get("seat") == seat and not f.get("connected"))


def state_of(client):
    """The client's current snapshot (asked for, not guessed)."""
    client.send({"type": "snapshot"})
    return client.wait(lambda f: f.get("type") == "snapshot")["state"]


def saved_state(path, table_id):
    with sqlite3.connect(path) as conn:
        row = conn.execute("SELECT state FROM hexengine_tables WHERE id = ?", (table_id,)).fetchone()
    return json.loads(row[0])


def test_a_move_is_committed_before_it_is_acknowledged(server, tmp_path):
    """When the ack of a move arrives, the database (read by another connection) already holds it,
    and the opponent's frames about it come only after the ack."""
    table, ann, bob = online(server)
    ack = ann.request({"type": "move", "cell": "c3", "ply": 0})
    assert ack["ok"] and ack["result"] == "placed"
    actions = saved_state(tmp_path / "hx.db", table)["run"]["record"]["actions"]
    assert [a["cell"] for a in actions] == ["c3"]
    sync(server, bob)
    moved = bob.last("opponent_moved")
    assert moved["cell"] == "c3" and moved["n"] == 1


def test_duplicates_and_stale_moves_change_nothing(server):
    """A move resent with the same id gets the same ack marked duplicate; a move for an old
    position (wrong ply) is refused as stale; neither plays a second stone."""
    _table, ann, bob = online(server)
    first = ann.request({"type": "move", "cell": "b2", "ply": 0, "id": "m-1"})
    again = ann.request({"type": "move", "cell": "b2", "ply": 0, "id": "m-1"})
    assert first["ok"] and again["ok"] and again["duplicate"] and not first["duplicate"]
    stale = bob.request({"type": "move", "cell": "d4", "ply": 0})
    assert not stale["ok"] and stale["code"] == "stale"
    assert len(state_of(bob)["history"]) == 1
    ok = bob.request({"type": "move", "cell": "d4", "ply": 1})
    assert ok["ok"]
    assert [h["cell"] for h in state_of(ann)["history"]] == ["b2", "d4"]


def test_nobody_moves_for_a_seat_they_do_not_hold(server):
    """Ann cannot move on Bob's turn, a spectator cannot move at all, and a made-up or
    old token is refused at hello; the game is unchanged."""
    table, ann, bob = online(server)
    assert ann.request({"type": "move", "cell": "a1", "ply": 0})["ok"]
    refused = ann.request({"type": "move", "cell": "b1", "ply": 1})
    assert not refused["ok"] and refused["code"] == "not-your-turn"
    watcher = server.client(table)
    assert watcher.request({"type": "move", "cell": "b1", "ply": 1})["code"] == "no-seat"
    assert watcher.request({"type": "resign"})["code"] == "no-seat"
    intruder = Client(ann.url, "x" * 32)
    assert intruder.frames[-1]["type"] == "error" and intruder.frames[-1]["code"] == "bad-token"
    assert len(state_of(bob)["history"]) == 1


def test_seat_tokens_rotate_and_are_unguessable(server):
    """Every hello rotates the seat token: the old one stops working once the client said it
    saved the new one; tokens are long random strings, different every time."""
    _status, a = server.post("/api/tables", {"mode": "online", "name": "Ann", "settings": {"size": 5}})
    first = a["token"]
    ann = server.client(a["table"], first)
    assert ann.token != first and len(ann.token) >= 32 and len(first) >= 32
    again = Client(ann.url, first)
    assert again.frames[-1]["code"] == "bad-token"
    second = ann.token
    ann.close()
    back = Client(ann.url, second)
    assert back.recipient == "A" and back.token not in (first, second)


def test_a_token_whose_rotation_was_missed_still_works_once(server):
    """If a connection drops after the server rotated the token but before the client stored
    the new one, the old token works again (once, for a short while), so nobody is locked out."""
    _status, a = server.post("/api/tables", {"mode": "online", "name": "Ann", "settings": {"size": 5}})
    ann = server.client(a["table"], a["token"], hello=False)
    ann.send({"type": "hello", "token": a["token"]})
    ann.wait(lambda f: f["type"] == "welcome")
    ann.close()  # never said "saved"
    back = Client(ann.url, a["token"])
    assert back.recipient == "A"


def test_malformed_and_oversized_frames_get_an_error_and_do_not_disturb_the_game(server):
    """Junk frames (not JSON, binary, too big, unknown types, bad fields, hello twice) each get an
    error frame; the connection stays usable and the game is as before. A frame beyond the
    websocket limit closes only that connection."""
    table, ann, bob = online(server)
    assert ann.request({"type": "move", "cell": "c3", "ply": 0})["ok"]
    junk = [
        "not json",
        "[1, 2]",
        "{}",
        '{"type": "dance"}',
        '{"type": "move", "cell": 7}',
        '{"type": "move", "cell": "a1", "ply": -1}',
        '{"type": "move", "cell": "a1", "ply": true}',
        '{"type": "resign", "seat": "C"}',
        '{"type": "move", "cell": "a1", "extra": 1}',
        json.dumps({"type": "ping", "id": "x" * 100}),
        "{" * 3000,
        '{"type": "hello", "watch": true}',
        json.dumps({"type": "move", "cell": "a1", "pad": "x" * (MAX_FRAME + 10)}),
    ]
    for text in junk:
        bob.send(text)
        error = bob.wait(lambda f: f["type"] == "error")
        assert error["code"] in ("bad-json", "bad-frame", "bad-type", "too-big"), (text[:40], error)
    bob.ws.send(b"\x00\x01binary")
    assert bob.wait(lambda f: f["type"] == "error")["code"] == "bad-frame"
    illegal = bob.request({"type": "move", "cell": "c3", "ply": 1})
    assert not illegal["ok"] and illegal["code"] == "illegal"
    assert not bob.request({"type": "move", "cell": "z9", "ply": 1})["ok"]
    assert bob.request({"type": "move", "cell": "a1", "ply": 1})["ok"]
    huge = server.client(table, None)
    with pytest.raises((OSError, ConnectionError, ConnectionClosed)):
        huge.send("x" * (2 << 20))
        huge.recv(5)
    assert [h["cell"] for h in state_of(ann)["history"]] == ["c3", "a1"]
    with pytest.raises(FrameError):
        parse_frame('{"type": "move", "cell": "a1", "ply": 1.5}')


def test_a_client_that_floods_is_slowed_down_not_served(tmp_path):
    """Frames beyond the rate limit get a too-fast error and are ignored; the client can go on."""
    with ServerThread(tmp_path / "hx.db", clock=hx.FakeClock(), bots=quick_bots, frame_rate=5.0) as server:
        _, a = server.post("/api/tables", {"mode": "online", "name": "Ann", "settings": {"size": 5}})
        ann = server.client(a["table"], a["token"])
        for k in range(40):
            ann.send({"type": "ping", "id": f"p{k}"})
        ann.drain(0.3)
        kinds = [f["type"] for f in ann.connections[-1]]
        assert "error" in kinds and kinds.count("pong") < 40
        assert ann.last("error")["code"] == "too-fast"
        time.sleep(1.0)
        ann.send({"type": "ping", "id": "late"})
        assert ann.wait(lambda f: f.get("id") == "late")["type"] == "pong"


def test_a_client_must_say_hello_first(server):
    """Before hello every request gets an error frame (no seat is assumed)."""
    _status, a = server.post("/api/tables", {"mode": "online", "name": "Ann", "settings": {"size": 5}})
    c = server.client(a["table"], None, hello=False)
    c.send({"type": "move", "cell": "a1", "ply": 0})
    assert c.wait(lambda f: f["type"] == "error")["code"] == "no-hello"
    assert http("GET", f"{server.url}/api/tables/nope")[0] == 404


def test_reconnecting_gives_a_full_snapshot(server):
    """Closing the socket and opening a new one with the (rotated) token restores the seat with
    a snapshot of everything that happened meanwhile; the opponent saw the seat leave and return."""
    _table, ann, bob = online(server)
    ann.request({"type": "move", "cell": "c3", "ply": 0})
    ann.close()
    wait_for_departure(bob, "A")
    assert bob.last("seat")["seat"] == "A" and not bob.last("seat")["connected"]
    bob.request({"type": "move", "cell": "a1", "ply": 1})
    ann.open()
    snap = ann.last("snapshot")
    assert snap["reason"] == "reconnect" and [h["cell"] for h in snap["state"]["history"]] == ["c3", "a1"]
    assert snap["state"]["legal_moves"], "it is Ann's turn again"
    sync(server, bob)
    assert bob.last("seat")["connected"]


def test_after_the_grace_period_the_computer_plays_the_absent_seat(server):
    """An absent player's seat is played by the computer once the grace period is over, and
    given back when they return; the record marks the computer's moves."""
    _table, ann, bob = online(server, grace=10)
    ann.request({"type": "move", "cell": "c3", "ply": 0})
    bob.close()
    wait_for_departure(ann, "B")  # the grace period starts once the server has seen it
    server.hub.clock.advance(11)
    server.call(server.hub.tick_all())
    sync(server, ann)
    history = state_of(ann)["history"]
    assert len(history) == 2 and history[1]["by"] == "computer"
    bob.open()
    assert bob.last("snapshot")["seats"]["B"]["computer_playing"] is False


def test_time_out_and_resignation_end_the_game(server):
    """A player who lets the clock run out loses; in the next game a resignation out of turn ends it."""
    _table, ann, bob = online(server, time_limit=30)
    server.hub.clock.advance(31)
    server.call(server.hub.tick_all())
    sync(server, ann, bob)
    over = ann.last("game_over")
    assert over["reason"] == "timeout" and over["winner_seat"] == "B"
    assert ann.request({"type": "rematch"})["ok"] and bob.request({"type": "rematch"})["started"]
    sync(server, ann)
    assert bob.request({"type": "resign"})["ok"]
    sync(server, ann)
    assert ann.last("game_over")["reason"] == "resignation"


def test_the_computer_thinks_off_the_event_loop(tmp_path):
    """While a computer is searching, the server keeps answering: other tables play on and
    HTTP requests are served (the search runs in a worker thread)."""
    release = threading.Event()

    class SlowBot:
        def choose(self, view):
            release.wait(20)
            return view.legal_moves()[0]

    with ServerThread(tmp_path / "hx.db", bots=lambda level, rules: SlowBot()) as server:
        status, a = server.post(
            "/api/tables",
            {"mode": "computer", "name": "Ann", "level": "medium", "settings": {"size": 5, "first": "B"}},
        )
        assert status == 201
        ann = server.client(a["table"], a["token"])
        _, x, _ = online(server, idle=False)
        assert x.request({"type": "move", "cell": "a1", "ply": 0})["ok"]
        assert server.get("/healthz")[0] == 200
        assert not release.is_set() and ann.last("your_turn") is None, "all this while the computer thinks"
        release.set()
        ann.wait(lambda f: f["type"] == "your_turn")


def test_rated_games_update_the_leaderboard(server, tmp_path):
    """A rated game's result changes both players' ratings in the game's pool (variant and
    board) in the SQLite rating store, in the same commit as the game; the leaderboard API
    lists them by pool with the Elo-like display, and each player's history is one request
    away. The browser's secret player id never appears: only its digest does."""
    secret = "ann-secret-0123456789"
    status, a = server.post(
        "/api/tables",
        {
            "mode": "computer",
            "name": "Ann",
            "player_id": secret,
            "level": "easy",
            "settings": {"size": 5, "rated": True},
        },
    )
    assert a["player"].startswith("p:") and secret not in json.dumps(a)
    ann = server.client(a["table"], a["token"])
    assert ann.request({"type": "resign"})["ok"]
    sync(server, ann)
    rated = ann.last("ratings")
    changes = rated["changes"]
    assert rated["pool"] == "hex:5x5"
    assert changes["A"]["after"]["losses"] == 1 and changes["B"]["id"] == "computer:easy"
    assert changes["A"]["id"] == a["player"]
    status, board = server.get("/api/leaderboard?pool=hex:5x5")
    assert [p["id"] for p in board["players"]] == ["computer:easy", a["player"]]
    assert board["pools"] == [{"pool": "hex:5x5", "players": 2}]
    assert board["players"][0]["display"] > 1500 > board["players"][1]["display"] > 100
    assert server.get("/api/leaderboard?variant=hex&size=5")[1]["players"] == board["players"]
    assert server.get("/api/leaderboard?pool=hex:7x7")[1]["players"] == []
    assert server.get("/api/leaderboard?pool=chess")[1]["code"] == "bad-pool"
    status, history = server.get(f"/api/ratings/{a['player']}?pool=hex:5x5")
    assert status == 200 and history["pools"][0]["rating"]["losses"] == 1
    assert [h["display"] for h in history["pools"][0]["history"]] == [changes["A"]["after"]["display"]]
    assert server.get(f"/api/ratings/{a['player']}")[1]["pools"][0]["pool"] == "hex:5x5"
    assert server.get(f"/api/ratings/{a['player']}?pool=hex:7x7")[0] == 404
    with sqlite3.connect(tmp_path / "hx.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM hexengine_pool_ratings").fetchone()[0] == 2
        assert conn.execute("SELECT COUNT(*) FROM hexengine_rating_history").fetchone()[0] == 2
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert secret not in json.dumps(conn.execute("SELECT state FROM hexengine_tables").fetchall())
    status, page = server.get("/leaderboard")
    assert status == 200 and "Leaderboard" in page


def test_bad_table_settings_get_a_clear_error(server):
    """The lobby's API refuses impossible settings with the table's own message."""
    status, body = server.post(
        "/api/tables", {"mode": "online", "name": "Ann", "settings": {"variant": "dark", "swap": "sides"}}
    )
    assert status == 400 and "swap" in body["error"]
    status, body = server.post("/api/tables", {"mode": "online", "name": "", "settings": {}})
    assert status == 400 and "name" in body["error"]
    status, body = server.post("/api/tables", {"mode": "chess"})
    assert status == 400
    status, body = server.post("/api/tables", {"mode": "online", "name": "A", "settings": {"colour": 1}})
    assert status == 400 and "colour" in body["error"]


def test_pages_and_assets_are_served_with_a_strict_policy(server):
    """Every page and asset comes from the package (no CDN); answers forbid foreign scripts."""
    import urllib.request

    for path in [
        "/",
        "/t/abc",
        "/t/abc/watch",
        "/t/abc/replay/1",
        "/leaderboard",
        "/static/common.js",
        "/static/table.js",
        "/static/lobby.js",
        "/static/style.css",
    ]:
        with urllib.request.urlopen(server.url + path) as r:
            body = r.read().decode()
            assert r.status == 200
            assert "default-src 'self'" in r.headers["content-security-policy"]
            assert "http://" not in body.replace("http://www.w3.org", "") and "https://" not in body


def test_the_replay_api_shows_every_stone_only_after_the_end(server):
    """The replay of a Dark Hex game is refused while it runs and shows the true boards after."""
    status, a = server.post(
        "/api/tables",
        {"mode": "computer", "name": "Ann", "level": "easy", "settings": {"variant": "dark", "size": 5}},
    )
    ann = server.client(a["table"], a["token"])
    sync(server, ann)
    assert server.get(f"/api/tables/{a['table']}/games/1")[0] == 404
    ann.request({"type": "move", "cell": "c3", "ply": len(state_of(ann)["history"])})
    ann.request({"type": "resign"})
    status, replay = server.get(f"/api/tables/{a['table']}/games/1")
    assert status == 200 and replay["record"]["result"]["reason"] == "resignation"
    assert len(replay["boards"]) == len(replay["record"]["actions"]) + 1
    placed = [a for a in replay["record"]["actions"] if a["result"] == "placed"]
    assert sum(v != 0 for row in replay["boards"][-1] for v in row) == len(placed) >= 1


def test_database_locations():
    """The default database lives in the user's data folder; URLs name SQLite files only."""
    assert default_database().name == "hexengine.db" and "hexengine" in str(default_database().parent)
    assert str(database_path("sqlite:////tmp/x.db")) == "/tmp/x.db"
    assert database_path("sqlite:///:memory:") == ":memory:"
    with pytest.raises(hx.HexError, match="only SQLite"):
        database_path("postgres://db/hex")


# ------------------------------------------------------------------ restarts


def test_a_restarted_server_carries_on_every_game(tmp_path):
    """Stopping the server and starting another on the same database restores the table: same
    history, same deadline, the seat tokens still work, and the game goes on."""
    path = tmp_path / "hx.db"
    clock = hx.FakeClock(5000.0)
    with ServerThread(path, clock=clock, bots=quick_bots) as server:
        _table, ann, bob = online(server, time_limit=60)
        ann.request({"type": "move", "cell": "c3", "ply": 0})
        bob.request({"type": "move", "cell": "b2", "ply": 1})
        before = state_of(ann)
    with ServerThread(path, clock=clock, bots=quick_bots, port=server.port) as server:
        ann.open()
        bob.open()
        after = ann.last("snapshot")["state"]
        assert (
            after["history"] == before["history"]
            and after["clock"]["deadline"] == before["clock"]["deadline"]
        )
        assert ann.request({"type": "move", "cell": "a1", "ply": 2})["ok"]


def _start(port, path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "hexengine.cli", "serve", "--port", str(port), "--database", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if http("GET", f"http://127.0.0.1:{port}/healthz")[0] == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(proc.stdout.read().decode())


def test_sigkill_mid_game_loses_nothing(tmp_path):
    """`hexengine serve` is killed hard (SIGKILL) in the middle of a timed game and started again
    on the same database: every acknowledged move is there, the clock's deadline is the same,
    both players get their seats back with their tokens, and the game is played to its end."""
    if not hasattr(signal, "SIGKILL"):
        pytest.skip("no SIGKILL on this platform")
    port, path = free_port(), tmp_path / "hx.db"
    proc = _start(port, path)
    try:
        url = f"http://127.0.0.1:{port}"
        _, a = http(
            "POST",
            url + "/api/tables",
            {"mode": "online", "name": "Ann", "settings": {"variant": "dark", "size": 5, "time_limit": 600}},
        )
        _, b = http(
            "POST", url + f"/api/tables/{a['table']}/join", {"code": a["invite"].split("=")[1], "name": "Bob"}
        )
        ws = f"ws://127.0.0.1:{port}/ws/{a['table']}"
        ann, bob = Client(ws, a["token"]), Client(ws, b["token"])
        moves = [(ann, "a1"), (bob, "e1"), (ann, "a2"), (bob, "e2"), (ann, "a3")]
        for ply, (client, cell) in enumerate(moves):
            assert client.request({"type": "move", "cell": cell, "ply": ply})["ok"]
        before = state_of(bob)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc = _start(port, path)
        ann.open()
        bob.open()
        after = bob.last("snapshot")["state"]
        assert after["history"] == before["history"] and len(after["history"]) == 5
        assert after["clock"]["deadline"] == before["clock"]["deadline"]
        assert after["board"] == before["board"]
        plays = [(bob, "e3"), (ann, "a4"), (bob, "e4"), (ann, "a5")]
        for ply, (client, cell) in enumerate(plays, start=5):
            assert client.request({"type": "move", "cell": cell, "ply": ply})["ok"]
        over = ann.wait(lambda f: f["type"] == "game_over")
        assert over["winner_seat"] == "A" and over["reason"] == "connection"
    finally:
        proc.kill()
        proc.wait(10)


# ------------------------------------------------------------------ hidden information on the wire


VARIANTS = ["hex", "rex", "dark", "dark-abrupt"]
MODES = ["online", "computer", "one-device"]


def random_session(server, rng):
    """One table played at random by its clients (with spectators, reconnects, junk frames,
    resignations, time-outs, curtains and rematches); returns every client that took part."""
    variant = rng.choice(VARIANTS)
    size = rng.randint(2, 5)
    mode = rng.choice(MODES)
    settings = {
        "variant": variant,
        "size": size,
        "time_limit": rng.choice([None, 20]),
        "grace": rng.choice([0, 5, 30]),
    }
    if variant in ("hex", "rex"):
        settings["swap"] = rng.choice(["sides", "pieces", "off"])
    settings["first"] = rng.choice(["A", "B", "alternate"])
    body = {
        "mode": mode,
        "name": "Ann",
        "settings": settings,
        "level": rng.choice(["easy", "medium"]),
        "opponent_name": "Bob",
    }
    status, a = server.post("/api/tables", body)
    assert status == 201, a
    table = a["table"]
    seats = [server.client(table, a["token"])]
    if mode == "online":
        _, b = server.post(f"/api/tables/{table}/join", {"code": a["invite"].split("=")[1], "name": "Bob"})
        seats.append(server.client(table, b["token"]))
    watchers = [server.client(table) for _ in range(rng.randint(0, 2))]
    sent: dict[int, set[str]] = {id(c): set() for c in seats}
    everyone = [*seats, *watchers]
    for _ in range(rng.randint(15, 45)):
        op = rng.choices(
            ["move", "junk", "bad", "dup", "resign", "leave", "watch", "wait", "rematch", "raise", "replay"],
            [14, 1, 2, 1, 1, 2, 1, 2, 2, 1, 1],
        )[0]
        client = rng.choice(seats)
        if op in ("move", "bad", "dup"):
            state = state_of(client)
            if state is None:
                continue
            if state["board"] is None and not state["over"]:
                client.request({"type": "lift"})
                state = state_of(client)
            ply = len(state["history"])
            if op == "move" and state["legal_moves"]:
                cell = rng.choice(state["legal_moves"])
            else:
                cell = hx.Cell(rng.randrange(size), rng.randrange(size)).name
                ply = ply if op != "dup" else max(0, ply - 1)
            sent[id(client)].add(cell)
            client.request({"type": "move", "cell": cell, "ply": ply, "id": f"{table}-{ply}-{cell}"})
        elif op == "junk":
            client.send(rng.choice(["{", '{"type": 1}', '{"type": "move"}']))
        elif op == "resign":
            client.request({"type": "resign"})
        elif op == "leave":
            client.close()
            server.call(server.hub.idle())
            if rng.random() < 0.5:
                server.hub.clock.advance(rng.choice([1, 6, 31]))
                server.call(server.hub.tick_all())
            client.open()
        elif op == "watch":
            watcher = server.client(table)
            watchers.append(watcher)
            everyone.append(watcher)
        elif op == "wait":
            server.hub.clock.advance(rng.choice([1, 6, 21]))
            server.call(server.hub.tick_all())
        elif op == "rematch":
            client.request({"type": "rematch"})
        elif op == "raise":
            client.request({"type": "raise"})
        elif op == "replay":
            client.request({"type": "replay"})
        sync(server, *everyone)
    return table, seats, watchers, sent, mode, variant


def test_every_frame_to_every_client_obeys_the_rules(tmp_path):
    """Over many random tables of every variant and mode, every websocket frame each seat, device
    and spectator received shows only what the rules let that client know (checked frame by
    frame against the true game: tests/_wirecheck.py), and nothing meant for one client reaches
    another. Spectators of Dark Hex never receive a stone before a chain is completed."""
    rng = random.Random(20260601)
    checked = dark_spectator_frames = 0
    tiny = range(2, 6)  # small boards: many short games
    with ServerThread(
        tmp_path / "hx.db", clock=hx.FakeClock(10_000.0), bots=quick_bots, board_sizes=tiny
    ) as server:
        for _ in range(40 * EXAMPLES):
            table, seats, watchers, sent, mode, variant = random_session(server, rng)

            async def truth(table=table):
                t = server.hub.rooms[table].table
                games = {r.number: r for r in t.records}
                current = t.record()
                if current is not None:
                    games.setdefault(current.number, current)
                return games, t.records

            games, finished = server.call(truth())
            for client in [*seats, *watchers]:
                for frames in client.connections:
                    checked += check_connection(
                        frames,
                        table,
                        games,
                        finished,
                        sent_cells=sent.get(id(client), set()),
                        dark_device=mode == "one-device" and variant.startswith("dark"),
                    )
                client.close()
            if variant.startswith("dark"):
                dark_spectator_frames += sum(len(c) for w in watchers for c in w.connections)
    assert checked > 3000 * EXAMPLES and dark_spectator_frames > 50


def test_the_wire_checker_catches_a_leak(tmp_path):
    """The checker is not vacuous: a frame showing a hidden Dark Hex stone to the opponent fails."""
    with ServerThread(tmp_path / "hx.db", clock=hx.FakeClock(), bots=quick_bots) as server:
        table, ann, bob = online(server, variant="dark", swap="off")
        ann.request({"type": "move", "cell": "c3", "ply": 0})
        sync(server, bob)

        async def truth():
            t = server.hub.rooms[table].table
            return {1: t.record()}, []

        games, finished = server.call(truth())
        frames = list(bob.connections[-1])
        check_connection(frames, table, games, finished)
        leaked = json.loads(json.dumps(frames))
        moved = next(f for f in leaked if f["type"] == "opponent_moved")
        moved["board"][2][2] = 1
        with pytest.raises(AssertionError):
            check_connection(leaked, table, games, finished)


def test_the_serve_command(tmp_path):
    """`hexengine serve` takes host, port and database; by default it listens on the loopback
    address, on port 8765 or a free one when that is taken; a bad database URL is a clear error."""
    from hexengine.cli import build_parser
    from hexengine.cli.serve import DEFAULT_PORT, _port, run

    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port is None and args.database is None
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", DEFAULT_PORT))
        except OSError:
            pass
        assert _port("127.0.0.1", None) != DEFAULT_PORT or s.getsockname()[1] != DEFAULT_PORT
    assert _port("127.0.0.1", 9999) == 9999 and _port("127.0.0.1", 0) > 0
    bad = build_parser().parse_args(["serve", "--database", "mysql://x/y"])
    assert run(bad) == 2


# ---------------------------------------------------------------- lobby options, names, invites


def test_the_lobby_reads_the_board_sizes_the_api_accepts(server):
    """GET /api/options lists the board sizes; POST /api/tables accepts exactly those (square)
    and refuses any other with a clear error."""
    status, opts = server.get("/api/options")
    assert status == 200 and opts["sizes"] == list(range(5, 20)) and opts["default_size"] == 11
    assert set(opts["variants"]) == {"hex", "rex", "dark", "dark-abrupt"}
    assert {"main_time", "increment", "days_per_move"} <= set(opts["settings"])
    assert opts["max_days_per_move"] == 60 and opts["max_name"] == 64
    for size in opts["sizes"][:1] + opts["sizes"][-1:]:
        status, _ = server.post("/api/tables", {"mode": "online", "name": "Ann", "settings": {"size": size}})
        assert status == 201
    for settings in [{"size": 3}, {"size": 4}, {"rows": 2, "cols": 19}, {"rows": 9, "cols": 11}]:
        status, answer = server.post("/api/tables", {"mode": "online", "name": "Ann", "settings": settings})
        assert status == 400 and answer["code"] == "bad-settings", answer
        assert "square boards from 5x5 to 19x19" in answer["error"]


def test_a_server_may_offer_other_sizes(tmp_path):
    """create_app(board_sizes=...) changes what the lobby offers and the API accepts, together;
    sizes the engine cannot play are a clear error."""
    with ServerThread(tmp_path / "hx.db", board_sizes=[3, 4, 11]) as server:
        assert server.get("/api/options")[1]["sizes"] == [3, 4, 11]
        assert server.post("/api/tables", {"mode": "online", "name": "A", "settings": {"size": 3}})[0] == 201
        status, answer = server.post("/api/tables", {"mode": "online", "name": "A", "settings": {"size": 5}})
        assert status == 400 and "3x3, 4x4, 11x11, not 5x5" in answer["error"]
    for bad in ([0, 5], [20], [], "big"):
        with pytest.raises(hx.ConfigError, match="board_sizes"):
            create_app("sqlite:///:memory:", board_sizes=bad)


@pytest.mark.parametrize(
    "name", ["Ann\u202e", "A\x00nn", "\u2066Ann\u2069", "Ann\u200b", "Ann\u061c", "   ", "x" * 65, 7]
)
def test_names_with_hidden_characters_are_refused(server, name):
    """NUL, text-direction overrides and isolates, zero-width and other invisible characters make
    a name that reads as something else: the server refuses them, naming the problem."""
    status, answer = server.post("/api/tables", {"mode": "online", "name": name, "settings": {"size": 5}})
    assert status == 400 and answer["code"] == "bad-name", answer
    if isinstance(name, str) and name.strip() and len(name) < 65:
        assert "invisible" in answer["error"] and "U+" in answer["error"]


def test_names_are_trimmed(server):
    """Spaces around a name are dropped; letters of every script are welcome."""
    _, a = server.post("/api/tables", {"mode": "online", "name": "  Ann  ", "settings": {"size": 5}})
    code = a["invite"].split("invite=")[1]
    server.post(f"/api/tables/{a['table']}/join", {"code": code, "name": " Bjørn 北 "})
    _, info = server.get(f"/api/tables/{a['table']}")
    assert info["seats"]["A"]["name"] == "Ann" and info["seats"]["B"]["name"] == "Bjørn 北"


def test_a_used_invite_says_seat_taken_and_offers_watching(server):
    """The invite link opened a second time: 409 seat-taken with the spectator link; an
    unknown code stays 403 bad-invite."""
    _, a = server.post("/api/tables", {"mode": "online", "name": "Ann", "settings": {"size": 5}})
    table, code = a["table"], a["invite"].split("invite=")[1]
    status, _ = server.post(f"/api/tables/{table}/join", {"code": code, "name": "Bob"})
    assert status == 200
    status, again = server.post(f"/api/tables/{table}/join", {"code": code, "name": "Cy"})
    assert status == 409 and again["code"] == "seat-taken"
    assert again["watch"] == f"/t/{table}/watch" and again["table"] == table
    status, wrong = server.post(f"/api/tables/{table}/join", {"code": "x" + code, "name": "Cy"})
    assert status == 403 and wrong["code"] == "bad-invite"


def test_fischer_and_correspondence_tables_over_the_api(server):
    """The lobby's API opens tables with main time and increment, or days per move; the clock
    object every client gets shows each player's main time left."""
    _table, ann, bob = online(server, main_time=120, increment=3)
    assert ann.request({"type": "move", "cell": "c3", "ply": 0})["ok"]
    sync(server, bob)
    clock = bob.last("your_turn")["clock"]
    assert clock["main_time"] == 120.0 and clock["increment"] == 3.0
    assert clock["main_left"] == {"A": 123.0, "B": 120.0}
    status, _ = server.post(
        "/api/tables", {"mode": "online", "name": "Ann", "settings": {"size": 5, "days_per_move": 3}}
    )
    assert status == 201
    status, answer = server.post(
        "/api/tables",
        {"mode": "online", "name": "Ann", "settings": {"size": 5, "days_per_move": 3, "time_limit": 30}},
    )
    assert status == 400 and "cannot be combined" in answer["error"]


def test_takeback_and_abort_over_the_websocket(server):
    """Ann asks to take back her move; Bob sees the request and accepts; both get the position
    before it. A new game can be aborted before its second move."""
    _table, ann, bob = online(server)
    assert ann.request({"type": "move", "cell": "c3", "ply": 0})["ok"]
    asked = ann.request({"type": "takeback"})
    assert asked["ok"] and asked["done"] is False
    sync(server, bob)
    assert bob.last("takeback")["state"] == "asked"
    bob.send({"type": "answer_takeback", "accept": "yes"})
    assert "accept" in bob.wait(lambda f: f.get("type") == "error")["error"]
    assert bob.request({"type": "answer_takeback", "accept": True})["ok"]
    sync(server, ann, bob)
    assert ann.last("snapshot")["reason"] == "takeback" and state_of(ann)["history"] == []
    assert bob.request({"type": "abort"})["ok"]
    sync(server, ann)
    assert ann.last("aborted")["seat"] == "B" and state_of(ann)["result"]["reason"] == "aborted"
    refused = ann.request({"type": "move", "cell": "c3", "ply": 0})
    assert not refused["ok"] and refused["code"] == "game-over"


# ---------------------------------------------------------------- identity on another device


def test_a_recovery_link_moves_the_identity_once(server, tmp_path):
    """The first device asks for a recovery link; the second device claims it and gets the same
    player id (so the same ratings); the link works once, a newer link replaces an older one,
    links expire, and the database never holds the player id in the clear."""
    secret = "first-device-secret-42"
    status, link = server.post("/api/identity/recovery", {"player_id": secret})
    assert status == 201 and link["url"] == f"/recover#code={link['code']}" and len(link["code"]) >= 24
    status, page = server.get("/recover")  # the link opens the lobby, which claims the code
    assert status == 200 and "<html" in page.lower() and "lobby.js" in page
    status, claimed = server.post("/api/identity/claim", {"code": link["code"]})
    assert status == 200 and claimed == {"player_id": secret, "player": link["player"]}
    status, again = server.post("/api/identity/claim", {"code": link["code"]})
    assert status == 404 and again["code"] == "bad-recovery"

    _, old = server.post("/api/identity/recovery", {"player_id": secret})
    _, new = server.post("/api/identity/recovery", {"player_id": secret})
    assert server.post("/api/identity/claim", {"code": old["code"]})[0] == 404
    with sqlite3.connect(tmp_path / "hx.db") as conn:
        rows = conn.execute("SELECT * FROM hexengine_recovery").fetchall()
    assert len(rows) == 1 and secret not in repr(rows) and new["code"] not in repr(rows)
    server.hub.clock.advance(24 * 3600 + 1)
    assert server.post("/api/identity/claim", {"code": new["code"]})[0] == 404

    for bad in [{}, {"player_id": "short"}, {"player_id": "x" * 101}, {"player_id": 7}]:
        status, answer = server.post("/api/identity/recovery", bad)
        assert status == 400 and answer["code"] == "bad-name"
    assert server.post("/api/identity/claim", {"code": 5})[1]["code"] == "bad-recovery"


# ---------------------------------------------------------------- analysis and SGF


def finished_dark_game(server):
    """A Dark Hex table where Ann (Red) has played c3, hidden from Bob."""
    table, ann, bob = online(server, variant="dark", swap="off")
    assert ann.request({"type": "move", "cell": "c3", "ply": 0})["ok"]
    sync(server, bob)
    return table, ann, bob


def test_dark_hex_is_analysed_only_after_the_game(server):
    """While a Dark Hex game runs, neither its analysis nor its SGF is given (403 hidden, 404);
    once it is over both are, for every position."""
    table, _ann, bob = finished_dark_game(server)
    status, refused = server.get(f"/api/tables/{table}/games/1/analysis?ply=1&simulations=100")
    assert status == 403 and refused["code"] == "hidden" and "c3" not in json.dumps(refused)
    assert server.get(f"/api/tables/{table}/games/1/sgf")[0] == 404
    assert bob.request({"type": "resign"})["ok"]
    status, answer = server.get(f"/api/tables/{table}/games/1/analysis?ply=1&simulations=200&top=3")
    assert status == 200 and answer["finished"] is True and answer["to_move"] == "blue"
    assert answer["ply"] == 1 and 1 <= len(answer["top"]) <= 3 and 0.0 <= answer["value"] <= 1.0
    assert answer["simulations"] == 200
    status, sgf = server.get(f"/api/tables/{table}/games/1/sgf")
    assert status == 200 and sgf.startswith("(;FF[4]") and "B[c3]" in sgf


def test_hex_games_may_be_analysed_live_and_bad_requests_are_clear(server):
    """A running Hex game's position is public: it may be analysed. Bad plies, simulation
    counts and game numbers get clear refusals; a posted record is analysed too."""
    table, ann, bob = online(server)
    assert ann.request({"type": "move", "cell": "c3", "ply": 0})["ok"]
    status, live = server.get(f"/api/tables/{table}/games/1/analysis?simulations=150")
    assert status == 200 and live["finished"] is False and live["ply"] == 1 and live["to_move"] == "blue"
    assert live["swap_value"] is not None  # Blue may swap after Red's first stone
    for query, code in [
        ("ply=7", "bad-ply"),
        ("ply=-1", "bad-ply"),
        ("ply=x", "bad-request"),
        ("simulations=0", "bad-request"),
        ("simulations=1000000", "bad-request"),
        ("top=0", "bad-request"),
    ]:
        status, refused = server.get(f"/api/tables/{table}/games/1/analysis?{query}")
        assert status == 400 and refused["code"] == code, (query, refused)
    assert server.get(f"/api/tables/{table}/games/9/analysis")[0] == 404
    assert server.get("/api/tables/nope/games/1/analysis")[0] == 404
    assert bob.request({"type": "resign"})["ok"]
    sync(server, ann)
    record = ann.last("game_over") and server.get(f"/api/tables/{table}/games/1")[1]["record"]
    status, posted = server.post("/api/analyse", {"record": record, "ply": 0, "simulations": 100})
    assert status == 200 and posted["to_move"] == "red" and posted["top"]
    status, bad = server.post("/api/analyse", {"record": {"format": "chess"}})
    assert status == 400 and "hexengine record" in bad["error"]


def test_a_deadline_passed_is_committed_before_anyone_hears_of_it(server, tmp_path):
    """The clock passes Bob's deadline with no timer firing; the next thing anyone asks (here a
    spectator's snapshot) applies the time-out, and it is in the database by the time the
    spectator sees it."""
    table, ann, bob = online(server, time_limit=30)
    assert ann.request({"type": "move", "cell": "c3", "ply": 0})["ok"]
    sync(server, bob)
    watcher = server.client(table)
    server.hub.clock.advance(31)
    watcher.send({"type": "snapshot"})
    snap = watcher.wait(lambda f: f.get("type") == "snapshot" and f["state"]["over"])
    assert snap["state"]["result"]["reason"] == "timeout"
    assert saved_state(tmp_path / "hx.db", table)["run"]["record"]["result"]["reason"] == "timeout"
    sync(server, ann)
    assert ann.last("game_over")["reason"] == "timeout"
