// Probes of the machine, for the benchmarks' reports.
//
// Contract: cache_handoff_ns measures how long one cache line takes to pass
// between two cores: two threads, pinned to two different CPUs of the
// process's allowed set (on Linux; elsewhere left to the scheduler), take
// turns writing one atomic counter. Threads that share a search tree pay this
// on every count one of them writes and the other then reads or writes, so on
// a virtual machine whose host sometimes places the two vCPUs far apart, the
// figure tells a two-thread measurement taken in such a placement from one
// taken in the usual one. The probe only reads the clock and its own counter.
#pragma once

#include <cstdint>

namespace hexengine {

// The time, in nanoseconds, one hand-off takes (one thread's write seen by
// the other): the median over 15 cache lines, on pages spread through 64 MB of
// fresh heap memory, of `handoffs` hand-offs each. It stops after about a
// second (when other work keeps the CPUs busy) with the lines measured by then.
// ConfigError unless 1 <= handoffs <= 10^8, or when the process may run on
// fewer than two CPUs (the two threads would take turns on one, not measure
// anything).
double cache_handoff_ns(int64_t handoffs);

}  // namespace hexengine
