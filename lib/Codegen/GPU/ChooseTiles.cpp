//===- ChooseTiles.cpp - Tiles of Tensor Core contractions ----------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The block and warp tiles of each Tensor Core contraction, chosen on tensors
// (where the whole graph is visible) and recorded for the tiled stage. Sizes
// the tiles do not divide need nothing here: the tiled stage copies the
// operands' tiles into its buffers with zeros past their edges and writes
// only the part of C inside C.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUCHOOSETILESPASS
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
  if (ShapedType::isDynamic(extent))
    return block;
  for (int64_t tile = step; tile <= warp && tile < block; tile *= 2)
    if (tile >= extent)
      return tile;
  return block;
}

/// The thread blocks of `c` in blocks of `tileM` x `tileN`, if M, N and the
/// batch are static.
static std::optional<int64_t> getBlockCount(const MmaContraction &c,
                                            int64_t tileM, int64_t tileN) {
  int64_t batch = c.batch ? c.ranges[*c.batch] : 1;
  if (llvm::any_of(ArrayRef<int64_t>{batch, c.ranges[c.m], c.ranges[c.n]},
                   ShapedType::isDynamic))
    return std::nullopt;
  return batch * llvm::divideCeil(c.ranges[c.m], tileM) *
         llvm::divideCeil(c.ranges[c.n], tileN);
}

namespace {
struct GPUChooseTilesPass
    : public mp::impl::GPUChooseTilesPassBase<GPUChooseTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(verifyTileOptions(getOperation()->getLoc(),
                                 "mp-gpu-choose-tiles", tileM, tileN, warpM,
                                 warpN)))
      return signalPassFailure();
    if (!largeTiles.empty()) {
      if (largeTiles.size() != 4) {
        emitError(getOperation()->getLoc())
            << "mp-gpu-choose-tiles: large-tiles expects 4 numbers "
               "M,N,WARP_M,WARP_N, got "
            << largeTiles.size();
        return signalPassFailure();
      }
      if (failed(verifyTileOptions(
              getOperation()->getLoc(), "mp-gpu-choose-tiles large-tiles",
              largeTiles[0], largeTiles[1], largeTiles[2], largeTiles[3])))
        return signalPassFailure();
    }
    if (std::optional<std::string> problem =
            checkSimtOptions(simtBlock, simtThread)) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-choose-tiles: " << *problem;
      return signalPassFailure();
    }
    if (largeMinBlocks < 1) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-choose-tiles: large-min-blocks=" << int64_t(largeMinBlocks)
          << " is invalid: expected 1 or more";
      return signalPassFailure();
    }
    Builder b(&getContext());
    getOperation()->walk([&](linalg::LinalgOp op) {
      // Contractions given to cuBLASLt (mp-gpu-select-gemm) need no tiles.
      if (!op.hasPureTensorSemantics() ||
          op->hasAttr(MPDialect::GpuGemmAttrHelper::getNameStr()))
        return;
      std::optional<MmaContraction> c =
          matchTiledContraction(op, /*dynamicSizes=*/true);
      if (!c) {
        if (isDynamicConvolution(op))
          op->emitWarning()
              << "mp-gpu-choose-tiles: this convolution has dynamic sizes, "
                 "which the implicit GEMMs (Tensor Cores for f16 and bf16) "
                 "and cuDNN's calls do not take: it runs as parallel "
                 "loops on CUDA cores; give its operands static sizes";
        return;
      }
      SmallVector<int64_t> tiles;
      if (c->simt) {
        tiles = chooseSimtTiles(*c, simtBlock, simtThread);
      } else if (!largeTiles.empty() &&
                 getBlockCount(*c, largeTiles[0], largeTiles[1]).value_or(0) >=
                     largeMinBlocks) {
        tiles.assign(largeTiles.begin(), largeTiles.end());
        ++numLarge;
      } else {
        // Small GEMMs get small tiles rather than a whole block, split in
        // two warps along each dimension where halves are still mma tiles.
        int64_t m = chooseTile(c->ranges[c->m], kMmaM, warpM, tileM);
        int64_t n = chooseTile(c->ranges[c->n], kMmaN, warpN, tileN);
        auto warpTile = [](int64_t tile, int64_t step, int64_t block,
                           int64_t warp) {
          return tile < block ? std::min(warp, std::max(step, tile / 2)) : warp;
        };
        tiles = {m, n, warpTile(m, kMmaM, tileM, warpM),
                 warpTile(n, kMmaN, tileN, warpN)};
      }
      op->setAttr(MPDialect::GpuTileAttrHelper::getNameStr(),
                  b.getDenseI64ArrayAttr(tiles));
      ++numChosen;
    });
  }
};
} // namespace
