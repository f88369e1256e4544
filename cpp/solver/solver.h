// Exact solving of Hex and Rex positions.
//
// Contract: `solve` proves who wins a Hex or Rex position with perfect play,
// or says honestly that it does not know: it never guesses. It runs a
// depth-first proof-number search (df-pn with the 1+epsilon trick; in Hex a
// node's disproof number is its largest child's plus half the others' sum,
// not the whole sum) over a transposition table keyed by Zobrist hashes
// (symmetric positions share an entry), and uses knowledge that is proven to
// keep the value of every position it touches (solver/knowledge.h and
// solver/vc.h give the proofs):
//   - dead cells (no completion of the board depends on their colour) are
//     filled; in Hex with either colour, in Rex one by one in turn, because
//     in Rex a dead cell is always a best move;
//   - captured pairs (two empty neighbours such that a stone of one colour in
//     either makes the other dead) are filled for their captor, in both games;
//   - Hex: virtual connections between a player's edges (H-search over
//     bridges, edge templates and their AND/OR combinations) end the search;
//     the player to move only tries cells inside the must-play region (the
//     intersection of the carriers of the opponent's winning
//     semi-connections), never a cell that their own fill-in after another
//     move of theirs would take (dominated), nor, while another cell remains,
//     one that the opponent's fill-in after one opponent stone would fill as
//     dead (vulnerable), and never a cell outside the proof set of a sibling
//     already refuted (Hex is monotone, so that refutation still works); a
//     VC decomposition (two groups of one colour enclosing a region against
//     two opponent groups, joined by a full connection inside it) fills that
//     connection's carrier for its owner before the moves are made; on a
//     square board, a move at the root that leaves the position its own
//     image under a diagonal reflection with the colours swapped loses
//     (strategy stealing: the player then to move wins such a position);
//   - Rex (Young and Hayward's Solrex rules): a player with a join pairing
//     (disjoint pairs of empty cells, one of each joining their edges) loses
//     whoever moves, and one with a pre-join pairing (the same after a key
//     move) loses when they fill the last cell, and never plays its key;
//     pairings are found by H-search with ORs of exactly two semis. A move
//     that kills another cell (with a stone of either colour on it) or puts
//     it in a captured pair of the mover is at most as good as that cell.
// Moves are tried in the order of an electric-resistance evaluation (in Hex
// raised by the cells the move's fill-in gains for the mover), with
// Benzene's progressive widening. Positions are solved with the swap rule
// off; `solve_game` also handles a game where the player to move may swap
// now, treating the swap as one more move. Limits on nodes, time and memory
// stop the search with an Unknown status and the statistics so far; the
// memory limit bounds every table the search holds (they never evict) and the
// workspaces, checked at every node. With `threads` > 1 every thread runs
// the df-pn from the root over one set of shared tables (a mutex around each
// access), and a thread whose most proving
// child is being searched by another takes the next most proving one; the
// first thread to prove the root ends the search. Only proven values decide
// anything, and a proven entry is never overwritten, so the answer does not
// depend on the timing of the threads. Moves given to prove first (a guess,
// such as a search's best move) are each searched on their own before the
// root, over the same tables; the first that wins is the best move. The
// search keeps no global state, so several searches may run at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/game.h"
#include "core/geometry.h"
#include "core/rules.h"

