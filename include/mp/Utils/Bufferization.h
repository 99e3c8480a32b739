//===- Bufferization.h - Tensors to buffers for every backend ---*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_UTILS_BUFFERIZATION_H
#define MP_UTILS_BUFFERIZATION_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
class OpPassManager;
class Operation;
class Type;
class Value;
class OpOperand;
namespace memref {
class CopyOp;
} // namespace memref
namespace mp {

/// One-shot bufferization with function arguments and results as plain
/// (identity-layout) memrefs that callers own, buffer deallocation, then
/// `afterDeallocation`'s passes (the CPU backend returns updated state in
/// place there), and bufferization.clone as memref.alloc + memref.copy.
/// Both backends lower buffers from here.
void addBufferizationPasses(
    OpPassManager &pm,
    llvm::function_ref<void(OpPassManager &)> afterDeallocation = {});

/// Replaces every ranked `memref.copy` under `root` that `select` accepts
/// with `linalg.copy` (loops, or a kernel, where memref.copy would be a
/// library call); returns how many.
unsigned copiesToLinalg(Operation *root,
                        llvm::function_ref<bool(memref::CopyOp)> select);

/// The uses of `root`'s memory: of it or of any view of it, transitively
/// (views are followed, not listed).
SmallVector<OpOperand *> getMemoryUses(Value root);

/// Whether `a` and `b` are subviews of one memref with the identity layout
/// (different indices, different elements), or reshapes or casts of such,
/// that share no element: along some dimension their constant offsets,
/// sizes and strides give ranges of indices that do not overlap (the slices
/// of a `tensor.concat`).
bool areDisjointSubviews(Value a, Value b);

/// Whether `type` is a buffer in a GPU address space (`#gpu.address_space`:
/// workgroup, private or global memory).
bool isGpuBuffer(Type type);

/// A buffer type in GPU memory that `op` uses or defines (operands, results,
/// its regions' block arguments, types in its attributes: a function's
/// signature, a global's type), or null.
Type findGpuBuffer(Operation *op);

/// Whether `op` is GPU code: an op of the `gpu`, `nvgpu` or `nvvm` dialects.
bool isGpuDialectOp(Operation *op);

} // namespace mp
} // namespace mlir

#endif // MP_UTILS_BUFFERIZATION_H
