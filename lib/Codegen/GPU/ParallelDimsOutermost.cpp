//===- ParallelDimsOutermost.cpp - One kernel per reduction ---------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUPARALLELDIMSOUTERMOSTPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The interchange that puts the parallel dimensions of `op` first, or
/// nothing if they are first already.
static std::optional<SmallVector<unsigned>>
getParallelFirst(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  for (auto [i, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::parallel)
      order.push_back(i);
  for (auto [i, it] : llvm::enumerate(iterators))
    if (it != utils::IteratorType::parallel)
      order.push_back(i);
  for (auto [i, d] : llvm::enumerate(order))
    if (i != d)
      return order;
  return std::nullopt;
}

namespace {
struct GPUParallelDimsOutermostPass
    : public mp::impl::GPUParallelDimsOutermostPassBase<
          GPUParallelDimsOutermostPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() &&
          !op->getParentOfType<gpu::LaunchOp>() && getParallelFirst(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      SmallVector<unsigned> order = *getParallelFirst(op);
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue; // left as it is: correct, one launch per reduction point
        generic = *generalized;
      }
      if (succeeded(linalg::interchangeGenericOp(rewriter, generic, order)))
        ++numInterchanged;
    }
  }
};
} // namespace
