//===- Bufferization.cpp - Tensors to buffers for every backend -----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Utils/Bufferization.h"

#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void mlir::mp::addBufferizationPasses(
    OpPassManager &pm,
    llvm::function_ref<void(OpPassManager &)> afterDeallocation) {
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  // Loops whose body yields a new tensor (h <- f(h)) get a new buffer per
  // iteration; the deallocation pipeline frees the old one.
  options.allowReturnAllocsFromLoops = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(options));
  bufferization::buildBufferDeallocationPipeline(pm);
  if (afterDeallocation)
    afterDeallocation(pm);
  // bufferization.clone (from deallocation) becomes memref.alloc + copy.
  pm.addPass(createConvertBufferizationToMemRefPass());
}
