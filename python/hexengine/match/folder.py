"""The output folder of a match or a tournament: each game saved as it finishes, and a stopped
run resumed where it stopped.

A folder holds:

- ``settings.json``: what was asked for (players, rules, games, openings, seed) and a digest of
  the games they schedule, written once when the folder is first used;
- ``games.jsonl``: one line per finished game, its :class:`~hexengine.match.game.GameResult` as
  JSON (the SGF included), in the order the games finished;
- ``game-0001.sgf``, ...: each game's record, numbered from 1;
- ``results.json`` (and ``results.txt`` for a tournament): the totals, written at the end.

Each game is saved in two steps: its SGF goes to a temporary file that is flushed to disk and
renamed over ``game-NNNN.sgf`` (a rename replaces a file whole), then its line is appended to
``games.jsonl`` by a single ``write`` on a descriptor opened with ``O_APPEND``, followed by
``fsync``. The line is what counts: a game is finished once its line is complete. A run stopped
between the two steps leaves a record without a line, and the game is played again (with the
same seed); one stopped in the middle of the write (a crash, a full disk) leaves a last line
without its newline, which the next run cuts off before appending. Only the process that
runs the match writes (results come back to it from wherever the games are played), and it
holds an exclusive lock on ``games.jsonl`` (``flock``, where the system has it) so that a
second run cannot write to the same folder at the same time.

A folder is resumed when the settings are the same: its finished games are read back and only
the others are played, with their own indices and seeds. Other settings are an error.

>>> import tempfile
>>> from hexengine.match.execution import play_here
>>> from hexengine.match.players import parse_player
>>> specs = (parse_player("random:seed=1"), parse_player("random"))
>>> jobs = [GameJob(0, specs, hx.Rules("hex", 3, 3), (), "A", 0, ("one", "two"))]
>>> path = tempfile.mkdtemp()
>>> with ResultsFolder(path, {"kind": "match", "games": 1}, jobs) as folder:
...     folder.add(next(play_here(jobs)))
True
>>> with ResultsFolder(path, {"kind": "match", "games": 1}, jobs) as folder:
...     sorted(folder.finished)
[0]
>>> ResultsFolder(path, {"kind": "match", "games": 2}, jobs)
Traceback (most recent call last):
...
hexengine.match.errors.MatchError: ... holds a match of other settings (games: 1 there, 2 here)...
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from .errors import MatchError
from .game import GameJob, GameResult

with contextlib.suppress(ImportError):
    import fcntl

__all__ = ["ResultsFolder", "write_atomically"]

SETTINGS = "settings.json"
GAMES = "games.jsonl"


class ResultsFolder:
    """The output folder ``path`` of the run described by ``settings`` (a JSON-ready dict with a
    ``kind``) that plays ``jobs``: created, or resumed if it holds the same settings (else
    :class:`~hexengine.match.errors.MatchError`). :attr:`finished` holds the games already
    there, by index; :meth:`add` saves one more. Use it as a context manager, or :meth:`close` it."""

    def __init__(
        self, path: str | os.PathLike[str], settings: dict[str, Any], jobs: Sequence[GameJob]
    ) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.finished: dict[int, GameResult] = {}
        self._fd = os.open(self.path / GAMES, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            self._lock()
            self._settle(dict(settings, schedule=schedule_digest(jobs)))
            self._read(len(jobs))
        except BaseException:
            os.close(self._fd)
            raise

    def add(self, game: GameResult) -> bool:
        """Saves ``game`` (its record, then its line); False, and nothing written, if a game of
        that index is already saved."""
        if game.index in self.finished:
            return False
        write_atomically(self.path / f"game-{game.index + 1:04d}.sgf", game.sgf + "\n")
        line = (json.dumps(dataclasses.asdict(game), separators=(",", ":")) + "\n").encode()
        if os.write(self._fd, line) != len(line):
            raise MatchError(f"could not append game {game.index + 1} to {self.path / GAMES} (disk full?)")
        os.fsync(self._fd)
        self.finished[game.index] = game
        return True

    def write(self, name: str, text: str) -> None:
        """Writes the file ``name`` of the folder whole (:func:`write_atomically`)."""
        write_atomically(self.path / name, text)

    def close(self) -> None:
        """Releases the folder (and its lock)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> ResultsFolder:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _lock(self) -> None:
        if "fcntl" not in globals():
            return
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise MatchError(f"{os.fspath(self.path)!r} is in use by another run") from None

    def _settle(self, here: dict[str, Any]) -> None:
        path = self.path / SETTINGS
        if not path.exists():
            write_atomically(path, json.dumps(here, indent=1) + "\n")
            return
        try:
            there = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise MatchError(f"cannot read {os.fspath(path)!r}: {e}") from None
        if there.get("kind") != here["kind"]:
            raise MatchError(
                f"{os.fspath(self.path)!r} holds a {there.get('kind')}, not a {here['kind']}: "
                "give another folder"
            )
        differ = [
            k for k in sorted(set(there) | set(here)) if k != "schedule" and there.get(k) != here.get(k)
        ]
        if differ or there.get("schedule") != here["schedule"]:
            details = "; ".join(
                f"{k}: {_text(there.get(k))} there, {_text(here.get(k))} here" for k in differ
            )
            raise MatchError(
                f"{os.fspath(self.path)!r} holds a {here['kind']} of other settings "
                f"({details or 'the same settings schedule other games: another hexengine version?'}): "
                "give the same settings to finish it, or another folder"
            )

    def _read(self, planned: int) -> None:
        with open(self._fd, "rb", closefd=False) as f:
            data = f.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            os.truncate(self._fd, end)
        fields = {f.name for f in dataclasses.fields(GameResult)}
        for line in data[:end].splitlines():
            try:
                game = GameResult(**{k: v for k, v in json.loads(line).items() if k in fields})
            except (ValueError, TypeError, AttributeError):
                continue
            if 0 <= game.index < planned:
                self.finished.setdefault(game.index, game)


def schedule_digest(jobs: Sequence[GameJob]) -> str:
    """A digest of everything that decides the games of ``jobs`` (players, rules, openings,
    colours, seeds, names, clock): two runs that share it play the same games."""
    text = json.dumps(
        [
            [j.index, [s.text for s in j.specs], [j.rules.variant, j.rules.rows, j.rules.cols, j.rules.swap],
             list(j.opening), j.red, j.seed, list(j.names)] + ([j.clock] if j.clock else [])
            for j in jobs
        ]
    )  # fmt: skip
    return hashlib.sha256(text.encode()).hexdigest()


def write_atomically(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` whole or not at all: to a temporary file beside it, flushed to
    disk, then renamed over ``path``."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


def _text(value: Any) -> str:
    return "none" if value is None else json.dumps(value)
