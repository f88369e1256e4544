#include "search/worker_pool.h"

#include <chrono>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define HEXENGINE_PAUSE() _mm_pause()
#else
#define HEXENGINE_PAUSE() std::this_thread::yield()
#endif

namespace hexengine {

namespace {

// Spins until `done()` holds or `micros` have passed; returns whether it held.
template <class F>
bool spin_until(F&& done, int micros) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(micros);
  for (int i = 0;; ++i) {
    if (done()) return true;
    HEXENGINE_PAUSE();
    if ((i & 63) == 63 && std::chrono::steady_clock::now() > end) return done();
  }
}

}  // namespace

WorkerPool::WorkerPool(int threads) {
  for (int t = 1; t < threads; ++t) helpers_.emplace_back([this] { serve(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : helpers_) t.join();
}

void WorkerPool::drain(Job& job) {
  for (int k; (k = job.next.fetch_add(1)) < job.parts;) {
    try {
      (*job.work)(k);
    } catch (...) {
      std::lock_guard<std::mutex> lock(job.error_mutex);
      if (!job.error) job.error = std::current_exception();
    }
    job.finished.fetch_add(1);
  }
}

void WorkerPool::serve() {
  unsigned seen = 0;
  for (;;) {
    if (!spin_until([&] { return generation_.load() != seen; }, kSpinMicroseconds)) {
      std::unique_lock<std::mutex> lock(mutex_);
      ++sleeping_;
      wake_.wait(lock, [&] { return stopping_ || generation_.load() != seen; });
      --sleeping_;
      if (stopping_) return;
    }
    seen = generation_.load();
    // Announce the hold before looking at the job, so that the caller, which
    // clears job_ and then waits for no holder, never frees a job in use.
    holding_.fetch_add(1);
    if (Job* job = job_.load()) drain(*job);
    holding_.fetch_sub(1);
  }
}

void WorkerPool::run(int parts, const std::function<void(int)>& work) {
  if (parts <= 0) return;
  if (helpers_.empty() || parts == 1) {
    for (int k = 0; k < parts; ++k) work(k);
    return;
  }
  Job job;
  job.work = &work;
  job.parts = parts;
  job_.store(&job);
  generation_.fetch_add(1);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sleeping_ > 0) wake_.notify_all();
  }
  drain(job);
  auto all_done = [&] { return job.finished.load() == parts; };
  while (!spin_until(all_done, 1000)) std::this_thread::yield();
  job_.store(nullptr);
  while (holding_.load() != 0) HEXENGINE_PAUSE();
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace hexengine
