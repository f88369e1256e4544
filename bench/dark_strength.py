"""Dark Hex strength and speed of hexengine's MCTSBot, against two baselines.

    pip install ".[peers]"        # open-spiel, for the ISMCTS opponent
    python bench/dark_strength.py match --opponent naive --variant dark --size 7 --games 100 --seconds 0.2
    python bench/dark_strength.py match --opponent ismcts --variant dark-abrupt --size 11 --seconds 1
    python bench/dark_strength.py match --opponent greedy --variant dark-abrupt --size 5 --simulations 5000
    python bench/dark_strength.py match --bot greedy --opponent random --variant dark --size 7 --games 200
    python bench/dark_strength.py speed --seconds 2

``match`` plays complete games, colours alternating (hexengine is Red in the
even games; ``--colour red`` or ``blue`` keeps it on one side), with the same
time per decision for both sides (a classic Dark Hex hit gives the mover
another decision, with another allowance), or with ``--simulations N``
hexengine's search gets N simulations a decision instead (5,000 is the
medium level's budget), and prints hexengine's wins with a 95% Wilson
interval, in total and per colour. ``--bot greedy`` plays ``hx.GreedyBot``
on hexengine's side instead of the search. ``--records FILE`` writes each
game as a JSON line (``bench/where_lost.py --dark FILE`` reads them).
Opponents:

- ``naive``: hexengine's perfect-information MCTS (the Hex search) run on the
  player's view as if it were a Hex position: unknown cells count as empty.
- ``ismcts``: OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.
  ismcts``) with a random-rollout evaluator, stopped by the clock instead of
  a simulation count, and given an honest uniform resampler for
  ``dark_hex``: the resampler sees only the player's own view (the same
  information OpenSpiel's information state holds, and the record's hit
  results), draws a consistent game with ``View.sample_games`` (uniform over
  consistent boards) and replays it in a fresh OpenSpiel state; the root
  state it searches from is such a sample too, so no true state is used.
- ``greedy``: ``hx.GreedyBot``, which plays the cell that most shortens its
  own connection on its view (unknown cells count as empty), ties at random.
- ``random``: ``hx.RandomBot``, a uniformly random legal move of its view.

``speed`` measures simulations per second of both searches from the empty
board and from a midgame view, 7x7 and 11x11, both variants, one thread each.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import numpy as np

import hexengine as hx
from hexengine import _core
from hexengine.match import parse_player, wilson


class Ours:
    """hexengine's MCTSBot (the Dark Hex information-set search)."""

    name = "hexengine"

    def __init__(self, seconds: float, seed: int, simulations: int = 0, **options: Any) -> None:
        budget = {"simulations": simulations} if simulations else {"seconds": seconds, "simulations": 0}
        self.bot = hx.MCTSBot(**budget, seed=seed, **options)

    def choose(self, view: hx.View) -> hx.Move:
        return self.bot.choose(view)


def hex_view(view: hx.View) -> hx.View:
    """The view as a Hex position: the same visible stones, unknown cells empty, nothing else."""
    r = view.rules
    state = (
        "hex",
        r.rows,
        r.cols,
        "off",
        int(view.viewer),
        view.board.tobytes(),
        int(view.to_move),
        None,
        0,
        0,
        False,
        [],
        [],
    )
    return hx.View(_core.View.from_state(state))


class Naive:
    """The perfect-information MCTS on the view with unknown cells treated as empty."""

    name = "naive"

    def __init__(self, seconds: float, seed: int) -> None:
        self.bot = hx.MCTSBot(seconds=seconds, simulations=0, seed=seed, reuse_tree=False, allow_swap=False)

    def choose(self, view: hx.View) -> hx.Move:
        return self.bot.choose(hex_view(view))


def spiel_game(rules: hx.Rules):
    import pyspiel

    version = "cdh" if rules.variant == "dark" else "adh"
    return pyspiel.load_game(f"dark_hex(num_rows={rules.rows},num_cols={rules.cols},gameversion={version})")


