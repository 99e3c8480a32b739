//===- FuseParallelLoops.cpp - One kernel for loops over the same points --===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUFUSEPARALLELLOOPSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Whether dimension `d` of `loop` runs exactly once.
static bool isUnitDim(scf::ParallelOp loop, unsigned d) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[d]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[d]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
  return lb && ub && step && *step > 0 && *ub > *lb && *ub - *lb <= *step;
}

/// Rebuilds `loop` without its dimensions that run once (their induction
/// variables become the lower bounds), keeping at least one dimension so
/// that it stays a kernel.
static scf::ParallelOp dropUnitDims(RewriterBase &rewriter,
                                    scf::ParallelOp loop) {
  SmallVector<unsigned> kept;
  for (unsigned d = 0, e = loop.getNumLoops(); d < e; ++d)
    if (!isUnitDim(loop, d))
      kept.push_back(d);
  if (kept.size() == loop.getNumLoops() || !loop.getInitVals().empty())
    return loop;
  if (kept.empty())
    kept.push_back(loop.getNumLoops() - 1);
  SmallVector<Value> lbs, ubs, steps;
  for (unsigned d : kept) {
    lbs.push_back(loop.getLowerBound()[d]);
    ubs.push_back(loop.getUpperBound()[d]);
    steps.push_back(loop.getStep()[d]);
  }
  rewriter.setInsertionPoint(loop);
  auto narrow = scf::ParallelOp::create(rewriter, loop.getLoc(), lbs, ubs,
                                        steps, ValueRange());
  SmallVector<Value> ivs(loop.getLowerBound());
  for (auto [i, d] : llvm::enumerate(kept))
    ivs[d] = narrow.getInductionVars()[i];
  rewriter.eraseOp(narrow.getBody()->getTerminator());
  rewriter.mergeBlocks(loop.getBody(), narrow.getBody(), ivs);
  rewriter.eraseOp(loop);
  return narrow;
}

namespace {
/// A load or store of a buffer in a loop body; the value stored.
struct Access {
  Value memref;
  OperandRange indices;
  Value stored;
  bool isWrite() const { return static_cast<bool>(stored); }
};
} // namespace

/// The loads and stores of `loop`'s body, or nothing if it has other
/// effects on memory (copies, calls, allocations, atomics) that this pass
/// does not reason about.
static std::optional<SmallVector<Access>> getAccesses(scf::ParallelOp loop) {
  SmallVector<Access> accesses;
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      accesses.push_back({load.getMemRef(), load.getIndices(), Value()});
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      accesses.push_back(
          {store.getMemRef(), store.getIndices(), store.getValueToStore()});
    else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
             !isMemoryEffectFree(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return std::nullopt;
  return accesses;
}

/// Whether `a` and `b` are the same value or the same constant.
static bool sameValueOrConstant(Value a, Value b) {
  std::optional<int64_t> ca = getConstantIntValue(a);
  return a == b || (ca && ca == getConstantIntValue(b));
}

static bool sameIterationSpace(scf::ParallelOp first, scf::ParallelOp second) {
  if (first.getNumLoops() != second.getNumLoops())
    return false;
  for (unsigned d = 0, e = first.getNumLoops(); d < e; ++d)
    if (!sameValueOrConstant(first.getLowerBound()[d],
                             second.getLowerBound()[d]) ||
        !sameValueOrConstant(first.getUpperBound()[d],
                             second.getUpperBound()[d]) ||
        !sameValueOrConstant(first.getStep()[d], second.getStep()[d]))
      return false;
  return true;
}

/// Whether access `a` of `first` and `b` of `second` reach the same element
/// exactly when they run in the same iteration: their indices are the same
/// expressions (induction variable d of one where the other has d, or the
/// same value or constant from outside both loops), and every induction
/// variable is one of them, so that different iterations reach different
/// elements.
static bool sameElementPerIteration(const Access &a, scf::ParallelOp first,
                                    const Access &b, scf::ParallelOp second) {
  if (a.indices.size() != b.indices.size())
    return false;
  // The position of `v` among `loop`'s induction variables, -1 if it is not
  // one of them.
  auto ivPosition = [](scf::ParallelOp loop, Value v) -> int64_t {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != loop.getBody())
      return -1;
    return arg.getArgNumber();
  };
  llvm::SmallBitVector seen(first.getNumLoops());
  for (auto [ia, ib] : llvm::zip(a.indices, b.indices)) {
    int64_t d = ivPosition(first, ia);
    if (d >= 0 || ivPosition(second, ib) >= 0) {
      if (d != ivPosition(second, ib))
        return false;
      seen.set(d);
      continue;
    }
    if (!first->isAncestor(ia.getParentBlock()->getParentOp()) &&
        !second->isAncestor(ib.getParentBlock()->getParentOp()) &&
        sameValueOrConstant(ia, ib))
      continue;
    return false;
  }
  return seen.all();
}

