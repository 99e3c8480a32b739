//===- KernelMemory.h - The memory kernels touch ---------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What a kernel (a gpu.launch or a loop that becomes one) does with memory
// outside it: the buffers it reads and writes, whether two of them may be
// the same memory, and the bytes of parameters it would take. Shared by the
// passes that merge kernels (mp-gpu-fuse-parallel-loops,
// mp-gpu-merge-launches) and the kernel report.
//
//===----------------------------------------------------------------------===//

#ifndef MP_LIB_CODEGEN_GPU_KERNELMEMORY_H
#define MP_LIB_CODEGEN_GPU_KERNELMEMORY_H

#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
class AliasAnalysis;
class Region;
namespace func {
class FuncOp;
} // namespace func
namespace mp {

/// The function with a body that `op` calls, if it is such a call (the
/// producers that mp-gpu-tile-contractions outlines and a kernel calls per
/// element).
func::FuncOp getCalledBody(Operation *op);

/// Calls `touch(value, read, written)` for each buffer `op` reads or writes
/// (its memory effects), and for a call of a function with a body, for each
/// argument buffer that the function reads or writes. Returns false when
/// `op` may touch memory these do not name: an effect on no value, or an op
/// with buffer operands and no declared effects.
bool forEachAccess(Operation *op,
                   llvm::function_ref<void(Value, bool, bool)> touch);

/// Whether `a` and `b` may be views of the same memory. Beyond upstream's
/// local alias analysis: a buffer the function allocates is not one that
/// existed before the allocation (an argument of the function, or a buffer
/// defined before it in its block, such as a call's result), which is live
/// where both are used; and subviews of one buffer whose constant ranges of
/// indices do not overlap along some dimension share no element.
bool mayAlias(Value a, Value b, AliasAnalysis &aliases);

/// Whether `op` stores `true` into a 0-d i1 buffer (a finite check setting
/// the overflow flag): such stores commute with each other.
bool setsFlag(Operation *op);

/// The buffer that `value` is a view of through subviews, reshapes and
/// casts, whose static offsets count elements from that buffer's first
/// one; null through any other view.
Value getElementRoot(Value value);

/// The offset of an element from its element root's first element
/// (getElementRoot): a constant plus each index value that is not a
/// constant times its coefficient, one term per value.
struct ElementOffset {
  int64_t constant = 0;
  SmallVector<std::pair<Value, int64_t>> terms;
  /// The same constant and terms, in any order.
  bool operator==(const ElementOffset &other) const;
};

/// The offset of the element that `indices` reach in `memref`, if its
/// layout has static strides and offset (and no coefficient overflows).
std::optional<ElementOffset> getElementOffset(Value memref, ValueRange indices);

/// The most bytes of kernel parameters a fused or merged kernel may need:
/// what ptxas takes for a kernel before PTX ISA 8.1 (4352 bytes), less a
/// margin for the scalars the launch adds.
constexpr int64_t kMaxParameterBytes = 4096;

/// The bytes of kernel parameters that `regions` would need as one kernel:
/// each value they use from outside but a constant, once, a memref as its
/// descriptor (two pointers, the offset, sizes and strides), anything else
/// 8 bytes.
int64_t getParameterBytes(ArrayRef<Region *> regions);

} // namespace mp
} // namespace mlir

#endif // MP_LIB_CODEGEN_GPU_KERNELMEMORY_H
