//===- VectorizeReductions.cpp - mp-vectorize-reductions --------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Sums along a contiguous innermost loop in vector lanes: 16 partial sums
// per output element, added up once at the end of the row.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Codegen/CPU/RowLoops.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_VECTORIZEREDUCTIONSPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The lanes of the partial sums (one AVX-512 register of f32), and the
/// shortest row worth them.
static constexpr int64_t kLanes = 16;
static constexpr int64_t kMinRow = 2 * kLanes;

namespace {
/// A sum `out += term(in)` along the innermost loop, which reads the input's
/// innermost dimension contiguously.
struct RowSum {
  /// The body's ops computing the term from the input element, in order.
  SmallVector<Operation *> term;
  /// The term (the add's operand that is not the output element).
  Value termValue;
};
} // namespace

/// Whether `op` (one body op) may be applied to vectors lane by lane (a
/// constant: broadcast).
static bool isLanewise(Operation *op) {
  if (isa<arith::ConstantOp>(op))
    return op->getResult(0).getType().isIntOrIndexOrFloat();
  return op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
         isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         llvm::all_of(op->getOperandTypes(),
                      [](Type t) { return t.isIntOrIndexOrFloat(); });
}

/// The sum that the body of `op` computes, if it is `out + term(in)` on
/// one input and an f32 output.
static std::optional<RowSum> matchSumBody(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.hasDynamicShape() ||
      op.getNumLoops() == 0 || op.hasIndexSemantics())
    return std::nullopt;
  Block *body = op.getBody();
  BlockArgument in = body->getArgument(0), out = body->getArgument(1);
  if (!out.getType().isF32() || !out.hasOneUse() ||
      !VectorType::isValidElementType(in.getType()))
    return std::nullopt;
  auto add = dyn_cast<arith::AddFOp>(out.use_begin()->getOwner());
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (!add || yield.getValues().front() != add.getResult() || !add->hasOneUse())
    return std::nullopt;
  RowSum sum;
  sum.termValue = add.getLhs() == out ? add.getRhs() : add.getLhs();
  for (Operation &bodyOp : body->without_terminator()) {
    if (&bodyOp == add.getOperation())
      continue;
    if (!isLanewise(&bodyOp))
      return std::nullopt;
    sum.term.push_back(&bodyOp);
  }
  // The term depends on the input element alone.
  if (sum.termValue != in && (!sum.termValue.getDefiningOp() ||
                              sum.termValue.getParentBlock() != body))
    return std::nullopt;
  return sum;
}

/// Whether the innermost loop of `op` is a reduction of at least `kMinRow`
/// iterations along the input's innermost dimension.
static bool isRowReduction(linalg::GenericOp op) {
  unsigned inner = op.getNumLoops() - 1;
  if (!linalg::isReductionIterator(op.getIteratorTypesArray()[inner]) ||
      op.getStaticLoopRanges()[inner] < kMinRow)
    return false;
  AffineMap input = op.getIndexingMapsArray()[0];
  AffineMap output = op.getIndexingMapsArray()[1];
  if (!output.isProjectedPermutation() || input.getNumResults() == 0 ||
      input.getResults().back() != getAffineDimExpr(inner, op.getContext()))
    return false;
  return llvm::none_of(input.getResults().drop_back(), [&](AffineExpr expr) {
    return expr.isFunctionOfDim(inner);
  });
}

/// The loops of `op` with its trailing reduction loops that every operand
/// reads contiguously merged into one (the rows of a bias gradient: image
/// height and width), if there are several.
static linalg::GenericOp mergeInnerReductions(RewriterBase &rewriter,
                                              linalg::GenericOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned numLoops = op.getNumLoops();
  ReassociationIndices tail = {static_cast<int64_t>(numLoops) - 1};
  for (int64_t d = static_cast<int64_t>(numLoops) - 2;
       d >= 0 && linalg::isReductionIterator(iterators[d]); --d) {
    ReassociationIndices longer = {d};
    longer.append(tail.begin(), tail.end());
    if (!linalg::areDimSequencesPreserved(maps, longer))
      break;
    tail = std::move(longer);
  }
  if (tail.size() < 2 || !llvm::all_of(maps, [](AffineMap m) {
        return m.isProjectedPermutation();
      }))
    return op;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < tail.front(); ++d)
    groups.push_back({d});
  groups.push_back(tail);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, groups, rewriter);
  if (failed(collapsed))
    return op;
  rewriter.replaceOp(op, collapsed->results);
  return cast<linalg::GenericOp>(collapsed->collapsedOp.getOperation());
}

