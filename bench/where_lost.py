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

``--search-seconds S`` also runs hexengine's search (``MCTSBot``, one
thread, S seconds) on every position with the loser to move and shows the
largest fall of its value between two consecutive such positions: where the
winner's reply came as a surprise. The summary counts the games with a fall
of 0.3 or more. For games against MoHex, say (records from ``hexengine
match --out``):

    python bench/where_lost.py mohex-t1/ --player mcts --max-empties 0 --search-seconds 1

``--connections`` also finds the first position, with the loser to move, at
which hexengine's tree knowledge alone (the search's H-search on the
position its inferior-cell analysis filled in, run at the root) proves the
game lost: from there on, no move of the loser's mattered. ``--benzene PATH``
asks Benzene's connections the same (``vc-build``, then a full connection
of the winner's; PATH a ``mohex`` binary, never built or shipped by
hexengine), to show how much earlier a stronger H-search knows:

    python bench/where_lost.py mohex-t1/ --player mcts --max-empties 0 --connections \
        --benzene /path/to/mohex

``--benzene-setting COMMAND`` (repeatable) sends Benzene one more HTP
command first, so that a run without one piece of its knowledge (its
pattern connections: ``"param_player_vc use_patterns 0"``, of them the
ones between two cells: ``use_non_edge_patterns 0``; its inferior cells:
``"param_player_board use_ice 0"``) shows how much later it proves the
losses without it; ``--compare`` of the two runs' ``--json`` files says so
game by game.

To compare two builds (or two settings) on the same lost games, run the
script once with each, writing ``--json FILE``, then compare the two files:
per game, whether the second build's connections prove the loss earlier or
later than the first's, and the medians over the games both prove lost.
Each run uses the hexengine installed where it runs, so two builds need two
environments:

    python bench/where_lost.py mohex-t1/ --player mcts --max-empties 0 --connections --json before.json
    python bench/where_lost.py mohex-t1/ --player mcts --max-empties 0 --connections --json after.json
    python bench/where_lost.py --compare before.json after.json

``--peer-simulations N`` (square boards, swap off; needs OpenSpiel) also asks,
in every position of each game with the winner to move, whether OpenSpiel's
MCTSBot as ``bench/strength_openspiel.py`` plays it (N simulations) proves the
result at its root, and prints the most empty cells at which it did: where
the winner's side, if it was that bot, stopped relying on rollouts alone.

Dark Hex: ``--dark FILE`` reads the JSON lines that ``bench/dark_strength.py
match --records FILE`` writes (MCTSBot against a baseline) and replays each
game with the same bot (same seed, budget and settings, so it makes the same
decisions: each is checked against the record) to see what it knew and did.
Per game, for every decision of hexengine's bot: whether it was a hit; the
true connection distances (stones still needed on the true board, own stones
free, enemy stones blocking) of both sides before it, and whether the move
lengthened the opponent's (a block) or shortened its own; how much belief
the search put on the opponent's true hidden stones (the mean of its
``hit_probability`` over them, divided by the mean over every unknown cell:
1 is no better than a uniform guess); and its root value. A summary over
lost and won games follows (``--json FILE`` also writes every decision):

    python bench/dark_strength.py match --opponent greedy --simulations 5000 --variant dark-abrupt \
        --size 5 --games 100 --records lost.jsonl
    python bench/where_lost.py --dark lost.jsonl
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import statistics
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
from benzene_knowledge import BenzeneKnowledge  # Benzene's connections over HTP

import hexengine as hx
from hexengine.match import parse_player
from hexengine.table import RecordedAction

RECORD_SUFFIXES = {".sgf", ".json", ".trmph"}


def record_paths(folder: Path) -> list[Path]:
    """The game records (by suffix) in ``folder``, in name order; ValueError if none."""
    paths = sorted(p for p in folder.iterdir() if p.suffix in RECORD_SUFFIXES)
    if not paths:
        raise ValueError(f"no game records (.sgf, .json, .trmph) in {folder}")
    return paths