class ISMCTS:
    """OpenSpiel's Python IS-MCTS with a uniform resampler built from the player's view."""

    name = "openspiel-ismcts"

    def __init__(self, seconds: float, seed: int, rules: hx.Rules, uct_c: float = 2.0) -> None:
        from open_spiel.python.algorithms import ismcts, mcts

        self.seconds = seconds
        self.rules = rules
        self.game = spiel_game(rules)
        self.rng = np.random.RandomState(seed)
        self.seed = seed
        self.draws = 0
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.rng)
        outer = self

        class TimedISMCTS(ismcts.ISMCTSBot):
            """OpenSpiel's run_search, stopped by the clock instead of a simulation count."""

            def run_search(self, state):  # type: ignore[no-untyped-def]
                self.reset()
                legal_actions = state.legal_actions()
                if len(legal_actions) == 1:
                    outer.simulations = 0
                    return [(legal_actions[0], 1.0)]
                self._root_node = self.create_new_node(state)
                root_key = self.get_state_key(state)
                deadline = time.perf_counter() + outer.seconds
                done = 0
                # At least two: OpenSpiel's root counts its visits from the second simulation on.
                while done < 2 or time.perf_counter() < deadline:
                    sampled = self.sample_root_state(state)
                    assert root_key == self.get_state_key(sampled)
                    self.run_simulation(sampled)
                    done += 1
                outer.simulations = done
                return self.get_final_policy(state, self._root_node)

        self.bot = TimedISMCTS(self.game, evaluator, uct_c, max_simulations=1, random_state=self.rng)
        self.simulations = 0
        self.view: hx.View | None = None
        self.pending: list[Any] = []

    def resample(self, state, player):  # type: ignore[no-untyped-def]
        """A state drawn uniformly among those the player's view allows (uses only the view)."""
        assert self.view is not None
        if not self.pending:
            self.draws += 1
            self.pending = _core.sample_histories(self.view._core, 64, self.seed * 1_000_003 + self.draws)
        record = self.pending.pop()
        sampled = self.game.new_initial_state()
        for _color, cell, _result in record:
            sampled.apply_action(cell)
        return sampled

    def choose(self, view: hx.View) -> hx.Move:
        self.view = view
        self.pending = []
        self.bot.set_resampler(self.resample)
        root = self.resample(None, None)
        action = self.bot.step(root)
        return hx.Cell.from_index(int(action), view.rules.cols)


def play_game(rules: hx.Rules, red: Any, blue: Any) -> hx.Game:
    game = hx.Game(rules)
    while not game.is_over:
        color = game.to_move
        bot = red if color == hx.RED else blue
        game.play(bot.choose(game.view(color)))
    return game


def settings(pairs: list[str]) -> dict[str, Any]:
    """MCTSBot keyword arguments from KEY=VALUE strings, parsed and checked as
    ``hexengine match`` parses an ``mcts:`` player spec."""
    return parse_player("mcts:" + ";".join(pairs)).options


def make_opponent(name: str, seconds: float, seed: int, rules: hx.Rules) -> Any:
    if name == "naive":
        return Naive(seconds, seed)
    if name == "ismcts":
        return ISMCTS(seconds, seed, rules)
    if name == "greedy":
        return hx.GreedyBot(seed)
    if name == "random":
        return hx.RandomBot(seed)
    raise SystemExit(f"unknown opponent {name!r}")


def make_ours(args: argparse.Namespace, seed: int) -> Any:
    if args.bot == "greedy":
        return hx.GreedyBot(seed)
    return Ours(args.seconds, seed, args.simulations, threads=args.threads, **settings(args.ours))


