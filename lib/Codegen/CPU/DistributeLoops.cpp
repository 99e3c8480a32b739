//===- DistributeLoops.cpp - mp-distribute-loops ----------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Codegen/CPU/RegisterBlocks.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_DISTRIBUTELOOPSPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The most shares a loop is cut into.
static constexpr int64_t kMaxShares = 64;

namespace {
/// A loop to split, and how many of its iterations each share takes.
struct Split {
  unsigned loop;
  int64_t share;
};
} // namespace

/// The share of `blocks` blocks of `block` iterations each: whole blocks,
/// equal shares of at least `minIterations` iterations, at most kMaxShares
/// of them and at least 2; none if no divisor of `blocks` gives that.
static std::optional<int64_t> getShare(int64_t blocks, int64_t block,
                                       int64_t minIterations = 1) {
  int64_t per = std::max(llvm::divideCeil(blocks, kMaxShares),
                         llvm::divideCeil(minIterations, block));
  for (; per < blocks; ++per)
    if (blocks % per == 0)
      return per * block;
  return std::nullopt;
}

/// The column blocks from which a contraction is split along n only.
static constexpr int64_t kMinColumnShares = 8;

/// A contraction of mp-vectorize-contractions: along n when it has at least
/// kMinColumnShares register blocks, since each share then packs its own
/// right-hand panels and reuses them for every row block, as the whole
/// contraction did; else along the batch, n or m loop with the most blocks
/// (n first, then m, on a tie).
static std::optional<Split> splitContraction(const ContractionLoops &loops,
                                             int64_t tileM, int64_t tileN) {
  SmallVector<std::pair<unsigned, int64_t>> candidates = {
      {loops.n, fitTile(loops.ranges[loops.n], tileN)},
      {loops.m, fitTile(loops.ranges[loops.m], tileM)}};
  for (unsigned b : loops.batch)
    candidates.push_back({b, 1});
  auto blocks = [&](std::pair<unsigned, int64_t> c) {
    return loops.ranges[c.first] / c.second;
  };
  auto [loop, block] =
      blocks(candidates.front()) >= kMinColumnShares
          ? candidates.front()
          : *llvm::max_element(candidates, [&](auto a, auto b) {
              return blocks(a) < blocks(b);
            });
  std::optional<int64_t> share = getShare(loops.ranges[loop] / block, block);
  if (!share)
    return std::nullopt;
  return Split{loop, *share};
}

/// The fewest iterations of an innermost loop that a share takes: a cache
/// line of f32, so that shares do not each read every line of a row.
static constexpr int64_t kMinInnermostShare = 16;

/// Any other op: along its first parallel loop of more than one iteration
/// (the innermost loop in shares of whole cache lines).
static std::optional<Split> splitOther(linalg::LinalgOp op,
                                       ArrayRef<int64_t> ranges) {
  for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray()))
    if (kind == utils::IteratorType::parallel && ranges[d] > 1) {
      bool innermost = d + 1 == ranges.size() && ranges.size() > 1;
      std::optional<int64_t> share =
          getShare(ranges[d], 1, innermost ? kMinInnermostShare : 1);
      if (!share)
        return std::nullopt;
      return Split{static_cast<unsigned>(d), *share};
    }
  return std::nullopt;
}

/// What one iteration of `op`'s body costs, in simple arithmetic ops: a
/// math op (exp, tanh...) counts as kMathCost. An elementwise add streams
/// memory, which one core already saturates on small tensors; an exp is
/// worth splitting sooner.
static constexpr uint64_t kMathCost = 8;
static uint64_t getCostPerIteration(linalg::LinalgOp op) {
  uint64_t cost = 0;
  for (Operation &inner : op.getBlock()->without_terminator())
    cost += isa<math::MathDialect>(inner.getDialect()) ? kMathCost : 1;
  return std::max<uint64_t>(cost, 1);
}

/// Whether `a` and `b` are the same slice of their sources.
static bool isSameSlice(tensor::ExtractSliceOp a, tensor::ExtractSliceOp b) {
  auto equal = [](ArrayRef<OpFoldResult> x, ArrayRef<OpFoldResult> y) {
    return x.size() == y.size() && llvm::all_of(llvm::zip(x, y), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair),
                                              std::get<1>(pair));
           });
  };
  return a.getType() == b.getType() &&
         equal(a.getMixedOffsets(), b.getMixedOffsets()) &&
         equal(a.getMixedSizes(), b.getMixedSizes()) &&
         equal(a.getMixedStrides(), b.getMixedStrides());
}

