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
#include "mp/Utils/TensorMath.h"

#include "MmaContraction.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mp/Utils/ConvolutionGemm.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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

/// The GEMM that `op` (a convolution: image, filter, output) is, if its
/// output's loops form at most one batch group, one channel group and one
/// pixel group, each contiguous in the output.
static std::optional<ConvGemm> matchConvGemm(linalg::LinalgOp op) {
  std::optional<ConvolutionLoops> conv = analyzeConvolution(op);
  if (!conv)
    return std::nullopt;
  enum Kind { Batch, Channel, Pixel };
  SmallVector<Kind> kinds =
      llvm::map_to_vector(conv->kinds, [](ConvLoopKind kind) {
        return kind == ConvLoopKind::Channel   ? Channel
               : kind == ConvLoopKind::Spatial ? Pixel
                                               : Batch;
      });
  // N next to the spatial loops joins them.
  for (int64_t i = 0, e = kinds.size(); i < e; ++i) {
    if (conv->kinds[i] != ConvLoopKind::Spatial)
      continue;
    for (int64_t j = i - 1; j >= 0 && conv->kinds[j] == ConvLoopKind::Image;
         --j)
      kinds[j] = Pixel;
    for (int64_t j = i + 1; j < e && conv->kinds[j] == ConvLoopKind::Image; ++j)
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
        .push_back(conv->output[i]);
  }
  // The batch, if any, first (the layouts the Tensor Core path is tested
  // with: NCHW, NGCHW, NHWC...; a depthwise convolution with a multiplier
  // stores it between the pixels and the channels).
  if (gemm.channels.empty() || gemm.pixels.empty() ||
      (!gemm.batch.empty() && order.front() != Batch))
    return std::nullopt;
  gemm.channelsFirst = llvm::find(order, Channel) < llvm::find(order, Pixel);
  gemm.reduction = std::move(conv->reduction);
  return gemm;
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
  Value patches =
      buildConvolutionGather(rewriter, loc, op.getDpsInputs()[0], maps[0],
                             ranges, withBatch(gemm.pixels));
  Value filter =
      buildConvolutionGather(rewriter, loc, op.getDpsInputs()[1], maps[1],
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
  // The image is the left operand unless the filter is.
  Value result = buildConvolutionContraction(
      rewriter, op, lhs, rhs, init, gemmMaps, iterators,
      /*imageIsLhs=*/!gemm.channelsFirst);
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
      // Convolutions given to cuDNN (mp-gpu-select-gemm) stay as they are.
      if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
          op->hasAttr(MPDialect::GpuGemmAttrHelper::getNameStr()) ||
          op.getNumDpsInits() != 1 || op.hasDynamicShape() ||
          !linalg::isaConvolutionOpInterface(op) || !isMultiplyAccumulate(op))
        return;
      Type image = getElementTypeOrSelf(op.getDpsInputs()[0]);
      Type filter = getElementTypeOrSelf(op.getDpsInputs()[1]);
      Type acc = getElementTypeOrSelf(op.getDpsInits()[0]);
      if (image != filter ||
          !(image.isF16() || image.isBF16() || image.isF32()) || !acc.isF32())
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
