"""Finds the edge templates the solver's H-search misses (writes cpp/solver/edge_templates.inc).

An edge template here is a set of stones of one player near its edge (the
first is the anchor) and a carrier of empty cells such that, with those
stones on the board and the carrier empty, the anchor is joined to the edge
even if the opponent moves first, whatever the rest of the board holds. The
anchor's row fixes its distance to the edge (its height: 1 is the edge row).

``find`` draws regions between a stone and its edge: random ones (a Red
anchor ``height`` rows above Red's bottom edge, Blue and Red stones
scattered below it; ``--samples`` per height), those of random positions
(``--games`` positions of ``--size``: for each player, each of its edges and
each of its stones three or more rows from it, the rows between the stone
and the edge as they stand), those of every position of the games recorded
in a folder (``--records``; on boards wider than ``--window`` columns only
that many round the stone are kept, the others counting as the opponent's,
so that the exact solves stay small), and ladder regions (``--ladders
H:L``: an anchor H rows from the edge, alone or with a stone beside it, and
one more stone, its escape, up to L columns along, the rows between empty
but for one or two opponent stones below the anchor, so that what joins
them is a ladder along the rows below; windows of a game are too narrow
for the longer ones). It keeps those where the stone is
joined to the edge but the solver's knowledge at the position (fill-in, then
H-search, with the templates built in at the time) does not see it, and
shrinks each to a minimal template: every empty cell is given to Blue, and
every Red stone but the anchor replaced by a Blue one, when Red stays joined
(each check is an exact solve of the region). A template is kept when the
H-search still misses it once shrunk, with its mirror image along the edge;
templates whose stones and carrier hold another's are dropped. ``--write``
adds to the table in that file::

    python tools/edge_templates.py find --games 10000 --size 7 --seed 4 --write cpp/solver/edge_templates.inc

The solver's H-search adds each template as a base full connection wherever
it fits (``cpp/solver/vc.h``), so after a rebuild a new run finds only what
the extended H-search still misses. ``measure`` counts, on regions drawn
the same way, how many of the joined ones the solver's knowledge sees at
once, with and without the templates::

    python tools/edge_templates.py measure --games 1000 --size 7 --seed 99
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import hexengine as hx
from hexengine import _core

MEMORY = 1 << 30
MAX_CELLS = 64  # stones and carrier cells of one template, as the C++ table holds them
MAX_HEIGHT = 7  # the farthest anchor from its edge in regions cut to a window
WINDOW = 8  # columns kept round the anchor of a recorded game's region
MAX_SIZE = 19  # the widest board the solver takes

# A region: board (row by row, the top row Blue's), rows, columns, anchor column.
Region = tuple[list[int], int, int, int]


def solve(board: list[int], rows: int, cols: int, knowledge: list[str] | None = None) -> tuple[int, int]:
    """(winner, positions expanded) with Blue to move."""
    res = _core.solve_position("hex", rows, cols, board, 2, False, 0, 0.0, MEMORY, knowledge)
    return res[0], res[10]["expanded"]


def joined(board: list[int], rows: int, cols: int) -> bool:
    """Red joined to its bottom edge through the region, Blue moving first."""
    return bool(_core.joined_colour(rows, cols, board)) or solve(board, rows, cols)[0] == 1


def seen(board: list[int], rows: int, cols: int, knowledge: list[str] | None = None) -> bool:
    """The solver's knowledge decides the region at once (at most the root expanded)."""
    if _core.joined_colour(rows, cols, board):
        return True
    winner, expanded = solve(board, rows, cols, knowledge)
    return winner == 1 and expanded <= 1