/// A share that reads the tensor it writes (a parameter updated in place)
/// reads and writes one slice of the shared output: read from the tensor
/// outside while other shares write it, or through a second slice,
/// bufferization would copy first.
static void readThroughSharedOutputs(scf::ForallOp forall) {
  for (auto [init, shared] :
       llvm::zip(forall.getOutputs(), forall.getRegionIterArgs())) {
    SmallVector<tensor::ExtractSliceOp> written;
    for (Operation *user : shared.getUsers())
      if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
        written.push_back(slice);
    for (Operation *user : llvm::make_early_inc_range(init.getUsers())) {
      auto read = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!read || !forall->isProperAncestor(read))
        continue;
      auto *same = llvm::find_if(written, [&](tensor::ExtractSliceOp slice) {
        return isSameSlice(read, slice);
      });
      if (same == written.end() || !read->isBeforeInBlock(*same))
        continue;
      read.getSourceMutable().assign(shared);
      same->getResult().replaceAllUsesWith(read.getResult());
      same->erase();
      written.erase(same);
    }
  }
}

/// The elementwise consumer of a contraction's shares (`forall`, its only
/// use: bias, activation, cast), computed in each share right after the
/// share's contraction, on its output while it is in cache; the consumer,
/// or null if there is none to fuse.
static Operation *fuseEpilogue(RewriterBase &rewriter, scf::ForallOp forall,
                               MutableArrayRef<LoopLikeOpInterface> loops) {
  if (forall->getNumResults() != 1 || !forall->getResult(0).hasOneUse())
    return nullptr;
  auto consumer =
      dyn_cast<linalg::GenericOp>(*forall->getResult(0).getUsers().begin());
  if (!consumer || !consumer.hasPureTensorSemantics() ||
      consumer.getNumLoops() != consumer.getNumParallelLoops() ||
      consumer.getNumDpsInits() != 1 ||
      !llvm::all_of(consumer.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return nullptr;
  FailureOr<scf::SCFFuseConsumerOfSliceResult> result =
      scf::tileAndFuseConsumer(rewriter, consumer, loops);
  if (failed(result))
    return nullptr;
  // Its uses now read the loop's new results.
  if (consumer->use_empty())
    rewriter.eraseOp(consumer);
  return consumer;
}

namespace {
struct DistributeLoopsPass
    : public mp::impl::DistributeLoopsPassBase<DistributeLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (tileM <= 0 || tileN <= 0 || minWork < 0) {
      emitError(getOperation()->getLoc())
          << "mp-distribute-loops: tile-m and tile-n must be positive and "
             "min-work not negative";
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::LinalgOp, Split>> splits;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (std::optional<Split> split = chooseSplit(op))
        splits.push_back({op, *split});
    });
    IRRewriter rewriter(&getContext());
    // Consumers fused into a contraction's shares, split with it.
    llvm::SmallPtrSet<Operation *, 8> fused;
    for (auto [op, split] : splits) {
      if (fused.contains(op))
        continue;
      SmallVector<int64_t> sizes(op.getNumLoops(), 0);
      sizes[split.loop] = split.share;
      scf::SCFTilingOptions options;
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      options.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes));
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(op, tiled->replacements);
      // Fusion replaces the loop (in tiled->loops) by one with more results.
      if (Operation *epilogue =
              fuseEpilogue(rewriter, cast<scf::ForallOp>(tiled->loops.front()),
                           tiled->loops))
        fused.insert(epilogue);
      readThroughSharedOutputs(cast<scf::ForallOp>(tiled->loops.front()));
      ++numDistributed;
    }
  }

private:
  std::optional<Split> chooseSplit(linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics() || op->getParentOfType<scf::ForallOp>() ||
        !isa<TilingInterface>(op.getOperation()))
      return std::nullopt;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (ranges.empty() || llvm::any_of(ranges, [](int64_t range) {
          return ShapedType::isDynamic(range) || range == 0;
        }))
      return std::nullopt;
    uint64_t work = getCostPerIteration(op);
    for (int64_t range : ranges)
      work = llvm::SaturatingMultiply(work, static_cast<uint64_t>(range));
    if (work < static_cast<uint64_t>(minWork))
      return std::nullopt;
    if (FailureOr<ContractionLoops> loops = getContractionLoops(op);
        succeeded(loops))
      return splitContraction(*loops, tileM, tileN);
    return splitOther(op, ranges);
  }
};
} // namespace
