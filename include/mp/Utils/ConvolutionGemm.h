//===- ConvolutionGemm.h - Convolutions seen as GEMMs -----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What the CPU and GPU rewrites of convolutions into GEMMs share: which
// role each loop of a convolution (image, filter, output) plays, and the
// gathers (im2col) that lay an operand out as a matrix of the GEMM.
//
//===----------------------------------------------------------------------===//

#ifndef MP_UTILS_CONVOLUTIONGEMM_H
#define MP_UTILS_CONVOLUTIONGEMM_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir {
namespace linalg {
class LinalgOp;
} // namespace linalg
namespace mp {

/// The role of an output loop of a convolution.
enum class ConvLoopKind {
  /// Indexes the filter, not the image: the output channels (F).
  Channel,
  /// Indexes the image on its own, not the filter: the images (N).
  Image,
  /// Indexes the image combined with a filter loop, not the filter: the
  /// output's spatial loops (OH, OW).
  Spatial,
  /// Indexes the image and the filter: the groups of a grouped or
  /// depthwise convolution (G).
  Depth,
};

/// The loops of a convolution with one image, one filter and one output.
struct ConvolutionLoops {
  /// The output's loops in the order the output stores them, and their
  /// roles.
  SmallVector<unsigned> output;
  SmallVector<ConvLoopKind> kinds;
  /// The reduction loops in the order the filter stores them.
  SmallVector<unsigned> reduction;
  /// The iteration count of every loop.
  SmallVector<int64_t> ranges;
};

/// The loops of `op` (two inputs, one init, static shapes), if its filter
/// and output maps are projected permutations, every output loop indexes
/// the image or the filter, and its reduction loops are the filter's loops
/// that the output does not index.
std::optional<ConvolutionLoops> analyzeConvolution(linalg::LinalgOp op);

/// The number of iterations of the loops `group`.
int64_t getGroupSize(ArrayRef<unsigned> group, ArrayRef<int64_t> ranges);

/// A tensor with one dimension per entry of `groups` (the loops of each
/// collapsed row major) whose element is `source`'s element at `sourceMap`
/// of the loops those indices give; loops in no group are 0.
Value buildConvolutionGather(OpBuilder &b, Location loc, Value source,
                             AffineMap sourceMap, ArrayRef<int64_t> ranges,
                             ArrayRef<ArrayRef<unsigned>> groups);

/// The same tensor built as a gather with one loop per convolution loop of
/// the groups (no divisions in its indices; each group non-empty) collapsed
/// by a `tensor.collapse_shape` (`source` itself collapsed when it already
/// has that layout).
Value buildCollapsedConvolutionGather(OpBuilder &b, Location loc, Value source,
                                      AffineMap sourceMap,
                                      ArrayRef<int64_t> ranges,
                                      ArrayRef<ArrayRef<unsigned>> groups);

/// A `linalg.generic` of `conv`'s body over `lhs`, `rhs` and the
/// accumulator `acc` with `maps` and `iterators`: the body's image argument
/// reads `lhs` if `imageIsLhs`, else `rhs`, and its filter argument the
/// other.
Value buildConvolutionContraction(OpBuilder &b, linalg::LinalgOp conv,
                                  Value lhs, Value rhs, Value acc,
                                  ArrayRef<AffineMap> maps,
                                  ArrayRef<utils::IteratorType> iterators,
                                  bool imageIsLhs);

} // namespace mp
} // namespace mlir

#endif // MP_UTILS_CONVOLUTIONGEMM_H
