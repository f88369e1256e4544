"""The best any Dark Hex player can do against ``hx.GreedyBot``: an exact best response.

    python bench/greedy_best_response.py                       # 3x3 and 4x4, both variants, both colours
    python bench/greedy_best_response.py --boards 4x4 --variants dark-abrupt --colours blue
    python bench/greedy_best_response.py --boards 4x4 --check 2000  # play the best response in real games
    python bench/greedy_best_response.py --boards 3x3 --colours blue --regret 200  # the medium level's losses
    python bench/greedy_best_response.py --boards 5x5 --target 0.9  # only whether the ceiling passes 90%
    python bench/greedy_best_response.py --boards 5x5 --target 0.9 --reveal-after 4  # a bound that answers it

GreedyBot is a fixed policy: on its view (its own stones, the enemy stones it
has found) it plays a cell with the fewest stones still needed, each of the tied
cells with the same probability (its seeded generator, modelled here as a chance
node). Against a fixed policy, Dark Hex is a one-player game of imperfect
information, and the best response is found by expectimax over the
responder's information states: at each of its decisions the responder holds a
belief, the probability of every hidden state consistent with what it has seen
(GreedyBot's stones, and which of the responder's stones GreedyBot has found);
it takes the cell with the best expected result, where a move splits the
belief into a hit and a placement, and GreedyBot's turn splits it by what the
responder observes (classic: how many of its stones were hit before the
placement; abrupt: a hit or a placement). Equal beliefs with equal views have
equal values, so results are memoised on a digest of the view and the
normalised belief (exact integer weights), the board turned 180 degrees counting as
the same (that turn maps each colour's edges onto themselves). A move is dropped
as soon as the part of its outcomes already valued, plus a sure win for the rest,
cannot beat the best move so far; the responder's cells are tried in the order
of its own greedy scores, so that a good move comes early.

The values come from the core's implementation of this method by default
(``cpp/dark/greedy_response.h``, ``--engine cpp``, which also stops cleanly at
``--max-states``); the one in this script (``--engine python``) is the reference
the tests hold it to. ``--target T`` asks the core only whether the ceiling
passes T: "at most T" when it does not, "at least V" (some V above T) when it
does, either in far fewer states than the exact value when the ceiling is well
away from T (every outcome is asked only what the target needs of it).
``--reveal-after K`` bounds the ceiling from above where the exact value is
out of reach: a responder told every hidden stone once it has K stones of its
own can only do better, and from there on it plays a game of perfect
information against GreedyBot's chance moves, far smaller than the belief
game; "at most" then bounds the ceiling, "told at least" says nothing of it.
``--check`` and ``--regret`` take the core's move values
(``_core.GreedyResponder``) unless ``--engine python``.

The result is the highest win rate against GreedyBot that any player, however
strong, can reach: the ceiling for a cell of ``bench/dark_strength.py match
--opponent greedy``. The rules and the greedy distance are restated here
compactly for speed; ``tests/test_greedy_best_response.py`` checks them against
the core (``hx.GreedyBot.distances`` and ``hx.Game``), the values against the
core's full-tree best response (``hx.exploitability``) on 2x2, 2x3 and 3x2,
and that the best response, playing real games against GreedyBot, wins as
often as computed. ``--check N`` does the last for any board given here.
``--regret N`` plays N games of an MCTSBot level (``--level``, settings with
``--ours key=value``) in the responder's seat and reports, per decision, the
win probability its move gives up against the best move (exact values):
where a bot falls short of the ceiling.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections import deque
from typing import Any

import hexengine as hx
from hexengine import _core

FAR = 0x7FFF  # the core's distance of an unreachable cell (cpp/core/distance.h kFar)

Belief = dict[tuple[int, int], int]  # (GreedyBot's stones, the responder's stones it found) -> weight


class Board:
    """Cells as bit indices ``r * cols + c``, neighbours and the two colours' edges."""

    def __init__(self, rows: int, cols: int) -> None:
        if not (1 <= rows <= 6 and 1 <= cols <= 6):
            raise ValueError(f"an exact best response needs 1 to 6 rows and columns, not {rows}x{cols}")
        self.rows, self.cols, self.cells = rows, cols, rows * cols
        self.neighbours: list[list[int]] = []
        for r in range(rows):
            for c in range(cols):
                near = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c)]
                self.neighbours.append([a * cols + b for a, b in near if 0 <= a < rows and 0 <= b < cols])
        # edges[colour] = (first edge cells, second edge cells); colour 0 Red (rows), 1 Blue (columns)
        self.edges = (
            ([c for c in range(cols)], [(rows - 1) * cols + c for c in range(cols)]),
            ([r * cols for r in range(rows)], [r * cols + cols - 1 for r in range(rows)]),
        )

    def connected(self, stones: int, colour: int) -> bool:
        """Whether ``stones`` join ``colour``'s two edges."""
        first, second = self.edges[colour]
        todo = [p for p in first if stones >> p & 1]
        seen = 0
        for p in todo:
            seen |= 1 << p
        while todo:
            p = todo.pop()
            for q in self.neighbours[p]:
                if stones >> q & 1 and not seen >> q & 1:
                    seen |= 1 << q
                    todo.append(q)
        return any(seen >> p & 1 for p in second)

    def edge_distances(self, own: int, open_: int, colour: int, edge: int) -> list[int]:
        """Fewest open cells on a path from the edge to each cell, the cell included (own stones free)."""
        dist = [FAR] * self.cells
        queue: deque[int] = deque()
        for p in self.edges[colour][edge]:
            if own >> p & 1:
                dist[p] = 0
                queue.appendleft(p)
            elif open_ >> p & 1 and dist[p] > 1:
                dist[p] = 1
                queue.append(p)
        while queue:  # 0-1 breadth-first search: entering an own stone costs 0, an open cell 1
            p = queue.popleft()
            for q in self.neighbours[p]:
                if own >> q & 1:
                    if dist[p] < dist[q]:
                        dist[q] = dist[p]
                        queue.appendleft(q)
                elif open_ >> q & 1 and dist[p] + 1 < dist[q]:
                    dist[q] = dist[p] + 1
                    queue.append(q)
        return dist

    def greedy_scores(self, own: int, found: int, colour: int) -> list[int]:
        """GreedyBot's score of every cell (``move_distances``): -1 where it may not play."""
        open_ = ((1 << self.cells) - 1) & ~own & ~found
        a = self.edge_distances(own, open_, colour, 0)
        b = self.edge_distances(own, open_, colour, 1)
        now = min(a[p] for p in self.edges[colour][1])
        out = []
        for p in range(self.cells):
            if not open_ >> p & 1:
                out.append(-1)
            else:
                through = FAR if a[p] >= FAR or b[p] >= FAR else a[p] + b[p] - 2
                out.append(min(now, through))
        return out


