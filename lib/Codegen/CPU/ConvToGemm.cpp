//===- ConvToGemm.cpp - mp-conv-to-gemm -------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Convolutions as GEMMs on the CPU (im2col): the image's patches gathered
// into a K x N matrix whose rows the vectorized register blocks of
// mp-vectorize-contractions read as vectors, the filter as an M x K matrix.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mp/Utils/ConvolutionGemm.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_CONVTOGEMMPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
/// A convolution's output loops grouped into the dimensions of its GEMMs,
/// each group collapsed row major in the output's order.
struct CpuConvGemm {
  ConvolutionLoops loops;
  /// The depth loops: one GEMM each (empty: a single GEMM).
  SmallVector<unsigned> batch;
  /// The output channels: M.
  SmallVector<unsigned> channels;
  /// The images and the spatial loops: N.
  SmallVector<unsigned> pixels;
};
} // namespace

static std::optional<CpuConvGemm> matchConvGemm(linalg::LinalgOp op) {
  std::optional<ConvolutionLoops> loops = analyzeConvolution(op);
  if (!loops)
    return std::nullopt;
  CpuConvGemm gemm;
  for (auto [d, kind] : llvm::zip_equal(loops->output, loops->kinds))
    (kind == ConvLoopKind::Depth     ? gemm.batch
     : kind == ConvLoopKind::Channel ? gemm.channels
                                     : gemm.pixels)
        .push_back(d);
  if (gemm.channels.empty() || gemm.pixels.empty())
    return std::nullopt;
  gemm.loops = std::move(*loops);
  return gemm;
}

/// Rewrites the convolution `op` as gathers of its filter, image and
/// output, a contraction of the first two into the third, and a copy of the
/// result into the output's layout.
static void rewriteAsGemm(RewriterBase &rewriter, linalg::LinalgOp op,
                          const CpuConvGemm &gemm) {
  MLIRContext *ctx = rewriter.getContext();
  Location loc = op.getLoc();
  ArrayRef<int64_t> ranges = gemm.loops.ranges;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  rewriter.setInsertionPoint(op);
  bool batched = !gemm.batch.empty();
  auto gather = [&](Value source, AffineMap map, ArrayRef<unsigned> rows,
                    ArrayRef<unsigned> columns) {
    SmallVector<ArrayRef<unsigned>> groups;
    if (batched)
      groups.push_back(gemm.batch);
    groups.append({rows, columns});
    return buildCollapsedConvolutionGather(rewriter, loc, source, map, ranges,
                                           groups);
  };
  Value filter = gather(op.getDpsInputs()[1], maps[1], gemm.channels,
                        gemm.loops.reduction);
  Value patches =
      gather(op.getDpsInputs()[0], maps[0], gemm.loops.reduction, gemm.pixels);
  Value init = op.getDpsInits()[0];
  Value acc = gather(init, maps[2], gemm.channels, gemm.pixels);
  // Loops (b?, m, n, k).
  unsigned numLoops = batched + 3;
  unsigned m = batched, n = m + 1, k = n + 1;
  auto matrix = [&](unsigned rows, unsigned columns) {
    SmallVector<AffineExpr> results;
    if (batched)
      results.push_back(getAffineDimExpr(0, ctx));
    results.append(
        {getAffineDimExpr(rows, ctx), getAffineDimExpr(columns, ctx)});
    return AffineMap::get(numLoops, 0, results, ctx);
  };
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  iterators[k] = utils::IteratorType::reduction;
  // The image is read from the patches, the right-hand side.
  Value product = buildConvolutionContraction(
      rewriter, op, filter, patches, acc,
      {matrix(m, k), matrix(k, n), matrix(m, n)}, iterators,
      /*imageIsLhs=*/false);
  // Back to the output's layout: the product with one dimension per loop
  // (batch, channels, pixels) read through a permutation.
  SmallVector<unsigned> order;
  SmallVector<ReassociationIndices> reassociation;
  for (ArrayRef<unsigned> group :
       {ArrayRef<unsigned>(gemm.batch), ArrayRef<unsigned>(gemm.channels),
        ArrayRef<unsigned>(gemm.pixels)}) {
    if (group.empty())
      continue;
    reassociation.emplace_back();
    for (unsigned d : group) {
      reassociation.back().push_back(order.size());
      order.push_back(d);
    }
  }
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> expandedShape =
      llvm::map_to_vector(order, [&](unsigned d) { return ranges[d]; });
  Value expanded = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get(expandedShape, initType.getElementType()), product,
      reassociation);
  unsigned rank = initType.getRank();
  SmallVector<AffineExpr> read = llvm::map_to_vector(order, [&](unsigned d) {
    return getAffineDimExpr(
        llvm::find(gemm.loops.output, d) - gemm.loops.output.begin(), ctx);
  });
  // Written into the output's own tensor (its elements are not read): a
  // slice of a larger tensor, as mp-split-convolution-phases makes them,
  // is then written in place.
  auto result = linalg::GenericOp::create(
      rewriter, loc, initType, expanded, init,
      {AffineMap::get(rank, 0, read, ctx),
       rewriter.getMultiDimIdentityMap(rank)},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args[0]);
      });
  rewriter.replaceOp(op, result.getResults());
}

namespace {
struct ConvToGemmPass : public mp::impl::ConvToGemmPassBase<ConvToGemmPass> {
  using Base::Base;

  void runOnOperation() override {
    if (tileN <= 0 || tileK <= 0) {
      emitError(getOperation()->getLoc())
          << "mp-conv-to-gemm: tile-n and tile-k must be positive";
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> convs;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() &&
          linalg::isaConvolutionOpInterface(op) &&
          getElementTypeOrSelf(op.getDpsInputs()[0]) ==
              getElementTypeOrSelf(op.getDpsInputs()[1]))
        convs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : convs) {
      // The block may shrink along the output channels (mp-vectorize-
      // contractions fits it to any count): every row block still reads
      // whole vectors of pixels.
      std::optional<CpuConvGemm> gemm = matchConvGemm(op);
      if (!gemm || getGroupSize(gemm->pixels, gemm->loops.ranges) % tileN ||
          getGroupSize(gemm->loops.reduction, gemm->loops.ranges) % tileK)
        continue;
      rewriteAsGemm(rewriter, op, *gemm);
      ++numRewritten;
    }
  }
};
} // namespace
