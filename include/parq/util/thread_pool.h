// A fixed set of worker threads, the one thread mechanism of reads and
// writes: data-parallel loops (parallel_for hands out indexes dynamically,
// so uneven columns balance themselves) and posted tasks (a read's decoding
// runs ahead of its caller on them).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace parq {

class ThreadPool {
 public:
  // `threads` workers in all, the calling thread included (so 1 runs inline).
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls fn(i) for every i in [0, n), spread over the workers and the
  // caller; returns when all are done, rethrowing the first exception.
  void parallel_for(size_t n, const std::function<void(size_t)>& fn);

  // Runs `task` on a worker when one is free, in posting order. The task
  // must not throw; tasks still queued when the pool is destroyed run on
  // the destroying thread, so whatever a task refers to must outlive the
  // pool or wait for the task. Without workers the caller runs it at once.
  void post(std::function<void()> task);

 private:
  void work();
  void run_items();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(size_t)>* job_ = nullptr;
  size_t next_ = 0, count_ = 0, finished_ = 0;
  unsigned generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
  std::deque<std::function<void()>> posted_;
};

}  // namespace parq
