"""Helpers for the web table tests: a real server on a loopback port, and websocket clients
that keep every frame they receive."""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import uvicorn
from websockets.sync.client import connect

from hexengine.server import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerThread:
    """``create_app(...)`` served by uvicorn on 127.0.0.1 in a background thread."""

    def __init__(
        self, database: Any = "sqlite:///:memory:", *, port: int | None = None, **kwargs: Any
    ) -> None:
        kwargs.setdefault("frame_rate", 10_000.0)
        self.app = create_app(database, **kwargs)
        self.hub = self.app.state.hub
        self.port = port or free_port()
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=1 << 20,
            ws="websockets-sansio",
        )
        self.server = uvicorn.Server(config)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(self.server.serve())

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def call(self, coro: Any) -> Any:
        """Runs a coroutine on the server's loop (e.g. ``hub.tick_all()``) and returns its result."""
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return http("POST", self.url + path, body)

    def get(self, path: str) -> tuple[int, Any]:
        return http("GET", self.url + path)

    def client(self, table: str, token: str | None = None, **kw: Any) -> Client:
        return Client(f"ws://127.0.0.1:{self.port}/ws/{table}", token, **kw)


def http(method: str, url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            raw = r.read()
            status = r.status
    except urllib.error.HTTPError as e:
        raw, status = e.read(), e.code
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode()


_ids = itertools.count(1)


class Client:
    """A websocket client that says hello (with a seat token, or as a spectator) and keeps
    every frame it receives in ``frames`` (the connection's frames in ``connections``)."""

    def __init__(self, url: str, token: str | None, *, hello: bool = True) -> None:
        self.url = url
        self.token = token
        self.frames: list[dict[str, Any]] = []
        self.connections: list[list[dict[str, Any]]] = []
        self.recipient: str | None = None
        self.ws: Any = None
        self.open(hello=hello)

    def open(self, *, hello: bool = True) -> None:
        self.ws = connect(self.url, open_timeout=20, max_size=None).__enter__()
        self.connections.append([])
        if hello:
            if self.token is None:
                self.send({"type": "hello", "watch": True})
                self.wait(lambda f: f.get("type") == "snapshot")
            else:
                self.send({"type": "hello", "token": self.token})
                welcome = self.wait(lambda f: f.get("type") in ("welcome", "error"))
                if welcome["type"] == "welcome":
                    self.token = welcome["token"]
                    self.recipient = welcome["recipient"]
                    self.send({"type": "saved"})
                    self.wait(lambda f: f.get("type") == "snapshot")

    def close(self) -> None:
        self.ws.close()

    def send(self, frame: dict[str, Any] | str) -> None:
        self.ws.send(frame if isinstance(frame, str) else json.dumps(frame))

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        frame = json.loads(self.ws.recv(timeout))
        self.frames.append(frame)
        self.connections[-1].append(frame)
        return frame

    def wait(self, predicate: Any, timeout: float = 30) -> dict[str, Any]:
        """Receives until a frame matches ``predicate`` (earlier frames are kept too)."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching frame; last frames: {self.frames[-5:]}")
            frame = self.recv(left)
            if predicate(frame):
                return frame

    def drain(self, quiet: float = 0.05) -> list[dict[str, Any]]:
        """Receives whatever arrives until the line is quiet for ``quiet`` seconds."""
        got = []
        while True:
            try:
                got.append(self.recv(quiet))
            except TimeoutError:
                return got

    def request(self, frame: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        """Sends a request with a fresh id and returns its ack."""
        rid = frame.get("id") or f"r{next(_ids)}"
        self.send({**frame, "id": rid})
        return self.wait(lambda f: f.get("type") == "ack" and f.get("id") == rid, timeout)

    def last(self, kind: str) -> dict[str, Any] | None:
        return next((f for f in reversed(self.frames) if f.get("type") == kind), None)
