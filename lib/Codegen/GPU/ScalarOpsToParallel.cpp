//===- ScalarOpsToParallel.cpp - 0-d linalg ops as one-iteration loops ----===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUSCALAROPSTOPARALLELPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct GPUScalarOpsToParallelPass
    : public mp::impl::GPUScalarOpsToParallelPassBase<
          GPUScalarOpsToParallelPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> scalars;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.getNumLoops() == 0 && op.hasPureBufferSemantics() &&
          !op->getParentOfType<gpu::LaunchOp>() &&
          !op->getParentOfType<scf::ParallelOp>())
        scalars.push_back(op);
    });
    OpBuilder b(&getContext());
    for (linalg::LinalgOp op : scalars) {
      b.setInsertionPoint(op);
      Location loc = op.getLoc();
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      auto loop = scf::ParallelOp::create(b, loc, zero, one, one);
      op->moveBefore(loop.getBody()->getTerminator());
    }
  }
};
} // namespace
