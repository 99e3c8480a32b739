//===- Pipelines.cpp - mp pass pipelines ------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Pipelines/Pipelines.h"
#include "mp/Dialect/MP/Transforms/Passes.h"
#include "mp/Utils/PipelineRegistration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::mp;

void mlir::mp::buildAmpPipeline(OpPassManager &pm,
                                const AmpPipelineOptions &options) {
  ClassifyPrecisionPassOptions classify;
  classify.policy = options.policy;
  classify.level = options.level;
  classify.summary = options.summary;
  classify.lowPrecisionAccumulation = options.lowPrecisionAccumulation;
  classify.lowPrecisionBoundaries = options.lowPrecisionBoundaries;
  classify.remarks = options.remarks;
  classify.reportFile = options.report;
  classify.dotFile = options.dot;
  pm.addPass(createClassifyPrecisionPass(classify));
  pm.addPass(createInsertCastsPass());
  if (options.optimizeCasts)
    pm.addPass(createOptimizeCastsPass());
}

void mlir::mp::buildTrainPipeline(OpPassManager &pm,
                                  const TrainPipelineOptions &options) {
  pm.addPass(createVerifyTrainingContractPass());
  if (options.policy != "none") {
    AmpPipelineOptions amp;
    amp.policy = options.policy;
    amp.level = options.level;
    amp.summary = options.summary;
    buildAmpPipeline(pm, amp);
  }
  LossScalingPassOptions scaling;
  scaling.mode = options.lossScale;
  scaling.policy = options.policy;
  scaling.staticScale = options.staticScale;
  scaling.initScale = options.initScale;
  scaling.growthFactor = options.growthFactor;
  scaling.backoffFactor = options.backoffFactor;
  scaling.growthInterval = options.growthInterval;
  scaling.hysteresis = options.hysteresis;
  scaling.minScale = options.minScale;
  scaling.maxScale = options.maxScale;
  pm.addPass(createLossScalingPass(scaling));
  MakeTrainStepPassOptions step;
  step.optimizer = options.optimizer;
  step.lr = options.lr;
  step.momentum = options.momentum;
  step.nesterov = options.nesterov;
  step.beta1 = options.beta1;
  step.beta2 = options.beta2;
  step.eps = options.eps;
  step.weightDecay = options.weightDecay;
  step.clipNorm = options.clipNorm;
  step.accumulate = options.accumulate;
  pm.addPass(createMakeTrainStepPass(step));
  if (options.accumulate > 1) {
    // Inline the gradient function into the micro-batch loop so the casts of
    // the fp32 master weights leave the loop: made once per step.
    pm.addPass(createInlinerPass());
    pm.addNestedPass<func::FuncOp>(createLoopInvariantCodeMotionPass());
  }
}

void mlir::mp::registerMPPipelines() {
  auto noChecks = [](const auto &, PipelineErrorHandler) { return success(); };
  registerModulePipeline<AmpPipelineOptions>(
      "mp-amp-pipeline",
      "Automatic mixed precision: classify, insert casts, optimize casts",
      noChecks, buildAmpPipeline);
  registerModulePipeline<TrainPipelineOptions>(
      "mp-train-pipeline",
      "Gradient function to mixed-precision training step: AMP, loss "
      "scaling, optimizer",
      noChecks, buildTrainPipeline);
}
