// batch/ordered_pool: N worker threads run a function on tasks submitted in order; results come
// back in the same order. At most `window` tasks are in flight (submitted, not yet popped), so
// memory is bounded whatever the number of tasks: the caller submits while !full() and pops
// otherwise. Each call gets its worker's index, for per-thread scratch. One thread submits and
// pops; the function must not throw (catch inside it and return an error result).
//
// pop(batch) lets the popping thread sleep until several results are ready instead of waking
// for each one: a thread wake-up (futex wake, context switch) costs tens of microseconds on a
// virtual machine, which for documents of a few dozen KB was about a tenth of the CPU time.
#pragma once

#include <algorithm>
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

  // The next result in submission order; blocks until it is ready. When it has to wait, it
  // waits until `batch` results are ready (all those in flight, if fewer), so that the next
  // pops do not block: one wake-up for several results. Requires !empty().
  Result pop(std::size_t batch = 1) {
    std::unique_lock<std::mutex> lock(mutex_);
    Slot& s = slots_[popped_ % slots_.size()];
    if (!s.result.has_value()) {
      wait_for_ = std::max<std::uint64_t>(1, std::min<std::uint64_t>(batch, submitted_ - popped_));
      done_cv_.wait(lock, [&] { return satisfied(); });
      wait_for_ = 0;
    }
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
      ++finished_;
      if (wait_for_ != 0 && satisfied()) done_cv_.notify_all();
    }
  }

  // With mutex_ held: what pop() waits for (the next result, and wait_for_ results ready).
  bool satisfied() const {
    return slots_[popped_ % slots_.size()].result.has_value() && finished_ - popped_ >= wait_for_;
  }

  Fn fn_;
  std::vector<Slot> slots_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  std::uint64_t submitted_ = 0, taken_ = 0, popped_ = 0;
  std::uint64_t finished_ = 0;  // results set (finished_ - popped_ are ready, not yet popped)
  std::uint64_t wait_for_ = 0;  // pop() is waiting for this many ready results (0: not waiting)
  bool stop_ = false;
};

}  // namespace lexlink::batch
