//===- ConvToGemm.cpp - Convolutions as Tensor Core GEMMs -----------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Convolutions with f16/bf16 operands and an f32 accumulator as GEMMs that
// the Tensor Core path takes: the image's patches (im2col) and the filter as
// gathers (linalg.generic with one input read through an affine map), and
// a contraction of the two into the output seen as a matrix. The gathers
// feed only the contraction, so mp-gpu-tile-contractions computes them in
// its operand copies and neither is written to memory: an implicit GEMM.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUCONVTOGEMMPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
/// A convolution's loops grouped into the dimensions of a GEMM: each group
/// is collapsed into one GEMM loop (row major, in the order listed).
struct ConvGemm {
  /// Output loops that index the image but not the filter and are not next
  /// to the image's spatial loops, and the depth (group) loops: one batch.
  SmallVector<unsigned> batch;
  /// Output loops that index the filter but not the image (F).
  SmallVector<unsigned> channels;
  /// The image's spatial loops with the output loops next to them that do
  /// not index the filter (N, H, W of NHWC).
  SmallVector<unsigned> pixels;
  /// The reduction loops, in the order the filter stores them.
  SmallVector<unsigned> reduction;
  /// The output's dimensions grouped as above, in the output's order.
  SmallVector<ReassociationIndices> outputGroups;
  /// Whether the channels come before the pixels in the output.
  bool channelsFirst;
};
} // namespace

/// Whether loop `d` occurs in a result of `map`, and whether as a result of
/// its own.
static bool uses(AffineMap map, unsigned d) {
  return llvm::any_of(map.getResults(),
                      [&](AffineExpr e) { return e.isFunctionOfDim(d); });
}
static bool isResult(AffineMap map, unsigned d) {
  return llvm::is_contained(map.getResults(),
                            getAffineDimExpr(d, map.getContext()));
}

/// The GEMM that `op` (a convolution: image, filter, output) is, if its
/// output's loops form at most one batch group, one channel group and one
/// pixel group, each contiguous in the output.
static std::optional<ConvGemm> matchConvGemm(linalg::LinalgOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap image = maps[0], filter = maps[1], output = maps[2];
  if (!filter.isProjectedPermutation() || !output.isProjectedPermutation())
    return std::nullopt;
  enum Kind { Batch, Channel, Pixel };
  SmallVector<Kind> kinds;
  SmallVector<unsigned> loops;
  for (AffineExpr e : output.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    bool inImage = uses(image, d), inFilter = uses(filter, d);
    if (!inImage && inFilter)
      kinds.push_back(Channel);
    else if (inImage && !inFilter && !isResult(image, d))
      kinds.push_back(Pixel); // spatial: combined with a filter loop
    else if (inImage)
      kinds.push_back(Batch); // N, or a depth loop in all three
    else
      return std::nullopt;
    loops.push_back(d);
  }
  // N next to the spatial loops joins them.
  for (int64_t i = 0, e = kinds.size(); i < e; ++i) {
    if (kinds[i] != Pixel)
      continue;
    for (int64_t j = i - 1;
         j >= 0 && kinds[j] == Batch && !uses(filter, loops[j]); --j)
      kinds[j] = Pixel;
    for (int64_t j = i + 1;
         j < e && kinds[j] == Batch && !uses(filter, loops[j]); ++j)
      kinds[j] = Pixel;
  }
  ConvGemm gemm;
  SmallVector<Kind> order;
  for (auto [i, kind] : llvm::enumerate(kinds)) {
    if (order.empty() || order.back() != kind) {
      if (llvm::is_contained(order, kind))
        return std::nullopt; // a group split in two
      order.push_back(kind);
      gemm.outputGroups.emplace_back();
    }
    gemm.outputGroups.back().push_back(i);
    (kind == Batch     ? gemm.batch
     : kind == Channel ? gemm.channels
                       : gemm.pixels)
        .push_back(loops[i]);
  }
  // The batch, if any, first (the layouts the Tensor Core path is tested
  // with: NCHW, NGCHW, NHWC...; a depthwise convolution with a multiplier
  // stores it between the pixels and the channels).
  if (gemm.channels.empty() || gemm.pixels.empty() ||
      (!gemm.batch.empty() && order.front() != Batch))
    return std::nullopt;
  gemm.channelsFirst = llvm::find(order, Channel) < llvm::find(order, Pixel);
  for (AffineExpr e : filter.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    if (!uses(output, d))
      gemm.reduction.push_back(d);
  }
  if (gemm.reduction.size() != op.getNumReductionLoops())
    return std::nullopt;
  return gemm;
}