class BestResponse:
    """Exact best response of a Dark Hex player of colour ``colour`` to GreedyBot.

    ``value()`` is its win probability; ``choose(view)`` plays it (a bot for ``hx.Game``).
    """

    def __init__(
        self,
        variant: str,
        rows: int,
        cols: int,
        colour: str,
        progress: bool = False,
        reveal_after: int | None = None,
    ) -> None:
        if variant not in ("dark", "dark-abrupt"):
            raise ValueError(f"variant must be 'dark' or 'dark-abrupt', not {variant!r}")
        if colour not in ("red", "blue"):
            raise ValueError(f"colour must be 'red' or 'blue', not {colour!r}")
        self.variant, self.classic = variant, variant == "dark"
        self.progress = progress
        self.board = Board(rows, cols)
        self.me = 0 if colour == "red" else 1
        self.them = 1 - self.me
        self._policy: dict[tuple[int, int], tuple[int, ...]] = {}
        self._x: dict[bytes, tuple[float, int]] = {}  # digest of (mine, found, belief) -> (value, cell)
        self._g: dict[bytes, float] = {}
        self._wins: dict[tuple[int, int], bool] = {}
        self._orders: dict[tuple[int, int], list[int]] = {}
        self.reveal_after = reveal_after
        self._informed: dict[tuple[int, int, int], float] = {}
        # Weights are integers: a GreedyBot decision among k cells multiplies them by scale // k.
        self.scale = math.lcm(*range(1, self.board.cells + 1))
        n = self.board.cells

        def turned_byte(byte: int, b: int) -> int:
            return sum(1 << (n - 1 - q) for i in range(8) if b >> i & 1 and (q := 8 * byte + i) < n)

        self._turn_tables = [[turned_byte(byte, b) for b in range(256)] for byte in range((n + 7) // 8)]

    def connected(self, stones: int, colour: int) -> bool:
        key = (stones, colour)
        won = self._wins.get(key)
        if won is None:
            won = self._wins[key] = self.board.connected(stones, colour)
        return won

    # GreedyBot's policy on its view: the cells it picks among, each equally likely.
    def greedy_cells(self, own: int, found: int) -> tuple[int, ...]:
        key = (own, found)
        cells = self._policy.get(key)
        if cells is None:
            scores = self.board.greedy_scores(own, found, self.them)
            best = min(s for s in scores if s >= 0)
            cells = tuple(p for p, s in enumerate(scores) if s == best)
            self._policy[key] = cells
        return cells

    def _key(self, mine: int, seen: int, belief: Belief) -> tuple[bytes, bool]:
        """A digest of the view and the normalised belief: equal digests, equal values.
        Keys are 180-degree turns of the board (which maps each colour's edges onto
        themselves, and GreedyBot's policy with them) taken in their smaller form."""
        g = math.gcd(*belief.values())
        plain = sorted((own, found, w // g) for (own, found), w in belief.items())
        t = self._turn
        turned_items = sorted((t(own), t(found), w) for own, found, w in plain)
        forms = [(mine, seen, plain), (t(mine), t(seen), turned_items)]
        support = [i[:2] for i in plain], [i[:2] for i in turned_items]
        turned = (forms[1][0], forms[1][1], support[1]) < (mine, seen, support[0])
        mine, seen, items = forms[turned]
        text = f"{mine},{seen}:" + ";".join(f"{own},{found},{w}" for own, found, w in items)
        return hashlib.blake2b(text.encode(), digest_size=16).digest(), turned

    def _turn(self, stones: int) -> int:
        """``stones`` turned 180 degrees: cell p goes to cells - 1 - p (a table per byte)."""
        out = 0
        for table in self._turn_tables:
            out |= table[stones & 0xFF]
            stones >>= 8
        return out

    def greedy_turn(self, mine: int, belief: Belief) -> dict[Any, tuple[Belief, int]]:
        """GreedyBot's turn from ``belief``: the beliefs after it, by what the responder
        observes (classic: hits before the placement; abrupt: "hit" or "placed"), each
        with the factor its weights grew by (``scale`` per GreedyBot decision). Weight
        lost to GreedyBot's wins is dropped."""
        out: dict[Any, Belief] = {}
        depth: dict[Any, int] = {}
        stack = [(own, found, w, 0) for (own, found), w in belief.items()]
        while stack:
            own, found, w, hits = stack.pop()
            cells = self.greedy_cells(own, found)
            share = w * (self.scale // len(cells))
            for p in cells:
                if mine >> p & 1:  # a hit: GreedyBot finds one of the responder's stones
                    if self.classic:
                        stack.append((own, found | 1 << p, share, hits + 1))
                    else:
                        part = out.setdefault("hit", {})
                        depth["hit"] = 1
                        h = (own, found | 1 << p)
                        part[h] = part.get(h, 0) + share
                elif not self.connected(own | 1 << p, self.them):
                    obs = hits if self.classic else "placed"
                    part = out.setdefault(obs, {})
                    depth[obs] = hits + 1 if self.classic else 1
                    h = (own | 1 << p, found)
                    part[h] = part.get(h, 0) + share
        return {obs: (part, self.scale ** depth[obs]) for obs, part in out.items()}

    def _greedy_value(self, mine: int, seen: int, belief: Belief) -> float:
        key, _ = self._key(mine, seen, belief)
        if key in self._g:
            return self._g[key]
        total = sum(belief.values())
        value = 0.0
        for part, grown in self.greedy_turn(mine, belief).values():
            value += sum(part.values()) / (total * grown) * self._my_value(mine, seen, part)
        self._g[key] = value
        return value

    def _order(self, mine: int, seen: int) -> list[int]:
        """The responder's cells, those that most shorten its own connection first (a good
        move found early lets the others be cut off sooner)."""
        key = (mine, seen)
        order = self._orders.get(key)
        if order is None:
            scores = self.board.greedy_scores(mine, seen, self.me)
            order = self._orders[key] = [p for s, p in sorted((s, p) for p, s in enumerate(scores) if s >= 0)]
        return order

    def _after(self, mine: int, seen: int, p: int, is_hit: bool, part: Belief) -> float:
        """The responder's value after its move on ``p`` hit (or was placed) in ``part``."""
        if is_hit:
            again = self._my_value if self.classic else self._greedy_value
            return again(mine, seen | 1 << p, part)
        placed = mine | 1 << p
        return 1.0 if self.connected(placed, self.me) else self._greedy_value(placed, seen, part)

    def _my_value(self, mine: int, seen: int, belief: Belief) -> float:
        return self._decide(mine, seen, belief)[0]

    def _decide(self, mine: int, seen: int, belief: Belief) -> tuple[float, int]:
        """The responder's best value and cell with its stones ``mine``, found enemy stones
        ``seen`` and ``belief`` (weights, not necessarily normalised)."""
        if self.reveal_after is not None and mine.bit_count() >= self.reveal_after:
            total = sum(belief.values())
            told = sum(w * self._informed_value(mine, own, found) for (own, found), w in belief.items())
            return told / total, -1
        key, turned = self._key(mine, seen, belief)
        last = self.board.cells - 1
        known = self._x.get(key)
        if known is not None:
            return known[0], last - known[1] if turned else known[1]
        total = sum(belief.values())
        best, best_cell = -1.0, -1
        for p in self._order(mine, seen):
            hit = {h: w for h, w in belief.items() if h[0] >> p & 1}
            miss = {h: w for h, w in belief.items() if not h[0] >> p & 1}
            parts = [(sum(part.values()) / total, part is hit, part) for part in (hit, miss) if part]
            parts.sort(key=lambda part: -part[0])
            value, rest = 0.0, 1.0
            for share, is_hit, part in parts:
                rest -= share
                value += share * self._after(mine, seen, p, is_hit, part)
                if value + rest <= best + 1e-12:  # even a sure win in the rest would not beat best
                    break
            else:
                if value > best + 1e-12:
                    best, best_cell = value, p
                    if best >= 1.0 - 1e-12:  # nothing does better than a sure win
                        break
        self._x[key] = (best, last - best_cell if turned else best_cell)
        if self.progress and len(self._x) % 1_000_000 == 0:
            print(f"  {len(self._x):,} decisions memoised", file=sys.stderr, flush=True)
        return best, best_cell

    def _informed_value(self, mine: int, own: int, found: int) -> float:
        """The value of a responder that sees every stone (GreedyBot's ``own`` and the
        responder's stones it has ``found``), its move: the best empty cell, or in abrupt
        also a hit on a known stone, which passes."""
        key = (mine, own, found)
        known = self._informed.get(key)
        if known is not None:
            return known
        options = []
        for p in range(self.board.cells):
            if not (mine | own) >> p & 1:
                placed = mine | 1 << p
                won = self.connected(placed, self.me)
                options.append(1.0 if won else self._informed_turn(placed, own, found))
        if not self.classic and own:
            options.append(self._informed_turn(mine, own, found))
        value = self._informed[key] = max(options)
        return value

    def _informed_turn(self, mine: int, own: int, found: int) -> float:
        """GreedyBot's turn against the responder that sees every stone."""
        cells = self.greedy_cells(own, found)
        value = 0.0
        for p in cells:
            if mine >> p & 1:
                after = self._informed_turn if self.classic else self._informed_value
                value += after(mine, own, found | 1 << p)
            elif not self.connected(own | 1 << p, self.them):
                value += self._informed_value(mine, own | 1 << p, found)
        return value / len(cells)

    def value(self) -> float:
        """The best response's probability of winning (with ``reveal_after``, that of a
        responder told every hidden stone once it has that many stones: an upper bound)."""
        start: Belief = {(0, 0): 1}
        return self._my_value(0, 0, start) if self.me == 0 else self._greedy_value(0, 0, start)

    @property
    def states(self) -> int:
        """Memoised information states (the responder's decisions and GreedyBot's turns)."""
        return len(self._x) + len(self._g)

    # Playing the best response in a real game: rebuild the belief from the view's record.
    def belief_of(self, view: hx.View) -> tuple[int, int, Belief]:
        """The responder's stones, found enemy stones and belief after the view's record."""
        mine, seen = 0, 0
        belief: Belief = {(0, 0): 1}
        cols = self.board.cols
        mover = hx.RED if self.me == 0 else hx.BLUE
        pending: list[bool] = []  # GreedyBot's actions of the turn under way: hit or not

        def close_turn() -> None:
            nonlocal belief
            if pending:
                obs: Any = sum(pending) if self.classic else ("hit" if pending[0] else "placed")
                belief = self.greedy_turn(mine, belief).get(obs, ({}, 1))[0]
                pending.clear()

        for action in view.history:
            if action.color == mover:
                close_turn()
                p = action.cell.row * cols + action.cell.col
                if action.result == hx.MoveResult.HIT:
                    belief = {h: w for h, w in belief.items() if h[0] >> p & 1}
                    seen |= 1 << p
                else:
                    belief = {h: w for h, w in belief.items() if not h[0] >> p & 1}
                    mine |= 1 << p
            else:
                pending.append(action.result == hx.MoveResult.HIT)
        close_turn()
        if not belief:
            raise ValueError("this record cannot come from GreedyBot: no hidden state is consistent with it")
        return mine, seen, belief

    def move_values(self, view: hx.View) -> dict[hx.Cell, float]:
        """The exact win probability of each move the responder may make in ``view``
        (followed by the best response), given GreedyBot as the opponent."""
        mine, seen, belief = self.belief_of(view)
        total = sum(belief.values())
        out = {}
        for p in range(self.board.cells):
            if (mine | seen) >> p & 1:
                continue
            hit = {h: w for h, w in belief.items() if h[0] >> p & 1}
            miss = {h: w for h, w in belief.items() if not h[0] >> p & 1}
            parts = [(sum(part.values()) / total, part is hit, part) for part in (hit, miss) if part]
            value = sum(share * self._after(mine, seen, p, is_hit, part) for share, is_hit, part in parts)
            out[hx.Cell.from_index(p, self.board.cols)] = value
        return out

    def choose(self, view: hx.View) -> hx.Cell:
        """The best response's move in ``view`` (the responder's own view, its turn)."""
        if self.reveal_after is not None:
            raise ValueError("reveal_after gives a bound on the value, not moves a real responder could play")
        mine, seen, belief = self.belief_of(view)
        return hx.Cell.from_index(self._decide(mine, seen, belief)[1], self.board.cols)


class CoreBestResponse(BestResponse):
    """The same best response with the move values of the core (``_core.GreedyResponder``,
    its memo kept between calls): the belief is rebuilt here, the values computed there."""

    def __init__(self, variant: str, rows: int, cols: int, colour: str) -> None:
        super().__init__(variant, rows, cols, colour)
        self.core = _core.GreedyResponder(variant, rows, cols, 1 if colour == "red" else 2)

    def move_values(self, view: hx.View) -> dict[hx.Cell, float]:
        mine, seen, belief = self.belief_of(view)
        largest = max(belief.values())
        states = [(own, found, w / largest) for (own, found), w in belief.items()]
        values = self.core.move_values(mine, seen, states)
        return {hx.Cell.from_index(p, self.board.cols): v for p, v in enumerate(values) if v >= 0}

    def choose(self, view: hx.View) -> hx.Cell:
        """A move of the highest exact value in ``view`` (the responder's view, its turn)."""
        values = self.move_values(view)
        return max(values, key=values.__getitem__)


def play(br: BestResponse, games: int, seed: int = 0) -> int:
    """Games won by ``br`` (this script's best response or the core's) against
    ``hx.GreedyBot`` (seeds ``seed`` on) in real games (``hx.Game``)."""
    rows, cols = br.board.rows, br.board.cols
    me = hx.RED if br.me == 0 else hx.BLUE
    wins = 0
    for i in range(games):
        game = hx.Game(br.variant, rows=rows, cols=cols)
        greedy = hx.GreedyBot(seed=seed + i)
        while not game.is_over:
            mover = game.to_move
            bot = br if mover == me else greedy
            game.play(bot.choose(game.view(mover)))
        wins += game.winner == me
    return wins


def regret(br: BestResponse, bot: Any, games: int, seed: int = 0) -> dict[str, Any]:
    """Plays ``bot(seed + i)`` (a factory of bots) in ``br``'s seat against GreedyBot
    (seed ``seed + 10000 + i``) and measures, at each of its decisions, how much win
    probability its move gives up against the best move (exact values): per decision
    number, the decisions, the mean loss and how many gave up more than 0.01 ("over")."""
    rows, cols = br.board.rows, br.board.cols
    me = hx.RED if br.me == 0 else hx.BLUE
    wins, losses = 0, [[] for _ in range(rows * cols)]
    for i in range(games):
        game = hx.Game(br.variant, rows=rows, cols=cols)
        greedy = hx.GreedyBot(seed=seed + 10_000 + i)
        player = bot(seed + i)
        k = 0
        while not game.is_over:
            mover = game.to_move
            view = game.view(mover)
            if mover != me:
                game.play(greedy.choose(view))
                continue
            move = player.choose(view)
            values = br.move_values(view)
            losses[k].append(max(values.values()) - values[move])
            k += 1
            game.play(move)
        wins += game.winner == me
    by_decision = [
        {"decision": k + 1, "count": len(x), "mean_loss": sum(x) / len(x), "over": sum(v > 0.01 for v in x)}
        for k, x in enumerate(losses)
        if x
    ]
    per_game = sum(map(sum, losses)) / games
    return {"games": games, "wins": wins, "loss_per_game": per_game, "by_decision": by_decision}


def wilson(wins: int, n: int) -> tuple[float, float]:
    z = 1.959963984540054
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", default="3x3,4x4", help="comma-separated RxC, e.g. 3x3,4x4")
    ap.add_argument("--variants", default="dark,dark-abrupt")
    ap.add_argument("--colours", default="red,blue", help="the best responder's colours")
    ap.add_argument("--check", type=int, default=0, help="also play N real games of the best response")
    ap.add_argument("--json", action="store_true", help="one JSON line per cell instead of a table")
    ap.add_argument("--progress", action="store_true", help="python: count memoised decisions on stderr")
    engines = "the core's best response (default) or this script's"
    ap.add_argument("--engine", choices=("cpp", "python"), default="cpp", help=engines)
    ap.add_argument("--max-states", type=int, default=0, help="cpp: stop past this many states (0: none)")
    ap.add_argument("--target", type=float, default=None, help="cpp: only whether the ceiling passes this")
    reveal = "an upper bound: the responder is told every hidden stone once it has K stones"
    ap.add_argument("--reveal-after", type=int, default=None, metavar="K", help=reveal)
    ap.add_argument("--regret", type=int, default=0, help="play N games of --level: its losses")
    ap.add_argument("--level", default="medium", help="the MCTSBot level --regret measures")
    ap.add_argument("--ours", action="append", default=[], metavar="KEY=VALUE", help="--level setting")
    args = ap.parse_args(argv)
    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.ours)}

    def make_bot(seed: int) -> hx.MCTSBot:
        return hx.MCTSBot.level(args.level, seed=seed, **options)

    if args.reveal_after is not None and (args.check or args.regret):
        ap.error("--check and --regret play the exact best response, not --reveal-after's told one")
    if not args.json:
        print("| board | variant | best responder | win rate | states | time |")
        print("|---|---|---|---:|---:|---:|")
    for board in args.boards.split(","):
        rows, cols = (int(x) for x in board.split("x"))
        for variant in args.variants.split(","):
            for colour in args.colours.split(","):
                start = time.perf_counter()
                br = None
                bound = "exact"
                if args.engine == "cpp":
                    responder = 1 if colour == "red" else 2
                    found = _core.greedy_best_response(
                        variant, rows, cols, responder, args.max_states, args.target, args.reveal_after
                    )
                    value, states, bound = found[0], found[1], found[3]  # states: the memoised decisions
                else:
                    if args.target is not None:
                        ap.error("--target takes the core's engine (--engine cpp)")
                    br = BestResponse(variant, rows, cols, colour, args.progress, args.reveal_after)
                    value, states = br.value(), br.states
                row: dict[str, Any] = {
                    "board": board, "variant": variant, "colour": colour, "value": value,
                    "bound": bound, "states": states, "seconds": round(time.perf_counter() - start, 1),
                }  # fmt: skip
                if args.reveal_after is not None and value is not None:
                    # the told responder's value bounds the ceiling from above; "at least" says nothing
                    row["bound"] = bound = "at most" if bound != "at least" else "told at least"
                judge = br
                if (args.check or args.regret) and judge is None:
                    judge = CoreBestResponse(variant, rows, cols, colour)
                if args.check:
                    wins = play(judge, args.check)
                    row["check"] = {"games": args.check, "wins": wins, "ci95": wilson(wins, args.check)}
                if args.regret:
                    row["regret"] = regret(judge, make_bot, args.regret)
                if args.json:
                    print(json.dumps(row), flush=True)
                else:
                    extra = ""
                    if args.check:
                        lo, hi = row["check"]["ci95"]
                        extra = f" (played: {row['check']['wins']}/{args.check}, {lo:.1%} - {hi:.1%})"
                    rate = "not finished" if value is None else f"{value:.4f}"
                    if value is not None and bound != "exact":
                        rate = f"{bound} {value:.4f}"
                    cells = f"| {board} | {variant} | {colour} | {rate}{extra} |"
                    print(f"{cells} {states} | {row['seconds']} s |", flush=True)
                    if args.regret:
                        r = row["regret"]
                        lo, hi = wilson(r["wins"], r["games"])
                        print(
                            f"  {args.level}: {r['wins']}/{r['games']} won ({lo:.1%} - {hi:.1%}), "
                            f"win probability given up per game {r['loss_per_game']:.4f}; by decision:"
                        )
                        for d in r["by_decision"]:
                            k, mean, over = d["decision"], d["mean_loss"], d["over"]
                            print(f"    {k}: {d['count']} decisions, mean loss {mean:.4f}, {over} over 0.01")
    return 0


if __name__ == "__main__":
    sys.exit(main())