@dataclass
class LostGame:
    """The positions of one lost game, from the loser's side."""

    name: str
    loser: hx.Color
    # (empty cells, "W" | "L" | "?", solver nodes) per position with the loser to move.
    positions: list[tuple[int, str, int]] = field(default_factory=list)
    # The most empty cells at which OpenSpiel's search proved the result for the winner.
    peer_proves_from: int | None = None
    # (move number, the search's value for the loser) per position with the loser to move.
    values: list[tuple[int, float]] = field(default_factory=list)
    # The first move numbers (loser to move) from which the connections of
    # hexengine's tree knowledge, and of Benzene, prove the game lost.
    ours_know_from: int | None = None
    benzene_knows_from: int | None = None

    @property
    def fall(self) -> tuple[int, float, int, float] | None:
        """The largest fall of the search's value between two consecutive positions:
        (move, value, next move, value), or None without two values."""
        pairs = list(pairwise(self.values))
        if not pairs:
            return None
        (a, va), (b, vb) = max(pairs, key=lambda pair: pair[0][1] - pair[1][1])
        return a, va, b, vb

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
        if fall := self.fall:
            tail += f"  [search value {fall[1]:.2f} at move {fall[0]} -> {fall[3]:.2f} at move {fall[2]}]"
        if self.ours_know_from or self.benzene_knows_from:
            ours, theirs = self.ours_know_from or "-", self.benzene_knows_from or "-"
            tail += f"  [connections prove it lost from move {ours} (hexengine), {theirs} (Benzene)]"
        return f"{self.name} {self.loser.name.lower()} lost: {marks}{tail}"


def compare(before: Path, after: Path) -> int:
    """Prints, game by game, where the connections of two ``--json`` runs first prove
    the loss, and how many games the second run proves lost earlier, later or at the
    same move as the first: hexengine's connections, and Benzene's where both runs
    asked Benzene (two runs with different ``--benzene-setting``, say)."""
    files = []
    for path in (before, after):
        try:
            games = json.loads(path.read_text())
            files.append({g["name"]: (g["ours_know_from"], g["benzene_knows_from"]) for g in games})
        except (OSError, ValueError, TypeError, KeyError) as error:
            raise ValueError(f"{path} is not a file of where_lost.py --json ({error!r})") from error
    compared = False
    for k, who in enumerate(("hexengine", "Benzene")):
        runs = [{name: moves[k] for name, moves in run.items()} for run in files]
        if all(any(run.values()) for run in runs):
            print(f"{who}'s connections:")
            compare_runs(runs)
            compared = True
    if not compared:
        raise ValueError("the two runs have no engine's proofs in common: were both made with --connections?")
    return 0


def compare_runs(runs: list[dict[str, int | None]]) -> None:
    """The per-game comparison of ``compare`` for one engine's first proven-lost moves."""
    common = sorted(runs[0].keys() & runs[1].keys())
    counts = {"earlier": 0, "later": 0, "the same": 0, "only before": 0, "only after": 0}
    both: list[tuple[int, int]] = []
    for name in common:
        a, b = (run[name] for run in runs)
        if a is None and b is None:
            continue
        if a is None or b is None:
            key = "only after" if a is None else "only before"
        else:
            key = "earlier" if b < a else "later" if b > a else "the same"
            both.append((a, b))
        counts[key] += 1
        if key != "the same":
            print(f"{name}: proven lost from move {a or '-'} before, {b or '-'} after ({key})")
    print(
        f"{len(common)} lost games in both runs: proven lost earlier in {counts['earlier']}, later in "
        f"{counts['later']}, at the same move in {counts['the same']}; only before in "
        f"{counts['only before']}, only after in {counts['only after']}"
    )
    if both:
        medians = [statistics.median(move[k] for move in both) for k in (0, 1)]
        print(f"median move, games proven lost in both: {medians[0]:g} before, {medians[1]:g} after")


def positions(record: hx.GameRecord) -> Iterator[tuple[hx.Game, int, RecordedAction]]:
    """Each position of ``record`` before one of its actions: the referee (left as it is
    until the next step), its number of empty cells, and the action played from it."""
    game = hx.Game(record.rules)
    for action in record.actions:
        yield game, int((game.board == 0).sum()), action
        game.play("swap" if action.result is hx.MoveResult.SWAPPED else action.cell)