/// The expressions of the loops `group` (sizes `ranges`) in terms of
/// `linear`, their row-major linearization, stored at their positions in
/// `exprs`.
static void delinearize(AffineExpr linear, ArrayRef<unsigned> group,
                        ArrayRef<int64_t> ranges,
                        MutableArrayRef<AffineExpr> exprs) {
  int64_t stride = 1;
  for (int64_t i = group.size() - 1; i >= 0; --i) {
    AffineExpr e = linear.floorDiv(stride);
    exprs[group[i]] = i == 0 ? e : e % ranges[group[i]];
    stride *= ranges[group[i]];
  }
}

/// The number of iterations of the loops `group`.
static int64_t getSize(ArrayRef<unsigned> group, ArrayRef<int64_t> ranges) {
  int64_t size = 1;
  for (unsigned d : group)
    size *= ranges[d];
  return size;
}

/// A tensor of `shape` whose element at (b?, row, k) is `source`'s element
/// at `sourceMap` of the convolution's loops, which `groups` (batch?, rows,
/// reduction) give in terms of b?, row and k.
static Value buildGather(OpBuilder &b, Location loc, Value source,
                         AffineMap sourceMap, ArrayRef<int64_t> ranges,
                         ArrayRef<ArrayRef<unsigned>> groups) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> loops(ranges.size(), getAffineConstantExpr(0, ctx));
  SmallVector<int64_t> shape;
  for (auto [i, group] : llvm::enumerate(groups)) {
    delinearize(getAffineDimExpr(i, ctx), group, ranges, loops);
    shape.push_back(getSize(group, ranges));
  }
  AffineMap toLoops = AffineMap::get(groups.size(), 0, loops, ctx);
  AffineMap read = simplifyAffineMap(sourceMap.compose(toLoops));
  Type element = getElementTypeOrSelf(source.getType());
  Value init = tensor::EmptyOp::create(b, loc, shape, element);
  SmallVector<utils::IteratorType> iterators(groups.size(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, init.getType(), source, init,
             {read, b.getMultiDimIdentityMap(groups.size())}, iterators,
             [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               linalg::YieldOp::create(nested, nestedLoc, args[0]);
             })
      .getResult(0);
}

