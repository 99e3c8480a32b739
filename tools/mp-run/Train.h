//===- Train.h - The training loop of mp-run --------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Runs a compiled training step (mp-make-train-step) over a data set with the
// runtime's mp_trainer, which threads parameters and state by their roles.
// Needs no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_TOOLS_MPRUN_TRAIN_H
#define MP_TOOLS_MPRUN_TRAIN_H

#include "Dataset.h"
#include "mp/Runtime/mp_runtime.h"

#include <set>
#include <string>

namespace mp_run {

struct TrainOptions {
  std::string label; // "fp32", "fp16"... in messages
  unsigned epochs = 1;
  unsigned seed = 0;
  int64_t batch = 0;       // 0: the graph's batch size
  int64_t maxSteps = 0;    // 0: whole epochs
  int64_t testLimit = 0;   // 0: the whole test split
  std::string initDir;     // argN.npy per parameter argument N
  std::string logFile;     // CSV
  std::string saveParams;  // argN.npy per parameter argument N, at the end
  bool shuffle = true;     // false: batches in file order
  float lossWeight = 1.0f; // the gradient seed: gradients of weight * loss
  std::set<int64_t> injectOverflow; // 1-based steps seeded with +inf
};

struct TrainSummary {
  double accuracy = -1; // last evaluation, in [0, 1]; < 0 if none
  double lastLoss = 0, seconds = 0;
  double scale = 0; // 0 without loss scaling
  int64_t steps = 0, skipped = 0;
};

/// Trains with `step` (a training step entry) and evaluates with `grad` (the
/// gradient function it calls, whose first mp.output are the logits).
/// Returns false and sets `error` on failure.
bool train(mp_entry *step, mp_entry *grad, const Dataset &data,
           const TrainOptions &options, TrainSummary &summary,
           std::string &error);

} // namespace mp_run

#endif // MP_TOOLS_MPRUN_TRAIN_H