/// Whether every access of `memref` in `accesses` stores the constant
/// `value` (the finite checks' flag, which each sets to true).
static bool onlySets(ArrayRef<Access> accesses, Value memref, Attribute value) {
  return llvm::all_of(accesses, [&](const Access &access) {
    Attribute stored;
    return access.memref != memref ||
           (access.isWrite() &&
            matchPattern(access.stored, m_Constant(&stored)) &&
            stored == value);
  });
}

/// Whether `a` and `b` may be views of the same memory. Beyond upstream's
/// local alias analysis: a buffer the function allocates is not one of its
/// arguments, which existed before the call.
static bool mayAlias(Value a, Value b, AliasAnalysis &aliases) {
  if (aliases.alias(a, b).isNo())
    return false;
  auto isArgument = [](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
  };
  Value rootA = getRootBuffer(a), rootB = getRootBuffer(b);
  return !(rootA.getDefiningOp<memref::AllocOp>() && isArgument(rootB)) &&
         !(rootB.getDefiningOp<memref::AllocOp>() && isArgument(rootA));
}

/// Whether running `first`'s body and then `second`'s in each iteration of
/// one loop computes what `first` and then `second` did: for every pair of
/// accesses of which one is a store, the same buffer (not two views that
/// may alias) at the same element per iteration, or a buffer that both
/// loops only set to the same constant (in any order, the same result).
static bool canFuse(scf::ParallelOp first, scf::ParallelOp second,
                    AliasAnalysis &aliases) {
  if (!first.getInitVals().empty() || !second.getInitVals().empty() ||
      !sameIterationSpace(first, second))
    return false;
  std::optional<SmallVector<Access>> firstAccesses = getAccesses(first);
  std::optional<SmallVector<Access>> secondAccesses = getAccesses(second);
  if (!firstAccesses || !secondAccesses)
    return false;
  for (const Access &a : *firstAccesses) {
    for (const Access &b : *secondAccesses) {
      if (!a.isWrite() && !b.isWrite())
        continue;
      if (a.memref != b.memref) {
        if (mayAlias(a.memref, b.memref, aliases))
          return false;
        continue;
      }
      Attribute value;
      if (sameElementPerIteration(a, first, b, second) ||
          (a.isWrite() && matchPattern(a.stored, m_Constant(&value)) &&
           onlySets(*firstAccesses, a.memref, value) &&
           onlySets(*secondAccesses, a.memref, value)))
        continue;
      return false;
    }
  }
  return true;
}

/// Whether `op`, between two loops, may run before the first one's body.
static bool canRunBefore(Operation &op) {
  return isa<memref::AllocOp>(op) ||
         (op.getNumRegions() == 0 && isMemoryEffectFree(&op));
}

namespace {
struct GPUFuseParallelLoopsPass
    : public mp::impl::GPUFuseParallelLoopsPassBase<GPUFuseParallelLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    DenseSet<Block *> blocks;
    for (scf::ParallelOp loop : loops)
      blocks.insert(dropUnitDims(rewriter, loop)->getBlock());

    auto &aliases = getAnalysis<AliasAnalysis>();
    for (Block *block : blocks) {
      scf::ParallelOp previous;
      for (Operation &op : llvm::make_early_inc_range(*block)) {
        auto loop = dyn_cast<scf::ParallelOp>(op);
        if (!loop) {
          if (!canRunBefore(op))
            previous = nullptr;
          continue;
        }
        if (previous && canFuse(previous, loop, aliases)) {
          // The first body goes before the second one, in its iteration.
          Block *body = previous.getBody();
          rewriter.eraseOp(body->getTerminator());
          rewriter.inlineBlockBefore(body, &loop.getBody()->front(),
                                     loop.getInductionVars());
          rewriter.eraseOp(previous);
          ++numFused;
        }
        previous = loop;
      }
    }
  }
};
} // namespace