namespace hexengine {

// A request the solver cannot honour: Dark Hex, a finished game, bad limits.
struct SolveError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// The pieces of knowledge the search may use; all on by default. Tests turn
// them on one at a time and compare with the plain search (all off).
struct SolveKnowledge {
  bool dead = true;         // fill dead cells
  bool captured = true;     // fill captured pairs for their captor
  bool vc = true;           // Hex: edge-to-edge virtual connections decide a position
  bool mustplay = true;     // Hex: try only cells in the must-play region (needs vc)
  bool rex_pairing = true;  // Rex: join and pre-join pairings decide a position, keys are skipped
  bool symmetry = true;     // the table shares entries between symmetric positions
  bool proof_sets = true;   // Hex: a refuted move's proof set rules out the moves outside it
  bool dominated = true;    // Hex: skip a move the mover's fill-in after another move takes;
                            // Rex: skip a move whose stone kills or captures a kept cell
  bool vulnerable = true;   // Hex: skip moves the opponent's fill-in after one stone kills;
                            // Rex: skip a move where an opponent stone would kill a kept cell
  bool decompositions = true;  // Hex: fill the carrier of a VC decomposition (needs vc)
  bool edge_templates = true;  // Hex: the H-search knows edge templates (solver/templates.h; needs vc)
  bool strategy_stealing = true;  // Hex, square boards: at the root, a move that leaves the position its
                                  // own mirror image (colours swapped) loses: the player then to move wins
  bool permanently_inferior = true;  // Hex: fill permanently inferior cells for their owner
};

// A piece of knowledge's name (hx.KNOWLEDGE) and its switch.
struct KnowledgeName {
  const char* name;
  bool SolveKnowledge::*on;
};

// Every piece of knowledge by name, in the order Python lists them.
inline constexpr KnowledgeName kKnowledgeNames[] = {
    {"dead", &SolveKnowledge::dead},
    {"captured", &SolveKnowledge::captured},
    {"vc", &SolveKnowledge::vc},
    {"mustplay", &SolveKnowledge::mustplay},
    {"rex-pairing", &SolveKnowledge::rex_pairing},
    {"symmetry", &SolveKnowledge::symmetry},
    {"proof-sets", &SolveKnowledge::proof_sets},
    {"dominated", &SolveKnowledge::dominated},
    {"vulnerable", &SolveKnowledge::vulnerable},
    {"decompositions", &SolveKnowledge::decompositions},
    {"edge-templates", &SolveKnowledge::edge_templates},
    {"strategy-stealing", &SolveKnowledge::strategy_stealing},
    {"permanently-inferior", &SolveKnowledge::permanently_inferior},
};
// Every switch has a name (SolveKnowledge holds bools only).
static_assert(sizeof(SolveKnowledge) == std::size(kKnowledgeNames));

// How long the search may run and what it should report.
struct SolveLimits {
  uint64_t max_nodes = 0;               // expanded nodes; 0 means no limit
  double max_seconds = 0;               // wall-clock seconds; 0 means no limit
  uint64_t max_memory = 256ull << 20;   // bytes of tables the search may hold
  bool winning_moves = false;           // also list every winning move of the player to move
  const std::atomic<bool>* stop = nullptr;  // polled; set it from another thread to stop
  SolveKnowledge knowledge;
  // Threads searching at once over shared tables; max_memory and max_nodes
  // bound all of them together.
  int threads = 1;
  // Moves of the player to move (public cells, empty) to prove first, in
  // order: each one's position is searched on its own, over the same tables,
  // until it is proven or refuted, before the search from the root. A good
  // guess (a search's best move) spares the search the other moves when it
  // wins; a refuted one is a sibling the root's search finds already solved.
  std::vector<int> first_moves;
};

// Why a search ended.
enum class SolveStatus : int { Proven = 0, NodeLimit = 1, TimeLimit = 2, MemoryLimit = 3, Stopped = 4 };

// What the search cost.
struct SolveStats {
  uint64_t nodes = 0;         // nodes expanded (df-pn MID calls)
  double seconds = 0;         // wall-clock time
  uint64_t memory_bytes = 0;  // peak bytes of tables held
  uint64_t tt_entries = 0;    // positions stored in the transposition table at the end
  // Where the nodes went (to measure the knowledge, not to steer the search):
  uint64_t expanded = 0;         // positions expanded for the first time
  uint64_t vc_won = 0;           // ... decided won by the mover's edge connection (full or semi)
  uint64_t vc_lost = 0;          // ... decided lost by the opponent's full edge connection
  uint64_t mustplay_lost = 0;    // ... decided lost by an empty must-play region
  uint64_t rex_paired = 0;       // ... decided by a Rex pairing (or every move a pairing's key)
  uint64_t no_mustplay = 0;      // ... searched with no opponent semi connection (no must-play region)
  uint64_t vc_budget_out = 0;    // H-search builds that ran out of their work budget
  uint64_t decomposed = 0;       // VC decompositions filled (at most a few per expansion)
  uint64_t mirrored = 0;         // root moves refuted by strategy stealing (see SolveKnowledge)
  uint64_t empty_cells = 0;      // sum over searched expansions of the empty cells
  uint64_t mustplay_moves = 0;   // ... of the moves left by the must-play region
  uint64_t moves = 0;            // ... of the moves left after the inferior cells
  uint64_t filled = 0;           // cells filled as dead or captured, over all children made
  uint64_t max_depth = 0;        // deepest ply reached below the root
  uint64_t helper_nodes = 0;     // nodes of the helper threads (included in `nodes`)
  std::vector<uint64_t> nodes_by_depth;  // MID calls per ply below the root
};

// The answer. `winner` is empty exactly when `status` is not Proven.
struct SolveResult {
  std::optional<Color> winner;
  Color to_move = Color::Red;
  SolveStatus status = SolveStatus::Proven;
  // Public cell indices of every winning move of the player to move, sorted;
  // filled only when asked for and the list is proven complete.
  std::vector<int> winning_moves;
  bool winning_moves_known = false;
  // With the swap available now (`solve_game`): whether swapping wins for the
  // player to move; part of the winning moves when they are known.
  bool swap_wins = false;
  // A proven winning move of the player to move (public index), -1 if none is
  // known (the player to move loses, or the search stopped). -2 means "swap".
  int best_move = -1;
  SolveStats stats;
};

// Solves the position with stones `red` and `blue` (padded bitboards of the
// rules' geometry) and `to_move` to play, with swap off. Stone counts need
// not match a real game. Throws SolveError for Dark Hex, a finished position
// (a player already joined their edges), stones off the board or on both
// colours, and bad limits.
SolveResult solve(const Rules& rules, const Board& red, const Board& blue, Color to_move,
                  const SolveLimits& limits);
// Throws the SolveError `solve` would throw for these arguments; else nothing.
void check_solve_request(const Rules& rules, const Board& red, const Board& blue, const SolveLimits& limits);

// Solves the game's current position for the player to move. When the swap is
// available now it counts as one more move (`swap_wins`, best_move -2): in the
// `sides` form swapping hands the mover Red's side of the same board, in the
// `pieces` form it plays the mirrored Blue stone. Throws SolveError for Dark
// Hex, a finished game, an empty board with the swap still to come (who holds
// which colour is then undecided), and bad limits.
SolveResult solve_game(const Game& game, const SolveLimits& limits);
// Throws the SolveError `solve_game` would throw before searching; else nothing.
void check_game_request(const Game& game, const SolveLimits& limits);

// Solves the position a Hex or Rex view shows. When its record leads to the
// board it shows (views taken from a game), the game is rebuilt from the record
// and handed to `solve_game`; a view built from a bare position (a board with
// a shorter record) is solved from its stones with swap off, and throws
// SolveError if its rules have the swap (who may swap then depends on the
// record).
SolveResult solve_view(const View& view, const SolveLimits& limits);
// Throws the SolveError `solve_view` would throw before searching; else nothing.
void check_view_request(const View& view, const SolveLimits& limits);

// Knowledge from names (kKnowledgeNames), the others off; throws SolveError
// on an unknown name, or on 'mustplay' without 'vc'.
SolveKnowledge knowledge_from_names(const std::vector<std::string>& names);

// Plain exhaustive search (negamax with cut-offs and a memo, no knowledge,
// its own connection test), the oracle of the tests, for boards of at most
// 25 cells. The memo is kept between calls on one object.
class ReferenceSearch {
 public:
  explicit ReferenceSearch(const Rules& rules);
  // The winner of the position; same position checks as `solve`.
  Color winner(const Board& red, const Board& blue, Color to_move);
  // Positions in the memo.
  size_t size() const { return memo_.size(); }
  const Rules& rules() const { return rules_; }

 private:
  bool wins(uint32_t mine, uint32_t theirs, int mover);
  bool joined(uint32_t stones, int colour) const;

  Rules rules_;
  int cells_ = 0;
  std::vector<uint32_t> nbr_;      // neighbour mask of each public cell
  uint32_t edge_[2][2] = {{0, 0}, {0, 0}};  // [colour][first|second]
  std::unordered_map<uint64_t, bool> memo_;
};

// A short name of a status: "proven", "nodes", "time", "memory", "stopped".
const char* status_name(SolveStatus s);

}  // namespace hexengine
