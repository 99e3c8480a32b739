//===- MapParallelLoops.cpp - Host scf.parallel nests to kernels ----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numeric>

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUMAPPARALLELLOOPSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Maps the dimensions of `loop` from the innermost out to x, y and z of
/// `first` (blocks or threads); the others run in sequence.
static void mapLoop(scf::ParallelOp loop, gpu::Processor first) {
  MLIRContext *ctx = loop.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  unsigned n = loop.getNumLoops();
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (unsigned d = 0; d < n; ++d) {
    unsigned fromInner = n - 1 - d;
    gpu::Processor p = fromInner < 3
                           ? static_cast<gpu::Processor>(
                                 static_cast<unsigned>(first) + fromInner)
                           : gpu::Processor::Sequential;
    mapping.push_back(
        gpu::ParallelLoopDimMappingAttr::get(ctx, p, identity, identity));
  }
  (void)gpu::setMappingAttr(loop, mapping);
}

/// Whether the innermost dimension of `loop` has constant bounds and step
/// and fewer than `points` points (its span fits in 64 bits: upstream's
/// constantTripCount wraps it around).
static bool isShorterThan(scf::ParallelOp loop, int64_t points) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound().back());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound().back());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep().back());
  int64_t span;
  return lb && ub && step && *step > 0 && !llvm::SubOverflow(*ub, *lb, span) &&
         llvm::divideCeilSigned(span, *step) < points;
}

/// Whether the body of `loop` has a loop.
static bool hasInnerLoop(scf::ParallelOp loop) {
  return loop.getBody()
      ->walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

namespace {
struct GPUMapParallelLoopsPass
    : public mp::impl::GPUMapParallelLoopsPassBase<GPUMapParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-map-parallel-loops: block-size="
          << static_cast<int64_t>(blockSize)
          << " is invalid: expected 1 to 1024 threads";
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> roots;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>())
        roots.push_back(loop);
    });
    if (roots.empty())
      return;
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : roots) {
      // Grids have three dimensions: a deeper nest becomes one dimension
      // (its iterations in the same order, the innermost dimension still
      // contiguous across threads) rather than launches in a host loop. So
      // does an elementwise nest whose innermost dimension has fewer points
      // than a block has threads (a layer norm's 256x28x32), which would
      // leave most of each block's threads idle: its blocks take
      // consecutive rows. A nest with a loop in its body (a row's reduction
      // per thread) keeps its blocks, spread over more multiprocessors.
      if (loop.getNumLoops() > 3 ||
          (loop.getNumLoops() > 1 && isShorterThan(loop, blockSize) &&
           !hasInnerLoop(loop))) {
        std::vector<unsigned> all(loop.getNumLoops());
        std::iota(all.begin(), all.end(), 0);
        // The collapsed loop replaces `loop` at its place in the block.
        Block *block = loop->getBlock();
        Operation *before = loop->getPrevNode();
        rewriter.setInsertionPoint(loop);
        collapseParallelLoops(rewriter, loop, {all});
        auto it = before ? std::next(before->getIterator()) : block->begin();
        while (!isa<scf::ParallelOp>(*it))
          ++it;
        loop = cast<scf::ParallelOp>(*it);
      }
      SmallVector<int64_t> sizes(loop.getNumLoops(), 1);
      sizes.back() = blockSize;
      auto [blocks, threads] =
          scf::tileParallelLoop(loop, sizes, /*noMinMaxBounds=*/false);
      mapLoop(blocks, gpu::Processor::BlockX);
      mapLoop(threads, gpu::Processor::ThreadX);
    }
    // Fold the tiling's index arithmetic: launch sizes must be constants
    // (or an affine.min with a constant bound).
    if (failed(applyPatternsGreedily(getOperation(),
                                     RewritePatternSet(&getContext()))))
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    populateParallelLoopToGPUPatterns(patterns);
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configureParallelLoopToGPULegality(target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns)))) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-map-parallel-loops: cannot turn these parallel loops "
             "into a kernel";
      return signalPassFailure();
    }
    finalizeParallelLoopToGPUConversion(getOperation());
    numKernels += roots.size();
  }
};
} // namespace
