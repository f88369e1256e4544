"""Learns the weights of a move prior from self-play (writes cpp/search/prior_weights*.inc).

The prior scores each empty cell by its local pattern (the twelve cells
around it, see ``cpp/search/patterns.h``) and by where the opponent's last move lies
from it. This script plays games with hexengine's own search, keeps each
position with the search's visit counts, and fits one weight per pattern by
the minorization-maximization algorithm for generalized Bradley-Terry models
(Coulom, "Computing Elo Ratings of Move Patterns in the Game of Go", 2007),
with the visit shares as the target::

    python tools/train_prior.py generate --games 500 --seed 1 --out data/a.npz
    python tools/train_prior.py generate --games 500 --seed 2 --out data/b.npz
    python tools/train_prior.py fit data/a.npz data/b.npz --write cpp/search/prior_weights.inc

Rex has its own table, learned the same way from Rex games (several sizes
may be mixed; the patterns read the board's edges, not its size)::

    python tools/train_prior.py generate --variant rex --size 7 --simulations 10000 --out data/rex7.npz
    python tools/train_prior.py fit data/rex*.npz --write cpp/search/prior_weights_rex.inc

``generate`` takes about 6 seconds a game at the default 30,000 simulations a
move; run one per core. ``fit`` holds out every tenth game and prints how
often the prior's favourite is the search's, against a uniform guess.
The keys and weights come from the C++ core (``_core.cell_patterns``), so the
training reads patterns exactly as the search does.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import hexengine as hx
from hexengine import _core

# Candidates whose full pattern is seen fewer times fall back on their neighbours' pattern.
MIN_FULL_COUNT = 20
# Virtual wins and games against a weight-1 opponent that keep rare weights near 1.
PRIOR_WINS, PRIOR_GAMES = 1.0, 2.0


def generate(variant: str, size: int, games: int, seed: int, simulations: int, out: Path) -> None:
    """Plays ``games`` self-play games and saves every undecided position."""
    rng = np.random.default_rng(seed)
    rows: dict[str, list] = {"game": [], "board": [], "mover": [], "last": [], "visits": []}
    start = time.time()
    for g in range(games):
        game = hx.Game(variant, size=size)  # type: ignore[arg-type]
        # Positions the endgame solver decides are not recorded, so it gets
        # the small budget (small Rex boards' default 200,000 is slow here).
        bot = hx.MCTSBot(simulations=simulations, seed=seed * 1_000_003 + g, solver_nodes=20_000)
        # One or two random stones, then play that samples the search's
        # favourites for a few moves, so that openings vary.
        for _ in range(int(rng.integers(1, 3))):
            legal = game.view(game.to_move).legal_moves()
            game.play(legal[int(rng.integers(len(legal)))])
        ply = 0
        while not game.is_over:
            view = game.view(game.to_move)
            analysis = bot.analyse(view)
            visits = analysis.visits.astype(np.float32)
            value = analysis.value
            if analysis.forced is None and value is not None and 0.05 < value < 0.95 and visits.sum() > 0:
                last = view.history[-1].cell if view.history else None
                rows["game"].append(g)
                rows["board"].append(view.board.copy())
                rows["mover"].append(0 if game.to_move == hx.RED else 1)
                rows["last"].append(-1 if last is None else last.index(size))
                rows["visits"].append(visits)
            move = analysis.move
            if ply < 6 and analysis.forced is None and visits.sum() > 0:
                p = visits.ravel().astype(np.float64) ** 2
                k = int(rng.choice(p.size, p=p / p.sum()))
                move = hx.Cell(k // size, k % size)
            game.play(move)
            ply += 1
        if g % 10 == 9 or g == games - 1:
            print(f"{g + 1} games, {len(rows['game'])} positions, {time.time() - start:.0f} s", flush=True)
            arrays = {k: np.array(v) for k, v in rows.items()}
            np.savez_compressed(out, variant=np.array(variant), **arrays)


def view_of(variant: str, board: np.ndarray, mover: int, last: int) -> hx.View:
    """A ``variant`` view of ``board`` with ``mover`` to play, the stone at ``last`` played last."""
    size = board.shape[0]
    game = hx.Game(variant, size=size, swap="off")  # type: ignore[arg-type]
    red = [int(i) for i in np.flatnonzero(board.ravel() == 1) if i != last]
    blue = [int(i) for i in np.flatnonzero(board.ravel() == 2) if i != last]
    if last >= 0:
        # The last stone is the opponent's; it goes on after the others.
        (red if mover == 1 else blue).append(last)
    order = []
    while red or blue:
        colour = len(order) % 2
        order.append((red if colour == 0 else blue).pop(0))
    for cell in order:
        game.play(hx.Cell(cell // size, cell % size))
    return game.view(game.to_move)


def load(paths: list[Path]) -> tuple[str, dict[str, list]]:
    """The variant and the positions of several files, games numbered apart;
    boards may differ in size from file to file, all of one variant."""
    out: dict[str, list] = {"game": [], "board": [], "mover": [], "last": [], "visits": []}
    variants = set()
    offset = 0
    for path in paths:
        part = np.load(path)
        variants.add(str(part["variant"]) if "variant" in part else "hex")
        out["game"] += (part["game"] + offset).tolist()
        for k in ("board", "mover", "last", "visits"):
            out[k] += list(part[k])
        offset = max(out["game"], default=-1) + 1
    if len(variants) > 1:
        raise SystemExit(f"the files mix variants: {sorted(variants)}")
    return variants.pop(), out


def candidates(variant: str, data: dict[str, list]) -> dict[str, np.ndarray]:
    """One row per empty cell of every ``variant`` position: its keys, last-move class and target share."""
    pos, key, inner, last_class, target = [], [], [], [], []
    for j in range(len(data["game"])):
        view = view_of(variant, data["board"][j], int(data["mover"][j]), int(data["last"][j]))
        full_keys, inner_keys, last_keys, _ = _core.cell_patterns(view._core)
        empty = np.flatnonzero(full_keys.ravel() >= 0)
        visits = data["visits"][j].ravel()[empty].astype(np.float64)
        pos.append(np.full(empty.size, j))
        key.append(full_keys.ravel()[empty])
        inner.append(inner_keys.ravel()[empty])
        last_class.append(last_keys.ravel()[empty].astype(np.int64))
        target.append(visits / visits.sum())
    return {
        "pos": np.concatenate(pos),
        "key": np.concatenate(key),
        "inner": np.concatenate(inner),
        "last": np.concatenate(last_class),
        "target": np.concatenate(target),
    }


def fit(
    rows: dict[str, np.ndarray], iterations: int = 60
) -> tuple[dict[int, float], dict[int, float], np.ndarray]:
    """Log-weights of full patterns, neighbours' patterns and last-move classes."""
    keys, counts = np.unique(rows["key"], return_counts=True)
    frequent = set(keys[counts >= MIN_FULL_COUNT].tolist())
    use_full = np.array([k in frequent for k in rows["key"]])
    # Feature ids: full keys first, then neighbours' keys.
    full_ids = {k: i for i, k in enumerate(sorted(frequent))}
    inner_keys = np.unique(rows["inner"])
    inner_ids = {k: len(full_ids) + i for i, k in enumerate(inner_keys.tolist())}
    feature = np.array(
        [
            full_ids[k] if f else inner_ids[i]
            for k, i, f in zip(rows["key"].tolist(), rows["inner"].tolist(), use_full, strict=True)
        ]
    )
    n = len(full_ids) + len(inner_ids)
    gamma = np.ones(n)
    lam = np.ones(3)
    pos, last, target = rows["pos"], rows["last"], rows["target"]
    wins = np.bincount(feature, weights=target, minlength=n)
    last_wins = np.bincount(last, weights=target, minlength=3)
    for it in range(iterations):
        for which in ("pattern", "last"):
            strength = gamma[feature] * lam[last]
            total = np.bincount(pos, weights=strength)
            # Each position's targets sum to one, so each weighs its candidates by 1 / total.
            share = strength / total[pos]
            if which == "pattern":
                denom = np.bincount(feature, weights=share / gamma[feature], minlength=n)
                gamma = (wins + PRIOR_WINS) / (denom + PRIOR_GAMES / (gamma + 1.0))
            else:
                denom = np.bincount(last, weights=share / lam[last], minlength=3)
                lam = last_wins / denom
                lam /= lam[2]
        if it % 20 == 19:
            print(
                f"iteration {it + 1}: log-likelihood "
                f"{log_likelihood(rows, np.log(gamma[feature] * lam[last])):.4f}"
            )
    log_gamma = np.log(gamma)
    full = {k: float(log_gamma[i]) for k, i in full_ids.items()}
    inner = {k: float(log_gamma[i]) for k, i in inner_ids.items()}
    return full, inner, np.log(lam)


