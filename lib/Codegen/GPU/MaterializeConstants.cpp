//===- MaterializeConstants.cpp - Tensor constants kernels can read -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUMATERIALIZECONSTANTSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Gives each linalg op that starts from `fill`'s result (reads it as its
/// DPS init) a fill of its own, created just before it, so that bufferization
/// gives it a buffer of its own to start from rather than a copy of a shared
/// one.
static void fillPerInit(RewriterBase &rewriter, linalg::FillOp fill) {
  auto empty = fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>();
  if (!empty || !empty.getDynamicSizes().empty())
    return;
  for (OpOperand &use : llvm::make_early_inc_range(fill->getUses())) {
    auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!user || !user.isDpsInit(&use) ||
        !user.payloadUsesValueFromOperand(&use) || fill->hasOneUse())
      continue;
    rewriter.setInsertionPoint(user);
    IRMapping mapping;
    mapping.map(empty.getResult(), rewriter.clone(*empty)->getResult(0));
    Operation *own = rewriter.clone(*fill, mapping);
    rewriter.modifyOpInPlace(user, [&] { use.set(own->getResult(0)); });
  }
}

/// Gives each linalg op that writes into `empty` (its DPS init), if several
/// do, a `tensor.empty` of its own, created just before it, so that
/// bufferization gives each a buffer of its own rather than one buffer that
/// they all write in turn, which a GEMM could not read through its producer.
/// A writer that reads an accumulation another one started there (a fill,
/// then a GEMM into it) keeps `empty` with it: it may add a bias in place,
/// which the GEMM's epilogue then computes. Returns how many got one.
static unsigned emptyPerInit(RewriterBase &rewriter, tensor::EmptyOp empty) {
  // The writer of `empty` (through DPS inits) that `value` was accumulated
  // from, if any: a fill, then a GEMM (an op with reduction loops) into it.
  auto getWriter = [&](Value value) -> Operation * {
    bool accumulated = false;
    while (auto result = dyn_cast<OpResult>(value)) {
      auto op = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
      OpOperand *tied = op ? op.getTiedOpOperand(result) : nullptr;
      if (!tied)
        return nullptr;
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
      accumulated |= linalgOp && linalgOp.getNumReductionLoops() > 0;
      if (tied->get() == empty.getResult())
        return accumulated ? op.getOperation() : nullptr;
      value = tied->get();
    }
    return nullptr;
  };
  SmallVector<OpOperand *> inits;
  llvm::SmallPtrSet<Operation *, 4> linked;
  for (OpOperand &use : empty->getUses()) {
    auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!user || !user.isDpsInit(&use))
      continue;
    inits.push_back(&use);
    // A writer that reads an accumulation into the buffer shares it: it
    // may overwrite the accumulator in place.
    for (Value input : user.getDpsInputs())
      if (Operation *writer = getWriter(input)) {
        linked.insert(writer);
        linked.insert(user);
      }
  }
  llvm::erase_if(
      inits, [&](OpOperand *use) { return linked.contains(use->getOwner()); });
  if (inits.size() + (linked.empty() ? 0 : 1) < 2)
    return 0;
  for (OpOperand *use : inits) {
    rewriter.setInsertionPoint(use->getOwner());
    Operation *own = rewriter.clone(*empty);
    rewriter.modifyOpInPlace(use->getOwner(),
                             [&] { use->set(own->getResult(0)); });
  }
  if (empty->use_empty())
    rewriter.eraseOp(empty);
  return inits.size();
}

namespace {
struct GPUMaterializeConstantsPass
    : public mp::impl::GPUMaterializeConstantsPassBase<
          GPUMaterializeConstantsPass> {
  void runOnOperation() override {
    SmallVector<arith::ConstantOp> constants;
    getOperation()->walk([&](arith::ConstantOp op) {
      if (isa<RankedTensorType>(op.getType()))
        constants.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (arith::ConstantOp op : constants) {
      auto type = cast<RankedTensorType>(op.getType());
      Location loc = op.getLoc();
      auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
      if (!splat) {
        rewriter.setInsertionPointAfter(op);
        auto copy = bufferization::AllocTensorOp::create(
            rewriter, loc, type, ValueRange(), op.getResult());
        rewriter.replaceAllUsesExcept(op.getResult(), copy.getResult(), copy);
        ++numCopied;
        continue;
      }
      rewriter.setInsertionPoint(op);
      Value scalar = arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()));
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      rewriter.replaceOpWithNewOp<linalg::FillOp>(op, scalar, empty);
      ++numFilled;
    }
    SmallVector<linalg::FillOp> fills;
    getOperation()->walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() && !fill->hasOneUse())
        fills.push_back(fill);
    });
    for (linalg::FillOp fill : fills) {
      unsigned uses = llvm::range_size(fill->getUses());
      fillPerInit(rewriter, fill);
      numFillsShared += uses - llvm::range_size(fill->getUses());
    }
    SmallVector<tensor::EmptyOp> empties;
    getOperation()->walk([&](tensor::EmptyOp empty) {
      if (!empty->hasOneUse())
        empties.push_back(empty);
    });
    for (tensor::EmptyOp empty : empties)
      numEmptiesShared += emptyPerInit(rewriter, empty);
  }
};
} // namespace
