//===- Pipelines.h - mp pass pipelines --------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The target-independent pipelines: mp-amp-pipeline and mp-train-pipeline.
// Their options are the knobs users set; every default comes from the pass
// that uses it (its TableGen definition). Users who need every knob compose
// the passes themselves with --pass-pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef MP_PIPELINES_PIPELINES_H
#define MP_PIPELINES_PIPELINES_H

#include "mp/Dialect/MP/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace mp {

/// The options of mp-classify-precision that both pipelines expose.
template <typename Derived>
struct PolicyPipelineOptions : public PassPipelineOptions<Derived> {
  using Base = mlir::detail::PassOptions;
  Base::Option<std::string> policy{
      *this, "policy",
      llvm::cl::desc("Precision policy: fp16, bf16, or a JSON/YAML file"),
      llvm::cl::init(ClassifyPrecisionPassOptions().policy)};
  Base::Option<PolicyLevel> level{
      *this, "level",
      llvm::cl::desc("The painting level (policy: the policy's own)"),
      llvm::cl::init(ClassifyPrecisionPassOptions().level),
      clEnumValues(symbolizePolicyLevel, getMaxEnumValForPolicyLevel())};
  Base::Option<bool> summary{
      *this, "summary", llvm::cl::desc("Print a summary table to stderr"),
      llvm::cl::init(ClassifyPrecisionPassOptions().summary)};
};

/// Options of mp-amp-pipeline: the policy and outputs of
/// mp-classify-precision, and whether to run mp-optimize-casts. List edits
/// (`allow-add=`...) belong in a policy file or on mp-classify-precision.
struct AmpPipelineOptions : public PolicyPipelineOptions<AmpPipelineOptions> {
  PassOptions::Option<bool> lowPrecisionAccumulation{
      *this, "low-precision-accumulation",
      llvm::cl::desc("Accumulate contractions in the low-precision type"),
      llvm::cl::init(ClassifyPrecisionPassOptions().lowPrecisionAccumulation)};
  PassOptions::Option<bool> lowPrecisionBoundaries{
      *this, "low-precision-boundaries",
      llvm::cl::desc("Let function arguments and results go low"),
      llvm::cl::init(ClassifyPrecisionPassOptions().lowPrecisionBoundaries)};
  PassOptions::Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Remark on each op left in its precision"),
      llvm::cl::init(ClassifyPrecisionPassOptions().remarks)};
  PassOptions::Option<std::string> report{
      *this, "report", llvm::cl::desc("Write the JSON report to this file"),
      llvm::cl::init(ClassifyPrecisionPassOptions().reportFile)};
  PassOptions::Option<std::string> dot{
      *this, "dot", llvm::cl::desc("Write the Graphviz view to this file"),
      llvm::cl::init(ClassifyPrecisionPassOptions().dotFile)};
  PassOptions::Option<bool> optimizeCasts{
      *this, "optimize-casts", llvm::cl::desc("Run mp-optimize-casts"),
      llvm::cl::init(true)};
};

/// classify -> insert casts -> optimize casts, on a module.
void buildAmpPipeline(OpPassManager &pm, const AmpPipelineOptions &options);
/// The same from the classifier's own options.
void buildAmpPipeline(OpPassManager &pm,
                      const ClassifyPrecisionPassOptions &classify,
                      bool optimizeCasts);

/// mp-train-pipeline in the passes' own option structs, for tools that bind
/// their flags to them (mp-run): defaults are the passes'.
struct TrainPipelineConfig {
  /// Unlike the pass alone, the pipeline lets the policy choose the loss
  /// scaling by default (dynamic for fp16, none for bf16 and fp32).
  TrainPipelineConfig() { scaling.mode = LossScaleMode::Auto; }

  /// The AMP rewrite; policy "none" skips it (training in fp32).
  ClassifyPrecisionPassOptions classify;
  /// Loss scaling; its `policy` is the classifier's.
  LossScalingPassOptions scaling;
  MakeTrainStepPassOptions step;
};

