//===- VectorizeContractions.cpp - mp-vectorize-contractions ----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Codegen/CPU/RegisterBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_VECTORIZECONTRACTIONSPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct VectorizeContractionsPass
    : public mp::impl::VectorizeContractionsPassBase<
          VectorizeContractionsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult vectorizeOne(RewriterBase &rewriter, linalg::LinalgOp op);
};
} // namespace

/// Tiles `op` by `m` x `n` x `k` (1 for batch loops) with the m, n, k loops
/// in `order`; fails unless the tile divides the sizes.
static FailureOr<scf::SCFTilingResult>
tileContraction(RewriterBase &rewriter, TilingInterface op,
                const ContractionLoops &loops, int64_t m, int64_t n, int64_t k,
                ArrayRef<unsigned> order) {
  if (loops.ranges[loops.m] % m || loops.ranges[loops.n] % n ||
      loops.ranges[loops.k] % k)
    return failure();
  SmallVector<int64_t> sizes(loops.ranges.size(), 1);
  sizes[loops.m] = m;
  sizes[loops.n] = n;
  sizes[loops.k] = k;
  SmallVector<int64_t> interchange(loops.batch.begin(), loops.batch.end());
  interchange.append(order.begin(), order.end());
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, op, options);
  if (succeeded(tiled))
    rewriter.replaceOp(op, tiled->replacements);
  return tiled;
}

/// The number of row blocks (M / tile-m) from which a right-hand panel is
/// packed.
static constexpr int64_t kMinRowBlocksToPack = 16;

/// In the loop nest (batch..., n, m, k) of a tiled contraction, copies the
/// panel of the right-hand side that the n loop selects into a contiguous
/// tensor before the m loop, and makes the register blocks read from it.
static void packRightHandPanel(RewriterBase &rewriter,
                               scf::SCFTilingResult &tiled) {
  auto block = cast<linalg::LinalgOp>(tiled.tiledOps.front());
  auto slice = block.getDpsInputs()[1].getDefiningOp<tensor::ExtractSliceOp>();
  size_t numLoops = tiled.loops.size();
  if (!slice || numLoops < 3)
    return;
  auto mLoop = cast<scf::ForOp>(tiled.loops[numLoops - 2].getOperation());
  auto kLoop = cast<scf::ForOp>(tiled.loops[numLoops - 1].getOperation());
  Value rhs = slice.getSource();
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  // The panel: every row of the right-hand side, the columns of this block
  // (the offsets that do not depend on the m and k loops).
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  SmallVector<int64_t> panelShape;
  for (auto [d, offset] : llvm::enumerate(offsets)) {
    Value v = dyn_cast<Value>(offset);
    if (v && v == kLoop.getInductionVar()) {
      offsets[d] = rewriter.getIndexAttr(0);
      sizes[d] = rewriter.getIndexAttr(rhsType.getDimSize(d));
    } else if (v && v == mLoop.getInductionVar()) {
      return;
    }
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    if (!size)
      return;
    panelShape.push_back(*size);
  }
  for (OpFoldResult offset : offsets)
    if (Value v = dyn_cast<Value>(offset);
        v && !v.getParentRegion()->isAncestor(mLoop->getParentRegion()))
      return;
  rewriter.setInsertionPoint(mLoop);
  Location loc = slice.getLoc();
  auto panelType = RankedTensorType::get(panelShape, rhsType.getElementType());
  Value panel = tensor::ExtractSliceOp::create(
      rewriter, loc, panelType, rhs, offsets, sizes, slice.getMixedStrides());
  Value empty = tensor::EmptyOp::create(rewriter, loc, panelShape,
                                        rhsType.getElementType());
  Value packed =
      linalg::CopyOp::create(rewriter, loc, panel, empty).getResult(0);
  // The block reads rows k.. of the packed panel.
  SmallVector<OpFoldResult> blockOffsets = slice.getMixedOffsets();
  for (auto [d, offset] : llvm::enumerate(blockOffsets)) {
    Value v = dyn_cast<Value>(offset);
    if (!v || v != kLoop.getInductionVar())
      blockOffsets[d] = rewriter.getIndexAttr(0);
  }
  rewriter.setInsertionPoint(slice);
  rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
      slice, slice.getType(), packed, blockOffsets, slice.getMixedSizes(),
      slice.getMixedStrides());
}

LogicalResult VectorizeContractionsPass::vectorizeOne(RewriterBase &rewriter,
                                                      linalg::LinalgOp op) {
  FailureOr<ContractionLoops> loops = getContractionLoops(op);
  if (failed(loops))
    return failure();
  int64_t m = fitTile(loops->ranges[loops->m], tileM);
  int64_t n = fitTile(loops->ranges[loops->n], tileN);
  int64_t k = fitTile(loops->ranges[loops->k], tileK);
  FailureOr<scf::SCFTilingResult> tiled =
      tileContraction(rewriter, cast<TilingInterface>(op.getOperation()),
                      *loops, m, n, k, {loops->n, loops->m, loops->k});
  if (failed(tiled))
    return failure();
  // A packed panel pays when many row blocks read it: the copy costs as
  // much as one pass over it. (An im2col GEMM of a convolution with 8
  // output channels, two row blocks, ran 1.7x faster unpacked.)
  if (loops->ranges[loops->m] / m >= kMinRowBlocksToPack)
    packRightHandPanel(rewriter, *tiled);
  Operation *block = tiled->tiledOps.front();
  rewriter.setInsertionPoint(block);
  FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
      rewriter, block, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
      /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
      /*assumeDynamicDimsMatchVecSizes=*/false,
      /*createNamedContraction=*/true);
  if (failed(vectorized))
    return failure();
  rewriter.replaceOp(block, vectorized->replacements);
  // The accumulator block is read and written at the same place in every
  // iteration of the reduction loop: keep it in registers across the loop.
  // Slices first, then the vector transfers of the hoisted slice.
  LoopLikeOpInterface reduction = tiled->loops.back();
  for (int round = 0; round < 2; ++round) {
    moveLoopInvariantCode(reduction);
    reduction = hoistLoopInvariantSubsets(rewriter, reduction);
  }
  ++numVectorized;
  return success();
}

void VectorizeContractionsPass::runOnOperation() {
  if (tileM <= 0 || tileN <= 0 || tileK <= 0) {
    emitError(getOperation()->getLoc())
        << "mp-vectorize-contractions: tile-m, tile-n and tile-k must be "
           "positive";
    return signalPassFailure();
  }
  SmallVector<linalg::LinalgOp> contractions;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (linalg::isaContractionOpInterface(op))
      contractions.push_back(op);
  });
  IRRewriter rewriter(&getContext());
  for (linalg::LinalgOp op : contractions)
    (void)vectorizeOne(rewriter, op);
  // Hoisting leaves the K loops carrying the output and its block unchanged;
  // two loop-carried aliases of one tensor would make bufferization copy the
  // block out of the output and back on every block.
  RewritePatternSet patterns(&getContext());
  scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
  if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
    return signalPassFailure();
}
