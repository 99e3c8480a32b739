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
                                const ClassifyPrecisionPassOptions &classify,
                                bool optimizeCasts) {
  pm.addPass(createClassifyPrecisionPass(classify));
  pm.addPass(createInsertCastsPass());
  if (optimizeCasts)
    pm.addPass(createOptimizeCastsPass());
}

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
  buildAmpPipeline(pm, classify, options.optimizeCasts);
}

void mlir::mp::buildTrainPipeline(OpPassManager &pm,
                                  const TrainPipelineConfig &config) {
  pm.addPass(createVerifyTrainingContractPass());
  if (config.classify.policy != "none")
    buildAmpPipeline(pm, config.classify, /*optimizeCasts=*/true);
  LossScalingPassOptions scaling = config.scaling;
  scaling.policy = config.classify.policy;
  pm.addPass(createLossScalingPass(scaling));
  pm.addPass(createMakeTrainStepPass(config.step));
  if (config.step.accumulate > 1) {
    // Inline the gradient function into the micro-batch loop so the casts of
    // the fp32 master weights leave the loop: made once per step.
    pm.addPass(createInlinerPass());
    pm.addNestedPass<func::FuncOp>(createLoopInvariantCodeMotionPass());
  }
}

void mlir::mp::buildTrainPipeline(OpPassManager &pm,
                                  const TrainPipelineOptions &options) {
  TrainPipelineConfig config;
  config.classify.policy = options.policy;
  config.classify.level = options.level;
  config.classify.summary = options.summary;
  LossScalingPassOptions &scaling = config.scaling;
  scaling.mode = options.lossScale;
  scaling.staticScale = options.staticScale;
  scaling.initScale = options.initScale;
  scaling.growthFactor = options.growthFactor;
  scaling.backoffFactor = options.backoffFactor;
  scaling.growthInterval = options.growthInterval;
  scaling.hysteresis = options.hysteresis;
  scaling.minScale = options.minScale;
  scaling.maxScale = options.maxScale;
  MakeTrainStepPassOptions &step = config.step;
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
  step.dataParallel = options.dataParallel;
  step.allreduceType = options.allreduceType;
  buildTrainPipeline(pm, config);
}

void mlir::mp::registerMPPipelines() {
  auto noChecks = [](const auto &, PipelineErrorHandler) { return success(); };
  registerModulePipeline<AmpPipelineOptions>(
      "mp-amp-pipeline",
      "Automatic mixed precision: classify, insert casts, optimize casts",
      noChecks, [](OpPassManager &pm, const AmpPipelineOptions &options) {
        buildAmpPipeline(pm, options);
      });
  registerModulePipeline<TrainPipelineOptions>(
      "mp-train-pipeline",
      "Gradient function to mixed-precision training step: AMP, loss "
      "scaling, optimizer",
      noChecks, [](OpPassManager &pm, const TrainPipelineOptions &options) {
        buildTrainPipeline(pm, options);
      });
}
