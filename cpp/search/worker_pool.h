// A fixed set of threads that run the parts of one job at a time.
//
// Contract: `run(parts, work)` calls work(k) once for each k in [0, parts),
// spread over the pool's threads and the calling thread, and returns when all
// calls have returned; the first exception a call throws is rethrown to the
// caller after the others finish. One job at a time: `run` is not reentrant
// and a pool is used by one caller thread at a time. Jobs come in quick
// succession (a batch of games is stepped every few hundred microseconds), so
// between jobs the threads spin for a short while (kSpinMicroseconds) before
// they sleep: waking a sleeping thread can take longer than a whole job.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hexengine {

// Threads that share the parts of a job with the caller.
class WorkerPool {
 public:
  // How long an idle thread spins for the next job before it sleeps.
  static constexpr int kSpinMicroseconds = 200;

  // A pool of `threads` workers in all, the caller being one of them.
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Workers, the caller included.
  int size() const { return static_cast<int>(helpers_.size()) + 1; }
  // Calls work(k) for every k in [0, parts) and waits for all of them.
  void run(int parts, const std::function<void(int)>& work);

 private:
  // One job: its parts, the next part to take, the parts done, its first error.
  struct Job {
    const std::function<void(int)>* work;
    int parts;
    std::atomic<int> next{0};
    std::atomic<int> finished{0};
    std::mutex error_mutex;
    std::exception_ptr error;
  };

  // Takes parts of `job` until none is left.
  static void drain(Job& job);
  // A helper thread's loop: wait for a job (spinning, then sleeping), help, repeat.
  void serve();

  std::vector<std::thread> helpers_;
  // The job under way (null between jobs), and a count that changes with each job.
  std::atomic<Job*> job_{nullptr};
  std::atomic<unsigned> generation_{0};
  // Helpers between taking job_ and letting go of it; the caller waits for none.
  std::atomic<int> holding_{0};
  // Sleeping helpers wait on wake_ under mutex_.
  std::mutex mutex_;
  std::condition_variable wake_;
  int sleeping_ = 0;
  bool stopping_ = false;
};

}  // namespace hexengine
