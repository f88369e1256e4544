"""Strength of hexengine's MCTSBot against OpenSpiel's MCTSBot, at equal simulations.

    pip install ".[peers]"        # open-spiel
    python bench/strength_openspiel.py --variant hex --size 11 --simulations 1000 --games 100
    python bench/strength_openspiel.py --variant rex --size 7 --simulations 10000 --games 100 --records out/

Complete games with colours alternating and swap off; OpenSpiel's bot is
``pyspiel.MCTSBot`` with UCT (c = 2), one random rollout per leaf and its
MCTS-solver on, the setting of OpenSpiel's own examples. Both sides get the
same number of simulations per move. The result is our win rate with a 95%
Wilson interval; ``--records`` writes every game as HexGui SGF. Game i uses
seed i for both bots, so a run is reproducible; ``--first-game N`` starts
the numbering at N (fresh seeds, e.g. to check a setting chosen on games 0..N-1).
``--colour red`` plays only the games where hexengine has Red (the even
ones), e.g. 7x7 Rex, where Red is the side that loses with perfect play.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import hexengine as hx
from hexengine.match import parse_player, wilson


def spiel_game(variant: str, size: int):
    import pyspiel

    hex_game = f"hex(num_rows={size},num_cols={size})"
    return pyspiel.load_game(hex_game if variant == "hex" else f"misere(game={hex_game})")


def spiel_bot(spiel, simulations: int, seed: int):
    """OpenSpiel's MCTSBot as this script plays it: UCT c = 2, one random rollout per leaf, solver on."""
    import pyspiel

    return pyspiel.MCTSBot(
        spiel, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, simulations, 2000, True, seed, False
    )


def play_game(
    variant: str, size: int, simulations: int, index: int, options: dict[str, float] | None = None
) -> tuple[bool, list[str], float, float]:
    """Game ``index``: hexengine plays Red when ``index`` is even. Returns whether
    hexengine won, the moves, and the seconds each side spent. ``options`` are
    further ``hx.MCTSBot`` arguments for our side (``simulations`` among them
    overrides the equal budget)."""
    game = hx.Game(variant, size=size, swap="off")  # type: ignore[arg-type]
    spiel = spiel_game(variant, size)
    state = spiel.new_initial_state()
    ours = hx.MCTSBot(seed=index, **{"simulations": simulations, **(options or {})})
    theirs = spiel_bot(spiel, simulations, index)
    our_color = hx.RED if index % 2 == 0 else hx.BLUE
    spent = {True: 0.0, False: 0.0}
    moves: list[str] = []
    while not game.is_over:
        mine = game.to_move == our_color
        start = time.perf_counter()
        if mine:
            cell = ours.choose(game.view(game.to_move))
            action = cell.index(size)  # type: ignore[union-attr]
        else:
            action = theirs.step(state)
            cell = hx.Cell.from_index(action, size)
        spent[mine] += time.perf_counter() - start
        game.play(cell)
        state.apply_action(action)
        moves.append(str(cell))
    assert state.is_terminal(), "OpenSpiel and hexengine disagree on the end of the game"
    return game.winner == our_color, moves, spent[True], spent[False]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", choices=["hex", "rex"], default="hex")
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-game", type=int, default=0, help="number (and seed) of the first game")
    parser.add_argument(
        "--colour",
        choices=["both", "red", "blue"],
        default="both",
        help="play only the games where hexengine has this colour (from --first-game on)",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games in parallel")
    parser.add_argument("--records", type=Path, help="write each game as SGF into this folder")
    parser.add_argument(
        "--ours",
        nargs="*",
        default=[],
        metavar="KEY=VALUE",
        help="further hx.MCTSBot arguments for our side (simulations=N overrides the equal budget)",
    )
    args = parser.parse_args()
    options = parse_player("mcts:" + ";".join(args.ours)).options  # as `hexengine match` reads them

    wins = games = 0
    red_wins = red_games = 0  # hexengine has Red in the even games
    ours_s = theirs_s = 0.0
    started = time.perf_counter()
    left_out = {"red": 1, "blue": 0}.get(args.colour)  # the parity of the games not played
    numbers = (i for i in itertools.count(args.first_game) if i % 2 != left_out)
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = {
            i: pool.submit(play_game, args.variant, args.size, args.simulations, i, options)
            for i in itertools.islice(numbers, args.games)
        }
        for i, future in futures.items():
            won, moves, mine, other = future.result()
            wins += won
            games += 1
            red_games += i % 2 == 0
            red_wins += won and i % 2 == 0
            ours_s += mine
            theirs_s += other
            if args.records:
                args.records.mkdir(parents=True, exist_ok=True)
                rules = hx.Rules(args.variant, args.size, args.size, "off")
                record = hx.GameRecord.from_moves(rules, moves)
                names = ("hexengine MCTSBot", "OpenSpiel MCTSBot")
                red, blue = names if i % 2 == 0 else names[::-1]
                record = dataclasses.replace(
                    record, players={"A": hx.PlayerInfo(red), "B": hx.PlayerInfo(blue)}
                )
                (args.records / f"game{i:03d}.sgf").write_text(record.to_sgf())
            low, high = wilson(wins, games)
            print(
                f"\r{games}/{args.games} games: hexengine won {wins} ({low:.0%} - {high:.0%})",
                end="",
                flush=True,
            )
    low, high = wilson(wins, games)
    budget = f" (hexengine {options['simulations']})" if "simulations" in options else ""
    print(
        f"\n{args.variant} {args.size}x{args.size}, {args.simulations} simulations per move"
        f"{budget}, swap off: "
        f"hexengine won {wins}/{games} = {wins / games:.1%} (95% CI {low:.1%} - {high:.1%}; "
        f"as Red {red_wins}/{red_games}, as Blue {wins - red_wins}/{games - red_games}); "
        f"seconds per game hexengine {ours_s / games:.2f}, OpenSpiel {theirs_s / games:.2f}; "
        f"wall {time.perf_counter() - started:.0f}s"
    )


if __name__ == "__main__":
    main()
