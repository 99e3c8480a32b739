//===- Trainer.h - The training loop of mp-run and mp-exec ------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Trains a compiled training step (an entry NAME_step and its gradient
// function NAME, as mp-train-pipeline makes them) on a data set through the
// runtime. No MLIR or LLVM dependency: functions return an error message,
// empty on success.
//
//===----------------------------------------------------------------------===//

#ifndef MP_RUNTIME_RUNNER_TRAINER_H
#define MP_RUNTIME_RUNNER_TRAINER_H

#include "Dataset.h"
#include "mp/Runtime/mp_runtime.h"

#include <csignal>
#include <string>
#include <vector>

namespace mp_runner {

struct TrainOptions {
  std::string label; // "fp32", "fp16"... in messages
  unsigned epochs = 1;
  unsigned seed = 0;
  int64_t batch = 0;        // 0: the graph's batch size
  int64_t maxSteps = 0;     // 0: whole epochs
  int64_t testLimit = 0;    // 0: the whole test split
  std::string initDir;      // argN.npy per parameter argument N
  std::string logFile;      // CSV
  std::string saveParams;   // argN.npy per parameter argument N, at the end
  std::string saveState;    // checkpoints (Checkpoint.h): every saveEvery
  int64_t saveEvery = 0;    // steps (0: only) at the end
  std::string resume;       // a checkpoint directory to continue from
  bool inFileOrder = false; // batches in file order, not shuffled
  float lossWeight = 1.0f;  // the gradient seed: gradients of weight * loss
  std::vector<int64_t> injectOverflow; // 1-based steps seeded with +inf
  int64_t injectRank = -1;             // the rank that injects (-1: all)
  /// Data parallel (mp_world_init): each rank trains on its shard of every
  /// global batch of worldSize x the graph's batch; rank 0 alone prints,
  /// evaluates, logs and writes files.
  int32_t rank = 0, worldSize = 1;
  int64_t interruptAtStep = 0;         // tests: raise SIGINT after this step
};

struct TrainSummary {
  double accuracy = -1; // last evaluation, in [0, 1]; < 0 if none
  double lastLoss = 0, seconds = 0;
  double scale = 0; // 0 without loss scaling
  int64_t steps = 0, skipped = 0;
  bool interrupted = false; // stopped early by SIGINT or SIGTERM
  /// Data parallel: the ranks, whose parameters and state were found
  /// bit-identical at the end.
  int32_t ranks = 1;
  /// On the CUDA backend: its buffers' peak bytes and the bytes its pool
  /// holds (mp_cuda_memory); zeros on the CPU.
  size_t devicePeak = 0, deviceReserved = 0;
  /// On the CUDA backend, with steps queued behind each other: their device
  /// time (mp_cuda_queued_time), in all and per step; < 0 otherwise.
  double deviceMs = -1, deviceMsPerStep = -1;
  /// The bytes of parameters and state that the runtime copied out of each
  /// step's buffers (mp_entry_copied_bytes): 0 when the step updates them
  /// in place or hands over buffers of its own.
  uint64_t stateCopiedPerStep = 0;
};

/// Checks the options that do not depend on the module.
[[nodiscard]] std::string checkTrainOptions(const TrainOptions &options);

/// Set (by a signal handler) to stop training after the current step;
/// train() clears it when it starts.
extern volatile std::sig_atomic_t interruptRequested;

/// Makes the first SIGINT or SIGTERM set interruptRequested and a second
/// one kill the process (for programs without another handler).
void installInterruptHandler();

/// Trains `step` (whose gradient function is `grad`) on `data`; fills
/// `summary`. Progress goes to stderr.
[[nodiscard]] std::string train(mp_entry *step, mp_entry *grad,
                                const Dataset &data,
                                const TrainOptions &options,
                                TrainSummary &summary);

/// "fp16: 100 steps (1 skipped), final loss 0.5, loss scale 32768, 95.2
/// steps/s, test accuracy 80.00%".
std::string formatSummary(const TrainOptions &options,
                          const TrainSummary &summary);

} // namespace mp_runner

#endif // MP_RUNTIME_RUNNER_TRAINER_H