def knowledge_proves_lost(game: hx.Game) -> bool:
    """Whether the knowledge of hexengine's search tree alone proves the player to
    move lost: the root's H-search, on the board its inferior-cell analysis filled in,
    finds a full connection of the opponent's, or no move inside the must-play region.
    The search plays a move proven lost only when every move is (cells left out of the
    tree as inferior show no proof)."""
    bot = hx.MCTSBot(simulations=16, threads=1, knowledge_visits=1, inferior_visits=1, solver_nodes=0)
    found = bot.analyse(game.view(game.to_move))
    if found.forced is not None or not isinstance(found.move, hx.Cell):
        return False
    return bool(found.proven[found.move.row, found.move.col] == -1)


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
    path: Path,
    player: str | None,
    max_empties: int,
    seconds: float,
    peer_simulations: int = 0,
    search_seconds: float = 0.0,
    connections: bool = False,
    benzene: str | None = None,
    benzene_settings: tuple[str, ...] = (),
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
    if benzene and (rules.variant != "hex" or rules.swap != "off"):
        raise ValueError(f"{path.name}: --benzene needs Hex with swap off")
    peer = BenzeneKnowledge(benzene, rules.rows, rules.cols, benzene_settings) if benzene else None
    try:
        lost = lost_positions(
            record, path.name, loser, max_empties, seconds, search_seconds, connections, peer
        )
    finally:
        if peer:
            peer.close()
    if peer_simulations:
        lost.peer_proves_from = peer_proves_from(record, record.winner, peer_simulations)
    return lost


def lost_positions(
    record: hx.GameRecord,
    name: str,
    loser: hx.Color,
    max_empties: int,
    seconds: float,
    search_seconds: float,
    connections: bool,
    peer: BenzeneKnowledge | None,
) -> LostGame:
    """What is known about each position of ``record`` with the loser to move (see ``analyse``)."""
    lost = LostGame(name, loser)
    for move, (game, empty, _) in enumerate(positions(record), start=1):
        if game.to_move != loser:
            continue
        if connections and lost.ours_know_from is None and knowledge_proves_lost(game):
            lost.ours_know_from = move
        if peer and lost.benzene_knows_from is None:
            peer.set_position(game)
            if peer.decides(game) == "lost":
                lost.benzene_knows_from = move
        if search_seconds:
            found = hx.MCTSBot(seconds=search_seconds, threads=1).analyse(game.view(loser))
            value = 0.0 if found.forced == "swindle" else found.value  # a swindle: proven lost
            if value is not None:  # None: a forced move without a value (a block, a dead cell)
                lost.values.append((move, value))
        if empty <= max_empties:
            try:
                result = hx.solve(game, max_seconds=seconds)
            except hx.SolveError:  # the empty board with the swap to come: sides not yet settled
                lost.positions.append((empty, "?", 0))
            else:
                verdict = "?" if result.winner is None else "W" if result.winner == loser else "L"
                lost.positions.append((empty, verdict, result.nodes))
    return lost


STEPS = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0))


def true_distance(board: np.ndarray, color: hx.Color) -> int:
    """Stones ``color`` still needs to join its edges on ``board`` (its own free, enemy blocks)."""
    rows, cols = board.shape
    me = int(color)
    dist = np.full(board.shape, 10**6)
    heap: list[tuple[int, int, int]] = []
    for r in range(rows):
        for c in range(cols):
            first = r == 0 if color == hx.RED else c == 0
            if first and board[r, c] in (0, me):
                dist[r, c] = int(board[r, c] == 0)
                heapq.heappush(heap, (int(dist[r, c]), r, c))
    while heap:
        d, r, c = heapq.heappop(heap)
        if d > dist[r, c]:
            continue
        if (r == rows - 1) if color == hx.RED else (c == cols - 1):
            return d
        for dr, dc in STEPS:
            q, k = r + dr, c + dc
            if 0 <= q < rows and 0 <= k < cols and board[q, k] in (0, me):
                nd = d + int(board[q, k] == 0)
                if nd < dist[q, k]:
                    dist[q, k] = nd
                    heapq.heappush(heap, (nd, q, k))
    return 10**6