/// The term of `sum` on `element` (a scalar or a vector of input elements).
static Value buildTerm(OpBuilder &b, const RowSum &sum, BlockArgument in,
                       Value element) {
  IRMapping mapping;
  mapping.map(in, element);
  auto vectorType = dyn_cast<VectorType>(element.getType());
  auto lanes = [&](Type type) {
    return VectorType::get(vectorType.getShape(), type);
  };
  for (Operation *op : sum.term) {
    // Scalars from outside the body, and constants, in every lane.
    if (vectorType)
      for (Value operand : op->getOperands())
        if (!mapping.contains(operand))
          mapping.map(operand,
                      vector::BroadcastOp::create(
                          b, op->getLoc(), lanes(operand.getType()), operand));
    Operation *clone = b.clone(*op, mapping);
    if (!vectorType)
      continue;
    Value result = clone->getResult(0);
    if (isa<arith::ConstantOp>(op))
      mapping.map(op->getResult(0),
                  vector::BroadcastOp::create(b, op->getLoc(),
                                              lanes(result.getType()), result));
    else
      result.setType(lanes(result.getType()));
  }
  return mapping.lookupOrDefault(sum.termValue);
}

/// Rewrites `op` as loops over all but its innermost loop; each sums its row
/// in `kLanes` partial sums (whole vectors), adds them up, adds the rest of
/// the row one element at a time, and adds the total to the output element.
static void vectorizeRowSum(RewriterBase &rewriter, linalg::GenericOp op,
                            const RowSum &sum) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t row = ranges.back(), whole = row / kLanes * kLanes;
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value one = index(1), lanes = index(kLanes);
  Value wholeEnd = index(whole), rowEnd = index(row);
  Value input = op.getDpsInputs()[0];
  Type inType = getElementTypeOrSelf(input.getType());
  AffineMap inputMap = op.getIndexingMapsArray()[0];
  AffineMap outputMap = op.getIndexingMapsArray()[1];
  BlockArgument in = op.getBody()->getArgument(0);
  Value padding = arith::ConstantOp::create(rewriter, loc, inType,
                                            rewriter.getZeroAttr(inType));
  auto sumType = VectorType::get({kLanes}, rewriter.getF32Type());
  Value zeros = arith::ConstantOp::create(rewriter, loc, sumType,
                                          rewriter.getZeroAttr(sumType));
  scf::LoopNest nest = buildRowLoops(
      rewriter, loc, ranges, op.getDpsInits(),
      [&](OpBuilder &b, Location loc, ArrayRef<Value> rowStart,
          Value output) -> Value {
        // The sum of the terms of columns [begin, end) by `step`, each read
        // by `read` from the input's indices of that column, onto `init`.
        auto accumulate = [&](Value begin, Value end, Value step, Value init,
                              auto read) {
          return scf::ForOp::create(
                     b, loc, begin, end, step, ValueRange{init},
                     [&](OpBuilder &b, Location loc, Value column,
                         ValueRange sums) {
                       SmallVector<Value> loops(rowStart);
                       loops.back() = column;
                       Value element =
                           read(b, loc, getRowIndices(b, loc, inputMap, loops));
                       Value next = arith::AddFOp::create(
                           b, loc, sums.front(),
                           buildTerm(b, sum, in, element));
                       scf::YieldOp::create(b, loc, next);
                     })
              .getResult(0);
        };
        Value partial = accumulate(
            rowStart.back(), wholeEnd, lanes, zeros,
            [&](OpBuilder &b, Location loc, ValueRange indices) -> Value {
              return vector::TransferReadOp::create(
                  b, loc, VectorType::get({kLanes}, inType), input, indices,
                  padding, ArrayRef<bool>{true});
            });
        Value total = vector::ReductionOp::create(
            b, loc, vector::CombiningKind::ADD, partial);
        Value rowSum = accumulate(
            wholeEnd, rowEnd, one, total,
            [&](OpBuilder &b, Location loc, ValueRange indices) -> Value {
              return tensor::ExtractOp::create(b, loc, input, indices);
            });
        SmallVector<Value> at = getRowIndices(b, loc, outputMap, rowStart);
        Value old = tensor::ExtractOp::create(b, loc, output, at);
        Value updated = arith::AddFOp::create(b, loc, old, rowSum);
        return tensor::InsertOp::create(b, loc, updated, output, at);
      });
  rewriter.replaceOp(op, nest.results);
}

namespace {
struct VectorizeReductionsPass
    : public mp::impl::VectorizeReductionsPassBase<VectorizeReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      if (!matchSumBody(op))
        continue;
      linalg::GenericOp merged = mergeInnerReductions(rewriter, op);
      std::optional<RowSum> sum = matchSumBody(merged);
      if (!sum || !isRowReduction(merged))
        continue;
      vectorizeRowSum(rewriter, merged, *sum);
      ++numVectorized;
    }
  }
};
} // namespace
