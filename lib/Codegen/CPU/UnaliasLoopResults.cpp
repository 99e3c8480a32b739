//===- UnaliasLoopResults.cpp - mp-unalias-loop-results ---------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Gives every result of an scf.for a tensor of its own before One-Shot
// Bufferize, which takes a loop's results to share buffers only with their
// own initial values and with allocations inside the loop.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_UNALIASLOOPRESULTSPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The tensor `value` is a view of: through the tensor ops whose result
/// bufferizes to a view of their source's buffer.
static Value getViewedTensor(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
             tensor::ExtractSliceOp, tensor::CastOp, tensor::ReshapeOp,
             tensor::BitcastOp>(op))
      break;
    value = op->getOperand(0);
  }
  return value;
}

namespace {
struct UnaliasLoopResultsPass
    : public mp::impl::UnaliasLoopResultsPassBase<UnaliasLoopResultsPass> {
  using Base::Base;

  void runOnOperation() override {
    OpBuilder builder(&getContext());
    getOperation()->walk([&](scf::ForOp loop) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      llvm::SmallDenseSet<Value> yielded;
      for (OpOperand &operand : yield->getOpOperands()) {
        Value value = operand.get();
        if (!isa<RankedTensorType>(value.getType()) ||
            yielded.insert(getViewedTensor(value)).second)
          continue;
        builder.setInsertionPoint(yield);
        auto copy = bufferization::AllocTensorOp::create(
            builder, yield.getLoc(), cast<RankedTensorType>(value.getType()),
            /*dynamicSizes=*/ValueRange(), /*copy=*/value);
        operand.set(copy);
        ++numCopied;
      }
    });
  }
};
} // namespace
