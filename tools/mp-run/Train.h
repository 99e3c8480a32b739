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

#include "Graph.h"
#include "mp/Pipelines/Pipelines.h"
#include "mp/Runtime/mp_runtime.h"
#include "runner/Trainer.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mp_run {

/// How the compiled step is run (mp-run's flags bind to these fields).
struct TrainCommand {
  std::string file;
  std::string entry; // the gradient function; empty: the only one
  std::string dataset;
  /// The passes' options; `pipeline.classify.policy` is the AMP policy
  /// ("none": fp32).
  mlir::mp::TrainPipelineConfig pipeline;
  CompileOptions compile;
  mp_runner::TrainOptions run;
};

/// mp-run --train: builds and compiles the training step of `command.file`
/// and trains it (mp_runner::train), printing the summary line.
llvm::Error runTraining(mlir::MLIRContext &context,
                        const TrainCommand &command);

} // namespace mp_run

#endif // MP_TOOLS_MPRUN_TRAIN_H
