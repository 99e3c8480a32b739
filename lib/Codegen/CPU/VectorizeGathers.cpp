//===- VectorizeGathers.cpp - mp-vectorize-gathers --------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Copies from another layout (im2col gathers, transposes), and casts or
// other elementwise arithmetic computed on the way, row by row as vectors:
// one contiguous read per output row, a shuffle for strided rows.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Codegen/CPU/RowLoops.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_VECTORIZEGATHERSPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Output rows shorter than this stay scalar; longer ones are left to LLVM's
/// loop vectorizer; a stride above the largest one reads too much.
static constexpr int64_t kMinRow = 4;
static constexpr int64_t kMaxRow = 64;
static constexpr int64_t kMaxStride = 4;

/// The value of `expr` with dimension `dim` at `value` and every other
/// dimension at 0, if that is a constant.
static std::optional<int64_t> evaluateAt(AffineExpr expr, unsigned numDims,
                                         unsigned dim, int64_t value) {
  MLIRContext *ctx = expr.getContext();
  SmallVector<AffineExpr> dims(numDims, getAffineConstantExpr(0, ctx));
  dims[dim] = getAffineConstantExpr(value, ctx);
  auto constant = dyn_cast<AffineConstantExpr>(expr.replaceDims(dims));
  if (!constant)
    return std::nullopt;
  return constant.getValue();
}

/// Whether the body of `op` computes its result from the input element
/// alone with elementwise arithmetic (a copy, a cast, a ReLU): ops that
/// apply to vectors lane by lane, on the input element, earlier results and
/// values from outside.
static bool isElementwiseBody(linalg::GenericOp op) {
  Block *body = op.getBody();
  Value out = body->getArgument(1);
  for (Operation &inner : body->without_terminator())
    if (!OpTrait::hasElementwiseMappableTraits(&inner) ||
        inner.getNumResults() != 1 || inner.getNumRegions() ||
        llvm::is_contained(inner.getOperands(), out) ||
        !llvm::all_of(inner.getResultTypes(), [](Type type) {
          return VectorType::isValidElementType(type);
        }))
      return false;
  return !llvm::is_contained(body->getTerminator()->getOperands(), out);
}

/// The body of `op` applied to `row` (its input's elements, a vector) lane
/// by lane; values from outside are broadcast.
static Value applyBodyToRow(OpBuilder &b, Location loc, linalg::GenericOp op,
                            Value row) {
  Block *body = op.getBody();
  int64_t width = cast<VectorType>(row.getType()).getNumElements();
  IRMapping lanes;
  lanes.map(body->getArgument(0), row);
  auto lanesOf = [&](Value value) -> Value {
    if (Value mapped = lanes.lookupOrNull(value))
      return mapped;
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({width}, value.getType()), value);
  };
  for (Operation &inner : body->without_terminator()) {
    OperationState state(loc, inner.getName());
    for (Value operand : inner.getOperands())
      state.addOperands(lanesOf(operand));
    state.addTypes(VectorType::get({width}, inner.getResult(0).getType()));
    state.addAttributes(inner.getAttrs());
    lanes.map(inner.getResult(0), b.create(state)->getResult(0));
  }
  return lanesOf(body->getTerminator()->getOperand(0));
}

/// The stride with which the innermost loop of `op` walks the innermost
/// dimension of its input, if `op` is a copy from another layout whose rows
/// are read that way.
static std::optional<int64_t> getRowStride(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() == 0 ||
      op.getNumReductionLoops() != 0 || op.hasDynamicShape())
    return std::nullopt;
  if (!isElementwiseBody(op) ||
      !VectorType::isValidElementType(
          getElementTypeOrSelf(op.getDpsInputs()[0].getType())) ||
      !VectorType::isValidElementType(
          getElementTypeOrSelf(op.getDpsInits()[0].getType())))
    return std::nullopt;
  AffineMap input = op.getIndexingMapsArray()[0];
  AffineMap output = op.getIndexingMapsArray()[1];
  if (!output.isIdentity() || input == output || input.getNumResults() == 0)
    return std::nullopt;
  unsigned inner = op.getNumLoops() - 1;
  int64_t row = op.getStaticLoopRanges()[inner];
  if (row < kMinRow || row > kMaxRow)
    return std::nullopt;
  // Only the input's innermost dimension may move with the innermost loop.
  ArrayRef<AffineExpr> results = input.getResults();
  for (AffineExpr expr : results.drop_back())
    if (expr.isFunctionOfDim(inner))
      return std::nullopt;
  AffineExpr last = results.back();
  std::optional<int64_t> at0 = evaluateAt(last, op.getNumLoops(), inner, 0);
  std::optional<int64_t> at1 = evaluateAt(last, op.getNumLoops(), inner, 1);
  std::optional<int64_t> at2 = evaluateAt(last, op.getNumLoops(), inner, 2);
  if (!at0 || !at1 || !at2 || *at2 - *at1 != *at1 - *at0)
    return std::nullopt;
  int64_t stride = *at1 - *at0;
  if (stride < 1 || stride > kMaxStride)
    return std::nullopt;
  return stride;
}

/// Rewrites `op` as loops over all but its innermost loop around one vector
/// read, shuffle and write per output row.
static void vectorizeRows(RewriterBase &rewriter, linalg::GenericOp op,
                          int64_t stride) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t row = ranges.back();
  Value input = op.getDpsInputs()[0];
  Type element = getElementTypeOrSelf(input.getType());
  AffineMap inputMap = op.getIndexingMapsArray()[0];
  auto readType = VectorType::get({stride * (row - 1) + 1}, element);
  Value padding = arith::ConstantOp::create(rewriter, loc, element,
                                            rewriter.getZeroAttr(element));
  scf::LoopNest nest = buildRowLoops(
      rewriter, loc, ranges, op.getDpsInits(),
      [&](OpBuilder &b, Location loc, ArrayRef<Value> rowStart,
          Value output) -> Value {
        Value values = vector::TransferReadOp::create(
            b, loc, readType, input, getRowIndices(b, loc, inputMap, rowStart),
            padding, ArrayRef<bool>{true});
        if (stride > 1) {
          SmallVector<int64_t> every;
          for (int64_t i = 0; i < row; ++i)
            every.push_back(i * stride);
          values = vector::ShuffleOp::create(b, loc, values, values, every);
        }
        values = applyBodyToRow(b, loc, op, values);
        return vector::TransferWriteOp::create(b, loc, values, output, rowStart,
                                               ArrayRef<bool>{true})
            .getResult();
      });
  rewriter.replaceOp(op, nest.results);
}

namespace {
struct VectorizeGathersPass
    : public mp::impl::VectorizeGathersPassBase<VectorizeGathersPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, int64_t>> copies;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<int64_t> stride = getRowStride(op))
        copies.emplace_back(op, *stride);
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, stride] : copies) {
      vectorizeRows(rewriter, op, stride);
      ++numVectorized;
    }
  }
};
} // namespace
