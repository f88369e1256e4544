// Search-tree node storage shared by the Hex/Rex search (search/mcts.cpp) and
// the Dark Hex search (dark/dark_search.cpp).
//
// Contract: nodes live in chunks of 2^16 allocated on demand; an index names a
// node for the arena's lifetime (chunks never move); besides the `Node`s a
// chunk may hold parallel arrays (`Columns`, one per type) under the same
// indices, so that what every simulation writes shares no cache line with what
// it only reads (two threads then pass fewer lines back and forth) and a loop
// over one field reads only that field's lines; a column the owner says it
// never uses is not allocated (its get/begin_of must then not be called); at
// most `max_nodes` are handed out, after which `allocate` returns kNoNode and
// the search stops growing its tree (memory stays bounded). `allocate` is
// thread-safe, and the next chunk is made (zeroed) outside its lock by the
// thread that passes the middle of the current one, so that other threads need
// not wait for it; reading and writing nodes is the caller's business (atomics
// in the node types).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

namespace hexengine {

// The index no node has: "none", "not allocated", "budget spent".
inline constexpr uint32_t kNoNode = 0xffffffffu;

// A bounded, chunked pool of `Node`s and their `Columns` (distinct types)
// addressed by 32-bit indices.
template <class Node, class... Columns>
class Arena {
 public:
  static constexpr uint32_t kChunkBits = 16;
  static constexpr uint32_t kChunk = 1u << kChunkBits;

  // Whether each column, in the order of `Columns`, is allocated.
  using ColumnsUsed = std::array<bool, sizeof...(Columns)>;

  explicit Arena(uint64_t max_nodes, ColumnsUsed used = all_used())
      : max_(max_nodes), used_columns_(used), chunks_(max_nodes / (kChunk - 512) + 2) {}

  // The node at index `i` (which `allocate` returned).
  Node& operator[](uint32_t i) { return chunks_[i >> kChunkBits].nodes[i & (kChunk - 1)]; }
  // Node `i`'s entry in the column of type T.
  template <class T>
  T& get(uint32_t i) {
    return std::get<std::unique_ptr<T[]>>(chunks_[i >> kChunkBits].columns)[i & (kChunk - 1)];
  }

  // The `count` contiguous nodes from index `first` (one `allocate` call's
  // block, or part of it), as a pointer range: a block never spans chunks.
  Node* begin_of(uint32_t first) { return chunks_[first >> kChunkBits].nodes.get() + (first & (kChunk - 1)); }
  // Their entries in the column of type T, likewise.
  template <class T>
  T* begin_of(uint32_t first) {
    return std::get<std::unique_ptr<T[]>>(chunks_[first >> kChunkBits].columns).get() + (first & (kChunk - 1));
  }

  // Allocates `count` contiguous nodes, or returns kNoNode once the budget is spent.
  uint32_t allocate(uint32_t count) {
    if (full_.load(std::memory_order_relaxed)) return kNoNode;
    std::unique_lock<std::mutex> lock(mutex_);
    if (used_ + count > max_) {
      full_.store(true, std::memory_order_relaxed);
      return kNoNode;
    }
    if (current_ < 0 || offset_ + count > kChunk) {
      if (current_ + 1 >= static_cast<int64_t>(chunks_.size())) {
        full_.store(true, std::memory_order_relaxed);
        return kNoNode;
      }
      ++current_;
      chunks_[current_] = spare_.nodes ? std::move(spare_) : make_chunk();
      offset_ = 0;
    }
    const uint32_t index = static_cast<uint32_t>(current_) * kChunk + offset_;
    offset_ += count;
    used_ += count;
    const bool make_spare = offset_ > kChunk / 2 && !spare_.nodes && !making_spare_ &&
                            current_ + 1 < static_cast<int64_t>(chunks_.size()) && used_ < max_;
    if (make_spare) {
      making_spare_ = true;
      lock.unlock();
      Chunk spare = make_chunk();
      lock.lock();
      spare_ = std::move(spare);
      making_spare_ = false;
    }
    return index;
  }

  // Nodes handed out so far.
  uint64_t used() const { return used_; }

 private:
  struct Chunk {
    std::unique_ptr<Node[]> nodes;
    std::tuple<std::unique_ptr<Columns[]>...> columns;
  };
  static constexpr ColumnsUsed all_used() {
    ColumnsUsed used{};
    used.fill(true);
    return used;
  }
  // A chunk of zeroed nodes and columns (those in use).
  Chunk make_chunk() const { return make_chunk(std::index_sequence_for<Columns...>{}); }
  template <size_t... I>
  Chunk make_chunk(std::index_sequence<I...>) const {
    return {std::make_unique<Node[]>(kChunk),
            {(used_columns_[I] ? std::make_unique<Columns[]>(kChunk) : std::unique_ptr<Columns[]>())...}};
  }

  uint64_t max_;
  ColumnsUsed used_columns_;
  std::vector<Chunk> chunks_;
  std::mutex mutex_;
  std::atomic<bool> full_{false};
  int64_t current_ = -1;
  uint32_t offset_ = 0;
  uint64_t used_ = 0;
  // The next chunk once made, and whether a thread is making it.
  Chunk spare_;
  bool making_spare_ = false;
};

}  // namespace hexengine
