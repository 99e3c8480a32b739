//===- FlattenElementwise.cpp - mp-flatten-elementwise ----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/SmallBitVector.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_FLATTENELEMENTWISEPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Whether dimensions `d` and `d + 1` of `slice` (an extract_slice or
/// insert_slice of the tensor type `whole`) are contiguous in `whole`'s
/// row-major layout: whole along `d + 1` and unit-strided along both.
template <typename SliceOp>
static bool isContiguousSlice(SliceOp slice, RankedTensorType whole,
                              unsigned d) {
  // The whole tensor's dimensions of the slice's d and d + 1.
  llvm::SmallBitVector dropped = slice.getDroppedDims();
  SmallVector<unsigned> kept;
  for (unsigned s = 0, e = whole.getRank(); s < e; ++s)
    if (!dropped.test(s))
      kept.push_back(s);
  unsigned outer = kept[d], inner = kept[d + 1];
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  int64_t innerWhole = whole.getDimSize(inner);
  if (ShapedType::isDynamic(strides[outer]) ||
      ShapedType::isDynamic(strides[inner]) ||
      ShapedType::isDynamic(sizes[inner]) || ShapedType::isDynamic(innerWhole))
    return false;
  // The rows' distance in the whole tensor equals the length of a row.
  for (unsigned s = outer + 1; s < inner; ++s)
    if (whole.getDimSize(s) != 1)
      return false;
  return strides[outer] * innerWhole == sizes[inner] * strides[inner] &&
         strides[inner] == 1;
}

/// Whether the elements of `value`'s dimensions `d` and `d + 1` stay
/// contiguous in memory once bufferized, as far as the slices it is read
/// from and inserted into tell: a strided slice, or one not whole along
/// `d + 1`, is a view that collapsing those dimensions would copy.
static bool keepsDimsContiguous(Value value, unsigned d) {
  if (auto slice = value.getDefiningOp<tensor::ExtractSliceOp>();
      slice && !isContiguousSlice(slice, slice.getSourceType(), d))
    return false;
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    auto insert = dyn_cast<tensor::InsertSliceOp>(user);
    return !insert || insert.getSource() != value ||
           isContiguousSlice(insert, insert.getDestType(), d);
  });
}

/// Whether merging `op`'s consecutive loops `d` and `d + 1` keeps every
/// operand that reads both contiguous (keepsDimsContiguous).
static bool keepsLoopsContiguous(linalg::GenericOp op, unsigned d) {
  MLIRContext *ctx = op.getContext();
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> outer =
        map.getResultPosition(getAffineDimExpr(d, ctx));
    if (!outer || !map.getResultPosition(getAffineDimExpr(d + 1, ctx)))
      continue;
    if (!keepsDimsContiguous(operand.get(), *outer))
      return false;
    // A result lives where its init is (after empty tensor elimination, in
    // the slice it is inserted into).
    if (op.isDpsInit(&operand) &&
        !keepsDimsContiguous(op.getTiedOpResult(&operand), *outer))
      return false;
  }
  return true;
}

/// Whether every operand dimension of `op` that a loop indexes has that
/// loop's static extent (or all of them are dynamic): upstream's
/// linalg::collapseOpIterationDims takes the extents of the first operand
/// that indexes each loop, and a static output expanded from a dynamic
/// extent does not verify once bufferized (`tensor<?x6xf32>` read into a
/// `tensor<4x6xf16>`).
static bool hasConsistentLoopExtents(linalg::GenericOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr);
          dim && type.getDimSize(i) != ranges[dim.getPosition()])
        return false;
  }
  return true;
}

/// The loops of `op`, an all-parallel generic on tensors, in groups of
/// consecutive loops that every operand reads contiguously (in order, next
/// to each other, or not at all, and not through a strided view), each
/// group as long as it can be with at most one loop of dynamic extent
/// (LLVM 22's expand-strided-metadata crashes on a `memref.expand_shape`
/// with two dynamic sizes in one group, as the result's expand_shape
/// becomes once bufferized); none if no group has two loops or the operands
/// disagree on a loop's extent.
static SmallVector<ReassociationIndices>
getFlattenedLoops(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumLoops() < 2 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !llvm::all_of(
          generic.getIndexingMapsArray(),
          [](AffineMap map) { return map.isProjectedPermutation(); }) ||
      !hasConsistentLoopExtents(generic))
    return {};
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  auto dynamicLoops = [&](ArrayRef<int64_t> loops) {
    return llvm::count_if(
        loops, [&](int64_t l) { return ShapedType::isDynamic(ranges[l]); });
  };
  SmallVector<ReassociationIndices> groups = {{0}};
  for (int64_t d = 1, e = generic.getNumLoops(); d < e; ++d) {
    ReassociationIndices longer = groups.back();
    longer.push_back(d);
    if (linalg::areDimSequencesPreserved(maps, longer) &&
        keepsLoopsContiguous(generic, d - 1) && dynamicLoops(longer) <= 1)
      groups.back() = std::move(longer);
    else
      groups.push_back({d});
  }
  if (groups.size() == generic.getNumLoops())
    return {};
  return groups;
}

namespace {
struct FlattenElementwisePass
    : public mp::impl::FlattenElementwisePassBase<FlattenElementwisePass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      SmallVector<ReassociationIndices> groups = getFlattenedLoops(op);
      if (groups.empty())
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, groups, rewriter);
      if (failed(collapsed))
        continue;
      rewriter.replaceOp(op, collapsed->results);
      ++numFlattened;
    }
  }
};
} // namespace
