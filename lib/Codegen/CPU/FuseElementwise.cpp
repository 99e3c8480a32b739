//===- FuseElementwise.cpp - Fewer kernels by elementwise fusion ----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Fuses a producer with one use, into anything but a contraction.
static bool shouldFuse(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  return !consumer || !linalg::isaContractionOpInterface(consumer);
}

namespace {
struct FuseElementwisePass
    : public mp::impl::FuseElementwisePassBase<FuseElementwisePass> {
  void runOnOperation() override {
    // Named elementwise ops (broadcasts, transposes, linalg.add...) as
    // generics, which fusion takes.
    SmallVector<linalg::LinalgOp> named;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op) && op.hasPureTensorSemantics() &&
          op.getNumLoops() == op.getNumParallelLoops() &&
          !isa<linalg::FillOp, linalg::CopyOp>(op) &&
          !linalg::isaContractionOpInterface(op))
        named.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
