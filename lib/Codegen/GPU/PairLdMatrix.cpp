//===- PairLdMatrix.cpp - Two mma.sync B fragments per ldmatrix.x4 --------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// ldmatrix.x2 takes the row addresses of its two 8x8 matrices from lanes
// 0-15 and ignores lanes 16-31; ldmatrix.x4 takes four matrices from all
// 32 lanes, register i of each lane holding part of matrix i (PTX ISA,
// ldmatrix). So two x2 loads are one x4 load whose lanes 16-31 give the
// second load's addresses: registers 0-1 are the first load's, 2-3 the
// second's. Lane l >= 16 computes the second load's address of lane l - 16
// as the first load's indices evaluated for lane l - 16 (gpu.lane_id and
// gpu.thread_id x replaced) plus the constant differences between the two
// loads' indices.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUPAIRLDMATRIXPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The lanes whose addresses an ldmatrix of 2 tiles reads.
static constexpr int64_t kHalfWarp = mp::kWarpSize / 2;

/// Whether `value` is the same in lane l and lane l - 16 of a warp once
/// gpu.lane_id and gpu.thread_id x are replaced by their values in lane
/// l - 16: it is computed by pure ops from those ids, other ids, loop
/// induction variables, arguments and constants.
static bool isLaneExpression(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<LoopLikeOpInterface>(owner))
      return llvm::is_contained(
          loop.getLoopInductionVars().value_or(SmallVector<Value>{}), value);
    if (auto launch = dyn_cast<gpu::LaunchOp>(owner)) {
      gpu::KernelDim3 threads = launch.getThreadIds();
      return value != threads.x && value != threads.y && value != threads.z;
    }
    return owner->hasTrait<OpTrait::IsIsolatedFromAbove>();
  }
  Operation *def = value.getDefiningOp();
  if (isa<gpu::LaneIdOp, gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp,
          gpu::GridDimOp>(def))
    return true;
  if (def->getNumRegions() != 0 || def->getNumResults() != 1 || !isPure(def))
    return false;
  return llvm::all_of(def->getOperands(), isLaneExpression);
}

/// Whether the warps of the kernel around `op` are 32 consecutive threads
/// along x: its blocks' x size is a known multiple of 32.
static bool hasWarpsAlongX(Operation *op) {
  if (auto func = op->getParentOfType<gpu::GPUFuncOp>()) {
    std::optional<ArrayRef<int32_t>> size = func.getKnownBlockSize();
    return size && (*size)[0] % mp::kWarpSize == 0;
  }
  if (auto launch = op->getParentOfType<gpu::LaunchOp>()) {
    std::optional<int64_t> size = getConstantIntValue(launch.getBlockSizeX());
    return size && *size % mp::kWarpSize == 0;
  }
  return false;
}

/// `value` as an affine value map: its affine.apply, or the value itself.
static affine::AffineValueMap getValueMap(Value value) {
  if (auto apply = value.getDefiningOp<affine::AffineApplyOp>())
    return apply.getAffineValueMap();
  AffineMap identity =
      AffineMap::get(0, 1, getAffineSymbolExpr(0, value.getContext()));
  return affine::AffineValueMap(identity, ValueRange{value});
}

/// `second - first` if it is a constant.
static std::optional<int64_t> getConstantDifference(Value first, Value second) {
  if (first == second)
    return 0;
  affine::AffineValueMap difference;
  affine::AffineValueMap::difference(getValueMap(second), getValueMap(first),
                                     &difference);
  AffineMap map = difference.getAffineMap();
  if (!map.isSingleConstant())
    return std::nullopt;
  return map.getSingleConstantResult();
}

/// The constant differences of `second`'s indices from `first`'s, if both
/// load 2 tiles of the same buffer alike and the differences are constants.
static std::optional<SmallVector<int64_t>>
getPairOffsets(nvgpu::LdMatrixOp first, nvgpu::LdMatrixOp second) {
  if (first.getSrcMemref() != second.getSrcMemref() ||
      first.getTranspose() != second.getTranspose() ||
      first.getType() != second.getType())
    return std::nullopt;
  SmallVector<int64_t> offsets;
  for (auto [a, b] : llvm::zip(first.getIndices(), second.getIndices())) {
    std::optional<int64_t> offset = getConstantDifference(a, b);
    if (!offset)
      return std::nullopt;
    offsets.push_back(*offset);
  }
  return offsets;
}

