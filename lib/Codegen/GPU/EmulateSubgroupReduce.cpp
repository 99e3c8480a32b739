//===- EmulateSubgroupReduce.cpp - Warp reductions on the host ------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUEMULATESUBGROUPREDUCEPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The load of `buffer[thread]` that gives each thread's value to a
/// warp-wide `reduce` in an scf.forall over the threads of whole warps (from
/// 0 in steps of 1, a multiple of 32 of them), if it is one.
static memref::LoadOp getThreadLoad(gpu::SubgroupReduceOp reduce) {
  auto load = reduce.getValue().getDefiningOp<memref::LoadOp>();
  if (!load || load.getIndices().size() != 1 || reduce.getClusterSize())
    return nullptr;
  auto forall = reduce->getParentOfType<scf::ForallOp>();
  if (!forall || forall.getRank() != 1 ||
      load.getIndices()[0] != forall.getInductionVar(0) ||
      getConstantIntValue(forall.getMixedLowerBound()[0]) != 0 ||
      getConstantIntValue(forall.getMixedStep()[0]) != 1)
    return nullptr;
  std::optional<int64_t> threads =
      getConstantIntValue(forall.getMixedUpperBound()[0]);
  if (!threads || *threads <= 0 || *threads % mp::kWarpSize != 0)
    return nullptr;
  return load;
}

namespace {
struct GPUEmulateSubgroupReducePass
    : public mp::impl::GPUEmulateSubgroupReducePassBase<
          GPUEmulateSubgroupReducePass> {
  void runOnOperation() override {
    SmallVector<gpu::SubgroupReduceOp> reduces;
    getOperation()->walk(
        [&](gpu::SubgroupReduceOp op) { reduces.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (gpu::SubgroupReduceOp reduce : reduces) {
      memref::LoadOp load = getThreadLoad(reduce);
      if (!load) {
        reduce.emitError("mp-gpu-emulate-subgroup-reduce: expected the value "
                         "of thread t to be element t of a buffer, in an "
                         "scf.forall over the threads of whole warps");
        return signalPassFailure();
      }
      // Every lane computes what the shuffles give (upstream's lowering:
      // XOR offsets 1, 2, ..., 16, each lane combining its value with its
      // partner's) from the elements of its warp's threads, in the same
      // order: adjacent pairs first.
      Location loc = reduce.getLoc();
      rewriter.setInsertionPoint(reduce);
      Value thread = load.getIndices()[0];
      bool oneWarp =
          getConstantIntValue(reduce->getParentOfType<scf::ForallOp>()
                                  .getMixedUpperBound()[0]) == mp::kWarpSize;
      SmallVector<Value> values;
      for (int64_t lane = 0; lane < mp::kWarpSize; ++lane) {
        AffineExpr index = rewriter.getAffineConstantExpr(lane);
        if (!oneWarp)
          index = index + rewriter.getAffineDimExpr(0).floorDiv(mp::kWarpSize) *
                              mp::kWarpSize;
        values.push_back(memref::LoadOp::create(
            rewriter, loc, load.getMemRef(),
            getValueOrCreateConstantIndexOp(
                rewriter, loc,
                affine::makeComposedFoldedAffineApply(
                    rewriter, loc, AffineMap::get(1, 0, index),
                    {OpFoldResult(thread)}))));
      }
      vector::CombiningKind kind = gpu::convertReductionKind(reduce.getOp());
      while (values.size() > 1) {
        SmallVector<Value> next;
        for (size_t i = 0; i < values.size(); i += 2)
          next.push_back(vector::makeArithReduction(rewriter, loc, kind,
                                                    values[i], values[i + 1]));
        values = std::move(next);
      }
      rewriter.replaceOp(reduce, values.front());
    }
  }
};
} // namespace
