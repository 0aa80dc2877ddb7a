// batch/ordered_pool: N worker threads run a function on tasks submitted in order; results come
// back in the same order. At most `window` tasks are in flight (submitted, not yet popped), so
// memory is bounded whatever the number of tasks: the caller submits while !full() and pops
// otherwise. Each call gets its worker's index, for per-thread scratch. One thread submits and
// pops; the function must not throw (catch inside it and return an error result).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace lexlink::batch {

template <class Task, class Result>
class OrderedPool {
 public:
  using Fn = std::function<Result(Task&, std::size_t worker)>;

  OrderedPool(std::size_t jobs, std::size_t window, Fn fn)
      : fn_(std::move(fn)), slots_(window < 1 ? 1 : window) {
    if (jobs < 1) jobs = 1;
    for (std::size_t i = 0; i < jobs; ++i) workers_.emplace_back([this, i] { work(i); });
  }
  ~OrderedPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    work_cv_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  OrderedPool(const OrderedPool&) = delete;
  OrderedPool& operator=(const OrderedPool&) = delete;

  std::size_t jobs() const { return workers_.size(); }
  bool full() const { return submitted_ - popped_ >= slots_.size(); }
  bool empty() const { return submitted_ == popped_; }

  // Requires !full().
  void submit(Task task) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      Slot& s = slots_[submitted_ % slots_.size()];
      s.task.emplace(std::move(task));
      s.result.reset();
      ++submitted_;
    }
    work_cv_.notify_one();
  }

  // True when pop() would not block.
  bool ready() {
    std::lock_guard<std::mutex> lock(mutex_);
    return popped_ < submitted_ && slots_[popped_ % slots_.size()].result.has_value();
  }

  // The next result in submission order; blocks until it is ready. Requires !empty().
  Result pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    Slot& s = slots_[popped_ % slots_.size()];
    done_cv_.wait(lock, [&] { return s.result.has_value(); });
    Result r = std::move(*s.result);
    s.result.reset();
    ++popped_;
    return r;
  }

 private:
  struct Slot {
    std::optional<Task> task;
    std::optional<Result> result;
  };

  void work(std::size_t index) {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      work_cv_.wait(lock, [&] { return stop_ || taken_ < submitted_; });
      if (stop_) return;
      const std::uint64_t seq = taken_++;
      Task task = std::move(*slots_[seq % slots_.size()].task);
      slots_[seq % slots_.size()].task.reset();
      lock.unlock();
      Result r = fn_(task, index);
      lock.lock();
      slots_[seq % slots_.size()].result.emplace(std::move(r));
      done_cv_.notify_all();
    }
  }

  Fn fn_;
  std::vector<Slot> slots_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  std::uint64_t submitted_ = 0, taken_ = 0, popped_ = 0;
  bool stop_ = false;
};

}  // namespace lexlink::batch
