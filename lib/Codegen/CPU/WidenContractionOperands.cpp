//===- WidenContractionOperands.cpp - mp-widen-contraction-operands -----===//
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
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_WIDENCONTRACTIONOPERANDSPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {

bool isLowFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor &&
         (tensor.getElementType().isF16() || tensor.getElementType().isBF16());
}

struct WidenContractionOperands
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || !op.getRegionBuilder() ||
        !(linalg::isaConvolutionOpInterface(op) ||
          linalg::isaContractionOpInterface(op)))
      return rewriter.notifyMatchFailure(
          op, "not a named contraction or convolution");
    if (FailureOr<ContractionLoops> loops = getContractionLoops(op);
        succeeded(loops) && loops->pair)
      return rewriter.notifyMatchFailure(
          op, "bf16 pairs of mp-pack-bf16-contractions");
    if (!llvm::all_of(op.getDpsInits(), [](Value init) {
          return getElementTypeOrSelf(init.getType()).isF32();
        }))
      return rewriter.notifyMatchFailure(op, "accumulator is not f32");
    SmallVector<OpOperand *> low;
    for (OpOperand *input : op.getDpsInputOperands())
      if (isLowFloatTensor(input->get().getType()))
        low.push_back(input);
    if (low.empty())
      return rewriter.notifyMatchFailure(op, "no f16/bf16 input");
    rewriter.setInsertionPoint(op);
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> wide;
    for (OpOperand *input : low)
      wide.push_back(
          createElementwise(rewriter, op.getLoc(), input->get(), f32,
                            [](OpBuilder &b, Location loc, ValueRange args) {
                              return SmallVector<Value>{toF32(b, loc, args[0])};
                            })[0]);
    rewriter.modifyOpInPlace(op, [&] {
      for (auto [input, value] : llvm::zip_equal(low, wide)) {
        input->set(value);
        op.getBlock()->getArgument(input->getOperandNumber()).setType(f32);
      }
    });
    regenerateNamedOpBody(rewriter, op);
    return success();
  }
};

struct WidenContractionOperandsPass
    : public mp::impl::WidenContractionOperandsPassBase<
          WidenContractionOperandsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WidenContractionOperands>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
