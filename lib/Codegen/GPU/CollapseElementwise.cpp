//===- CollapseElementwise.cpp - Elementwise ops on the shape read --------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// An elementwise op whose only reader is a tensor.collapse_shape (a cast of
// an image before it is flattened into rows) computes on the collapsed
// shape instead, so that what reads the rows (a GEMM) reads the op's result
// itself and can fuse the op into its operand copies. A cast of what another
// elementwise op computes, read flattened, computes on that op's shape, so
// that it fuses with it.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUCOLLAPSEELEMENTWISEPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Whether `op` is an elementwise generic on tensors with one result (all
/// loops parallel).
static bool isElementwise(linalg::GenericOp op) {
  return op && op->getNumResults() == 1 &&
         op.getNumParallelLoops() == op.getNumLoops() &&
         op.hasPureTensorSemantics();
}

/// Whether upstream's reshape folding may collapse the loops of the op that
/// `operand` (of a collapse_shape) reads: an elementwise generic with one
/// result, which only that collapse_shape reads, of the function's
/// arguments (the batch; an op on what another op computes may be fused
/// with it, as a ReLU into its convolution's epilogue, on the shape it
/// has). Other reshapes (an expand_shape read by a generic) are left as
/// they are.
static bool isCollapsible(OpOperand *operand) {
  auto collapse = dyn_cast<tensor::CollapseShapeOp>(operand->getOwner());
  if (!collapse)
    return false;
  auto producer = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
  return isElementwise(producer) && producer->hasOneUse() &&
         llvm::all_of(producer.getDpsInputs(), llvm::IsaPred<BlockArgument>);
}

/// Whether upstream's reshape folding may expand the loops of the
/// elementwise generic of one input (identity maps) that reads `operand`, a
/// collapse_shape of what another elementwise generic computes (a gradient
/// cast to f16 after it is flattened into rows), to the shape of that
/// value: its loops then run over the points of the op that computes it,
/// with which they fuse.
static bool isExpandable(OpOperand *operand) {
  auto collapse = operand->get().getDefiningOp<tensor::CollapseShapeOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!collapse || !isElementwise(consumer))
    return false;
  return isElementwise(collapse.getSrc().getDefiningOp<linalg::GenericOp>()) &&
         consumer.getNumDpsInputs() == 1 &&
         llvm::all_of(consumer.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); });
}

namespace {
struct GPUCollapseElementwisePass
    : public mp::impl::GPUCollapseElementwisePassBase<
          GPUCollapseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateFoldReshapeOpsByCollapsingPatterns(patterns, isCollapsible);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, isExpandable);
    // The collapsed result's tensor.empty, collapsed itself.
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