def match(args: argparse.Namespace) -> dict[str, Any]:
    rules = hx.Rules(args.variant, args.size, args.size)
    wins = 0
    by_colour = {"red": [0, 0], "blue": [0, 0]}  # wins, games
    records = open(args.records, "a") if args.records else None
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        ours = make_ours(args, seed)
        theirs = make_opponent(args.opponent, args.seconds, seed + 10_000, rules)
        ours_red = args.colour == "red" or (args.colour == "both" and i % 2 == 0)
        game = play_game(rules, ours if ours_red else theirs, theirs if ours_red else ours)
        won = game.winner == (hx.RED if ours_red else hx.BLUE)
        wins += won
        tally = by_colour["red" if ours_red else "blue"]
        tally[0] += won
        tally[1] += 1
        if records:
            records.write(
                json.dumps(
                    {
                        "variant": rules.variant,
                        "size": args.size,
                        "seconds": args.seconds,
                        "simulations": args.simulations,
                        "bot": args.bot,
                        "ours": args.ours,
                        "seed": seed,
                        "opponent": args.opponent,
                        "hexengine": "red" if ours_red else "blue",
                        "winner": str(game.winner).lower(),
                        "moves": [[str(a.color).lower(), a.cell.name, a.result.value] for a in game.history],
                    }
                )
                + "\n"
            )
            records.flush()
        lo, hi = wilson(wins, i + 1)
        print(
            f"game {i + 1:3d}: hexengine {'Red ' if ours_red else 'Blue'} {'won ' if won else 'lost'} "
            f"in {len(game.history):3d} actions; {wins}/{i + 1} = {wins / (i + 1):.1%} [{lo:.1%}, {hi:.1%}]",
            flush=True,
        )
    lo, hi = wilson(wins, args.games)
    result = {
        "bot": args.bot,
        "opponent": args.opponent,
        "variant": args.variant,
        "size": args.size,
        "seconds": args.seconds,
        "simulations": args.simulations,
        "games": args.games,
        "wins": wins,
        "rate": wins / max(1, args.games),
        "ci95": [lo, hi],
        "colours": {
            colour: {"wins": w, "games": n, "ci95": list(wilson(w, n)) if n else None}
            for colour, (w, n) in by_colour.items()
        },
        "minutes": (time.perf_counter() - start) / 60,
    }
    print(json.dumps(result))
    return result


MIDGAME = {
    7: ["d4", "c5", "e3", "b5", "c4", "e4", "d5", "f2"],
    11: ["f6", "e7", "g4", "d5", "c8", "h7", "e4", "f8", "d9", "g6", "c4", "e9"],
}


def speed(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for size in (7, 11):
        for variant in ("dark", "dark-abrupt"):
            rules = hx.Rules(variant, size, size)
            for label, moves in (("empty", []), ("midgame", MIDGAME[size])):
                game = hx.Game(rules)
                for m in moves:
                    game.play(m)
                view = game.view(game.to_move)
                ours = hx.MCTSBot(seconds=args.seconds, simulations=0, seed=1, reuse_tree=False)
                a = ours.analyse(view)
                our_rate = a.simulations / a.seconds
                spiel = ISMCTS(args.seconds, 1, rules)
                spiel.choose(view)
                their_rate = spiel.simulations / args.seconds
                row = {
                    "size": size,
                    "variant": variant,
                    "position": label,
                    "hexengine": round(our_rate),
                    "openspiel_ismcts": round(their_rate),
                    "ratio": round(our_rate / max(their_rate, 1e-9), 1),
                }
                rows.append(row)
                print(
                    f"{size:2d}x{size:<2d} {variant:11s} {label:8s} hexengine {our_rate:10.0f}/s   "
                    f"OpenSpiel ISMCTS {their_rate:8.0f}/s   ratio {row['ratio']:8.1f}x",
                    flush=True,
                )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="play a match against a baseline")
    m.add_argument("--opponent", choices=["naive", "ismcts", "greedy", "random"], default="naive")
    m.add_argument(
        "--bot", choices=["mcts", "greedy"], default="mcts", help="hexengine's side: search or GreedyBot"
    )
    m.add_argument("--colour", choices=["both", "red", "blue"], default="both", help="hexengine's colour")
    m.add_argument("--variant", choices=["dark", "dark-abrupt"], default="dark")
    m.add_argument("--size", type=int, default=7)
    m.add_argument("--games", type=int, default=100)
    m.add_argument("--seconds", type=float, default=0.2, help="time per decision for both sides")
    m.add_argument("--simulations", type=int, default=0, help="hexengine's simulations a decision (not time)")
    m.add_argument("--threads", type=int, default=1)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--records", help="append each game as a JSON line to this file")
    m.add_argument(
        "--ours",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an MCTSBot setting for hexengine's side, e.g. opponent_model=1 (repeatable)",
    )
    s = sub.add_parser("speed", help="simulations per second against OpenSpiel's ISMCTS")
    s.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    if args.command == "match":
        match(args)
    else:
        speed(args)


if __name__ == "__main__":
    random.seed(0)
    sys.exit(main())
