//===- FlattenElementwise.cpp - mp-flatten-elementwise ----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_FLATTENELEMENTWISEPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// All loops of `op` as one group, when `op` is an all-parallel generic on
/// tensors of two or more loops whose maps keep them in order.
static SmallVector<ReassociationIndices>
getFlattenedLoops(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumLoops() < 2 ||
      generic.getNumLoops() != generic.getNumParallelLoops())
    return {};
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, generic.getNumLoops()));
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  if (!llvm::all_of(maps, [](AffineMap map) {
        return map.isIdentity() || map.getNumResults() == 0;
      }))
    return {};
  if (!linalg::areDimSequencesPreserved(maps, all))
    return {};
  return {all};
}

namespace {
struct FlattenElementwisePass
    : public mp::impl::FlattenElementwisePassBase<FlattenElementwisePass> {
  void runOnOperation() override {
    int64_t before = countFlattenable();
    RewritePatternSet patterns(&getContext());
    linalg::populateCollapseDimensions(patterns, getFlattenedLoops);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    numFlattened += before - countFlattenable();
  }

private:
  int64_t countFlattenable() {
    int64_t count = 0;
    getOperation()->walk(
        [&](linalg::LinalgOp op) { count += !getFlattenedLoops(op).empty(); });
    return count;
  }
};
} // namespace
