//===- RowLoops.h - Linalg ops as loops around vector rows ------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What mp-vectorize-gathers and mp-vectorize-reductions share: a linalg op
// on tensors rewritten as scf.for loops over all but its innermost loop,
// whose body handles one row of the innermost loop with vectors.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CODEGEN_CPU_ROWLOOPS_H
#define MP_CODEGEN_CPU_ROWLOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineMap.h"

namespace mlir {
namespace mp {

/// The indices that `map` (of a linalg op) gives for the loop values
/// `loops`, folded where they are constants or loop values themselves.
SmallVector<Value> getRowIndices(OpBuilder &b, Location loc, AffineMap map,
                                 ValueRange loops);

/// Loops over every loop in `ranges` but the last, carrying `inits` (the
/// op's outputs); `body` builds one row from the outer loops' values
/// followed by `zero` (the start of the row) and returns the next outputs.
scf::LoopNest
buildRowLoops(OpBuilder &b, Location loc, ArrayRef<int64_t> ranges,
              ValueRange inits,
              function_ref<Value(OpBuilder &, Location,
                                 ArrayRef<Value> rowStart, Value output)>
                  body);

} // namespace mp
} // namespace mlir

#endif // MP_CODEGEN_CPU_ROWLOOPS_H
