// batch/ordered_pool: N worker threads run a function on tasks submitted in order; results come
// back in the same order. At most `window` tasks are in flight (submitted, not yet popped), so
// memory is bounded whatever the number of tasks: the caller submits while !full() and pops
// otherwise. Each call gets its worker's index, for per-thread scratch. One thread submits and
// pops; the function must not throw (catch inside it and return an error result).
//
// pop(batch) lets the popping thread sleep until several results are ready instead of waking
// for each one: a thread wake-up (futex wake, context switch) costs tens of microseconds on a
// virtual machine, which for documents of a few dozen KB was about a tenth of the CPU time.
//
// A `queue` smaller than the window bounds the tasks submitted and not yet started instead:
// results finished behind a long task at the head wait for it (up to the window) while the
// workers go on with the next tasks. wait(batch, true) then also returns when the workers run
// low on tasks, for the caller to submit more. Memory follows what is in flight: the window is
// a bound, not an allocation. set_budget() bounds the waiting results by weight too (the bytes
// they hold), for results whose size varies.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
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

  // `queue` 0: the window (every task in flight may be waiting to start).
  OrderedPool(std::size_t jobs, std::size_t window, Fn fn, std::size_t queue = 0)
      : fn_(std::move(fn)),
        window_(window < 1 ? 1 : window),
        queue_(queue == 0 ? window_ : std::min(queue, window_)) {
    if (jobs < 1) jobs = 1;
    low_ = std::min<std::size_t>(jobs, queue_ - 1);
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

  // The pool is also full while the finished results not yet popped weigh `budget` or more,
  // each weighing weight(result). Before the first submit.
  void set_budget(std::function<std::size_t(const Result&)> weight, std::size_t budget) {
    weight_ = std::move(weight);
    budget_ = budget;
  }

  std::size_t jobs() const { return workers_.size(); }
  bool full() {
    if (submitted_ - popped_ >= window_) return true;
    std::lock_guard<std::mutex> lock(mutex_);
    return submitted_ - taken_ >= queue_ || waiting_weight_ >= budget_;
  }
  bool empty() const { return submitted_ == popped_; }

  // Requires !full().
  void submit(Task task) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      slots_.emplace_back();
      slots_.back().task.emplace(std::move(task));
      ++submitted_;
    }
    work_cv_.notify_one();
  }

  // True when pop() would not block.
  bool ready() {
    std::lock_guard<std::mutex> lock(mutex_);
    return popped_ < submitted_ && slots_.front().result.has_value();
  }

  // Blocks until the next result is ready and returns true. When it has to wait, it waits
  // until `batch` results are ready (all those in flight, if fewer), so that the next pops do
  // not block: one wake-up for several results. With `want_tasks`, it returns false instead as
  // soon as the workers run low on tasks (no more than one each waiting) and the window has
  // room: the caller submits more. Requires !empty().
  bool wait(std::size_t batch, bool want_tasks) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (slots_.front().result.has_value()) return true;
    wait_for_ = std::max<std::uint64_t>(1, std::min<std::uint64_t>(batch, submitted_ - popped_));
    want_tasks_ = want_tasks;
    done_cv_.wait(lock, [&] { return satisfied() || (want_tasks_ && hungry()); });
    wait_for_ = 0;
    want_tasks_ = false;
    return slots_.front().result.has_value();
  }

  // The next result in submission order; blocks until it is ready (as wait(batch, false)).
  // Requires !empty().
  Result pop(std::size_t batch = 1) {
    wait(batch, false);
    std::lock_guard<std::mutex> lock(mutex_);
    if (weight_) waiting_weight_ -= weight_(*slots_.front().result);
    Result r = std::move(*slots_.front().result);
    slots_.pop_front();
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
      Task task = std::move(*slots_[seq - popped_].task);
      slots_[seq - popped_].task.reset();
      if (want_tasks_ && hungry()) done_cv_.notify_all();
      lock.unlock();
      Result r = fn_(task, index);
      lock.lock();
      // The slots before it may have been popped meanwhile: index from popped_ now.
      if (weight_) waiting_weight_ += weight_(r);
      slots_[seq - popped_].result.emplace(std::move(r));
      ++finished_;
      if (wait_for_ != 0 && satisfied()) done_cv_.notify_all();
    }
  }

  // With mutex_ held: what pop() waits for (the next result, and wait_for_ results ready).
  bool satisfied() const {
    return slots_.front().result.has_value() && finished_ - popped_ >= wait_for_;
  }
  // With mutex_ held: the workers have at most one task each left to start (fewer than the
  // queue: the caller can submit), and the window has room for more.
  bool hungry() const {
    return submitted_ - taken_ <= low_ && submitted_ - popped_ < window_ &&
           waiting_weight_ < budget_;
  }

  Fn fn_;
  std::size_t window_, queue_;
  std::size_t low_;         // hungry() at this many tasks left to start, or fewer
  std::deque<Slot> slots_;  // the tasks in flight, from the next to pop (popped_)
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  std::uint64_t submitted_ = 0, taken_ = 0, popped_ = 0;
  std::uint64_t finished_ = 0;  // results set (finished_ - popped_ are ready, not yet popped)
  std::uint64_t wait_for_ = 0;  // pop() is waiting for this many ready results (0: not waiting)
  bool want_tasks_ = false;     // ... or for the workers to run low on tasks
  std::function<std::size_t(const Result&)> weight_;  // set_budget()
  std::size_t budget_ = SIZE_MAX;
  std::size_t waiting_weight_ = 0;  // of the results set and not yet popped
  bool stop_ = false;
};

}  // namespace lexlink::batch
