// ThreadPool; see util/thread_pool.h.
#include "parq/util/thread_pool.h"

namespace parq {

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
  for (auto& task : posted_) task();
}

void ThreadPool::run_items() {
  for (;;) {
    size_t i;
    const std::function<void(size_t)>* job;
    {
      std::lock_guard lock(mutex_);
      if (next_ >= count_) return;
      i = next_++;
      job = job_;
    }
    try {
      (*job)(i);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    if (++finished_ == count_) done_.notify_all();
  }
}

void ThreadPool::work() {
  unsigned seen = 0;
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen || !posted_.empty(); });
      if (stop_) return;
      if (generation_ == seen) {
        task = std::move(posted_.front());
        posted_.pop_front();
      } else {
        seen = generation_;
      }
    }
    if (task) {
      task();
    } else {
      run_items();
    }
  }
}

void ThreadPool::post(std::function<void()> task) {
  if (workers_.empty()) return task();
  {
    std::lock_guard lock(mutex_);
    posted_.push_back(std::move(task));
  }
  wake_.notify_one();
}

void ThreadPool::parallel_for(size_t n, const std::function<void(size_t)>& fn) {
  if (n == 0) return;
  if (workers_.empty()) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    job_ = &fn;
    next_ = 0;
    count_ = n;
    finished_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  run_items();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return finished_ == count_; });
  job_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

}  // namespace parq
