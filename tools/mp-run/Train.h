//===- Train.h - mp-run --train ---------------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Builds a training step from a gradient function with mp-train-pipeline,
// compiles it, and runs it over a data set with the runtime's mp_trainer,
// which threads parameters and state by their roles.
//
//===----------------------------------------------------------------------===//

#ifndef MP_TOOLS_MPRUN_TRAIN_H
#define MP_TOOLS_MPRUN_TRAIN_H

#include "Dataset.h"
#include "Graph.h"
#include "mp/Pipelines/Pipelines.h"
#include "mp/Runtime/mp_runtime.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mp_run {

/// How the compiled step is run (mp-run's flags bind to these fields).
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
  bool inFileOrder = false; // batches in file order, not shuffled
  float lossWeight = 1.0f;  // the gradient seed: gradients of weight * loss
  std::vector<int64_t> injectOverflow; // 1-based steps seeded with +inf
  int64_t interruptAtStep = 0;         // tests: raise SIGINT after this step
};

struct TrainSummary {
  double accuracy = -1; // last evaluation, in [0, 1]; < 0 if none
  double lastLoss = 0, seconds = 0;
  double scale = 0; // 0 without loss scaling
  int64_t steps = 0, skipped = 0;
  bool interrupted = false; // stopped early by SIGINT or SIGTERM
};

/// mp-run --train FILE: what to build, how to compile it and how to run it.
struct TrainCommand {
  std::string file;
  std::string entry; // the gradient function; empty: the only one
  std::string dataset;
  /// The passes' options; `pipeline.classify.policy` is the AMP policy
  /// ("none": fp32).
  mlir::mp::TrainPipelineConfig pipeline;
  CompileOptions compile;
  TrainOptions run;
};

/// Trains with `step` (a training step entry) and evaluates with `grad` (the
/// gradient function it calls, whose first mp.output are the logits).
llvm::Expected<TrainSummary> train(mp_entry *step, mp_entry *grad,
                                   const Dataset &data,
                                   const TrainOptions &options);

/// Runs `command` and prints its summary line; after SIGINT or SIGTERM it
/// finishes the current step, writes --log and --save-params, prints the
/// summary and returns an InterruptedError.
llvm::Error runTraining(mlir::MLIRContext &context,
                        const TrainCommand &command);

} // namespace mp_run

#endif // MP_TOOLS_MPRUN_TRAIN_H
