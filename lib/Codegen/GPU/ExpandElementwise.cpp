//===- ExpandElementwise.cpp - Elementwise ops on the shape read ----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// An elementwise op whose only reader is a tensor.expand_shape that another
// elementwise op reads (the cast of a GEMM's rows to f16, then unflattened
// into images that a ReLU's gradient reads) computes on the expanded shape
// instead, so that elementwise fusion can merge the two: the GEMM's
// epilogue then computes both, and the rows are never written.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUEXPANDELEMENTWISEPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Whether `op` is an elementwise generic on tensors: all loops parallel,
/// one result.
static bool isElementwise(Operation *op) {
  auto generic = dyn_cast_if_present<linalg::GenericOp>(op);
  return generic && generic->getNumResults() == 1 &&
         generic.getNumParallelLoops() == generic.getNumLoops() &&
         generic.hasPureTensorSemantics();
}

/// Whether upstream's reshape folding may expand the loops of the op that
/// `operand` (of an expand_shape) reads: an elementwise op, which only that
/// expand_shape reads, whose expanded result only an elementwise op reads.
/// Or the loops of the transpose that `operand` belongs to, which reads a
/// tensor.collapse_shape of what another transpose wrote (attention's
/// heads, transposed, collapsed with the batch, and transposed again):
/// elementwise fusion then composes the two. Other reshapes are left as
/// they are: a GEMM reads its operands and writes its result through them.
static bool isExpandable(OpOperand *operand) {
  if (auto collapse = operand->get().getDefiningOp<tensor::CollapseShapeOp>())
    return isTensorTranspose(operand->getOwner()) &&
           isTensorTranspose(collapse.getSrc().getDefiningOp());
  auto expand = dyn_cast<tensor::ExpandShapeOp>(operand->getOwner());
  if (!expand || !expand->hasOneUse())
    return false;
  Operation *producer = expand.getSrc().getDefiningOp();
  return isElementwise(producer) && producer->hasOneUse() &&
         isElementwise(*expand->user_begin());
}

namespace {
struct GPUExpandElementwisePass
    : public mp::impl::GPUExpandElementwisePassBase<GPUExpandElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    // Transposes that read a collapse_shape of a transpose, and that one,
    // as generics, which the folding below takes.
    llvm::SetVector<linalg::TransposeOp> transposes;
    getOperation()->walk([&](linalg::TransposeOp op) {
      auto collapse = op.getInput().getDefiningOp<tensor::CollapseShapeOp>();
      auto producer =
          collapse ? collapse.getSrc().getDefiningOp<linalg::TransposeOp>()
                   : nullptr;
      if (producer && op.hasPureTensorSemantics() &&
          producer.hasPureTensorSemantics()) {
        transposes.insert(op);
        transposes.insert(producer);
      }
    });
    IRRewriter rewriter(&getContext());
    for (linalg::TransposeOp op : transposes) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    RewritePatternSet patterns(&getContext());
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, isExpandable);
    // The expanded result's tensor.empty, expanded itself.
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
