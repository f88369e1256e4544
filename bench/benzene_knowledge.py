"""What hexengine's solver and Benzene's each know about one position, side by side.

On random Hex positions (random stones, the player to move as in a game), this
compares what each engine's knowledge does before any search:

- connections: how often the player to move is shown to win by an edge-to-edge
  connection (a semi or a full connection of their own) or to lose (a full
  connection of the opponent), by hexengine's H-search and by Benzene's
  ``vc-build`` with ``vc-between-cells-full`` / ``-semi``;
- inferior cells: on the positions neither engine's connections decide, how
  many moves are left after the fill-in (dead and captured cells) and the
  inferior-cell analysis (dominated and vulnerable cells; the must-play region
  is left out), by hexengine's solver (``SolveResult.counts`` of the root) and
  by Benzene's ``compute-inferior``, with what Benzene found by kind.

Benzene (``mohex`` built from github.com/cgao3/benzene-vanilla-cmake) is
driven over HTP; hexengine neither ships nor builds it.

    python bench/benzene_knowledge.py /path/to/mohex --size 7 --positions 200 --seed 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter

from solve import Benzene  # the HTP driver of bench/solve.py

import hexengine as hx

# Everything the Hex solver knows except the must-play region (so the counts
# compare the inferior-cell analysis alone).
NO_MUSTPLAY = ["dead", "captured", "vc", "symmetry", "proof-sets", "dominated", "vulnerable"]

# Benzene's names for its kinds of inferior cells (the tags of compute-inferior).
KINDS = {
    "fd": "dead (filled)",
    "fc": "captured (filled)",
    "fp": "permanently inferior (filled)",
    "iv": "vulnerable",
    "id": "dominated",
    "ir": "reversible",
}


class BenzeneKnowledge(Benzene):
    """What Benzene's connections and inferior-cell engine say about a position."""

    def decides(self, game: hx.Game) -> str | None:
        """ "won" or "lost" for the player to move when the connections say so."""
        edges = {"black": ("north", "south"), "white": ("west", "east")}
        me = "black" if game.to_move == hx.RED else "white"
        you = "white" if me == "black" else "black"
        self.command(f"vc-build {me}")
        if self.command(f"vc-between-cells-full {me} {' '.join(edges[me])}") or self.command(
            f"vc-between-cells-semi {me} {' '.join(edges[me])}"
        ):
            return "won"
        self.command(f"vc-build {you}")
        if self.command(f"vc-between-cells-full {you} {' '.join(edges[you])}"):
            return "lost"
        return None

    def inferior(self, game: hx.Game) -> dict[str, str]:
        """Benzene's inferior cells for the player to move: cell -> kind tag."""
        me = "black" if game.to_move == hx.RED else "white"
        words = self.command(f"compute-inferior {me}").split()
        return {words[i]: words[i + 1][:2] for i in range(0, len(words) - 1, 2)}


def random_position(rng: random.Random, size: int, most: int) -> hx.Game | None:
    game = hx.Game("hex", size=size, swap="off")
    for _ in range(rng.randint(2, most)):
        game.play(rng.choice(list(game.legal_moves())))
        if game.is_over:
            return None
    return game


def ours(game: hx.Game, knowledge: list[str] | None = None) -> dict[str, int]:
    """The counts of hexengine's solver on the root position alone."""
    return hx.solve(game, max_nodes=2, max_seconds=None, knowledge=knowledge).counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("benzene", metavar="PATH", help="a Benzene binary (mohex)")
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--positions", type=int, default=200, help="positions per comparison")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    peer = BenzeneKnowledge(args.benzene, args.size, args.size)
    rng = random.Random(args.seed)
    cells = args.size * args.size

    decided = Counter()
    n = 0
    while n < args.positions:
        game = random_position(rng, args.size, cells // 2)
        if game is None:
            continue
        counts = ours(game)
        if counts["expanded"] < 1:
            continue  # finished by the fill-in alone
        us = "won" if counts["vc_won"] else "lost" if counts["vc_lost"] or counts["mustplay_lost"] else None
        peer.set_position(game)
        them = peer.decides(game)
        decided[("hexengine", us)] += 1
        decided[("benzene", them)] += 1
        decided["differ"] += us != them
        n += 1
    print(f"{args.size}x{args.size}, {n} random positions, decided by connections before any search:")
    for who in ("hexengine", "benzene"):
        won, lost, open_ = decided[(who, "won")], decided[(who, "lost")], decided[(who, None)]
        print(f"  {who:>9}: won {won}, lost {lost}, open {open_}")
    print(f"  the two differ on {decided['differ']}")

    rows, kinds = [], Counter()
    while len(rows) < args.positions:
        game = random_position(rng, args.size, cells // 3)
        if game is None:
            continue
        counts = ours(game, NO_MUSTPLAY)
        if counts["expanded"] < 1 or counts["vc_won"] or counts["vc_lost"]:
            continue
        peer.set_position(game)
        tags = peer.inferior(game)
        empty = len(game.legal_moves())
        if len(tags) >= empty:
            continue
        kinds.update(tags.values())
        rows.append((empty, counts["empty_cells"], counts["moves"], empty - len(tags)))
    peer.close()
    mean = [statistics.mean(column) for column in zip(*rows, strict=True)]
    print(f"{len(rows)} positions the connections leave open; moves per position (no must-play region):")
    print(f"  empty cells {mean[0]:.1f}")
    print(f"  hexengine: {mean[1]:.1f} after the fill-in, {mean[2]:.1f} after the inferior cells")
    print(f"  benzene:   {mean[3]:.1f} after its fill-in and inferior cells")
    found = ", ".join(f"{KINDS.get(k, k)} {v / len(rows):.1f}" for k, v in kinds.most_common())
    print(f"  benzene's, per position: {found}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
