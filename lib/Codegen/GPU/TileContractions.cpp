//===- TileContractions.cpp - Tensor Core tiles for contractions ----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The target-independent tiled stage of the GPU backend's GEMMs: thread
// blocks and warps as scf.forall, K as scf.for, and vector.contract on the
// m16n8k16 tiles of mma.sync.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUTILECONTRACTIONSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The unrolled shape of vector ops on the way to mma.sync: contractions to
/// m16n8k16 (batch 1), the C tiles they write to 16x8, and reads to the
/// slices the unrolled contractions take of them.
static std::optional<SmallVector<int64_t>> getMmaNativeShape(Operation *op) {
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    llvm::SmallDenseSet<unsigned> lhsDims, rhsDims;
    for (AffineExpr e : contract.getIndexingMapsArray()[0].getResults())
      lhsDims.insert(cast<AffineDimExpr>(e).getPosition());
    for (AffineExpr e : contract.getIndexingMapsArray()[1].getResults())
      rhsDims.insert(cast<AffineDimExpr>(e).getPosition());
    SmallVector<int64_t> shape;
    for (auto [d, iterator] : llvm::enumerate(contract.getIteratorTypes())) {
      if (vector::isReductionIterator(iterator))
        shape.push_back(kMmaK);
      else if (lhsDims.count(d) && rhsDims.count(d))
        shape.push_back(1); // batch
      else
        shape.push_back(lhsDims.count(d) ? kMmaM : kMmaN);
    }
    return shape;
  }
  if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
    int64_t rank = write.getVectorType().getRank();
    if (rank < 2)
      return std::nullopt;
    SmallVector<int64_t> shape(rank - 2, 1);
    shape.append({kMmaM, kMmaN});
    return shape;
  }
  if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
    for (Operation *user : read->getUsers())
      if (auto slice = dyn_cast<vector::ExtractStridedSliceOp>(user))
        return llvm::to_vector(slice.getType().getShape());
    return std::nullopt;
  }
  return std::nullopt;
}

namespace {
struct GPUTileContractionsPass
    : public mp::impl::GPUTileContractionsPassBase<GPUTileContractionsPass> {
  using Base::Base;

  /// Tiles `target` by `sizes` (0: not tiled) with loops of `type`; the
  /// tiled op replaces it.
  FailureOr<Operation *> tile(RewriterBase &rewriter, Operation *target,
                              ArrayRef<int64_t> sizes,
                              scf::SCFTilingOptions::LoopType type,
                              ArrayRef<Attribute> mapping) {
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes));
    options.setLoopType(type);
    if (!mapping.empty())
      options.setMapping(mapping);
    rewriter.setInsertionPoint(target);
    FailureOr<scf::SCFTilingResult> tiled =
        scf::tileUsingSCF(rewriter, cast<TilingInterface>(target), options);
    if (failed(tiled))
      return failure();
    rewriter.eraseOp(target); // on buffers the tiled op writes in place
    return tiled->tiledOps.front();
  }

  /// Tiles `op` with `tiles` (tile-m, tile-n, warp-m, warp-n).
  LogicalResult tileOne(RewriterBase &rewriter, linalg::LinalgOp op,
                        const MmaContraction &c, ArrayRef<int64_t> tiles) {
    MLIRContext *ctx = &getContext();
    unsigned numLoops = c.ranges.size();
    SmallVector<int64_t> blockSizes(numLoops, 0), warpSizes(numLoops, 0),
        kSizes(numLoops, 0);
    SmallVector<Attribute> blockMapping, warpMapping;
    auto block = [&](gpu::MappingId id) {
      blockMapping.push_back(gpu::GPUBlockMappingAttr::get(ctx, id));
    };
    auto warp = [&](gpu::MappingId id) {
      warpMapping.push_back(gpu::GPUWarpMappingAttr::get(ctx, id));
    };
    for (unsigned d = 0; d < numLoops; ++d) {
      if (c.batch && d == *c.batch) {
        blockSizes[d] = 1;
        block(gpu::MappingId::DimZ);
      } else if (d == c.m) {
        blockSizes[d] = tiles[0];
        warpSizes[d] = tiles[2];
        block(gpu::MappingId::DimY);
        warp(gpu::MappingId::DimY);
      } else if (d == c.n) {
        blockSizes[d] = tiles[1];
        warpSizes[d] = tiles[3];
        block(gpu::MappingId::DimX);
        warp(gpu::MappingId::DimX);
      } else if (d == c.k) {
        kSizes[d] = kMmaK;
      }
    }
    using LoopType = scf::SCFTilingOptions::LoopType;
    FailureOr<Operation *> blockTile =
        tile(rewriter, op, blockSizes, LoopType::ForallOp, blockMapping);
    if (failed(blockTile))
      return failure();
    FailureOr<Operation *> warpTile =
        tile(rewriter, *blockTile, warpSizes, LoopType::ForallOp, warpMapping);
    if (failed(warpTile))
      return failure();
    FailureOr<Operation *> step =
        tile(rewriter, *warpTile, kSizes, LoopType::ForOp, {});
    if (failed(step))
      return failure();
    rewriter.setInsertionPoint(*step);
    FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
        rewriter, *step, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/true);
    if (failed(vectorized))
      return failure();
    rewriter.replaceOp(*step, vectorized->replacements);
    return success();
  }

  void runOnOperation() override {
    if (failed(verifyTileOptions(getOperation()->getLoc(),
                                 "mp-gpu-tile-contractions", tileM, tileN,
                                 warpM, warpN)))
      return signalPassFailure();
    struct Target {
      linalg::LinalgOp op;
      MmaContraction c;
      SmallVector<int64_t> tiles;
    };
    SmallVector<Target> targets;
    getOperation()->walk([&](linalg::LinalgOp op) {
      std::optional<MmaContraction> c;
      if (op.hasPureBufferSemantics())
        c = matchMmaContraction(op);
      if (!c)
        return;
      // mp-gpu-pad-contractions' choice for this op, else the options.
      SmallVector<int64_t> tiles = {tileM, tileN, warpM, warpN};
      if (auto chosen = op->getAttrOfType<DenseI64ArrayAttr>(
              MPDialect::GpuTileAttrHelper::getNameStr()))
        tiles = llvm::to_vector(chosen.asArrayRef());
      if (c->ranges[c->m] % tiles[0] == 0 && c->ranges[c->n] % tiles[1] == 0 &&
          c->ranges[c->k] % kMmaK == 0)
        targets.push_back({op, *c, tiles});
    });
    if (targets.empty())
      return;
    IRRewriter rewriter(&getContext());
    for (auto &[op, c, tiles] : targets) {
      // A generic vectorizes to a multi-reduction; as linalg.contract it
      // becomes a vector.contract.
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
        FailureOr<linalg::LinalgOp> named =
            rewriteAsNamedContraction(rewriter, generic);
        if (failed(named))
          continue;
        op = *named;
      }
      if (failed(tileOne(rewriter, op, c, tiles))) {
        op->emitError("mp-gpu-tile-contractions: cannot tile this "
                      "contraction for Tensor Cores");
        return signalPassFailure();
      }
      ++numTiled;
    }
    RewritePatternSet patterns(&getContext());
    vector::populateVectorUnrollPatterns(
        patterns,
        vector::UnrollVectorOptions().setNativeShapeFn(getMmaNativeShape));
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
