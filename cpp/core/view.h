// What one player, or a spectator, may know about a game.
//
// Contract: a View holds only information its viewer is entitled to (docs/rules.md
// section 5): in Dark Hex a player's board shows own stones and enemy stones
// that player has found; a spectator's shows none; after a game ends by
// connection every view shows the whole board; after a resignation or
// time-out views stay as they were. Nothing else reaches a View, so a bot or a
// client that receives one cannot learn a hidden stone from it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/action.h"
#include "core/geometry.h"
#include "core/rules.h"

namespace hexengine {

// Whether every viewer sees every stone: always in Hex and Rex; in Dark Hex
// once the game has ended by connection (before that a player sees its own
// stones and the enemy stones it has found, a spectator none).
constexpr bool sees_every_stone(Variant v, EndReason end) { return !is_dark(v) || end == EndReason::Connection; }

// A snapshot of a game as one viewer knows it.
struct View {
  Rules rules;
  // Red, Blue, or no colour for a spectator.
  std::optional<Color> viewer;
  // rows * cols cells, row by row: 0 empty or unknown, 1 red, 2 blue.
  std::vector<int8_t> board;
  // Whose decision it is, or no colour once the game is over.
  std::optional<Color> to_move;
  // The winner, once the game is over.
  std::optional<Color> winner;
  EndReason end_reason = EndReason::None;
  // Stones on the board this viewer cannot see (a player: hidden enemy stones).
  int hidden_stones = 0;
  // Whether the player to move may use the swap rule now.
  bool swap_available = false;
  // The record as this viewer knows it; cells hidden from the viewer are -1.
  std::vector<Action> history;
  // The chain that ended the game, once it ended by connection (then the whole
  // board is public); public cell indices from its owner's first edge.
  std::vector<int> completed_chain;

  // Cells (public indices) the viewer may choose now; empty unless it is the
  // viewer's turn. The swap, when available, is reported by `swap_available`.
  std::vector<int> legal_moves() const;
  // Times one of the viewer's own stones was hit by the opponent.
  int hits_received() const;
  // Whether the game is over.
  bool is_over() const { return end_reason != EndReason::None; }
};

// The stones `view` shows, per colour index (padded bitboards of `g`, the
// geometry of the view's rules).
std::array<Board, 2> shown_stones(const View& view, const Geometry& g);

// Whether `view.board` is `before` with the stones that the record's actions
// from index `from` on show: a placement its own colour, a hit the enemy stone
// it found, a swap the first stone moved where the swap put it, a hidden
// action nothing (a hidden swap: false). A search reuses the tree of an
// earlier view only when this holds, so a view whose record does not account
// for its stones never inherits another position's tree.
bool board_follows(const std::vector<int8_t>& before, const View& view, size_t from);

// Checks that a View is internally coherent (sizes, values, counts) before the
// core trusts it; throws RulesError naming the problem. Views built by a Game
// always pass; this guards views rebuilt from user data (e.g. unpickled).
void validate_view(const View& view);

}  // namespace hexengine
