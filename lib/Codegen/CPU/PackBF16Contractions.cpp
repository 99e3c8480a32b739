//===- PackBF16Contractions.cpp - mp-pack-bf16-contractions -----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Codegen/CPU/RegisterBlocks.h"
#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_PACKBF16CONTRACTIONSPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// `operand`, indexed by `map`, in the layout `loops` (batch..., m, k or
/// batch..., k, n) with the k loop split into pairs: a dimension of K/2
/// where k was, and a trailing dimension of 2 that holds elements 2i and
/// 2i+1.
static Value packPairs(RewriterBase &rewriter, Location loc, Value operand,
                       AffineMap map, ArrayRef<unsigned> loops, unsigned k,
                       ArrayRef<int64_t> ranges) {
  MLIRContext *ctx = rewriter.getContext();
  auto type = cast<RankedTensorType>(operand.getType());
  int64_t rank = loops.size();
  SmallVector<int64_t> shape;
  for (unsigned loop : loops)
    shape.push_back(loop == k ? ranges[loop] / 2 : ranges[loop]);
  shape.push_back(2);
  auto packedType = RankedTensorType::get(shape, type.getElementType());
  SmallVector<AffineExpr> order;
  for (unsigned loop : loops)
    order.push_back(getAffineDimExpr(loop, ctx));
  if (map.getResults() == ArrayRef(order) && loops.back() == k) {
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < rank - 1; ++d)
      groups.push_back({d});
    groups.push_back({rank - 1, rank});
    return tensor::ExpandShapeOp::create(rewriter, loc, packedType, operand,
                                         groups);
  }
  // packed[..., i, ..., p] = operand at the loops' values, k = 2i + p.
  SmallVector<AffineExpr> loopValues(map.getNumDims(),
                                     getAffineConstantExpr(0, ctx));
  for (auto [d, loop] : llvm::enumerate(loops))
    loopValues[loop] =
        loop == k ? getAffineDimExpr(d, ctx) * 2 + getAffineDimExpr(rank, ctx)
                  : getAffineDimExpr(d, ctx);
  AffineMap readMap = map.replaceDimsAndSymbols(loopValues, {}, rank + 1, 0);
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
  return linalg::GenericOp::create(
             rewriter, loc, packedType, operand, empty,
             ArrayRef<AffineMap>{readMap,
                                 rewriter.getMultiDimIdentityMap(rank + 1)},
             SmallVector<utils::IteratorType>(rank + 1,
                                              utils::IteratorType::parallel),
             [](OpBuilder &b, Location loc, ValueRange args) {
               linalg::YieldOp::create(b, loc, args[0]);
             })
      .getResult(0);
}

/// The map of the loops `loops` and then the pair loop, over the
/// contraction's loops and the pair loop.
static AffineMap getPairMap(MLIRContext *ctx, unsigned numLoops,
                            ArrayRef<unsigned> loops) {
  SmallVector<AffineExpr> results;
  for (unsigned loop : loops)
    results.push_back(getAffineDimExpr(loop, ctx));
  results.push_back(getAffineDimExpr(numLoops, ctx));
  return AffineMap::get(numLoops + 1, 0, results, ctx);
}

static LogicalResult packContraction(RewriterBase &rewriter,
                                     linalg::LinalgOp op) {
  FailureOr<ContractionLoops> loops = getContractionLoops(op);
  if (failed(loops) || loops->pair)
    return failure();
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  Value acc = op.getDpsInitOperand(0)->get();
  if (!getElementTypeOrSelf(lhs).isBF16() ||
      !getElementTypeOrSelf(acc).isF32() || loops->ranges[loops->k] % 2 ||
      loops->ranges[loops->n] % kDotLanes ||
      // what linalg.contract computes (a body that multiplies in bf16 and
      // extends the product rounds each product)
      !isMultiplyAccumulate(op))
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // Every operand indexed by loops alone (no broadcast, no offsets).
  if (!llvm::all_of(maps, [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/false);
      }))
    return failure();

  MLIRContext *ctx = op.getContext();
  unsigned numLoops = op.getNumLoops();
  SmallVector<unsigned> lhsLoops(loops->batch), rhsLoops(loops->batch);
  lhsLoops.append({loops->m, loops->k});
  rhsLoops.append({loops->k, loops->n});
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value packedLhs =
      packPairs(rewriter, loc, lhs, maps[0], lhsLoops, loops->k, loops->ranges);
  Value packedRhs =
      packPairs(rewriter, loc, rhs, maps[1], rhsLoops, loops->k, loops->ranges);
  // linalg.contract: the vectorizer turns it into one vector.contract.
  auto packed = linalg::ContractOp::create(
      rewriter, loc, TypeRange{acc.getType()}, ValueRange{packedLhs, packedRhs},
      ValueRange{acc},
      rewriter.getAffineMapArrayAttr(
          {getPairMap(ctx, numLoops, lhsLoops),
           getPairMap(ctx, numLoops, rhsLoops),
           AffineMap::get(numLoops + 1, 0, maps[2].getResults(), ctx)}));
  rewriter.replaceOp(op, packed.getResults());
  return success();
}

namespace {
struct PackBF16ContractionsPass
    : public mp::impl::PackBF16ContractionsPassBase<PackBF16ContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : collectContractions(getOperation()))
      if (succeeded(packContraction(rewriter, op)))
        ++numPacked;
  }
};
} // namespace
