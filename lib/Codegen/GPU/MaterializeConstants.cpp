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
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUMATERIALIZECONSTANTSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

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
  }
};
} // namespace
