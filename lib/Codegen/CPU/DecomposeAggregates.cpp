//===- DecomposeAggregates.cpp - mp-decompose-aggregates --------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATESPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct DecomposeAggregatesPass
    : public mp::impl::DecomposeAggregatesPassBase<DecomposeAggregatesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregates) {
      // The decompositions build exp, max and division of floats; the
      // verifiers of linalg.softmax and friends accept any element type.
      for (Type type : op->getOperandTypes())
        if (!isa<FloatType>(getElementTypeOrSelf(type))) {
          op->emitError() << "cannot lower this op on " << type
                          << ": it needs floating-point values";
          return signalPassFailure();
        }
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results)) {
        op->emitError("cannot decompose this op for lowering");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *results);
      ++numDecomposed;
    }
  }
};
} // namespace
