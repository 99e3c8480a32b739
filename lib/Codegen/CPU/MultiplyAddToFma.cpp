//===- MultiplyAddToFma.cpp - Contractions accumulated with FMA -----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Computes each step of the contractions and convolutions that are left to
// loop lowering as one fused multiply-add, as vector.contract's lowering and
// the GPU's kernels do, so that a result does not depend on which path
// computed it.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_MULTIPLYADDTOFMAPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Rewrites the body of `op`, `acc + a * b` (isMultiplyAccumulate), as
/// `math.fma(a, b, acc)`; a named op becomes a linalg.generic first, since
/// its body is implied by its name.
static void rewriteBody(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op.getOperation())) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return;
    op = *generic;
  }
  Block &body = *op.getBlock();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  Value acc = body.getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  rewriter.setInsertionPoint(add);
  Value fma = math::FmaOp::create(rewriter, add.getLoc(), mul.getLhs(),
                                  mul.getRhs(), acc);
  rewriter.replaceOp(add, fma);
  rewriter.eraseOp(mul);
}

namespace {
struct MultiplyAddToFmaPass
    : public mp::impl::MultiplyAddToFmaPassBase<MultiplyAddToFmaPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> targets;
    getOperation()->walk([&](linalg::LinalgOp op) {
      // f32 accumulators, as the GPU's GEMM kernels have; others are
      // loops there too, whose multiplies and adds round one by one.
      if ((linalg::isaContractionOpInterface(op) ||
           linalg::isaConvolutionOpInterface(op)) &&
          getElementTypeOrSelf(op.getDpsInitOperand(0)->get()).isF32() &&
          isMultiplyAccumulate(op))
        targets.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : targets)
      rewriteBody(rewriter, op);
  }
};
} // namespace
