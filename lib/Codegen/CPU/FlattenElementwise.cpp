//===- FlattenElementwise.cpp - mp-flatten-elementwise ----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      SmallVector<ReassociationIndices> groups = getFlattenedLoops(op);
      if (groups.empty())
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, groups, rewriter);
      if (failed(collapsed))
        continue;
      rewriter.replaceOp(op, collapsed->results);
      ++numFlattened;
    }
  }
};
} // namespace
