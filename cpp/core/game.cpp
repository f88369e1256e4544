#include "core/game.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/errors.h"
#include "core/notation.h"

namespace hexengine {

namespace {

// An IllegalMove about public cell `cell` (or about no cell when it is -1).
IllegalMove illegal(const Geometry& g, int cell, const std::string& message, const char* rule) {
  if (cell < 0) return IllegalMove(message, -1, -1, rule);
  return IllegalMove(message, cell / g.cols, cell % g.cols, rule);
}

}  // namespace

const char* color_name(Color c) { return c == Color::Red ? "Red" : "Blue"; }

Game::Game(const Rules& rules)
    : rules_(make_rules(rules.variant, rules.rows, rules.cols, rules.swap)),
      geom_(make_geometry(rules.rows, rules.cols)) {}

std::optional<Color> Game::to_move() const {
  if (is_over()) return std::nullopt;
  return state_.to_move;
}

void Game::require_running(int cell) const {
  if (!is_over()) return;
  const std::string what = cell < 0 ? std::string() : "cannot play " + cell_name(geom_, cell) + ": ";
  throw illegal(geom_, cell, what + "the game is over: no more moves can be played", "game-over");
}

void Game::finish(Color winner, EndReason reason) {
  winner_ = winner;
  end_reason_ = reason;
}

void reject_cell(const Geometry& g, Variant v, Color me, int cell, bool own, bool found) {
  const Color them = opponent(me);
  const std::string name = cell_name(g, cell);
  const bool dark = is_dark(v);
  if (own) {
    throw illegal(g, cell, name + " already holds " + (dark ? "your own " : "a ") + color_name(me) + " stone",
                  dark ? "own-stone" : "occupied");
  }
  if (!dark) throw illegal(g, cell, name + " already holds a " + color_name(them) + " stone", "occupied");
  if (found) {
    throw illegal(g, cell,
                  name + " holds a " + color_name(them) + " stone that " + color_name(me) + " has already found",
                  "found-stone");
  }
}

void check_swap(const Rules& rules, bool available) {
  if (rules.swap == SwapForm::Off) {
    throw IllegalMove(is_dark(rules.variant) ? "there is no swap in Dark Hex: Blue cannot see Red's first stone"
                                             : "the swap rule is off in this game",
                      -1, -1, "swap-off");
  }
  if (!available) {
    throw IllegalMove("swap is only allowed as Blue's first action, right after Red's first stone", -1, -1,
                      "swap-timing");
  }
}

MoveResult Game::play(int cell) {
  checked_cell(geom_, cell);
  require_running(cell);
  check_cell(state_, geom_, rules_.variant, cell);
  const Color me = state_.to_move;
  const Step step = play_move(state_, geom_, rules_.variant, geom_.padded(cell));
  history_.push_back({me, cell, step.result});
  if (step.connected) {
    chain_owner_ = me;
    finish(winner_of_connection(rules_.variant, me), EndReason::Connection);
  }
  return step.result;
}

bool Game::swap_available() const {
  return !is_over() && rules_.swap != SwapForm::Off && history_.size() == 1 && state_.to_move == Color::Blue &&
         history_[0].color == Color::Red && history_[0].result == MoveResult::Placed;
}

MoveResult Game::swap() {
  require_running(-1);
  check_swap(rules_, swap_available());
  const int stands = play_swap(state_, geom_, rules_.swap, geom_.padded(history_[0].cell));
  history_.push_back({Color::Blue, geom_.unpadded(stands), MoveResult::Swapped});
  return MoveResult::Swapped;
}

MoveResult Game::apply(long long action) {
  if (action == geom_.cells) return swap();
  if (action < 0 || action > geom_.cells) {
    throw IllegalMove("action " + std::to_string(action) + " is off the " + std::to_string(rules_.rows) + "x" +
                          std::to_string(rules_.cols) + " board: actions are 0-" + std::to_string(geom_.cells - 1) +
                          " (the cells, row * cols + col) and " + std::to_string(geom_.cells) + " (the swap)",
                      -1, -1, "off-board");
  }
  return play(static_cast<int>(action));
}

Action Game::undo() {
  if (history_.empty()) throw IllegalMove("there is no action to take back", -1, -1, "nothing-to-undo");
  if (end_reason_ == EndReason::Resignation || end_reason_ == EndReason::Timeout) {
    throw IllegalMove(std::string("the game ended by ") +
                          (end_reason_ == EndReason::Resignation ? "resignation" : "time-out") +
                          ": undo takes back moves, not the end of a game",
                      -1, -1, "game-over");
  }
  const Action last = history_.back();
  const int p = geom_.padded(last.cell);
  switch (last.result) {
    case MoveResult::Placed:
      state_.stones[index_of(last.color)].reset(p);
      rebuild_chains(state_, geom_);
      break;
    case MoveResult::Hit:
      state_.found[index_of(last.color)].reset(p);
      break;
    case MoveResult::Swapped:
      if (rules_.swap == SwapForm::Pieces) {
        state_.stones[index_of(Color::Blue)].reset(p);
        state_.stones[index_of(Color::Red)].set(geom_.padded(history_[0].cell));
        rebuild_chains(state_, geom_);
      }
      break;
  }
  state_.to_move = last.color;
  history_.pop_back();
  winner_.reset();
  chain_owner_.reset();
  end_reason_ = EndReason::None;
  return last;
}

void Game::resign(Color color) {
  require_running(-1);
  finish(opponent(color), EndReason::Resignation);
}

void Game::timeout(Color color) {
  require_running(-1);
  if (color != state_.to_move) {
    throw IllegalMove(std::string(color_name(color)) + " cannot run out of time: it is " + color_name(state_.to_move) +
                          "'s turn",
                      -1, -1, "not-on-turn");
  }
  finish(opponent(color), EndReason::Timeout);
}

Board Game::legal_cells() const {
  if (is_over()) return Board();
  const int me = index_of(state_.to_move);
  const Board& known = is_dark(rules_.variant) ? state_.found[me] : state_.stones[1 - me];
  return geom_.on_board.andnot(state_.stones[me] | known);
}

std::vector<int> Game::legal_moves() const {
  std::vector<int> out;
  legal_cells().for_each([&](int p) { out.push_back(geom_.unpadded(p)); });
  return out;
}

std::vector<int> Game::completed_chain() const {
  if (end_reason_ != EndReason::Connection || !chain_owner_) return {};
  const Color owner = *chain_owner_;
  const int ci = index_of(owner);
  const Board& own = stones(owner);
  // Breadth-first search from the owner's stones on the first edge; the first
  // stone reached on the second edge ends a shortest path.
  std::vector<int> parent(kMaxBits, -2);
  std::vector<int> queue;
  (own & geom_.first_edge[ci]).for_each([&](int p) {
    parent[p] = -1;
    queue.push_back(p);
  });
  for (size_t head = 0; head < queue.size(); ++head) {
    const int p = queue[head];
    if (geom_.second_edge[ci].test(p)) {
      std::vector<int> chain;
      for (int q = p; q != -1; q = parent[q]) chain.push_back(geom_.unpadded(q));
      std::reverse(chain.begin(), chain.end());
      return chain;
    }
    for (int off : neighbour_offsets(geom_.stride)) {
      const int q = p + off;
      if (q >= 0 && q < kMaxBits && own.test(q) && parent[q] == -2) {
        parent[q] = p;
        queue.push_back(q);
      }
    }
  }
  throw std::logic_error("completed_chain: the owner's edges are not connected");
}

std::vector<int8_t> Game::board() const {
  std::vector<int8_t> out(geom_.cells, 0);
  for (int cell = 0; cell < geom_.cells; ++cell) {
    const int p = geom_.padded(cell);
    if (stones(Color::Red).test(p)) out[cell] = 1;
    if (stones(Color::Blue).test(p)) out[cell] = 2;
  }
  return out;
}

std::vector<int8_t> Game::board_after(int actions) const {
  if (actions < 0 || actions > static_cast<int>(history_.size())) {
    throw std::out_of_range("board_after(" + std::to_string(actions) + "): the record has " +
                            std::to_string(history_.size()) + " actions");
  }
  return replay(rules_, history_, static_cast<size_t>(actions)).board();
}

Game replay(const Rules& rules, const std::vector<Action>& history, size_t count) {
  Game game(rules);
  for (size_t i = 0; i < count && i < history.size(); ++i) {
    if (history[i].result == MoveResult::Swapped) {
      game.swap();
    } else {
      game.play(history[i].cell);
    }
  }
  return game;
}

View Game::make_view(std::optional<Color> viewer) const {
  View v;
  v.rules = rules_;
  v.viewer = viewer;
  v.to_move = to_move();
  v.winner = winner_;
  v.end_reason = end_reason_;
  v.swap_available = swap_available();
  const bool sees_all = sees_every_stone(rules_.variant, end_reason_);
  Board visible;
  if (sees_all) {
    visible = geom_.on_board;
  } else if (viewer) {
    visible = stones(*viewer) | found(*viewer);
  }
  v.board.assign(geom_.cells, 0);
  int hidden = 0;
  for (int cell = 0; cell < geom_.cells; ++cell) {
    const int p = geom_.padded(cell);
    for (Color c : {Color::Red, Color::Blue}) {
      if (!stones(c).test(p)) continue;
      if (visible.test(p)) {
        v.board[cell] = static_cast<int8_t>(index_of(c) + 1);
      } else {
        ++hidden;
      }
    }
  }
  v.hidden_stones = hidden;
  v.history = history_;
  v.completed_chain = completed_chain();
  if (!sees_all) {
    for (Action& a : v.history) {
      if (!viewer || a.color != *viewer) a.cell = -1;
    }
  }
  return v;
}

View Game::view(Color color) const { return make_view(color); }

View Game::spectator_view() const { return make_view(std::nullopt); }

}  // namespace hexengine