@dataclass
class DarkDecision:
    """One decision of hexengine's bot in a Dark Hex game, seen with the true board."""

    action: int
    move: str
    hit: bool
    ours: int  # true distances before the move
    theirs: int
    blocked: bool  # the move lengthened the opponent's true distance
    gained: bool  # the move shortened ours
    belief: float | None  # belief on the true hidden stones over a uniform guess
    hidden: int
    value: float | None
    risk: float | None  # the search's share of worlds with a hidden stone on the chosen cell


def dark_game(record: dict[str, Any]) -> tuple[bool, list[DarkDecision]]:
    """Replays one dark_strength record with hexengine's bot; (won, its decisions)."""
    rules = hx.Rules(record["variant"], record["size"], record["size"])
    options = parse_player("mcts:" + ";".join(record.get("ours", []))).options if record.get("ours") else {}
    budget = (
        {"simulations": record["simulations"]}
        if record.get("simulations")
        else {"seconds": record["seconds"], "simulations": 0}
    )
    bot = hx.MCTSBot(**budget, seed=record["seed"], **options)
    ours = hx.RED if record["hexengine"] == "red" else hx.BLUE
    game = hx.Game(rules)
    out = []
    for i, (_colour, cell, _result) in enumerate(record["moves"]):
        if game.to_move == ours:
            view = game.view(ours)
            analysis = bot.analyse(view)
            if str(analysis.move) != cell and record.get("simulations"):
                raise ValueError(f"seed {record['seed']}: the replayed bot chose {analysis.move}, not {cell}")
            board = game.board
            hidden = (board == int(ours.opponent)) & (view.board == 0)
            unknown = view.board == 0
            belief = None
            if hidden.any() and analysis.hit_probability is not None:
                p = analysis.hit_probability
                base = p[unknown].mean()
                belief = float(p[hidden].mean() / base) if base > 0 else None
            before = (true_distance(board, ours), true_distance(board, ours.opponent))
            result = game.play(cell)
            after = game.board
            out.append(
                DarkDecision(
                    i,
                    cell,
                    result is hx.MoveResult.HIT,
                    before[0],
                    before[1],
                    true_distance(after, ours.opponent) > before[1],
                    true_distance(after, ours) < before[0],
                    belief,
                    int(hidden.sum()),
                    analysis.value,
                    None
                    if analysis.hit_probability is None
                    else float(analysis.hit_probability.flat[hx.Cell.parse(cell).index(rules.cols)]),
                )
            )
        else:
            game.play(cell)
    return game.winner == ours, out


