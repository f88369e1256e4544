"""Where lost games were lost: the positions in which the loser still held a proven win.

    python bench/strength_openspiel.py --variant rex --size 7 --simulations 10000 --games 200 \\
        --colour red --records out/
    python bench/where_lost.py out/ --player hexengine --max-empties 23 --seconds 20

Reads every game record in the folder (SGF, hexengine JSON or trmph, as
``hexengine.read_record`` does). In each game that the named player lost
(every lost game without ``--player``), each position with the loser to move
and at most ``--max-empties`` empty cells is solved with ``hexengine.solve``
(at most ``--seconds`` each, swap off as in the records). One line per game
shows, by number of empty cells, who wins each of those positions with
perfect play (``W`` the loser still wins, ``L`` it is lost, ``?`` not settled
in time) and, for the last won one, the solver nodes its proof took. A game
with a ``W`` was thrown away within the solver's reach; a game of ``L`` only
was lost earlier, or from the start (Red in 7x7 Rex). The summary counts both.

``--peer-simulations N`` (square boards, swap off; needs OpenSpiel) also asks,
in every position of each game with the winner to move, whether OpenSpiel's
MCTSBot as ``bench/strength_openspiel.py`` plays it (N simulations) proves the
result at its root, and prints the most empty cells at which it did: where
the winner's side, if it was that bot, stopped relying on rollouts alone.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import hexengine as hx
from hexengine.table import RecordedAction

RECORD_SUFFIXES = {".sgf", ".json", ".trmph"}


@dataclass
class LostGame:
    """The positions of one lost game, from the loser's side."""

    name: str
    loser: hx.Color
    # (empty cells, "W" | "L" | "?", solver nodes) per position with the loser to move.
    positions: list[tuple[int, str, int]] = field(default_factory=list)
    # The most empty cells at which OpenSpiel's search proved the result for the winner.
    peer_proves_from: int | None = None

    @property
    def missed(self) -> tuple[int, str, int] | None:
        """The last position the loser still won, if any."""
        won = [p for p in self.positions if p[1] == "W"]
        return won[-1] if won else None

    def line(self) -> str:
        marks = " ".join(f"{empty}:{verdict}" for empty, verdict, _ in self.positions)
        missed = self.missed
        tail = f"  (won with {missed[0]} empty, proof {missed[2]:,} nodes)" if missed else ""
        if self.peer_proves_from is not None:
            tail += f"  [OpenSpiel proves it from {self.peer_proves_from} empty]"
        return f"{self.name} {self.loser.name.lower()} lost: {marks}{tail}"


def positions(record: hx.GameRecord) -> Iterator[tuple[hx.Game, int, RecordedAction]]:
    """Each position of ``record`` before one of its actions: the referee (left as it is
    until the next step), its number of empty cells, and the action played from it."""
    game = hx.Game(record.rules)
    for action in record.actions:
        yield game, int((game.board == 0).sum()), action
        game.play("swap" if action.result is hx.MoveResult.SWAPPED else action.cell)


def peer_proves_from(record: hx.GameRecord, winner: hx.Color, simulations: int) -> int | None:
    """The most empty cells at which OpenSpiel's MCTSBot, searching a position of the
    winner in ``record``, proves the result at its root (None: never)."""
    from strength_openspiel import spiel_bot, spiel_game

    spiel = spiel_game(record.rules.variant, record.rules.rows)
    state = spiel.new_initial_state()
    found = None
    for game, empty, action in positions(record):
        if game.to_move == winner and (found is None or empty > found):
            if spiel_bot(spiel, simulations, 0).mcts_search(state).outcome:
                found = empty
        state.apply_action(action.cell.index(record.rules.cols))
    return found


def analyse(
    path: Path, player: str | None, max_empties: int, seconds: float, peer_simulations: int = 0
) -> LostGame | str | None:
    """The lost game in ``path`` with its solved positions, None if ``player`` did not lose
    it, or why the file is not a record."""
    try:
        record = hx.read_record(path)
    except hx.RecordError as error:
        return str(error)
    if record.winner is None:
        return None
    loser = record.winner.opponent
    info = record.players.get(record.seat_of(loser))
    if player is not None and (info is None or player.lower() not in info.name.lower()):
        return None
    rules = record.rules
    if peer_simulations and (
        rules.rows != rules.cols or rules.swap != "off" or rules.variant not in ("hex", "rex")
    ):
        raise ValueError(f"{path.name}: --peer-simulations needs square Hex or Rex with swap off")
    lost = LostGame(path.name, loser)
    for game, empty, _ in positions(record):
        if game.to_move == loser and empty <= max_empties:
            try:
                result = hx.solve(game, max_seconds=seconds)
            except hx.SolveError:  # the empty board with the swap to come: sides not yet settled
                lost.positions.append((empty, "?", 0))
            else:
                verdict = "?" if result.winner is None else "W" if result.winner == loser else "L"
                lost.positions.append((empty, verdict, result.nodes))
    if peer_simulations:
        lost.peer_proves_from = peer_proves_from(record, record.winner, peer_simulations)
    return lost


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("records", type=Path, help="folder of game records")
    parser.add_argument("--player", help="only games this player lost (part of its name)")
    parser.add_argument(
        "--max-empties", type=int, default=23, help="solve positions with at most this many empty cells"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="solver time per position")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games analysed in parallel")
    parser.add_argument(
        "--peer-simulations",
        type=int,
        default=0,
        metavar="N",
        help="also find where OpenSpiel's MCTSBot (N simulations) proves the result for the winner",
    )
    args = parser.parse_args(argv)
    if args.max_empties < 0 or not args.seconds > 0 or args.peer_simulations < 0 or args.jobs < 1:
        parser.error("--max-empties and --peer-simulations must be >= 0, --seconds > 0 and --jobs >= 1")
    if not args.records.is_dir():
        parser.error(f"{args.records} is not a folder of game records")
    paths = sorted(p for p in args.records.iterdir() if p.suffix in RECORD_SUFFIXES)
    if not paths:
        parser.error(f"no game records (.sgf, .json, .trmph) in {args.records}")
    games, skipped = [], 0
    work = partial(
        analyse,
        player=args.player,
        max_empties=args.max_empties,
        seconds=args.seconds,
        peer_simulations=args.peer_simulations,
    )
    with ProcessPoolExecutor(args.jobs) as pool:
        try:
            for path, lost in zip(paths, pool.map(work, paths), strict=True):
                if isinstance(lost, str):
                    print(f"{path.name}: skipped, {lost}", file=sys.stderr)
                    skipped += 1
                elif lost is not None:
                    games.append(lost)
                    print(lost.line(), flush=True)
        except ValueError as error:
            parser.error(str(error))
    missed = sum(1 for g in games if g.missed)
    print(
        f"{len(games)} lost games of {len(paths) - skipped}: {missed} with a proven win for the loser at "
        f"{args.max_empties} or fewer empty cells, {len(games) - missed} lost in every position settled"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
