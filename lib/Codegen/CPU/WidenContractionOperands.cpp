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

/// A convolution of bf16 inputs whose GEMM (mp-conv-to-gemm) could take
/// bf16 pairs: an even number of reduction steps (static).
bool isPairableConvolution(linalg::LinalgOp op) {
  if (!linalg::isaConvolutionOpInterface(op) ||
      !llvm::all_of(op.getDpsInputs(), [](Value input) {
        return getElementTypeOrSelf(input).isBF16();
      }))
    return false;
  int64_t steps = 1;
  for (auto [range, kind] :
       llvm::zip_equal(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
    if (kind == utils::IteratorType::reduction) {
      if (ShapedType::isDynamic(range))
        return false;
      steps *= range;
    }
  return steps % 2 == 0;
}

struct WidenContractionOperands
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  WidenContractionOperands(MLIRContext *ctx, bool keepBF16Convolutions)
      : OpInterfaceRewritePattern(ctx),
        keepBF16Convolutions(keepBF16Convolutions) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || !op.getRegionBuilder() ||
        !(linalg::isaConvolutionOpInterface(op) ||
          linalg::isaContractionOpInterface(op)))
      return rewriter.notifyMatchFailure(
          op, "not a named contraction or convolution");
    if (keepBF16Convolutions && isPairableConvolution(op))
      return rewriter.notifyMatchFailure(op, "bf16 convolution kept");
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

private:
  bool keepBF16Convolutions;
};

struct WidenContractionOperandsPass
    : public mp::impl::WidenContractionOperandsPassBase<
          WidenContractionOperandsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WidenContractionOperands>(&getContext(), keepBF16Convolutions);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