def log_likelihood(rows: dict[str, np.ndarray], score: np.ndarray) -> float:
    """Mean over positions of the target-weighted log-probability of the scores' softmax."""
    pos = rows["pos"]
    top = np.zeros(pos.max() + 1)
    np.maximum.at(top, pos, score)
    z = np.bincount(pos, weights=np.exp(score - top[pos]))
    logp = score - top[pos] - np.log(z[pos])
    return float(np.bincount(pos, weights=rows["target"] * logp).sum() / (pos.max() + 1))


def evaluate(rows: dict[str, np.ndarray], score: np.ndarray) -> tuple[float, float]:
    """How often the best-scored cell is the most visited one, and the mean log-likelihood."""
    pos = rows["pos"]
    positions = np.unique(pos)
    hits = 0.0
    starts = np.searchsorted(pos, positions)
    ends = np.append(starts[1:], pos.size)
    for a, b in zip(starts, ends, strict=True):
        # Ties share the hit, so a uniform guess scores 1 / candidates.
        best = np.flatnonzero(score[a:b] == score[a:b].max())
        hits += float(np.argmax(rows["target"][a:b]) in best) / best.size
    return hits / len(positions), log_likelihood(rows, score)


def scores(
    rows: dict[str, np.ndarray], full: dict[int, float], inner: dict[int, float], lam: np.ndarray
) -> np.ndarray:
    """The prior's log-weight of each row, as PriorWeights::weight computes it."""
    return (
        np.array(
            [
                full.get(k, inner.get(i, 0.0))
                for k, i in zip(rows["key"].tolist(), rows["inner"].tolist(), strict=True)
            ]
        )
        + lam[rows["last"]]
    )


