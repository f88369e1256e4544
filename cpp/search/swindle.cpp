#include "search/swindle.h"

#include <algorithm>
#include <chrono>
#include <tuple>

#include "search/playout.h"

namespace hexengine {

namespace {

// A classified move's rank: larger is better (trap, then fewer winning replies, then the lower cell).
struct Rank {
  double trap = 0.0;
  int winning_replies = 0;
  int cell = -1;  // -1: no move ranked yet
  bool better_than(const Rank& o) const {
    return std::make_tuple(trap, -winning_replies, -cell) > std::make_tuple(o.trap, -o.winning_replies, -o.cell);
  }
};

}  // namespace

Swindle find_swindle(const Rules& rules, const Board& red, const Board& blue, Color to_move,
                     const SolveLimits& limits, double max_seconds, uint64_t playouts, uint64_t seed,
                     uint64_t max_work) {
  if (playouts == 0) throw SolveError("a swindle needs at least one playout per reply");
  check_solve_request(rules, red, blue, limits);
  SolveLimits l = limits;
  l.winning_moves = true;
  const auto start = std::chrono::steady_clock::now();
  auto left = [&] {
    return max_seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const Geometry g = make_geometry(rules.rows, rules.cols);
  const Color rival = opponent(to_move);
  const Board empty = g.on_board.andnot(red | blue);
  // The playouts that value one move's replies.
  const uint64_t reply_playouts = playouts * static_cast<uint64_t>(std::max(0, empty.count() - 1));
  Swindle out;
  out.proven.assign(g.cells, 0);
  Rank best;
  // `stones` with cell `p` added.
  auto with = [](Board stones, int p) {
    stones.set(p);
    return stones;
  };
  // A move that wins after all ends the swindle.
  auto winning = [&](int cell) {
    out.wins = true;
    out.move = cell;
    out.proven[cell] = 1;
  };
  empty.for_each([&](int p) {
    if (out.wins || (limits.stop && limits.stop->load(std::memory_order_relaxed))) return;
    // Out of time: the moves left stay unranked. The clock is read once, so the solve below
    // never gets a limit that ran out after this check (a negative limit is refused).
    const double remaining = max_seconds > 0 ? left() : 0.0;
    if (max_seconds > 0 && remaining <= 0) return;
    const int cell = g.unpadded(p);
    const Board r1 = to_move == Color::Red ? with(red, p) : red;
    const Board b1 = to_move == Color::Blue ? with(blue, p) : blue;
    if (joins_edges(g, to_move == Color::Red ? r1 : b1, to_move)) {
      if (winner_of_connection(rules.variant, to_move) == to_move) return winning(cell);  // Hex
      out.proven[cell] = -1;  // Rex: the mover completed their own chain
      return;
    }
    if (max_seconds > 0) l.max_seconds = limits.max_seconds > 0 ? std::min(limits.max_seconds, remaining) : remaining;
    if (max_work > 0) {
      // The solve gets what is left once this move's playouts are set aside.
      const uint64_t used = out.nodes + out.playouts;
      if (used + reply_playouts >= max_work) return;
      const uint64_t nodes_left = max_work - used - reply_playouts;
      l.max_nodes = limits.max_nodes > 0 ? std::min(limits.max_nodes, nodes_left) : nodes_left;
    }
    const SolveResult solved = solve(rules, r1, b1, rival, l);
    out.nodes += solved.stats.nodes;
    if (solved.winner == to_move) return winning(cell);
    if (solved.winner != rival || !solved.winning_moves_known) return;  // not classified
    out.proven[cell] = -1;
    double best_win = -1.0, best_loss = -1.0;
    empty.for_each([&](int q) {
      if (q == p) return;
      const Board r2 = rival == Color::Red ? with(r1, q) : r1;
      const Board b2 = rival == Color::Blue ? with(b1, q) : b1;
      double v;
      if (joins_edges(g, rival == Color::Red ? r2 : b2, rival)) {
        v = winner_of_connection(rules.variant, rival) == rival ? 1.0 : 0.0;
      } else {
        const PlayoutCounts counts = fill_playouts(g, rules.variant, r2, b2, to_move, playouts, seed);
        out.playouts += playouts;
        v = static_cast<double>(counts.wins[index_of(rival)]) / static_cast<double>(playouts);
      }
      const bool keeps = std::binary_search(solved.winning_moves.begin(), solved.winning_moves.end(), g.unpadded(q));
      double& best_of_kind = keeps ? best_win : best_loss;
      best_of_kind = std::max(best_of_kind, v);
    });
    const Rank rank{best_loss - best_win, static_cast<int>(solved.winning_moves.size()), cell};
    if (best.cell < 0 || rank.better_than(best)) best = rank;
    ++out.classified;
  });
  if (out.wins || out.classified == 0) return out;
  out.move = best.cell;
  out.trap = best.trap;
  out.winning_replies = best.winning_replies;
  return out;
}

}  // namespace hexengine
