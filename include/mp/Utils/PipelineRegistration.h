//===- PipelineRegistration.h - Checked pass pipelines ----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// mp's pipelines run on a builtin.module. Registered with plain
// PassPipelineRegistration, a pipeline nested under another op
// (`builtin.module(func.func(mp-amp-pipeline))`) makes the pass manager abort
// the process ("Can't add pass ... did you intend to nest?"). This
// registration reports that, and invalid option values, as a pipeline error.
//
//===----------------------------------------------------------------------===//

#ifndef MP_UTILS_PIPELINEREGISTRATION_H
#define MP_UTILS_PIPELINEREGISTRATION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <functional>

namespace mlir {
namespace mp {

/// Reports an invalid pipeline option; returns failure.
using PipelineErrorHandler = function_ref<LogicalResult(const Twine &)>;

/// Fails through `errorHandler` unless `pm` runs on builtin.module.
LogicalResult checkModuleAnchor(OpPassManager &pm, StringRef pipeline,
                                PipelineErrorHandler errorHandler);

/// Registers the pipeline `arg` on builtin.module. `verify` checks the parsed
/// options before `build` adds the passes.
template <typename Options>
void registerModulePipeline(
    StringRef arg, StringRef description,
    std::function<LogicalResult(const Options &, PipelineErrorHandler)> verify,
    std::function<void(OpPassManager &, const Options &)> build) {
  std::string name = arg.str();
  registerPassPipeline(
      arg, description,
      [name, verify, build](OpPassManager &pm, StringRef text,
                            PipelineErrorHandler errorHandler) {
        if (failed(checkModuleAnchor(pm, name, errorHandler)))
          return failure();
        Options options;
        if (failed(options.parseFromString(text)) ||
            failed(verify(options, errorHandler)))
          return failure();
        build(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}

} // namespace mp
} // namespace mlir

#endif // MP_UTILS_PIPELINEREGISTRATION_H