def dark_main(path: Path, json_out: Path | None) -> int:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    summary: dict[bool, list[DarkDecision]] = {True: [], False: []}
    behind: dict[bool, list[int]] = {True: [], False: []}
    rows = []
    for record in records:
        won, decisions = dark_game(record)
        summary[won] += decisions
        # The first decision at which the opponent needed fewer stones than we did.
        late = next((k for k, d in enumerate(decisions) if d.theirs < d.ours), None)
        behind[won].append(late is not None)
        rows.append({"seed": record["seed"], "colour": record["hexengine"], "won": won,
                     "decisions": [vars(d) for d in decisions]})  # fmt: skip
        if not won:
            beliefs = [d.belief for d in decisions if d.belief is not None]
            trail = " ".join(
                f"{d.move}{'*' if d.hit else ''}({d.ours}/{d.theirs}{' B' if d.blocked else ''})"
                for d in decisions
            )
            print(
                f"seed {record['seed']} {record['hexengine']} lost in {len(record['moves'])} actions: "
                f"{sum(d.hit for d in decisions)} hits of {len(decisions)} decisions, "
                f"{sum(d.blocked for d in decisions)} blocks; "
                f"belief x{np.mean(beliefs) if beliefs else 1:.2f}; "
                f"move(ours/theirs before): {trail}",
                flush=True,
            )
    for won in (False, True):
        ds = summary[won]
        if not ds:
            continue
        beliefs = [d.belief for d in ds if d.belief is not None]
        values = [d.value for d in ds if d.value is not None]
        hits = [d for d in ds if d.hit and d.risk is not None]
        risky = sum(d.risk >= 0.5 for d in hits)
        print(
            f"{'won' if won else 'lost'} games {len(behind[won])}: decisions {len(ds)}, "
            f"hits {sum(d.hit for d in ds)} ({risky} where the search gave a hit 50% or more, mean "
            f"{np.mean([d.risk for d in hits]) if hits else float('nan'):.2f}), "
            f"blocks {sum(d.blocked for d in ds)}, own gains {sum(d.gained for d in ds)}, "
            f"behind in the race at some decision {sum(behind[won])}; belief on hidden stones "
            f"x{np.mean(beliefs) if beliefs else float('nan'):.2f} a uniform guess; mean root value "
            f"{np.mean(values) if values else float('nan'):.3f}"
        )
    if json_out:
        json_out.write_text(json.dumps(rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("records", type=Path, nargs="?", help="folder of game records")
    parser.add_argument("--dark", type=Path, help="a JSON-lines file of bench/dark_strength.py records")
    parser.add_argument(
        "--json", type=Path, help="write every lost game (with --dark: every decision) to this file"
    )
    parser.add_argument(
        "--compare",
        type=Path,
        nargs=2,
        metavar=("BEFORE", "AFTER"),
        help="compare the connections of two --json runs on the same records",
    )
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
    parser.add_argument(
        "--search-seconds",
        type=float,
        default=0.0,
        metavar="S",
        help="also find where hexengine's search (S seconds a position) saw its value fall",
    )
    parser.add_argument(
        "--connections",
        action="store_true",
        help="also find from which move hexengine's tree knowledge proves the game lost",
    )
    parser.add_argument(
        "--benzene", metavar="PATH", help="also ask Benzene's connections (PATH: a mohex binary)"
    )
    parser.add_argument(
        "--benzene-setting",
        action="append",
        default=[],
        metavar="COMMAND",
        help="an HTP command sent to Benzene first, e.g. 'param_player_vc use_patterns 0' (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.dark:
        return dark_main(args.dark, args.json)
    if args.compare:
        try:
            return compare(*args.compare)
        except ValueError as error:
            parser.error(str(error))
    if args.records is None:
        parser.error("give a folder of game records, --dark FILE or --compare BEFORE AFTER")
    if args.benzene_setting and not args.benzene:
        parser.error("--benzene-setting needs --benzene PATH")
    if args.max_empties < 0 or not args.seconds > 0 or args.peer_simulations < 0 or args.jobs < 1:
        parser.error("--max-empties and --peer-simulations must be >= 0, --seconds > 0 and --jobs >= 1")
    if not args.search_seconds >= 0:
        parser.error("--search-seconds must be >= 0")
    if not args.records.is_dir():
        parser.error(f"{args.records} is not a folder of game records")
    try:
        paths = record_paths(args.records)
    except ValueError as error:
        parser.error(str(error))
    games, skipped = [], 0
    work = partial(
        analyse,
        player=args.player,
        max_empties=args.max_empties,
        seconds=args.seconds,
        peer_simulations=args.peer_simulations,
        search_seconds=args.search_seconds,
        connections=args.connections,
        benzene=args.benzene,
        benzene_settings=tuple(args.benzene_setting),
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
    if args.search_seconds:
        falls = sum(1 for g in games if (fall := g.fall) and fall[1] - fall[3] >= 0.3)
        print(f"{falls} of {len(games)} lost games where the search's value fell by 0.3 or more in a move")
    asked = [("hexengine", "ours_know_from")] if args.connections else []
    asked += [("Benzene", "benzene_knows_from")] if args.benzene else []
    for who, field_ in asked:
        known = [g for g in games if getattr(g, field_)]
        line = f"{who}'s connections prove {len(known)} of {len(games)} lost games lost"
        if known:
            line += f", from a median move of {statistics.median(getattr(g, field_) for g in known):g}"
        if args.search_seconds:
            early = sum(1 for g in known if (fall := g.fall) and getattr(g, field_) <= fall[0])
            line += f"; at or before the search's largest fall in {early}"
        print(line)
    if args.json:
        lost = [{**asdict(g), "loser": g.loser.name.lower()} for g in games]
        args.json.write_text(json.dumps(lost, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