/// Replaces `first` and `second` by one load of 4 tiles at `first`.
static void mergeLoads(RewriterBase &rewriter, nvgpu::LdMatrixOp first,
                       nvgpu::LdMatrixOp second, ArrayRef<int64_t> offsets) {
  Location loc = first.getLoc();
  MLIRContext *context = rewriter.getContext();
  rewriter.setInsertionPoint(first);
  AffineExpr d0 = getAffineDimExpr(0, context);
  AffineExpr d1 = getAffineDimExpr(1, context);
  auto apply = [&](AffineExpr expr, ValueRange operands) -> Value {
    return affine::AffineApplyOp::create(
        rewriter, loc, AffineMap::get(operands.size(), 0, expr), operands);
  };
  Value lane = gpu::LaneIdOp::create(rewriter, loc, /*upperBound=*/nullptr);
  Value half = apply(d0.floorDiv(kHalfWarp), lane);
  // Lane l >= 16 stands in for lane l - 16: the same lane of the half warp,
  // the thread 16 before it (a warp is 32 consecutive threads along x).
  Value halfLane = apply(d0 % kHalfWarp, lane);
  Value threadX = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value halfThreadX = apply(d0 - d1 * kHalfWarp, {threadX, half});
  auto replace = [&](Value v) -> Value {
    if (v.getDefiningOp<gpu::LaneIdOp>())
      return halfLane;
    if (auto thread = v.getDefiningOp<gpu::ThreadIdOp>())
      if (thread.getDimension() == gpu::Dimension::x)
        return halfThreadX;
    return Value();
  };
  SmallVector<Value> indices;
  for (auto [index, offset] : llvm::zip(first.getIndices(), offsets)) {
    Value recomputed = recomputeWith(rewriter, first, index, replace);
    indices.push_back(
        offset == 0 ? recomputed : apply(d0 + d1 * offset, {recomputed, half}));
  }
  auto type = cast<VectorType>(first.getType());
  auto pairType = VectorType::get({2 * type.getDimSize(0), type.getDimSize(1)},
                                  type.getElementType());
  Value pair = nvgpu::LdMatrixOp::create(
      rewriter, loc, pairType, first.getSrcMemref(), indices,
      first.getTranspose(), 2 * first.getNumTiles());
  rewriter.replaceOpWithNewOp<vector::ShuffleOp>(first, pair, pair,
                                                 ArrayRef<int64_t>{0, 1});
  rewriter.setInsertionPoint(second);
  rewriter.replaceOpWithNewOp<vector::ShuffleOp>(second, pair, pair,
                                                 ArrayRef<int64_t>{2, 3});
}

namespace {
struct GPUPairLdMatrixPass
    : public mp::impl::GPUPairLdMatrixPassBase<GPUPairLdMatrixPass> {
  using Base::Base;

  void runOnOperation() override {
    // The loads' index computations, each once (the conversion computes
    // gpu.lane_id and the same expressions again for every load).
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
    // The loads of 2 tiles of each block, in order.
    llvm::MapVector<Block *, SmallVector<nvgpu::LdMatrixOp>> loads;
    getOperation()->walk([&](nvgpu::LdMatrixOp load) {
      if (load.getNumTiles() == 2 && hasWarpsAlongX(load) &&
          llvm::all_of(load.getIndices(), isLaneExpression))
        loads[load->getBlock()].push_back(load);
    });
    for (auto &[block, blockLoads] : loads) {
      llvm::SmallPtrSet<Operation *, 16> merged;
      for (auto [i, first] : llvm::enumerate(blockLoads)) {
        if (merged.contains(first))
          continue;
        for (nvgpu::LdMatrixOp second :
             ArrayRef(blockLoads).drop_front(i + 1)) {
          if (merged.contains(second))
            continue;
          std::optional<SmallVector<int64_t>> offsets =
              getPairOffsets(first, second);
          if (!offsets)
            continue;
          merged.insert(first);
          merged.insert(second);
          mergeLoads(rewriter, first, second, *offsets);
          ++numPaired;
          break;
        }
      }
    }
  }
};
} // namespace
