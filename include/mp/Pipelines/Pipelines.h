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

/// Lowers linalg-on-tensors (fp32 or mixed) to the LLVM dialect for the host
/// CPU: aggregate ops decomposed, elementwise tensor ops turned into linalg,
/// one-shot bufferization with identity-layout function boundaries, buffer
/// deallocation, loops, f16/bf16 arithmetic computed through f32 (exact for
/// + - * /), bf16 casts expanded to integer ops, math through libm, and C
/// interface wrappers (`_mlir_ciface_*`) for every function.
void buildLowerToCpuPipeline(OpPassManager &pm);

/// Registers mp-amp-pipeline and mp-lower-to-cpu.
void registerMPPipelines();

} // namespace mp
} // namespace mlir

#endif // MP_PIPELINES_PIPELINES_H