/// Options of mp-train-pipeline: the AMP policy (`policy=none`: train in
/// fp32), loss scaling and the optimizer (see mp-loss-scaling and
/// mp-make-train-step for each).
struct TrainPipelineOptions
    : public PolicyPipelineOptions<TrainPipelineOptions> {
  PassOptions::Option<LossScaleMode> lossScale{
      *this, "loss-scale",
      llvm::cl::desc("auto: the policy's choice (dynamic for fp16, none for "
                     "bf16 and policy=none)"),
      llvm::cl::init(TrainPipelineConfig().scaling.mode),
      clEnumValues(symbolizeLossScaleMode, getMaxEnumValForLossScaleMode())};
  PassOptions::Option<double> staticScale{
      *this, "static-scale", llvm::cl::desc("The scale of loss-scale=static"),
      llvm::cl::init(LossScalingPassOptions().staticScale)};
  PassOptions::Option<double> initScale{
      *this, "init-scale", llvm::cl::desc("Initial dynamic scale"),
      llvm::cl::init(LossScalingPassOptions().initScale)};
  PassOptions::Option<double> growthFactor{
      *this, "growth-factor", llvm::cl::desc("Scale growth factor"),
      llvm::cl::init(LossScalingPassOptions().growthFactor)};
  PassOptions::Option<double> backoffFactor{
      *this, "backoff-factor", llvm::cl::desc("Scale backoff factor"),
      llvm::cl::init(LossScalingPassOptions().backoffFactor)};
  PassOptions::Option<int32_t> growthInterval{
      *this, "growth-interval",
      llvm::cl::desc("Clean steps before the scale grows"),
      llvm::cl::init(LossScalingPassOptions().growthInterval)};
  PassOptions::Option<int32_t> hysteresis{
      *this, "hysteresis",
      llvm::cl::desc("Overflows in a row before the scale backs off"),
      llvm::cl::init(LossScalingPassOptions().hysteresis)};
  PassOptions::Option<double> minScale{
      *this, "min-scale", llvm::cl::desc("Lower bound of the scale (0: none)"),
      llvm::cl::init(LossScalingPassOptions().minScale)};
  PassOptions::Option<double> maxScale{
      *this, "max-scale", llvm::cl::desc("Upper bound of the scale (0: none)"),
      llvm::cl::init(LossScalingPassOptions().maxScale)};
  PassOptions::Option<Optimizer> optimizer{
      *this, "optimizer", llvm::cl::desc("The optimizer"),
      llvm::cl::init(MakeTrainStepPassOptions().optimizer),
      clEnumValues(symbolizeOptimizer, getMaxEnumValForOptimizer())};
  PassOptions::Option<double> lr{*this, "lr", llvm::cl::desc("Learning rate"),
                                 llvm::cl::init(MakeTrainStepPassOptions().lr)};
  PassOptions::Option<double> momentum{
      *this, "momentum", llvm::cl::desc("Momentum"),
      llvm::cl::init(MakeTrainStepPassOptions().momentum)};
  PassOptions::Option<bool> nesterov{
      *this, "nesterov", llvm::cl::desc("Nesterov momentum"),
      llvm::cl::init(MakeTrainStepPassOptions().nesterov)};
  PassOptions::Option<double> beta1{
      *this, "beta1", llvm::cl::desc("Adam beta1"),
      llvm::cl::init(MakeTrainStepPassOptions().beta1)};
  PassOptions::Option<double> beta2{
      *this, "beta2", llvm::cl::desc("Adam beta2"),
      llvm::cl::init(MakeTrainStepPassOptions().beta2)};
  PassOptions::Option<double> eps{
      *this, "eps", llvm::cl::desc("Adam epsilon"),
      llvm::cl::init(MakeTrainStepPassOptions().eps)};
  PassOptions::Option<double> weightDecay{
      *this, "weight-decay",
      llvm::cl::desc("Weight decay (negative: the optimizer's PyTorch "
                     "default)"),
      llvm::cl::init(MakeTrainStepPassOptions().weightDecay)};
  PassOptions::Option<double> clipNorm{
      *this, "clip-norm",
      llvm::cl::desc("Clip gradients to this global norm (0: off)"),
      llvm::cl::init(MakeTrainStepPassOptions().clipNorm)};
  PassOptions::Option<int64_t> accumulate{
      *this, "accumulate",
      llvm::cl::desc("Micro-batches per step (gradient accumulation)"),
      llvm::cl::init(MakeTrainStepPassOptions().accumulate)};
  PassOptions::Option<bool> dataParallel{
      *this, "data-parallel",
      llvm::cl::desc("Average gradients over the ranks of a data-parallel "
                     "run"),
      llvm::cl::init(MakeTrainStepPassOptions().dataParallel)};
  PassOptions::Option<AllReduceType> allreduceType{
      *this, "allreduce-type",
      llvm::cl::desc("Precision of the gradients' all-reduce"),
      llvm::cl::init(MakeTrainStepPassOptions().allreduceType),
      clEnumValues(symbolizeAllReduceType, getMaxEnumValForAllReduceType())};
};

/// AMP rewrite (unless policy=none), mp-loss-scaling, mp-make-train-step.
void buildTrainPipeline(OpPassManager &pm, const TrainPipelineOptions &options);
void buildTrainPipeline(OpPassManager &pm, const TrainPipelineConfig &config);

/// Registers mp-amp-pipeline and mp-train-pipeline.
void registerMPPipelines();

} // namespace mp
} // namespace mlir

#endif // MP_PIPELINES_PIPELINES_H
