//===- OptimizeCasts.cpp - mp-optimize-casts --------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Dialect/MP/Transforms/Passes.h"
#include "mp/Utils/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_OPTIMIZECASTSPASS
#include "mp/Dialect/MP/Transforms/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {

/// cast(constant) -> constant of the new type, unless a value overflows.
template <typename CastOp>
struct FoldCastOfConstant : public OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto cst = op.getIn().template getDefiningOp<arith::ConstantOp>();
    if (!cst)
      return rewriter.notifyMatchFailure(op, "operand is not a constant");
    FailureOr<TypedAttr> converted =
        convertFloatConstant(cst.getValue(), op.getType());
    if (failed(converted))
      return rewriter.notifyMatchFailure(op, "constant does not convert");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, *converted);
    return success();
  }
};

/// cast(linalg.fill(c, tensor.empty)) -> linalg.fill(cast(c), tensor.empty).
template <typename CastOp>
struct FillInCastType : public OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto fill = op.getIn().template getDefiningOp<linalg::FillOp>();
    if (!fill || fill->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "not a fill");
    auto empty = fill.getOutputs()[0].template getDefiningOp<tensor::EmptyOp>();
    if (!empty)
      return rewriter.notifyMatchFailure(op, "fill of a non-empty tensor");
    Type elem = getElementTypeOrSelf(op.getType());
    Value scalar =
        CastOp::create(rewriter, op.getLoc(), elem, fill.getInputs()[0]);
    Value newEmpty = tensor::EmptyOp::create(
        rewriter, empty.getLoc(), op.getType(), empty.getDynamicSizes());
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, scalar, newEmpty);
    return success();
  }
};

/// True for a structured op that only broadcasts its single input into a
/// fresh tensor.empty (linalg.broadcast, or a linalg.generic yielding its
/// input) and makes the data larger.
static bool isGrowingBroadcast(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 ||
      !op.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  if (!yield || yield->getNumOperands() != 1 ||
      yield->getOperand(0) != op.getRegionInputArgs()[0] ||
      &op.getBlock()->front() != yield.getOperation())
    return false;
  auto inType = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return inType && outType && inType.hasStaticShape() &&
         outType.hasStaticShape() &&
         outType.getNumElements() > inType.getNumElements();
}

/// cast(broadcast(x)) -> broadcast(cast(x)): convert the smaller tensor.
template <typename CastOp>
struct CastBeforeBroadcast : public OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto bcast = op.getIn().template getDefiningOp<linalg::LinalgOp>();
    if (!bcast || !isGrowingBroadcast(bcast) || !bcast->hasOneUse())
      return rewriter.notifyMatchFailure(op, "not a broadcast used once");
    Type elem = getElementTypeOrSelf(op.getType());
    Value input = bcast.getDpsInputs()[0];
    auto empty =
        bcast.getDpsInits()[0].template getDefiningOp<tensor::EmptyOp>();
    rewriter.setInsertionPoint(bcast);
    Value castInput = CastOp::create(
        rewriter, op.getLoc(), withElementType(input.getType(), elem), input);
    Value newEmpty = tensor::EmptyOp::create(
        rewriter, empty.getLoc(), withElementType(empty.getType(), elem),
        empty.getDynamicSizes());
    rewriter.modifyOpInPlace(bcast, [&] {
      bcast->setOperand(0, castInput);
      bcast->setOperand(1, newEmpty);
      for (BlockArgument arg : bcast.getBlock()->getArguments())
        arg.setType(elem);
      bcast->getResult(0).setType(op.getType());
    });
    rewriter.replaceOp(op, bcast->getResult(0));
    return success();
  }
};

/// select(cast(x)) -> cast(select(x)) for ops that pick elements of their
/// first operand (tensor.extract_slice, tensor.extract): the cast converts
/// only what is picked.
template <typename SelectOp>
struct SelectBeforeCast : public OpRewritePattern<SelectOp> {
  using OpRewritePattern<SelectOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(SelectOp op,
                                PatternRewriter &rewriter) const override {
    Operation *castOp = op->getOperand(0).getDefiningOp();
    if (!castOp || !isFloatCast(castOp))
      return rewriter.notifyMatchFailure(op, "source is not a float cast");
    Value source = castOp->getOperand(0);
    Operation *select = rewriter.clone(*op);
    rewriter.modifyOpInPlace(select, [&] {
      select->setOperand(0, source);
      select->getResult(0).setType(withElementType(
          op.getType(), getElementTypeOrSelf(source.getType())));
    });
    rewriter.replaceOp(op, createFloatCast(rewriter, castOp->getLoc(),
                                           select->getResult(0), op.getType()));
    return success();
  }
};

