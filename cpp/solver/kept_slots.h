// Work the solver keeps for reuse (H-search builds, the children of
// expansions): a fixed number of slots chosen by a hash, within a byte budget.
// Storing replaces what the slot held, and leaves the slot empty when the
// new entry would take the slots past the budget. Internal to the solver.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace hexengine::solver {

// Items of type T kept under keys of type Key (compared with ==).
template <class Key, class T>
class KeptSlots {
 public:
  // Up to `most` slots (a power of two), taking at most half of `budget` bytes.
  KeptSlots(uint64_t most, uint64_t budget) : most_(most), budget_(budget) {}

  // The items kept under `key` in the slot of `hash`, or null.
  const std::vector<T>* find(uint64_t hash, const Key& key) const {
    if (slots_.empty()) return nullptr;
    const Slot& s = slots_[hash & (slots_.size() - 1)];
    return s.used && s.key == key ? &s.items : nullptr;
  }

  // Empties the slot of `hash`; when `count` more items fit in the budget,
  // gives the slot to `key` and returns its items to fill (room for `count`).
  std::vector<T>* store(uint64_t hash, const Key& key, size_t count) {
    if (slots_.empty()) slots_.resize(std::bit_floor(std::clamp<uint64_t>(budget_ / 2 / sizeof(Slot), 1, most_)));
    Slot& s = slots_[hash & (slots_.size() - 1)];
    bytes_ -= s.items.capacity() * sizeof(T);
    std::vector<T>().swap(s.items);
    s.used = false;
    if (slots_.size() * sizeof(Slot) + bytes_ + count * sizeof(T) > budget_) return nullptr;
    s.items.reserve(count);
    bytes_ += s.items.capacity() * sizeof(T);
    s.used = true;
    s.key = key;
    return &s.items;
  }

  // Bytes held by the slots and their items.
  uint64_t memory() const { return slots_.capacity() * sizeof(Slot) + bytes_; }

 private:
  struct Slot {
    bool used = false;
    Key key{};
    std::vector<T> items;
  };
  uint64_t most_, budget_;
  std::vector<Slot> slots_;
  uint64_t bytes_ = 0;  // held by the slots' items
};

}  // namespace hexengine::solver
