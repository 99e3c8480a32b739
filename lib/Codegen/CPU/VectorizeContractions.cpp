//===- VectorizeContractions.cpp - mp-vectorize-contractions ----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Codegen/CPU/RegisterBlocks.h"
#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/X86Vector/Transforms.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
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
  if (loops.pair) {
    sizes[*loops.pair] = 0; // both elements of a pair in every block
    interchange.push_back(*loops.pair);
  }
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

/// Whether `op` multiplies bf16 pairs (the layout of
/// mp-pack-bf16-contractions): its last loop a reduction over the innermost
/// dimension of both operands.
static bool isPairContraction(vector::ContractionOp op) {
  if (!op.getLhsType().getElementType().isBF16())
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned pair = maps[0].getNumDims() - 1;
  AffineExpr last = getAffineDimExpr(pair, op.getContext());
  return op.getIteratorTypesArray()[pair] == vector::IteratorType::reduction &&
         maps[0].getNumResults() && maps[0].getResults().back() == last &&
         maps[1].getNumResults() && maps[1].getResults().back() == last;
}

/// The right-hand side of a block of pairs, a slice [1..., n, 2] of a
/// tensor [..., N, 2], read as one vector of 2n contiguous elements (the
/// transfer's lowering would read it in n pieces of 2).
static void readPairsAsOneVector(RewriterBase &rewriter,
                                 vector::ContractionOp op) {
  auto read = op.getRhs().getDefiningOp<vector::TransferReadOp>();
  if (!read || !read.getPermutationMap().isIdentity() ||
      read.hasOutOfBoundsDim() ||
      !llvm::all_of(read.getIndices(),
                    [](Value index) { return isZeroInteger(index); }))
    return;
  auto slice = read.getBase().getDefiningOp<tensor::ExtractSliceOp>();
  VectorType type = read.getVectorType();
  if (!slice || !slice.hasUnitStride() ||
      slice.getType().getShape() != type.getShape() ||
      slice.getSourceType().getShape().back() != 2 ||
      !isZeroInteger(slice.getMixedOffsets().back()))
    return;
  int64_t rank = type.getRank();
  Location loc = read.getLoc();
  rewriter.setInsertionPoint(read);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank - 2; ++d)
    groups.push_back({d});
  groups.push_back({rank - 2, rank - 1});
  Value flat =
      tensor::CollapseShapeOp::create(rewriter, loc, slice.getSource(), groups);
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  offsets.pop_back();
  AffineExpr n = rewriter.getAffineDimExpr(0);
  offsets.back() = affine::makeComposedFoldedAffineApply(rewriter, loc, n * 2,
                                                         {offsets.back()});
  SmallVector<OpFoldResult> sizes(rank - 1, rewriter.getIndexAttr(1));
  int64_t width = type.getNumElements();
  sizes.back() = rewriter.getIndexAttr(width);
  SmallVector<OpFoldResult> strides(rank - 1, rewriter.getIndexAttr(1));
  Value row = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({width}, type.getElementType()),
      flat, offsets, sizes, strides);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value vector = vector::TransferReadOp::create(
      rewriter, loc, VectorType::get({width}, type.getElementType()), row,
      ValueRange{zero}, read.getPadding(), ArrayRef<bool>{true});
  Value rhs = vector::ShapeCastOp::create(rewriter, loc, type, vector);
  rewriter.modifyOpInPlace(op, [&] { op.getRhsMutable().assign(rhs); });
}

/// Each block of bf16 pairs becomes one `x86vector.avx512.dot` per row (and
/// reduction step): the row's pair broadcast to every lane, multiplied with
/// the right-hand side's interleaved pairs (upstream's patterns, on
/// contractions unrolled to one row).
static LogicalResult lowerPairContractions(Operation *root) {
  MLIRContext *ctx = root->getContext();
  IRRewriter rewriter(ctx);
  root->walk([&](vector::ContractionOp op) {
    if (isPairContraction(op))
      readPairsAsOneVector(rewriter, op);
  });
  RewritePatternSet unroll(ctx);
  vector::populateVectorUnrollPatterns(
      unroll,
      vector::UnrollVectorOptions().setNativeShapeFn(
          [](Operation *op) -> std::optional<SmallVector<int64_t>> {
            auto contract = dyn_cast<vector::ContractionOp>(op);
            if (!contract || !isPairContraction(contract))
              return std::nullopt;
            // One row, every column, one reduction step, both
            // elements of the pair.
            SmallVector<int64_t> shape(contract.getIteratorTypes().size(), 1);
            shape.back() = 2;
            unsigned n = contract.getIndexingMapsArray()[1].getDimPosition(
                contract.getIndexingMapsArray()[1].getNumResults() - 2);
            shape[n] = contract.getRhsType().getShape().drop_back().back();
            return shape;
          }));
  if (failed(applyPatternsGreedily(root, std::move(unroll))))
    return failure();
  // Only the pair contractions: upstream's patterns also pair up other bf16
  // contractions, which must not get instructions the CPU may lack.
  SmallVector<Operation *> pairs;
  root->walk([&](vector::ContractionOp op) {
    if (isPairContraction(op))
      pairs.push_back(op);
  });
  RewritePatternSet dots(ctx);
  x86vector::populateVectorContractToPackedTypeDotProductPatterns(dots);
  return applyOpPatternsGreedily(pairs, std::move(dots));
}

LogicalResult VectorizeContractionsPass::vectorizeOne(RewriterBase &rewriter,
                                                      linalg::LinalgOp op) {
  FailureOr<ContractionLoops> loops = getContractionLoops(op);
  if (failed(loops))
    return failure();
  int64_t m = fitTile(loops->ranges[loops->m], tileM);
  // A block of pairs is one dot product (16 lanes) wide at most.
  int64_t n =
      fitTile(loops->ranges[loops->n],
              loops->pair ? std::min<int64_t>(tileN, kDotLanes) : tileN);
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
  IRRewriter rewriter(&getContext());
  for (linalg::LinalgOp op : collectContractions(getOperation())) {
    // A generic vectorizes to a product and a multi-reduction, which LLVM
    // computes without FMA; as linalg.contract it becomes a vector.contract
    // computed with FMA, as named contractions and the GPU's are: a
    // contraction gives the same bits whichever form it came in.
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
      if (FailureOr<linalg::LinalgOp> named =
              rewriteAsNamedContraction(rewriter, generic);
          succeeded(named))
        op = *named;
    (void)vectorizeOne(rewriter, op);
  }
  if (failed(lowerPairContractions(getOperation())))
    return signalPassFailure();
  // Hoisting leaves the K loops carrying the output and its block unchanged;
  // two loop-carried aliases of one tensor would make bufferization copy the
  // block out of the output and back on every block.
  RewritePatternSet patterns(&getContext());
  scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
  if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
    return signalPassFailure();
}
