// The bare position of a game and the one implementation of what a move does.
//
// Contract: `State<W>` holds the true stones, what each player has found (Dark
// Hex), the union-find of chains and the player to move, on a board whose
// padded layout fits in W words (see core/bitboard.h). `play_move` and
// `play_swap` are the only code that plays a move on a position: the referee
// (Game) validates a move and then calls them, and playouts, searches and the
// batched environments call them directly on moves they know to be legal
// (Game::undo takes a move back with `rebuild_chains`). They never throw.
#pragma once

#include "core/action.h"
#include "core/bitboard.h"
#include "core/geometry.h"
#include "core/rules.h"
#include "core/unionfind.h"

namespace hexengine {

// What one move did to a position.
struct Step {
  MoveResult result = MoveResult::Placed;
  // Whether the mover's stone completed the mover's chain (the game is over).
  bool connected = false;
};

// The winner when `connector` completes a chain: the connector in Hex and Dark
// Hex, the opponent in Rex.
constexpr Color winner_of_connection(Variant v, Color connector) {
  return is_misere(v) ? opponent(connector) : connector;
}

// A position: stones, found stones, chains, player to move.
template <int W>
struct State {
  Bitboard<W> stones[2];
  Bitboard<W> found[2];
  UnionFind<W * 64> chains;
  Color to_move = Color::Red;

  // Stones of either colour.
  Bitboard<W> occupied() const { return stones[0] | stones[1]; }
};

// Plays padded cell `p` for the player to move. The cell must not hold the
// mover's own stone, nor (Dark Hex) an enemy stone the mover has found; in Hex
// and Rex it must be empty. An enemy stone there is a hit: it is found, and in
// dark-abrupt the turn passes. Otherwise a stone is placed; unless it completes
// the mover's chain, the turn passes.
template <int W>
Step play_move(State<W>& s, const Geometry& g, Variant v, int p) {
  const Color me = s.to_move, them = opponent(me);
  if (s.stones[index_of(them)].test(p)) {
    s.found[index_of(me)].set(p);
    if (v == Variant::DarkAbrupt) s.to_move = them;
    return {MoveResult::Hit, false};
  }
  s.stones[index_of(me)].set(p);
  s.chains.add_stone(g, me, p, s.stones[index_of(me)]);
  if (s.chains.connected(me)) return {MoveResult::Placed, true};
  s.to_move = them;
  return {MoveResult::Placed, false};
}

// Rebuilds the chains of `s` from its stones (after a stone is taken away).
template <int W>
void rebuild_chains(State<W>& s, const Geometry& g) {
  s.chains.clear();
  for (Color c : {Color::Red, Color::Blue}) {
    const Bitboard<W>& own = s.stones[index_of(c)];
    own.for_each([&](int p) { s.chains.add_stone(g, c, p, own); });
  }
}

// Applies the swap right after Red's first stone at padded cell `first`.
// `sides`: the board stays, Blue (now the other person) moves next. `pieces`:
// the red stone is replaced by a blue one on the mirrored cell, Red moves next.
// Returns the padded cell where the swapped stone stands.
template <int W>
int play_swap(State<W>& s, const Geometry& g, SwapForm form, int first) {
  if (form != SwapForm::Pieces) {
    s.to_move = Color::Blue;
    return first;
  }
  const int mirrored = g.padded(g.col_of(first), g.row_of(first));
  s.stones[index_of(Color::Red)].reset(first);
  s.stones[index_of(Color::Blue)].set(mirrored);
  rebuild_chains(s, g);
  s.to_move = Color::Red;
  return mirrored;
}

}  // namespace hexengine
