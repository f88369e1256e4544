// The best any Dark Hex player can do against the greedy player.
//
// Contract: the greedy player (hx.GreedyBot) plays, on its own view, a cell
// with the least `distances_after` score (core/distance.h: its connection
// distance after a stone there, its own stones free, every cell it does not
// know to be occupied open, the enemy stones it has found closed), each tied
// cell with the same probability. Against that fixed policy Dark Hex is a
// one-player game of imperfect information, and `greedy_best_response`
// solves it exactly: expectimax over the responder's information states,
// each holding a belief (the probability of every hidden state the
// responder's observations allow: the greedy player's stones and which of
// the responder's stones it has found). A responder's move splits the belief
// into a hit and a placement; the greedy player's turn splits it by what the
// responder is told (classic: how many of its stones were hit before the
// placement; abrupt: a hit or a placement). Moves are `play_move`
// (core/state.h). Equal beliefs with equal views have equal values, so the
// responder's values are memoised on a 96-bit digest of the view and the
// normalised belief (weights rounded to 1e-12; the board turned 180
// degrees, which maps each colour's edges onto themselves, counts as the
// same), stored as floats: the result is exact to about 1e-6.
//
// Method: the responder's cells are tried in the order of its own greedy
// scores, and a move is dropped as soon as its outcomes valued so far, plus
// a sure win for the rest, cannot beat the best move found. Both bounds are
// passed down (expectimax with Ballard's Star1 cut-offs): each outcome is
// asked only whether it passes what its move needs of it, a decision stops
// at a move that reaches what its caller needs, and a state answered with a
// bound is memoised with the bound instead of its value.
//
// An upper bound for boards where the exact value is out of reach: a
// responder told every hidden stone (the greedy player's, and which of its
// own the greedy player has found) can only do better, so the value of one
// told everything once it has `reveal_after` stones of its own is at least
// the ceiling. From there on it plays a game of perfect information against
// the greedy player's chance moves, memoised by position; the earlier it is
// told, the cheaper the bound and the looser (on 4x4 classic, as Blue: told
// at 3 stones 0.7863, at 4 0.7834, the ceiling 0.7833).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/geometry.h"
#include "core/rules.h"

namespace hexengine {

// What a best response's value says: the best itself, or a bound on it.
enum class GreedyBound { Exact, AtMost, AtLeast };

// The result of an exact best response to the greedy player.
struct GreedyResponse {
  double value = 0;           // the responder's best win probability (when complete), or a bound on it
  GreedyBound bound = GreedyBound::Exact;  // with a target: AtMost (value is the target) or AtLeast
  uint64_t decisions = 0;     // the responder's information states valued (memoised)
  uint64_t greedy_turns = 0;  // the greedy player's turns valued (not memoised: counted as often as met)
  uint64_t informed = 0;      // with reveal_after: the told responder's positions valued (memoised)
  bool complete = false;      // false: stopped at max_states or by `stop`, value unknown
};

// The highest win rate any player of colour `responder` can reach against
// the greedy player. With a `target` in [0, 1), only whether it is above
// the target: `target` with AtMost, or a value above it with AtLeast; far
// fewer states than the exact value when the value is well away from it.
// With `reveal_after`, the value of a responder told every hidden stone
// once it has that many stones (0: from the start), an upper bound on the
// ceiling: Exact and AtMost then bound the ceiling from above, AtLeast says
// nothing of it. Stops, incomplete, once more than `max_states` of the
// responder's information states and told positions are memoised (0: no
// limit) or when `stop` is set. Throws ConfigError unless `rules` are Dark
// Hex (classic or abrupt) on a board whose padded layout fits one 64-bit
// word (7x7 does), for a target outside [0, 1), or a negative reveal_after.
GreedyResponse greedy_best_response(const Rules& rules, Color responder, uint64_t max_states,
                                    const std::atomic<bool>* stop = nullptr,
                                    std::optional<double> target = std::nullopt,
                                    std::optional<int> reveal_after = std::nullopt);

// A hidden state of a belief: the greedy player's stones, the responder's
// stones it has found (public cells as bits, cell r * cols + c), a weight.
struct GreedyHidden {
  uint64_t own = 0, found = 0;
  double weight = 0;
};

struct GreedyResponderImpl;

// The best response kept between questions (its memo grows with them), to
// value each move of the responder's at one of its decisions.
class GreedyResponder {
 public:
  // The rules and limit as for greedy_best_response; throws ConfigError alike.
  GreedyResponder(const Rules& rules, Color responder, uint64_t max_states = 0);
  ~GreedyResponder();
  // Per public cell, the responder's exact win probability after a move there
  // followed by the best response, at its decision with its stones `mine`,
  // the greedy player's stones it has found `seen` (public bits) and the
  // belief `belief` (weights need not sum to one); -1 where it may not play.
  // Throws ConfigError for an empty belief or one that clashes with `mine` and
  // `seen`, Interrupted when `stop` is set or the memo passes max_states.
  std::vector<double> move_values(uint64_t mine, uint64_t seen, const std::vector<GreedyHidden>& belief,
                                  const std::atomic<bool>* stop = nullptr);
  // The responder's information states memoised so far.
  uint64_t decisions() const;

 private:
  std::unique_ptr<GreedyResponderImpl> impl_;
};

}  // namespace hexengine
