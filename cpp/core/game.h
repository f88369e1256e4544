// The referee: the true position of one game of Hex, Rex or Dark Hex.
//
// Contract: Game is the only implementation of move semantics. Every public
// mutator validates its input and throws IllegalMove (naming the cell and the
// rule) before changing anything, so a Game is always in a legal position.
// Cells are public indices `row * cols + col`. Win detection is incremental:
// each placement joins the stone to its colour's union-find, so finding a
// completed chain costs a few near-constant finds.
//
// Colours, not people: after a `sides` swap the board is unchanged and Blue
// moves next (the person who placed the first stone now plays Blue); after a
// `pieces` swap the first stone is replaced by a Blue stone on the mirrored
// cell and Red moves next.
#pragma once

#include <optional>
#include <vector>

#include "core/action.h"
#include "core/rules.h"
#include "core/state.h"
#include "core/view.h"

namespace hexengine {

// The referee of one game.
class Game {
 public:
  // A new game with an empty board; Red to move.
  explicit Game(const Rules& rules);

  const Rules& rules() const { return rules_; }
  const Geometry& geometry() const { return geom_; }

  // Whose decision it is; no colour once the game is over.
  std::optional<Color> to_move() const;
  // Whether the game is over.
  bool is_over() const { return end_reason_ != EndReason::None; }
  // The winner once the game is over.
  std::optional<Color> winner() const { return winner_; }
  // Why the game ended, or EndReason::None.
  EndReason end_reason() const { return end_reason_; }

  // Plays public cell `cell` for the player to move; throws IllegalMove.
  MoveResult play(int cell);
  // Uses the swap rule for Blue; throws IllegalMove where it is not allowed.
  MoveResult swap();
  // The action that stands for the swap: rows * cols (the cells' actions are
  // their public indices 0 .. rows * cols - 1).
  int swap_action() const { return geom_.cells; }
  // Plays integer action `action` (a cell, or swap_action()); throws IllegalMove.
  MoveResult apply(long long action);
  // Takes back the last action exactly (stones, found stones, chains, the
  // player to move, an end by connection) and returns it; throws IllegalMove
  // when there is none, or when the game ended by resignation or time-out.
  Action undo();
  // Whether the player to move may use the swap rule now.
  bool swap_available() const;
  // `color` resigns (at any time, also out of turn); the opponent wins.
  void resign(Color color);
  // `color`, who must be the player to move, ran out of time and loses.
  void timeout(Color color);

  // Cells the player to move may choose, by their own knowledge in Dark Hex.
  std::vector<int> legal_moves() const;
  // The same cells as a padded bitboard (empty once the game is over).
  Board legal_cells() const;
  // The chain that ended the game (winner's in Hex and Dark Hex, loser's in
  // Rex): a shortest own-coloured path between its owner's edges, so no stone
  // can be removed from it. Empty unless the game ended by connection.
  std::vector<int> completed_chain() const;
  // The full record of actions.
  const std::vector<Action>& history() const { return history_; }
  // The true board, row by row: 0 empty, 1 red, 2 blue.
  std::vector<int8_t> board() const;
  // The true board after the first `actions` actions of the record.
  std::vector<int8_t> board_after(int actions) const;

  // What `color` may know; see core/view.h.
  View view(Color color) const;
  // What a spectator may know; see core/view.h.
  View spectator_view() const;

  // The bare position (stones, found stones, chains, player to move).
  const State<kMaxWords>& state() const { return state_; }
  // Stones of `color` (padded bitboard).
  const Board& stones(Color color) const { return state_.stones[index_of(color)]; }
  // Enemy stones `color` has found by hitting them (Dark Hex).
  const Board& found(Color color) const { return state_.found[index_of(color)]; }

 private:
  // Ends the game with `winner` for `reason`.
  void finish(Color winner, EndReason reason);
  // Throws IllegalMove if the game is over.
  void require_running(int cell) const;
  // Fills a view's board from the stones the viewer can see.
  View make_view(std::optional<Color> viewer) const;

  Rules rules_;
  Geometry geom_;
  State<kMaxWords> state_;
  std::optional<Color> winner_;
  std::optional<Color> chain_owner_;
  EndReason end_reason_ = EndReason::None;
  std::vector<Action> history_;
};

// Throws IllegalMove (naming the cell and the rule, as Game::play does) unless
// public cell `cell` is a choice the player to move may make in the running
// position `s`: not their own stone, nor (Dark Hex) an enemy stone they have
// found, nor (Hex and Rex) any stone. For positions kept outside a Game.
template <int W>
void check_cell(const State<W>& s, const Geometry& g, Variant v, int cell) {
  const int p = g.padded(cell), me = index_of(s.to_move);
  const bool own = s.stones[me].test(p), enemy = s.stones[1 - me].test(p);
  if (own || enemy) reject_cell(g, v, s.to_move, cell, own, s.found[me].test(p));
}

// The throwing half of check_cell: throws for an own stone, for any stone in
// Hex and Rex, and for a found enemy stone in Dark Hex; returns for a hidden
// enemy stone in Dark Hex (a hit).
void reject_cell(const Geometry& g, Variant v, Color me, int cell, bool own, bool found);

// Throws IllegalMove unless the swap is in the rules (rule "swap-off") and
// available now (rule "swap-timing").
void check_swap(const Rules& rules, bool available);

// The game that the first `count` actions of `history` (a record of a game
// under `rules`) lead to, replayed from an empty board; throws IllegalMove if
// the record breaks a rule.
Game replay(const Rules& rules, const std::vector<Action>& history, size_t count);

// Name of a colour: "Red" or "Blue".
const char* color_name(Color c);

}  // namespace hexengine
