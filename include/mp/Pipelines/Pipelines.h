//===- Pipelines.h - mp pass pipelines --------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_PIPELINES_PIPELINES_H
#define MP_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace mp {

/// Options of mp-amp-pipeline: those of mp-classify-precision, plus whether
/// to run mp-optimize-casts.
struct AmpPipelineOptions : public PassPipelineOptions<AmpPipelineOptions> {
  PassOptions::Option<std::string> policy{
      *this, "policy",
      llvm::cl::desc("Precision policy: fp16, bf16, or a JSON/YAML file"),
      llvm::cl::init("fp16")};
  PassOptions::Option<std::string> level{
      *this, "level",
      llvm::cl::desc("default, tensor-cores-only, treat-infer-as-deny or "
                     "unsafe-force-all (overrides the policy's level)"),
      llvm::cl::init("")};
  PassOptions::ListOption<std::string> allowAdd{
      *this, "allow-add", llvm::cl::desc("Op names to add to the allow list")};
  PassOptions::ListOption<std::string> allowRemove{
      *this, "allow-remove",
      llvm::cl::desc("Op names to remove from the allow list")};
  PassOptions::ListOption<std::string> denyAdd{
      *this, "deny-add", llvm::cl::desc("Op names to add to the deny list")};
  PassOptions::ListOption<std::string> denyRemove{
      *this, "deny-remove",
      llvm::cl::desc("Op names to remove from the deny list")};
  PassOptions::ListOption<std::string> inferAdd{
      *this, "infer-add", llvm::cl::desc("Op names to add to the infer list")};
  PassOptions::ListOption<std::string> inferRemove{
      *this, "infer-remove",
      llvm::cl::desc("Op names to remove from the infer list")};
  PassOptions::ListOption<std::string> clearAdd{
      *this, "clear-add", llvm::cl::desc("Op names to add to the clear list")};
  PassOptions::ListOption<std::string> clearRemove{
      *this, "clear-remove",
      llvm::cl::desc("Op names to remove from the clear list")};
  PassOptions::Option<bool> lowPrecisionAccumulation{
      *this, "low-precision-accumulation",
      llvm::cl::desc("Accumulate contractions in the low-precision type"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> lowPrecisionBoundaries{
      *this, "low-precision-boundaries",
      llvm::cl::desc("Let function arguments and results go low"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Remark on each op left in its precision"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> report{
      *this, "report", llvm::cl::desc("Write the JSON report to this file"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> dot{
      *this, "dot", llvm::cl::desc("Write the Graphviz view to this file"),
      llvm::cl::init("")};
  PassOptions::Option<bool> summary{
      *this, "summary", llvm::cl::desc("Print a summary table to stderr"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> optimizeCasts{
      *this, "optimize-casts", llvm::cl::desc("Run mp-optimize-casts"),
      llvm::cl::init(true)};
};

/// classify -> insert casts -> optimize casts, on a module.
void buildAmpPipeline(OpPassManager &pm, const AmpPipelineOptions &options);

/// Options of mp-train-pipeline: the AMP policy, loss scaling and the
/// optimizer (see mp-loss-scaling and mp-make-train-step for each).
struct TrainPipelineOptions : public PassPipelineOptions<TrainPipelineOptions> {
  PassOptions::Option<std::string> policy{
      *this, "policy",
      llvm::cl::desc("Precision policy: fp16, bf16, a JSON/YAML file, or "
                     "none (train in fp32)"),
      llvm::cl::init("fp16")};
  PassOptions::Option<std::string> level{
      *this, "level", llvm::cl::desc("Policy level (see mp-amp-pipeline)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> summary{
      *this, "summary", llvm::cl::desc("Print the AMP summary to stderr"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> lossScale{
      *this, "loss-scale",
      llvm::cl::desc("auto (the policy's choice: dynamic for fp16, none for "
                     "bf16 and fp32), dynamic, static=<scale> or none"),
      llvm::cl::init("auto")};
  PassOptions::Option<double> initScale{*this, "init-scale",
                                        llvm::cl::desc("Initial dynamic scale"),
                                        llvm::cl::init(65536.0)};
  PassOptions::Option<double> growthFactor{
      *this, "growth-factor", llvm::cl::desc("Scale growth factor"),
      llvm::cl::init(2.0)};
  PassOptions::Option<double> backoffFactor{
      *this, "backoff-factor", llvm::cl::desc("Scale backoff factor"),
      llvm::cl::init(0.5)};
  PassOptions::Option<int32_t> growthInterval{
      *this, "growth-interval",
      llvm::cl::desc("Clean steps before the scale grows"),
      llvm::cl::init(2000)};
  PassOptions::Option<int32_t> hysteresis{
      *this, "hysteresis",
      llvm::cl::desc("Overflows in a row before the scale backs off"),
      llvm::cl::init(1)};
  PassOptions::Option<double> minScale{
      *this, "min-scale", llvm::cl::desc("Lower bound of the scale (0: none)"),
      llvm::cl::init(0.0)};
  PassOptions::Option<double> maxScale{
      *this, "max-scale", llvm::cl::desc("Upper bound of the scale (0: none)"),
      llvm::cl::init(0.0)};
  PassOptions::Option<std::string> optimizer{
      *this, "optimizer", llvm::cl::desc("sgd, momentum, adam or adamw"),
      llvm::cl::init("sgd")};
  PassOptions::Option<double> lr{*this, "lr", llvm::cl::desc("Learning rate"),
                                 llvm::cl::init(1e-3)};
  PassOptions::Option<double> momentum{
      *this, "momentum", llvm::cl::desc("Momentum"), llvm::cl::init(0.9)};
  PassOptions::Option<bool> nesterov{*this, "nesterov",
                                     llvm::cl::desc("Nesterov momentum"),
                                     llvm::cl::init(false)};
  PassOptions::Option<double> beta1{
      *this, "beta1", llvm::cl::desc("Adam beta1"), llvm::cl::init(0.9)};
  PassOptions::Option<double> beta2{
      *this, "beta2", llvm::cl::desc("Adam beta2"), llvm::cl::init(0.999)};
  PassOptions::Option<double> eps{*this, "eps", llvm::cl::desc("Adam epsilon"),
                                  llvm::cl::init(1e-8)};
  PassOptions::Option<double> weightDecay{
      *this, "weight-decay",
      llvm::cl::desc("Weight decay (negative: the optimizer's PyTorch "
                     "default)"),
      llvm::cl::init(-1.0)};
  PassOptions::Option<double> clipNorm{
      *this, "clip-norm",
      llvm::cl::desc("Clip gradients to this global norm (0: off)"),
      llvm::cl::init(0.0)};
  PassOptions::Option<int64_t> accumulate{
      *this, "accumulate",
      llvm::cl::desc("Micro-batches per step (gradient accumulation)"),
      llvm::cl::init(1)};
};

/// AMP rewrite (unless policy=none), mp-loss-scaling, mp-make-train-step.
void buildTrainPipeline(OpPassManager &pm, const TrainPipelineOptions &options);

/// The loss-scaling mode `options` resolve to: the option itself, or for
/// `auto` the policy's choice ("dynamic" or "none").
std::string resolveLossScaleMode(const TrainPipelineOptions &options);

/// Registers mp-amp-pipeline and mp-train-pipeline.
void registerMPPipelines();

} // namespace mp
} // namespace mlir

#endif // MP_PIPELINES_PIPELINES_H