@dataclass(frozen=True)
class Template:
    height: int
    stones: tuple[tuple[int, int], ...]  # (rows toward the edge, columns) from the anchor; the anchor first
    carrier: tuple[tuple[int, int], ...]

    def mirror(self) -> Template:
        # Reflection along the edge: rows kept, (dr, dc) -> (dr, -dc - dr).
        def f(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
            return tuple(sorted((dr, -dc - dr) for dr, dc in cells))

        return Template(self.height, ((0, 0), *f(self.stones[1:])), f(self.carrier))

    def holds(self, other: Template) -> bool:
        """Whether `other` is this template with more stones or carrier (so is redundant)."""
        return (
            self.height == other.height
            and set(self.stones) <= set(other.stones)
            and set(self.carrier) <= set(other.carrier) | set(other.stones)
        )


def region(rng: random.Random, height: int) -> Region:
    """A random region: board, rows, columns and the anchor's column."""
    cols = rng.choice([8, 9, 11, 13])
    rows = height + 1
    anchor = rng.randrange(1, cols - 1)
    p = rng.choice([0.0, 0.1, 0.2, 0.3])
    q = rng.choice([0.0, 0.05, 0.1, 0.15])
    board = [2] * cols + [0] * (height * cols)
    for r in range(1, rows):
        for c in range(cols):
            x = rng.random()
            if x < p:
                board[r * cols + c] = 2
            elif x < p + q and r > 1:
                board[r * cols + c] = 1
    board[cols + anchor] = 1
    close_top(board, cols, anchor)
    return board, rows, cols, anchor


def close_top(board: list[int], cols: int, anchor: int) -> None:
    """Joins the anchor to the top edge by a Red stone on the top row (Blue's
    but for it). That stone touches one more cell of the anchor's row; when
    neither choice of it touches a cell that is Blue, off the board or Red
    (then part of the anchor's group), the left one is made Blue."""

    def harmless(c: int) -> bool:
        return not 0 <= c < cols or board[cols + c] != 0

    if harmless(anchor - 1):
        board[anchor] = 1
    elif anchor + 1 < cols and harmless(anchor + 1):
        board[anchor + 1] = 1
    else:
        board[cols + anchor - 1] = 2
        board[anchor] = 1


def regions_of_game(rng: random.Random, size: int) -> list[Region]:
    """The regions of a random position (see `regions_of_board`)."""
    game = hx.Game("hex", size=size, swap="off")
    for _ in range(rng.randrange(4, size * size // 2)):
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
        if game.winner is not None:
            return []
    return regions_of_board(game.board)


def regions_of_board(board: Sequence[Sequence[int]], window: int = 0) -> list[Region]:
    """The regions of a square position: for each player, each of its edges and
    each of its stones 3 or more rows from that edge, the rows between the stone
    and the edge as they stand, turned so the edge is Red's bottom edge (the
    stone is the anchor; the other rows are left out, as Blue's). With a
    `window`, only that many columns round the anchor are kept (the others
    count as Blue's, as off the board), and anchors at most MAX_HEIGHT rows
    from the edge."""
    board = [[int(v) for v in row] for row in board]
    size = len(board)
    out = []
    for player in (1, 2):
        # The player's stones as Red's (1), with its edges top and bottom.
        grid = board if player == 1 else [[board[c][r] for c in range(size)] for r in range(size)]
        if player == 2:
            grid = [[{1: 2, 2: 1}.get(v, 0) for v in row] for row in grid]
        for flip in (False, True):  # the bottom edge, then the top one (turned half a turn)
            g = [row[::-1] for row in grid[::-1]] if flip else grid
            for height in range(3, min(size, MAX_HEIGHT + 1) if window else size):
                top = size - height  # the anchor's row
                if top < 1:
                    continue
                for col in range(size):
                    if g[top][col] != 1:
                        continue
                    lo, cols = 0, size
                    if window and size > window:
                        lo, cols = min(max(0, col - (window - 1) // 2), size - window), window
                    region = [2] * cols + [v for row in g[top:] for v in row[lo : lo + cols]]
                    close_top(region, cols, col - lo)
                    out.append((region, height + 1, cols, col - lo))
    return out


def regions_of_records(folder: str, window: int) -> list[Region]:
    """The regions (see `regions_of_board`) of every position of the Hex games
    recorded in `folder` (SGF, JSON or trmph files), each region once."""
    out, seen_before = [], set()
    for path in sorted(Path(folder).iterdir()):
        try:
            record = hx.read_record(path.read_text())
        except (hx.RecordError, UnicodeDecodeError):
            continue
        if record.rules.variant != "hex" or record.rules.rows != record.rules.cols:
            continue
        boards = [board for action, board in record.replay() if action is not None]
        if record.winner is not None:
            boards.pop()  # the game is over there
        for board in boards:
            for r in regions_of_board(board, window):
                key = (tuple(r[0]), r[1], r[2], r[3])
                if key not in seen_before:
                    seen_before.add(key)
                    out.append(r)
    return out


def ladder_regions(height: int, longest: int) -> list[Region]:
    """Regions where the anchor, `height` rows from the edge, may need a ladder:
    one more Red stone (the escape) 2 to `longest` columns east of it at any
    height up to the anchor's, every cell of the rows between empty but for
    none, one or two Blue stones in the two rows below the anchor's group, up to
    a column to either side (they keep the shrinking off the templates that do
    without the escape, and vary the carriers it finds). The
    anchor's group is the anchor alone or with the cell west or east of it."""
    out = []
    col = height + 2  # the anchor's column: room for the rows below its group to the west
    for partner in (0, -1, 1):
        group = sorted({col, col + partner})
        below = [(1 + d, c) for d in (1, 2) if d < height for c in range(group[0] - d - 1, group[-1] + 2)]
        for length in range(2, longest + 1):
            cols = col + length + 3
            if cols > MAX_SIZE:
                break
            for escape_height in range(1, height + 1):
                escape = (height + 1 - escape_height, col + length)
                for n in (0, 1, 2):
                    for blocks in itertools.combinations(below, n):
                        board = [2] * cols + [0] * (height * cols)
                        for c in group:
                            board[cols + c] = 1
                        board[escape[0] * cols + escape[1]] = 1
                        for r, c in blocks:
                            board[r * cols + c] = 2
                        close_top(board, cols, col)
                        out.append((board, height + 1, cols, col))
    return out


def shrink(rng: random.Random, board: list[int], rows: int, cols: int, anchor: int) -> list[int]:
    """A minimal region: empty cells and Red stones below the top row given to Blue while Red stays joined."""
    board = list(board)
    below = [i for i in range(cols, rows * cols) if i != cols + anchor]
    rng.shuffle(below)
    for i in [i for i in below if board[i] == 1] + [i for i in below if board[i] == 0]:
        was = board[i]
        board[i] = 2
        if not joined(board, rows, cols):
            board[i] = was
    return board


def template_of(board: list[int], height: int, cols: int, anchor: int) -> Template:
    stones, carrier = [], []
    for i in range(cols, (height + 1) * cols):
        r, c = divmod(i, cols)
        cell = (r - 1, c - anchor)
        if board[i] == 1 and cell != (0, 0):
            stones.append(cell)
        elif board[i] == 0:
            carrier.append(cell)
    return Template(height, ((0, 0), *sorted(stones)), tuple(sorted(carrier)))


def regions(rng: random.Random, args: argparse.Namespace):
    """Regions (board, rows, columns, anchor column): `samples` random ones per
    height, then those of `games` random positions, then those of the games
    recorded in the folder `records` (cut to `window` columns)."""
    for height in args.heights:
        for _ in range(args.samples):
            yield region(rng, height)
    for _ in range(args.games):
        yield from regions_of_game(rng, args.size)
    if args.records:
        yield from regions_of_records(args.records, args.window)
    for height, longest in args.ladders:
        yield from ladder_regions(height, longest)


def find(args: argparse.Namespace, known: list[Template]) -> tuple[list[Template], dict[int, dict[str, int]]]:
    rng = random.Random(args.seed)
    found: list[Template] = list(known)
    stats: dict[int, dict[str, int]] = {}
    for board, rows, cols, anchor in regions(rng, args):
        height = rows - 1
        s = stats.setdefault(height, {"joined": 0, "missed": 0, "seen once shrunk": 0, "kept": 0})
        if _core.joined_colour(rows, cols, board) or not joined(board, rows, cols):
            continue
        s["joined"] += 1
        if seen(board, rows, cols):
            continue
        s["missed"] += 1
        small = shrink(rng, board, rows, cols, anchor)
        if seen(small, rows, cols):
            s["seen once shrunk"] += 1
            continue
        t = template_of(small, height, cols, anchor)
        if len(t.stones) + len(t.carrier) > MAX_CELLS:
            continue
        for u in (t, t.mirror()):
            if not any(v.holds(u) for v in found):
                found = [v for v in found if not u.holds(v)] + [u]
                s["kept"] += 1
    found.sort(key=lambda t: (t.height, len(t.stones), len(t.carrier), t.stones, t.carrier))
    return found, stats


def measure(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    without = [k for k in hx.KNOWLEDGE if k != "edge-templates"]
    stats: dict[int, list[int]] = {}
    for board, rows, cols, _ in regions(rng, args):
        if _core.joined_colour(rows, cols, board) or not joined(board, rows, cols):
            continue
        s = stats.setdefault(rows - 1, [0, 0, 0])
        s[0] += 1
        s[1] += seen(board, rows, cols, without)
        s[2] += seen(board, rows, cols)
    print(f"{'height':>6} {'joined':>7} {'seen without templates':>23} {'seen with them':>16}")
    for height in sorted(stats):
        n, a, b = stats[height]
        print(f"{height:>6} {n:>7} {a:>15} ({100 * a / n:4.1f}%) {b:>8} ({100 * b / n:4.1f}%)")


def read(path: str) -> tuple[list[Template], list[str]]:
    """The templates of a table written by `write`, and the commands that made it."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return [], []
    out, commands = [], []
    for line in lines:
        if line.startswith("//   python "):
            commands.append(line[5:])
        if not line.startswith("{"):
            continue
        nums = [int(x) for x in line.replace("{", " ").replace("}", " ").replace(",", " ").split()]
        height, ns, nc, cells = nums[0], nums[1], nums[2], nums[3:]
        pairs = [(cells[2 * i], cells[2 * i + 1]) for i in range(ns + nc)]
        out.append(Template(height, tuple(pairs[:ns]), tuple(pairs[ns:])))
    return out, commands


def write(templates: list[Template], path: str, commands: list[str]) -> None:
    lines = [
        "// Edge templates the H-search alone misses, found and shrunk by exact",
        "// solves of small regions (tools/edge_templates.py). Generated, do not edit;",
        "// made by these runs, each adding to the table:",
        *(f"//   {c}" for c in commands),
        "// Each entry: height of the anchor above the edge (1 is the edge row), the",
        "// number of stones (the anchor first), the number of carrier cells, then",
        "// (rows toward the edge, columns) from the anchor for each, stones first.",
    ]
    for t in templates:
        cells = ", ".join(f"{dr}, {dc}" for dr, dc in (*t.stones, *t.carrier))
        lines.append(f"{{{t.height}, {len(t.stones)}, {len(t.carrier)}, {{{cells}}}}},")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def ladder_list(text: str) -> list[tuple[int, int]]:
    """``--ladders``: HEIGHT:LENGTH pairs, comma separated, each at least 2."""
    try:
        pairs = [tuple(int(x) for x in item.split(":")) for item in text.split(",") if item]
    except ValueError:
        pairs = []
    if not pairs or any(len(p) != 2 or min(p) < 2 for p in pairs):
        raise argparse.ArgumentTypeError(
            f"expected HEIGHT:LENGTH pairs, each at least 2 (such as 4:11,5:8), not {text!r}"
        )
    return pairs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=["find", "measure"])
    ap.add_argument("--heights", default="4,5", help="anchor heights of the random regions, comma separated")
    ap.add_argument("--samples", type=int, default=0, help="random regions per height")
    ap.add_argument("--games", type=int, default=0, help="the regions of this many random positions")
    ap.add_argument("--size", type=int, default=7, help="board size of those positions")
    ap.add_argument("--records", metavar="DIR", help="also the regions of every position of the games in DIR")
    ap.add_argument("--window", type=int, default=WINDOW, help="columns kept round a recorded anchor")
    ap.add_argument(
        "--ladders",
        type=ladder_list,
        default=[],
        metavar="H:L,...",
        help="also the regions of an anchor H rows from the edge and one more stone up to L columns along",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", metavar="PATH", help="find: add the templates found to the table in this file")
    args = ap.parse_args()
    args.heights = [int(h) for h in args.heights.split(",")]
    if args.command == "measure":
        measure(args)
        return
    start = time.perf_counter()
    known, commands = read(args.write) if args.write else ([], [])
    templates, stats = find(args, known)
    for h, s in sorted(stats.items()):
        print(f"height {h}: " + ", ".join(f"{k} {v}" for k, v in s.items()))
    took = time.perf_counter() - start
    print(f"{len(templates)} templates ({len(known)} before) after dropping redundant ones, {took:.0f} s")
    if args.write:
        heights = ",".join(str(h) for h in args.heights)
        commands.append(
            "python tools/edge_templates.py find"
            + (f" --heights {heights} --samples {args.samples}" if args.samples else "")
            + (f" --games {args.games} --size {args.size}" if args.games else "")
            + (f" --records {args.records} --window {args.window}" if args.records else "")
            + (" --ladders " + ",".join(f"{h}:{n}" for h, n in args.ladders) if args.ladders else "")
            + f" --seed {args.seed} --write {args.write}"
        )
        write(templates, args.write, commands)


if __name__ == "__main__":
    main()
