// A position as the batched environments and the evaluator search play it:
// the core's State (for play_move), and beside it a Shadow of the same stones
// as dense bitboards (for observation planes and legal-action masks).
//
// Contract: a State and its Shadow start empty together and change only
// through play_action, which plays an integer action (a cell's public index
// row * cols + col, or rows * cols for the swap) with the core's play_move and
// play_swap and keeps the Shadow in step. Actions must be legal (check_action
// throws IllegalMove, as the referee would, for one that is not). Everything
// read off a Shadow is what the rules let its player know: a perspective is
// the player's own view (view.h), so its planes equal View::planes of the same
// position.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "core/errors.h"
#include "core/game.h"
#include "core/planes.h"
#include "core/rng.h"
#include "core/state.h"

namespace hexengine {

// The stones of a position as dense bitboards (bit r * cols + c is the cell
// (r, c)), how many of each, the actions played, where Red's first stone
// stands (padded) and the player to move.
template <int W>
struct Shadow {
  Bitboard<W> stones[2];
  Bitboard<W> found[2];
  int16_t placed[2] = {0, 0};
  int16_t hits[2] = {0, 0};
  int16_t plies = 0;
  int16_t first = -1;
  Color to_move = Color::Red;
};

// The cells 0 .. cells - 1 as a dense bitboard.
template <int W>
Bitboard<W> dense_cells(int cells) {
  Bitboard<W> out;
  for (int cell = 0; cell < cells; ++cell) out.set(cell);
  return out;
}

// Whether the player to move may use the swap now.
template <int W>
bool swap_available(const Shadow<W>& s, const Rules& rules) {
  return rules.swap != SwapForm::Off && s.plies == 1;
}

// The cells the player to move may choose (by its own knowledge in Dark Hex),
// as a dense bitboard; `board` is dense_cells of the board.
template <int W>
Bitboard<W> legal_cells(const Shadow<W>& s, Variant v, const Bitboard<W>& board) {
  const int me = index_of(s.to_move), them = 1 - me;
  return board.andnot(s.stones[me] | (is_dark(v) ? s.found[me] : s.stones[them]));
}

// How many cells legal_cells holds on a board of `cells` cells.
template <int W>
int legal_count(const Shadow<W>& s, Variant v, int cells) {
  const int me = index_of(s.to_move), them = 1 - me;
  return cells - s.placed[me] - (is_dark(v) ? s.hits[me] : s.placed[them]);
}

// What player `me` knows of the position, the game running (EndReason::None)
// or over (then nobody is to move, and after a connection every stone shows).
template <int W>
Perspective<W> perspective_of(const Shadow<W>& s, const Rules& rules, Color me, EndReason end) {
  const int mine = index_of(me), theirs = 1 - mine;
  Perspective<W> p;
  p.me = me;
  p.own = s.stones[mine];
  p.to_move = end == EndReason::None && s.to_move == me;
  p.swap = end == EndReason::None && swap_available(s, rules);
  p.hit = s.found[mine];
  p.hits_taken = s.hits[theirs];
  if (sees_every_stone(rules.variant, end)) {
    p.opponent = s.stones[theirs];
  } else {
    p.opponent = s.found[mine];
    p.hidden = s.placed[theirs] - s.hits[mine];
  }
  return p;
}

// The member of rank k (from 0) of `bits`, which has more than k members.
template <int W>
int nth_member(const Bitboard<W>& bits, int k) {
  for (int w = 0;; ++w) {
    const int here = std::popcount(bits.w[w]);
    if (k >= here) {
      k -= here;
      continue;
    }
    uint64_t word = bits.w[w];
    for (; k > 0; --k) word &= word - 1;
    return w * 64 + std::countr_zero(word);
  }
}

// A uniformly random legal action of the player to move (the swap included
// when available): draws cells until one is legal (on average cells / legal
// draws) and after 16 misses picks one by its rank.
template <int W>
int random_action(const Shadow<W>& s, const Rules& rules, const Bitboard<W>& board, int cells, Rng& rng) {
  const int legal = legal_count(s, rules.variant, cells);
  if (swap_available(s, rules) && rng.below(static_cast<uint32_t>(legal + 1)) == static_cast<uint32_t>(legal)) {
    return cells;
  }
  const Bitboard<W> open = legal_cells(s, rules.variant, board);
  for (int tries = 0; tries < 16; ++tries) {
    const int c = static_cast<int>(rng.below(static_cast<uint32_t>(cells)));
    if (open.test(c)) return c;
  }
  return nth_member(open, static_cast<int>(rng.below(static_cast<uint32_t>(legal))));
}

// The Shadow of `state` (a position of `plies` actions, without a swap
// pending: Dark Hex has none) on `g`.
template <int W>
Shadow<W> shadow_of(const State<W>& state, const Geometry& g, int plies) {
  Shadow<W> s;
  for (int cell = 0; cell < g.cells; ++cell) {
    const int p = g.padded(cell);
    for (int c = 0; c < 2; ++c) {
      if (state.stones[c].test(p)) s.stones[c].set(cell);
      if (state.found[c].test(p)) s.found[c].set(cell);
    }
  }
  for (int c = 0; c < 2; ++c) {
    s.placed[c] = static_cast<int16_t>(s.stones[c].count());
    s.hits[c] = static_cast<int16_t>(s.found[c].count());
  }
  s.plies = static_cast<int16_t>(plies);
  s.to_move = state.to_move;
  return s;
}

// Throws IllegalMove (naming the cell and the rule) unless `action` is legal
// for the player to move.
template <int W>
void check_action(const State<W>& state, const Shadow<W>& s, const Geometry& g, const Rules& rules,
                  int64_t action) {
  if (action >= 0 && action < g.cells && !s.stones[0].test(static_cast<int>(action)) &&
      !s.stones[1].test(static_cast<int>(action))) {
    return;  // an empty cell: always legal
  }
  if (action == g.cells) {
    check_swap(rules, swap_available(s, rules));
  } else if (action < 0 || action > g.cells) {
    throw IllegalMove("out of range: actions are 0-" + std::to_string(g.cells - 1) +
                          " (the cells row * cols + col) and " + std::to_string(g.cells) + " (the swap)",
                      -1, -1, "off-board");
  } else {
    check_cell(state, g, rules.variant, static_cast<int>(action));
  }
}

// Plays the legal `action` on `state` (`padded`: the cell's padded index;
// unused for the swap), keeping `s` in step; returns whether it completed
// the mover's chain.
template <int W>
bool play_action(State<W>& state, Shadow<W>& s, const Geometry& g, const Rules& rules, int action, int padded) {
  ++s.plies;
  const int me = index_of(state.to_move);
  if (action == g.cells) {
    const int stands = play_swap(state, g, rules.swap, s.first);
    s.to_move = state.to_move;
    if (rules.swap == SwapForm::Pieces) {  // the red stone becomes a blue one on the mirrored cell
      s.stones[0].reset(g.unpadded(s.first));
      s.stones[1].set(g.unpadded(stands));
      --s.placed[0];
      ++s.placed[1];
    }
    return false;
  }
  if (s.plies == 1) s.first = static_cast<int16_t>(padded);
  const Step step = play_move(state, g, rules.variant, padded);
  s.to_move = state.to_move;
  if (step.result == MoveResult::Hit) {
    s.found[me].set(action);
    ++s.hits[me];
  } else {
    s.stones[me].set(action);
    ++s.placed[me];
  }
  return step.connected;
}

}  // namespace hexengine
