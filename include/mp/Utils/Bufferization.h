//===- Bufferization.h - Tensors to buffers for every backend ---*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_UTILS_BUFFERIZATION_H
#define MP_UTILS_BUFFERIZATION_H

namespace mlir {
class OpPassManager;
namespace mp {

/// One-shot bufferization with function arguments and results as plain
/// (identity-layout) memrefs that callers own, buffer deallocation, and
/// bufferization.clone as memref.alloc + memref.copy. Both backends lower
/// buffers from here.
void addBufferizationPasses(OpPassManager &pm);

} // namespace mp
} // namespace mlir

#endif // MP_UTILS_BUFFERIZATION_H
