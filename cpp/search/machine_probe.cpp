#include "search/machine_probe.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.h"

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace hexengine {

namespace {

// The CPUs this process may run on (Linux), or an empty list when unknown.
std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
    }
  }
#endif
  return cpus;
}

// Pins the calling thread to `cpu` when the platform allows (best effort).
void pin_to(int cpu) {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
#else
  (void)cpu;
#endif
}

// What the measuring thread stores to release the other before its last turn.
constexpr uint64_t kDone = ~uint64_t{0};

// Spins until `x` holds `want`; false if it holds kDone instead.
bool wait_for(const std::atomic<uint64_t>& x, uint64_t want) {
  for (;;) {
    const uint64_t v = x.load(std::memory_order_acquire);
    if (v == want) return true;
    if (v == kDone) return false;
  }
}

}  // namespace

double cache_handoff_ns(int64_t handoffs) {
  if (handoffs < 1 || handoffs > 100'000'000) {
    throw ConfigError("the number of hand-offs must be from 1 to 100000000, not " + std::to_string(handoffs));
  }
  const uint64_t rounds = static_cast<uint64_t>(handoffs);
  const std::vector<int> cpus = allowed_cpus();
  const unsigned hardware = std::thread::hardware_concurrency();
  if ((!cpus.empty() && cpus.size() < 2) || (cpus.empty() && hardware < 2)) {
    throw ConfigError("the cache hand-off probe needs two CPUs; this process may run on one");
  }
  // Fresh heap memory, as a search tree's counts are: on a virtual machine
  // the time a line takes depends on where the host keeps its page, so the
  // probe takes the median over lines of kLines pages spread through it.
  constexpr size_t kSpan = 64u << 20, kLines = 15;
  std::vector<std::atomic<uint64_t>> memory(kSpan / sizeof(std::atomic<uint64_t>));
  std::vector<double> times;
  // On a busy machine the threads wait for their CPUs between turns; the
  // probe then stops after about a second with what it has measured.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  for (size_t line = 0; line < kLines; ++line) {
    std::atomic<uint64_t>& turn = memory[(line * kSpan / kLines + 4096 * line) / sizeof(uint64_t)];
    turn.store(0);
    // The other thread answers each odd value with the next even one.
    std::thread other([&] {
      if (!cpus.empty()) pin_to(cpus[1]);
      for (uint64_t i = 0; i < rounds; ++i) {
        if (!wait_for(turn, 2 * i + 1)) return;
        turn.store(2 * i + 2, std::memory_order_release);
      }
    });
    bool late = false;
    // The measuring side is a thread of its own too, so that pinning it
    // leaves the caller's thread free to run anywhere afterwards.
    std::thread self([&] {
      if (!cpus.empty()) pin_to(cpus[0]);
      const auto start = std::chrono::steady_clock::now();
      uint64_t done = 0;
      while (done < rounds) {
        turn.store(2 * done + 1, std::memory_order_release);
        wait_for(turn, 2 * done + 2);
        ++done;
        if ((done & 63) == 0 && std::chrono::steady_clock::now() > deadline) {
          late = true;
          break;
        }
      }
      const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
      turn.store(kDone, std::memory_order_release);
      times.push_back(ns / (2.0 * static_cast<double>(done)));
    });
    self.join();
    other.join();
    if (late) break;
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace hexengine