/// Rewrites the convolution `op` as gathers of its image and filter and a
/// contraction of them into its collapsed output.
static void rewriteAsGemm(RewriterBase &rewriter, linalg::LinalgOp op,
                          const ConvGemm &gemm) {
  MLIRContext *ctx = rewriter.getContext();
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  rewriter.setInsertionPoint(op);
  bool batched = !gemm.batch.empty();
  auto withBatch = [&](ArrayRef<unsigned> rows) {
    SmallVector<ArrayRef<unsigned>> groups;
    if (batched)
      groups.push_back(gemm.batch);
    groups.append({rows, gemm.reduction});
    return groups;
  };
  // Both operands are (batch?, rows, K) with K innermost.
  Value patches = buildGather(rewriter, loc, op.getDpsInputs()[0], maps[0],
                              ranges, withBatch(gemm.pixels));
  Value filter = buildGather(rewriter, loc, op.getDpsInputs()[1], maps[1],
                             ranges, withBatch(gemm.channels));
  Value init = op.getDpsInits()[0];
  auto initType = cast<RankedTensorType>(init.getType());
  bool collapse = gemm.outputGroups.size() < size_t(initType.getRank());
  if (collapse)
    init =
        tensor::CollapseShapeOp::create(rewriter, loc, init, gemm.outputGroups);
  // Loops (b?, m, n, k): M is the group the output stores first.
  unsigned numLoops = batched + 3;
  auto dim = [&](unsigned d) { return getAffineDimExpr(d, ctx); };
  unsigned m = batched, n = m + 1, k = n + 1;
  unsigned pixelLoop = gemm.channelsFirst ? n : m;
  unsigned channelLoop = gemm.channelsFirst ? m : n;
  auto operandMap = [&](unsigned rows) {
    SmallVector<AffineExpr> results;
    if (batched)
      results.push_back(dim(0));
    results.append({dim(rows), dim(k)});
    return AffineMap::get(numLoops, 0, results, ctx);
  };
  // Each output group is the batch, the pixels or the channels.
  auto groupLoop = [&](const ReassociationIndices &group) {
    unsigned first =
        cast<AffineDimExpr>(maps[2].getResult(group[0])).getPosition();
    if (llvm::is_contained(gemm.batch, first))
      return dim(0);
    return dim(llvm::is_contained(gemm.pixels, first) ? pixelLoop
                                                      : channelLoop);
  };
  SmallVector<AffineExpr> outputResults =
      llvm::map_to_vector(gemm.outputGroups, groupLoop);
  Value lhs = gemm.channelsFirst ? filter : patches;
  Value rhs = gemm.channelsFirst ? patches : filter;
  SmallVector<AffineMap> gemmMaps = {
      operandMap(m), operandMap(n),
      AffineMap::get(numLoops, 0, outputResults, ctx)};
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  iterators[k] = utils::IteratorType::reduction;
  // The body is the convolution's, its image and filter arguments swapped
  // where the filter is the left operand.
  Block &body = *op.getBlock();
  auto contraction = linalg::GenericOp::create(
      rewriter, loc, init.getType(), ValueRange{lhs, rhs}, init, gemmMaps,
      iterators, [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        IRMapping mapping;
        mapping.map(body.getArgument(0), args[gemm.channelsFirst ? 1 : 0]);
        mapping.map(body.getArgument(1), args[gemm.channelsFirst ? 0 : 1]);
        mapping.map(body.getArgument(2), args[2]);
        for (Operation &inner : body.without_terminator())
          nested.clone(inner, mapping);
        linalg::YieldOp::create(
            nested, nestedLoc,
            mapping.lookup(body.getTerminator()->getOperand(0)));
      });
  Value result = contraction.getResult(0);
  if (collapse)
    result = tensor::ExpandShapeOp::create(rewriter, loc, initType, result,
                                           gemm.outputGroups);
  rewriter.replaceOp(op, result);
}

namespace {
struct GPUConvToGemmPass
    : public mp::impl::GPUConvToGemmPassBase<GPUConvToGemmPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, ConvGemm>, 2> convs;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
          op.getNumDpsInits() != 1 || op.hasDynamicShape() ||
          !linalg::isaConvolutionOpInterface(op) || !isMultiplyAccumulate(op))
        return;
      Type image = getElementTypeOrSelf(op.getDpsInputs()[0]);
      Type filter = getElementTypeOrSelf(op.getDpsInputs()[1]);
      Type acc = getElementTypeOrSelf(op.getDpsInits()[0]);
      if (image != filter || !(image.isF16() || image.isBF16()) || !acc.isF32())
        return;
      if (std::optional<ConvGemm> gemm = matchConvGemm(op))
        convs.emplace_back(op, std::move(*gemm));
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, gemm] : convs) {
      rewriteAsGemm(rewriter, op, gemm);
      ++numRewritten;
    }
  }
};
} // namespace
