//===- PromoteAccumulators.cpp - Loop accumulators in registers -----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "KernelMemory.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUPROMOTEACCUMULATORSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Whether `op` is or holds a `gpu.barrier`, or it or an op in it other
/// than `except` writes (with `reads`, also reads) memory that `memref` may
/// alias, or touches memory it does not name.
static bool mayTouch(Operation *op, Value memref, ArrayRef<Operation *> except,
                     bool reads, AliasAnalysis &aliases) {
  WalkResult result = op->walk([&](Operation *inner) {
    if (isa<gpu::BarrierOp>(inner))
      return WalkResult::interrupt();
    if (llvm::is_contained(except, inner))
      return WalkResult::advance();
    bool touches = false;
    bool known = forEachAccess(inner, [&](Value value, bool read, bool write) {
      touches |= (write || (reads && read)) && mayAlias(value, memref, aliases);
    });
    return known && !touches ? WalkResult::advance() : WalkResult::interrupt();
  });
  return result.wasInterrupted();
}

static bool sameIndices(memref::LoadOp load, memref::StoreOp store) {
  return load.getMemRef() == store.getMemRef() &&
         llvm::equal(load.getIndices(), store.getIndices());
}

/// The load and then store, in `loop`'s body, of the one element it
/// accumulates into: its buffer and indices defined outside the loop,
/// nothing else in the loop touching memory that may alias it, and the loop
/// running at least once.
static std::optional<std::pair<memref::LoadOp, memref::StoreOp>>
getAccumulator(scf::ForOp loop, AliasAnalysis &aliases) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->isZero())
    return std::nullopt;
  for (auto load : loop.getBody()->getOps<memref::LoadOp>()) {
    if (!llvm::all_of(load->getOperands(), [&](Value value) {
          return loop.isDefinedOutsideOfLoop(value);
        }))
      continue;
    memref::StoreOp store;
    for (Operation *op = load->getNextNode(); op && !store;
         op = op->getNextNode())
      if (auto candidate = dyn_cast<memref::StoreOp>(op);
          candidate && sameIndices(load, candidate))
        store = candidate;
    if (store && !mayTouch(loop, load.getMemRef(), {load, store},
                           /*reads=*/true, aliases))
      return std::make_pair(load, store);
  }
  return std::nullopt;
}

/// Loads the element of `load` and `store` before `loop`, carries it
/// through the loop and stores it after; returns the new loop.
static scf::ForOp promote(RewriterBase &rewriter, scf::ForOp loop,
                          memref::LoadOp load, memref::StoreOp store) {
  Value memref = load.getMemRef();
  SmallVector<Value> indices(load.getIndices());
  Value stored = store.getValueToStore();
  rewriter.setInsertionPoint(loop);
  Value init = memref::LoadOp::create(rewriter, load.getLoc(), memref, indices);
  auto promoted = cast<scf::ForOp>(
      *cast<LoopLikeOpInterface>(loop.getOperation())
           .replaceWithAdditionalYields(
               rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
               [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                 return SmallVector<Value>{stored};
               }));
  rewriter.replaceOp(load, promoted.getRegionIterArgs().back());
  rewriter.setInsertionPointAfter(promoted);
  memref::StoreOp::create(rewriter, store.getLoc(),
                          promoted.getResults().back(), memref, indices);
  rewriter.eraseOp(store);
  return promoted;
}

/// The value that the last store before `load` in its block wrote into the
/// element it loads (the same buffer and indices, or a view of one buffer
/// at the same offset), if nothing between them may write that element.
static Value getStoredValue(memref::LoadOp load, AliasAnalysis &aliases) {
  Value memref = load.getMemRef();
  Value root = getElementRoot(memref);
  std::optional<ElementOffset> offset =
      root ? getElementOffset(memref, load.getIndices()) : std::nullopt;
  for (Operation *op = load->getPrevNode(); op; op = op->getPrevNode()) {
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store && store.getValueToStore().getType() == load.getType() &&
        (sameIndices(load, store) ||
         (offset && getElementRoot(store.getMemRef()) == root &&
          getElementOffset(store.getMemRef(), store.getIndices()) == offset)))
      return store.getValueToStore();
    if (mayTouch(op, memref, {}, /*reads=*/false, aliases))
      return Value();
  }
  return Value();
}

namespace {
struct GPUPromoteAccumulatorsPass
    : public mp::impl::GPUPromoteAccumulatorsPassBase<
          GPUPromoteAccumulatorsPass> {
  void runOnOperation() override {
    auto &aliases = getAnalysis<AliasAnalysis>();
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    // The promoted loops (each as last rewritten: a loop that an outer one's
    // promotion moves stays the same op, unlike the blocks that hold it)
    // and the buffers they accumulated into.
    SmallVector<std::pair<Operation *, Value>> promoted;
    for (scf::ForOp loop : loops) {
      SmallVector<Value> roots;
      while (auto accumulator = getAccumulator(loop, aliases)) {
        roots.push_back(getElementRoot(accumulator->first.getMemRef()));
        loop = promote(rewriter, loop, accumulator->first, accumulator->second);
        ++numPromoted;
      }
      for (Value root : roots)
        if (root)
          promoted.push_back({loop, root});
    }
    auto forward = [&](memref::LoadOp load) {
      if (Value stored = getStoredValue(load, aliases)) {
        rewriter.replaceOp(load, stored);
        ++numForwarded;
      }
    };
    for (auto [loop, root] : promoted) {
      Block *block = loop->getBlock();
      for (auto load :
           llvm::make_early_inc_range(block->getOps<memref::LoadOp>()))
        if (getElementRoot(load.getMemRef()) == root)
          forward(load);
    }
    // A parallel loop's iteration that loads what it stored (loops fused by
    // mp-gpu-fuse-parallel-loops, the second reading what the first wrote
    // at the same point) takes the value it stored.
    getOperation()->walk([&](scf::ParallelOp loop) {
      for (auto load :
           llvm::make_early_inc_range(loop.getBody()->getOps<memref::LoadOp>()))
        forward(load);
    });
  }
};
} // namespace