struct OptimizeCastsPass
    : public mp::impl::OptimizeCastsPassBase<OptimizeCastsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult applyPatterns(const FrozenRewritePatternSet &patterns);
  void mergeAndHoistCasts();
};
} // namespace

void mlir::mp::populateOptimizeCastsPatterns(RewritePatternSet &patterns) {
  patterns.add<
      FoldCastOfConstant<arith::TruncFOp>, FoldCastOfConstant<arith::ExtFOp>,
      CastBeforeBroadcast<arith::TruncFOp>, CastBeforeBroadcast<arith::ExtFOp>,
      FillInCastType<arith::TruncFOp>, FillInCastType<arith::ExtFOp>,
      SelectBeforeCast<tensor::ExtractSliceOp>,
      SelectBeforeCast<tensor::ExtractOp>>(patterns.getContext());
}

/// Merges casts of one value to one type into a single cast placed right
/// after the value's definition. This moves casts of loop-invariant values
/// out of loops and makes a weight used many times cast once.
void OptimizeCastsPass::mergeAndHoistCasts() {
  // A cast of a cast may be grouped by a cast that another group erases:
  // such groups wait for the next round, keyed by the cast that was kept.
  for (bool again = true; again;) {
    again = false;
    llvm::MapVector<std::tuple<Value, Type, DictionaryAttr>,
                    SmallVector<Operation *>>
        groups;
    getOperation().walk([&](Operation *op) {
      if (isFloatCast(op))
        groups[{op->getOperand(0), op->getResult(0).getType(),
                op->getAttrDictionary()}]
            .push_back(op);
    });
    DenseSet<Value> erased;
    for (auto &[key, casts] : groups) {
      Value source = std::get<0>(key);
      if (erased.contains(source)) {
        again = true;
        continue;
      }
      Operation *keep = casts.front();
      if (Operation *def = source.getDefiningOp()) {
        if (keep->getBlock() != def->getBlock() || keep->getPrevNode() != def) {
          keep->moveAfter(def);
          ++numMoved;
        }
      } else {
        Block *block = cast<BlockArgument>(source).getOwner();
        if (keep->getBlock() != block) {
          keep->moveBefore(block, block->begin());
          ++numMoved;
        }
      }
      for (Operation *dup : llvm::drop_begin(casts)) {
        dup->replaceAllUsesWith(keep);
        erased.insert(dup->getResult(0));
        dup->erase();
      }
    }
  }
}

LogicalResult
OptimizeCastsPass::applyPatterns(const FrozenRewritePatternSet &patterns) {
  // Only casts and the slices/extractions of casts are visited: other ops are
  // neither folded nor erased, even when they are dead.
  SmallVector<Operation *> ops;
  getOperation().walk([&](Operation *op) {
    if (isFloatCast(op))
      ops.push_back(op);
    else if (isa<tensor::ExtractSliceOp, tensor::ExtractOp>(op) &&
             op->getOperand(0).getDefiningOp() &&
             isFloatCast(op->getOperand(0).getDefiningOp()))
      ops.push_back(op);
  });
  // The driver folds what it visits: arith.truncf folds a round trip
  // truncf(extf(x)) to x itself.
  GreedyRewriteConfig config;
  config.enableConstantCSE(false);
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  return applyOpPatternsGreedily(ops, patterns, config);
}

void OptimizeCastsPass::runOnOperation() {
  RewritePatternSet set(&getContext());
  populateOptimizeCastsPatterns(set);
  FrozenRewritePatternSet patterns(std::move(set));
  unsigned before = 0;
  getOperation().walk([&](Operation *op) { before += isFloatCast(op); });
  if (failed(applyPatterns(patterns)))
    return signalPassFailure();
  mergeAndHoistCasts();
  if (failed(applyPatterns(patterns)))
    return signalPassFailure();
  // Casts left without users (e.g. after a round trip folded) are dead.
  getOperation().walk([&](Operation *op) {
    if (isFloatCast(op) && op->use_empty())
      op->erase();
  });
  unsigned after = 0;
  getOperation().walk([&](Operation *op) { after += isFloatCast(op); });
  if (after < before)
    numRemoved = before - after;
}
