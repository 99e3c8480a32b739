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

/// The loops of `op`, an all-parallel generic on tensors, in groups of
/// consecutive loops that every operand reads contiguously (in order, next
/// to each other, or not at all), each group as long as it can be; none
/// if no group has two loops.
static SmallVector<ReassociationIndices>
getFlattenedLoops(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumLoops() < 2 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return {};
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  SmallVector<ReassociationIndices> groups = {{0}};
  for (int64_t d = 1, e = generic.getNumLoops(); d < e; ++d) {
    ReassociationIndices longer = groups.back();
    longer.push_back(d);
    if (linalg::areDimSequencesPreserved(maps, longer))
      groups.back() = std::move(longer);
    else
      groups.push_back({d});
  }
  if (groups.size() == generic.getNumLoops())
    return {};
  return groups;
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
