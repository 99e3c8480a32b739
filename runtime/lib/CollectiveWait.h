//===- CollectiveWait.h - How a rank waits for its peers --------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_RUNTIME_COLLECTIVEWAIT_H
#define MP_RUNTIME_COLLECTIVEWAIT_H

#include <chrono>
#include <cstdio>
#include <sched.h>
#include <string>
#include <thread>

namespace mp_runtime {

/// How a rank waits for a collective: polls without pause at first,
/// yielding the core between polls (ranks may share cores), and sleeps 200 us
/// between polls once the wait exceeds 10 ms (rank 0 evaluating).
class CollectiveWait {
public:
  explicit CollectiveWait(double timeout)
      : start(std::chrono::steady_clock::now()),
        deadline(
            start +
            std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                std::chrono::duration<double>(timeout))) {}
  /// Pauses before the next poll; false once the deadline has passed.
  bool pause() {
    auto now = std::chrono::steady_clock::now();
    if (now > deadline)
      return false;
    if (now - start > std::chrono::milliseconds(10))
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    else if (++polls > 100)
      sched_yield();
    return true;
  }
  /// Why a wait ended at its deadline.
  static std::string timedOut(double timeout) {
    char text[160];
    std::snprintf(text, sizeof(text),
                  "no answer from every rank within %g s "
                  "($MP_COLLECTIVE_TIMEOUT); did a rank stop?",
                  timeout);
    return text;
  }

private:
  std::chrono::steady_clock::time_point start, deadline;
  int polls = 0;
};

} // namespace mp_runtime

#endif // MP_RUNTIME_COLLECTIVEWAIT_H