def subset(rows: dict[str, np.ndarray], mask: np.ndarray) -> dict[str, np.ndarray]:
    """The rows of the positions in ``mask`` (a boolean per position), renumbered."""
    keep = mask[rows["pos"]]
    out = {k: v[keep] for k, v in rows.items()}
    _, out["pos"] = np.unique(out["pos"], return_inverse=True)
    return out


def write(
    path: Path, variant: str, full: dict[int, float], inner: dict[int, float], lam: np.ndarray, note: str
) -> None:
    """Writes the weights as C++ for cpp/search/patterns.cpp."""
    lines = [
        f"// Learned log-weights of the {variant.capitalize()} move prior (see search/patterns.h).",
        "// Generated by tools/train_prior.py; do not edit.",
        f"// {note}",
        "",
        "// By where the opponent's last move lies: a neighbour, a bridge partner, elsewhere.",
        "constexpr float kLastMoveWeights[3] = {" + ", ".join(f"{x:.4f}f" for x in lam) + "};",
        "",
        "// Six-neighbour patterns (inner_key), for cells whose full pattern was too rare.",
        "constexpr PatternWeight kInnerPatternWeights[] = {",
    ]
    lines += [f"    {{{k}u, {w:.4f}f}}," for k, w in sorted(inner.items())]
    lines += [
        "};",
        "",
        "// Twelve-cell patterns (canonical_key).",
        "constexpr PatternWeight kFullPatternWeights[] = {",
    ]
    lines += [f"    {{{k}u, {w:.4f}f}}," for k, w in sorted(full.items())]
    lines += ["};", ""]
    path.write_text("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="self-play positions with the search's visit counts")
    gen.add_argument("--variant", choices=["hex", "rex"], default="hex")
    gen.add_argument("--size", type=int, default=11)
    gen.add_argument("--games", type=int, default=500)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--simulations", type=int, default=30_000)
    gen.add_argument("--out", type=Path, required=True)
    fitp = sub.add_parser("fit", help="fit the weights; with --write, write them as C++")
    fitp.add_argument("data", type=Path, nargs="+")
    fitp.add_argument("--write", type=Path)
    args = parser.parse_args(argv)
    if args.command == "generate":
        generate(args.variant, args.size, args.games, args.seed, args.simulations, args.out)
        return 0
    variant, data = load(args.data)
    rows = candidates(variant, data)
    held_out = np.array(data["game"]) % 10 == 0
    train, test = subset(rows, ~held_out), subset(rows, held_out)
    full, inner, lam = fit(train)
    print(f"{len(full)} full patterns, {len(inner)} neighbour patterns, last move {np.round(lam, 3)}")
    uniform = evaluate(test, np.zeros(test["pos"].size))
    learned = evaluate(test, scores(test, full, inner, lam))
    print(f"held-out positions: {test['pos'].max() + 1}")
    print(f"uniform: top-1 {uniform[0]:.3f}, log-likelihood {uniform[1]:.3f}")
    print(f"prior:   top-1 {learned[0]:.3f}, log-likelihood {learned[1]:.3f}")
    if args.write:
        full, inner, lam = fit(rows)
        positions = rows["pos"].max() + 1
        sizes = "/".join(f"{n}x{n}" for n in sorted({len(b) for b in data["board"]}))
        write(
            args.write,
            variant,
            full,
            inner,
            lam,
            f"{positions} positions of {len(set(data['game']))} {sizes} games",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
