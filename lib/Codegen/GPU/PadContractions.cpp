//===- PadContractions.cpp - Pad Tensor Core contractions to the tiles ----===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The tiled stage needs M, N and K that its tiles divide. Contractions of
// other sizes (1x1, 37x61x29, the 10 classes of a classifier) are padded with
// zeros up to the next multiple on tensors, computed at the padded size and
// sliced back: zero rows and columns of A and B add nothing to C.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUPADCONTRACTIONSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The smallest tile of `size` rows (or columns) for a dimension of `extent`:
/// `step` (16 rows or 8 columns, one mma.sync) doubled while it is below
/// `extent` and at most `warp`, or `block` (then warps of `warp`).
static int64_t chooseTile(int64_t extent, int64_t step, int64_t warp,
                          int64_t block) {
  for (int64_t tile = step; tile <= warp && tile < block; tile *= 2)
    if (tile >= extent)
      return tile;
  return block;
}

namespace {
struct GPUPadContractionsPass
    : public mp::impl::GPUPadContractionsPassBase<GPUPadContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(verifyTileOptions(getOperation()->getLoc(),
                                 "mp-gpu-pad-contractions", tileM, tileN, warpM,
                                 warpN)))
      return signalPassFailure();
    SmallVector<std::pair<linalg::LinalgOp, MmaContraction>> targets;
    getOperation()->walk([&](linalg::LinalgOp op) {
      // Contractions given to cuBLASLt (mp-gpu-select-gemm) need no tiles.
      if (!op.hasPureTensorSemantics() ||
          op->hasAttr(MPDialect::GpuGemmAttrHelper::getNameStr()))
        return;
      std::optional<MmaContraction> c = matchMmaContraction(op);
      if (c)
        targets.emplace_back(op, *c);
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, c] : targets) {
      // Small GEMMs get small tiles rather than padding to a whole block.
      int64_t m = chooseTile(c.ranges[c.m], kMmaM, warpM, tileM);
      int64_t n = chooseTile(c.ranges[c.n], kMmaN, warpN, tileN);
      op->setAttr(
          MPDialect::GpuTileAttrHelper::getNameStr(),
          rewriter.getDenseI64ArrayAttr({m, n, std::min<int64_t>(warpM, m),
                                         std::min<int64_t>(warpN, n)}));
      if (c.ranges[c.m] % m == 0 && c.ranges[c.n] % n == 0 &&
          c.ranges[c.k] % kMmaK == 0)
        continue;
      SmallVector<int64_t> multiples(c.ranges.size(), 1);
      multiples[c.m] = m;
      multiples[c.n] = n;
      multiples[c.k] = kMmaK;
      SmallVector<Attribute> zeros = llvm::map_to_vector(
          op->getOperands(), [&](Value operand) -> Attribute {
            return rewriter.getZeroAttr(getElementTypeOrSelf(operand));
          });
      linalg::LinalgPaddingOptions options;
      options
          .setPaddingDimensions(
              llvm::to_vector(llvm::seq<int64_t>(0, c.ranges.size())))
          .setPadToMultipleOf(multiples)
          .setPaddingValues(zeros);
      options.copyBackOp = linalg::LinalgPaddingOptions::CopyBackOp::None;
      linalg::LinalgOp padded;
      SmallVector<Value> replacements;
      SmallVector<tensor::PadOp> pads;
      rewriter.setInsertionPoint(op);
      if (failed(linalg::rewriteAsPaddedOp(rewriter, op, options, padded,
                                           replacements, pads))) {
        op->emitError("mp-gpu-pad-contractions: cannot pad this contraction "
                      "to the Tensor Core tiles");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, replacements);
      ++numPadded;
    }
  }
};
} // namespace
