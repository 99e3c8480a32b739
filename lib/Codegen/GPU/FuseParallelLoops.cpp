//===- FuseParallelLoops.cpp - One kernel for loops over the same points --===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "KernelMemory.h"
#include "MmaContraction.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUFUSEPARALLELLOOPSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
/// A dimension of an scf.parallel with constant bounds and a positive step.
struct ConstantDim {
  int64_t lb, step, count;
};
} // namespace

/// Dimension `d` of `loop` if its bounds and step are constants and it runs
/// at least once.
static std::optional<ConstantDim> getConstantDim(scf::ParallelOp loop,
                                                 unsigned d) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[d]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[d]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
  int64_t span;
  if (!lb || !ub || !step || *step <= 0 || *ub <= *lb ||
      llvm::SubOverflow(*ub, *lb, span))
    return std::nullopt;
  return ConstantDim{*lb, *step, llvm::divideCeilSigned(span, *step)};
}

/// Whether dimension `d` of `loop` runs exactly once.
static bool isUnitDim(scf::ParallelOp loop, unsigned d) {
  std::optional<ConstantDim> dim = getConstantDim(loop, d);
  return dim && dim->count == 1;
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

/// The number of leading dimensions of `first` and `second` with the same
/// bounds and steps.
static unsigned getCommonDims(scf::ParallelOp first, scf::ParallelOp second) {
  unsigned d = 0;
  for (unsigned e = std::min(first.getNumLoops(), second.getNumLoops()); d < e;
       ++d)
    if (!sameValueOrConstant(first.getLowerBound()[d],
                             second.getLowerBound()[d]) ||
        !sameValueOrConstant(first.getUpperBound()[d],
                             second.getUpperBound()[d]) ||
        !sameValueOrConstant(first.getStep()[d], second.getStep()[d]))
      break;
  return d;
}

/// The position of `v` among the first `common` induction variables of
/// `loop`, -1 if it is not one of them.
static int64_t getCommonIvPosition(scf::ParallelOp loop, unsigned common,
                                   Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() >= common)
    return -1;
  return arg.getArgNumber();
}

/// Whether access `a` of `first` and `b` of `second` reach the same row of
/// their buffer in the same iteration of the `common` leading dimensions
/// the loops share and different rows in different ones: wherever one's
/// index is one of those induction variables, the other's is the same one,
/// and each of them is one of the indices. Their other indices may be
/// anything (another element of the row, an inner loop's variable), since
/// no other iteration reaches the row.
static bool sameRowPerIteration(const Access &a, scf::ParallelOp first,
                                const Access &b, scf::ParallelOp second,
                                unsigned common) {
  if (a.indices.size() != b.indices.size())
    return false;
  llvm::SmallBitVector seen(common);
  for (auto [ia, ib] : llvm::zip(a.indices, b.indices)) {
    int64_t d = getCommonIvPosition(first, common, ia);
    if (d != getCommonIvPosition(second, common, ib))
      return false;
    if (d >= 0)
      seen.set(d);
  }
  return seen.all();
}

namespace {
/// The offset of the element an access reaches from its root buffer's
/// first element, as a constant plus a multiple of each induction variable
/// of its loop.
struct LinearOffset {
  int64_t constant = 0;
  SmallVector<int64_t> coefficients;
  bool operator==(const LinearOffset &other) const {
    return constant == other.constant && coefficients == other.coefficients;
  }
};
} // namespace

/// The offset that `access` in `loop` reaches, if its buffer has a static
/// strided layout and every index is one of `loop`'s induction variables or
/// a constant.
static std::optional<LinearOffset> getLinearOffset(const Access &access,
                                                   scf::ParallelOp loop) {
  std::optional<ElementOffset> element =
      getElementOffset(access.memref, access.indices);
  if (!element)
    return std::nullopt;
  LinearOffset linear{element->constant,
                      SmallVector<int64_t>(loop.getNumLoops())};
  for (auto [index, coefficient] : element->terms) {
    auto arg = dyn_cast<BlockArgument>(index);
    if (!arg || arg.getOwner() != loop.getBody())
      return std::nullopt;
    linear.coefficients[arg.getArgNumber()] = coefficient;
  }
  return linear;
}

/// Whether different iterations of the first `common` dimensions of
/// `loop` reach different elements at `offset`: the induction variables'
/// steps, ordered by their coefficient, are digits of a mixed radix number
/// (each coefficient times the step is beyond what the smaller ones reach).
static bool isInjective(const LinearOffset &offset, scf::ParallelOp loop,
                        unsigned common) {
  SmallVector<std::pair<int64_t, int64_t>> digits;
  for (unsigned d = 0; d < common; ++d) {
    std::optional<ConstantDim> dim = getConstantDim(loop, d);
    if (!dim)
      return false;
    int64_t weight;
    if (dim->count > 1 &&
        llvm::MulOverflow(offset.coefficients[d], dim->step, weight))
      return false;
    if (dim->count > 1)
      digits.push_back({weight, dim->count});
  }
  llvm::sort(digits);
  int64_t reached = 1;
  for (auto [weight, count] : digits) {
    int64_t span;
    if (weight < reached || llvm::MulOverflow(weight, count - 1, span) ||
        llvm::AddOverflow(reached, span, reached))
      return false;
  }
  return true;
}

/// Whether access `a` of `first` and `b` of `second`, on two views of one
/// buffer (a `memref.collapse_shape` of the other, say), reach the same
/// element in the same iteration of the `common` leading dimensions and
/// different ones in different iterations: the same offset from the
/// buffer's first element (getLinearOffset), which depends on those
/// dimensions alone (no further one's variable) and differs between their
/// iterations (isInjective).
static bool sameElementThroughViews(const Access &a, scf::ParallelOp first,
                                    const Access &b, scf::ParallelOp second,
                                    unsigned common) {
  Value root = getElementRoot(a.memref);
  if (!root || root != getElementRoot(b.memref))
    return false;
  std::optional<LinearOffset> offsetA = getLinearOffset(a, first);
  std::optional<LinearOffset> offsetB = getLinearOffset(b, second);
  if (!offsetA || !offsetB)
    return false;
  for (LinearOffset *offset : {&*offsetA, &*offsetB}) {
    if (llvm::any_of(ArrayRef(offset->coefficients).drop_front(common),
                     [](int64_t c) { return c != 0; }))
      return false;
    offset->coefficients.resize(common);
  }
  return *offsetA == *offsetB && isInjective(*offsetA, first, common);
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

/// Whether, for every pair of an access of `first` and one of `second` of
/// which one is a store (with `disjoint`, also two loads of one buffer but
/// a 0-d one, a scalar such as the overflow flag), they are on buffers
/// that may not alias, or on a buffer that both loops only set to the same
/// constant (in any order, the same result), or `sameElement` holds for
/// them.
static bool accessesCommute(
    scf::ParallelOp first, scf::ParallelOp second, AliasAnalysis &aliases,
    bool disjoint,
    function_ref<bool(const Access &, const Access &)> sameElement) {
  if (!first.getInitVals().empty() || !second.getInitVals().empty())
    return false;
  std::optional<SmallVector<Access>> firstAccesses = getAccesses(first);
  std::optional<SmallVector<Access>> secondAccesses = getAccesses(second);
  if (!firstAccesses || !secondAccesses)
    return false;
  for (const Access &a : *firstAccesses) {
    for (const Access &b : *secondAccesses) {
      if (!a.isWrite() && !b.isWrite() &&
          (!disjoint || getRootBuffer(a.memref) != getRootBuffer(b.memref) ||
           cast<MemRefType>(a.memref.getType()).getRank() == 0))
        continue;
      if (a.memref != b.memref) {
        if (mayAlias(a.memref, b.memref, aliases) && !sameElement(a, b))
          return false;
        continue;
      }
      Attribute value;
      if (sameElement(a, b) ||
          (a.isWrite() && matchPattern(a.stored, m_Constant(&value)) &&
           onlySets(*firstAccesses, a.memref, value) &&
           onlySets(*secondAccesses, a.memref, value)))
        continue;
      return false;
    }
  }
  return true;
}

/// Whether `first` and `second` as one kernel need at most
/// kMaxParameterBytes of parameters (counting what both use once).
static bool fitParameters(scf::ParallelOp first, scf::ParallelOp second) {
  return getParameterBytes({&first.getRegion(), &second.getRegion()}) <=
         kMaxParameterBytes;
}

/// The most points of a loop over more dimensions than the loop it is fused
/// with each of whose iterations runs them in sequence.
constexpr int64_t kMaxNestedPoints = 32;

/// The number of points of `loop` if its bounds and steps are constants.
static std::optional<int64_t> getNumPoints(scf::ParallelOp loop,
                                           unsigned from = 0) {
  int64_t points = 1;
  for (unsigned d = from, e = loop.getNumLoops(); d < e; ++d) {
    std::optional<ConstantDim> dim = getConstantDim(loop, d);
    if (!dim || llvm::MulOverflow(points, dim->count, points))
      return std::nullopt;
  }
  return points;
}

/// The leading dimensions over which running `first`'s body and then
/// `second`'s in each iteration of one loop computes what `first` and then
/// `second` did, if any: all of them when the loops run over the same
/// points, or those of the loop with fewer dimensions, which the other
/// starts with, when the other has at most `nestMaxPoints` points and at
/// most kMaxNestedPoints per iteration of the shorter one (its further
/// dimensions then run in sequence in each iteration: a loss's 256 x 10
/// elementwise loop after its loop over the 256 rows). Their accesses must
/// commute (accessesCommute) or reach the same row of the same buffer in
/// the same iteration (sameRowPerIteration), or the same element of two
/// views (sameElementThroughViews); and the kernel's parameters fit
/// (fitParameters).
static std::optional<unsigned> getFusedDims(scf::ParallelOp first,
                                            scf::ParallelOp second,
                                            AliasAnalysis &aliases,
                                            int64_t nestMaxPoints) {
  unsigned common = getCommonDims(first, second);
  if (common == 0 ||
      common != std::min(first.getNumLoops(), second.getNumLoops()))
    return std::nullopt;
  if (first.getNumLoops() != second.getNumLoops()) {
    scf::ParallelOp longer =
        first.getNumLoops() > second.getNumLoops() ? first : second;
    std::optional<int64_t> points = getNumPoints(longer);
    std::optional<int64_t> nested = getNumPoints(longer, common);
    if (!points || *points > nestMaxPoints || *nested > kMaxNestedPoints)
      return std::nullopt;
  }
  if (!fitParameters(first, second) ||
      !accessesCommute(
          first, second, aliases, /*disjoint=*/false,
          [&](const Access &a, const Access &b) {
            return a.memref == b.memref
                       ? sameRowPerIteration(a, first, b, second, common)
                       : sameElementThroughViews(a, first, b, second, common);
          }))
    return std::nullopt;
  return common;
}

/// Replaces `first` and `second` by one loop over their `common` leading
/// dimensions in `second`'s place, whose body runs `first`'s body and then
/// `second`'s, each in a loop nest over its further dimensions (scf.for).
static scf::ParallelOp fuseLoops(RewriterBase &rewriter, scf::ParallelOp first,
                                 scf::ParallelOp second, unsigned common) {
  Location loc = second.getLoc();
  scf::ParallelOp shorter = first.getNumLoops() == common ? first : second;
  rewriter.setInsertionPoint(second);
  auto fused = scf::ParallelOp::create(rewriter, loc, shorter.getLowerBound(),
                                       shorter.getUpperBound(),
                                       shorter.getStep(), ValueRange());
  for (scf::ParallelOp loop : {first, second}) {
    rewriter.setInsertionPoint(fused.getBody()->getTerminator());
    SmallVector<Value> ivs(fused.getInductionVars());
    for (unsigned d = common, e = loop.getNumLoops(); d < e; ++d) {
      auto inner =
          scf::ForOp::create(rewriter, loc, loop.getLowerBound()[d],
                             loop.getUpperBound()[d], loop.getStep()[d]);
      ivs.push_back(inner.getInductionVar());
      rewriter.setInsertionPoint(inner.getBody()->getTerminator());
    }
    Block *body = loop.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, rewriter.getInsertionBlock(),
                               rewriter.getInsertionPoint(), ivs);
    rewriter.eraseOp(loop);
  }
  return fused;
}

/// The induction variables of `loop` at its point number `linear` (row
/// major over its dimensions, all constant: getNumPoints), built at `b`.
static SmallVector<Value> delinearize(OpBuilder &b, Location loc,
                                      scf::ParallelOp loop, Value linear) {
  unsigned rank = loop.getNumLoops();
  SmallVector<Value> ivs(rank);
  for (unsigned d = rank; d-- > 0;) {
    ConstantDim dim = *getConstantDim(loop, d);
    Value index = linear;
    if (d > 0) {
      Value count = arith::ConstantIndexOp::create(b, loc, dim.count);
      index = arith::RemUIOp::create(b, loc, linear, count);
      linear = arith::DivUIOp::create(b, loc, linear, count);
    }
    ivs[d] = arith::AddIOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, dim.lb),
        arith::MulIOp::create(
            b, loc, index, arith::ConstantIndexOp::create(b, loc, dim.step)));
  }
  return ivs;
}

/// Replaces `first` and `second`, loops over `firstPoints` and
/// `secondPoints` points whose accesses commute, by one loop over both: its
/// point p runs `first`'s point p if p < firstPoints, else `second`'s point
/// p - firstPoints. It takes `second`'s place.
static scf::ParallelOp mergeLoops(RewriterBase &rewriter, scf::ParallelOp first,
                                  int64_t firstPoints, scf::ParallelOp second,
                                  int64_t secondPoints) {
  Location loc = second.getLoc();
  rewriter.setInsertionPoint(second);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value total =
      arith::ConstantIndexOp::create(rewriter, loc, firstPoints + secondPoints);
  auto merged =
      scf::ParallelOp::create(rewriter, loc, ValueRange(zero),
                              ValueRange(total), ValueRange(one), ValueRange());
  rewriter.setInsertionPoint(merged.getBody()->getTerminator());
  Value point = merged.getInductionVars()[0];
  Value split = arith::ConstantIndexOp::create(rewriter, loc, firstPoints);
  Value inFirst = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ult, point, split);
  auto branch = scf::IfOp::create(rewriter, loc, inFirst, /*withElse=*/true);
  auto inlineAt = [&](scf::ParallelOp loop, Block *into, Value linear) {
    rewriter.setInsertionPoint(into->getTerminator());
    SmallVector<Value> ivs = delinearize(rewriter, loc, loop, linear);
    Block *body = loop.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, into->getTerminator(), ivs);
    rewriter.eraseOp(loop);
  };
  inlineAt(first, branch.thenBlock(), point);
  rewriter.setInsertionPoint(branch.elseBlock()->getTerminator());
  inlineAt(second, branch.elseBlock(),
           arith::SubIOp::create(rewriter, loc, point, split));
  return merged;
}

/// Whether `op`, between two loops, may run before the first one's body.
static bool canRunBefore(Operation &op) {
  return isa<memref::AllocOp>(op) ||
         (op.getNumRegions() == 0 && isMemoryEffectFree(&op));
}

/// Calls `combine` on each top-level loop of `block` in order with the loop
/// before it, or null where something between them may not run before the
/// earlier one (canRunBefore); what it returns is the loop before the next
/// one (null: none).
static void forEachAdjacentLoop(
    Block *block,
    function_ref<scf::ParallelOp(scf::ParallelOp, scf::ParallelOp)> combine) {
  scf::ParallelOp previous;
  for (Operation &op : llvm::make_early_inc_range(*block)) {
    if (auto loop = dyn_cast<scf::ParallelOp>(op))
      previous = combine(previous, loop);
    else if (!canRunBefore(op))
      previous = nullptr;
  }
}

namespace {
struct GPUFuseParallelLoopsPass
    : public mp::impl::GPUFuseParallelLoopsPassBase<GPUFuseParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (nestMaxPoints < 0) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-fuse-parallel-loops: nest-max-points="
          << static_cast<int64_t>(nestMaxPoints)
          << " is invalid: expected 0 (no nested fusion) or more";
      return signalPassFailure();
    }
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
    for (Block *block : blocks)
      forEachAdjacentLoop(block, [&](scf::ParallelOp previous,
                                     scf::ParallelOp loop) {
        if (!previous)
          return loop;
        std::optional<unsigned> common =
            getFusedDims(previous, loop, aliases, nestMaxPoints);
        if (!common)
          return loop;
        if (*common != previous.getNumLoops() || *common != loop.getNumLoops())
          ++numNested;
        ++numFused;
        return fuseLoops(rewriter, previous, loop, *common);
      });
    if (!mergeIndependent)
      return;
    // Then loops over other points, whose accesses commute, one after the
    // other in one loop: only loops that touch different buffers (but
    // scalars and a flag both set), so that each buffer is read and written
    // as often as before.
    for (Block *block : blocks)
      forEachAdjacentLoop(
          block, [&](scf::ParallelOp previous, scf::ParallelOp loop) {
            std::optional<int64_t> points = getNumPoints(loop);
            if (!points)
              return scf::ParallelOp();
            if (previous && fitParameters(previous, loop) &&
                accessesCommute(
                    previous, loop, aliases, /*disjoint=*/true,
                    [](const Access &, const Access &) { return false; })) {
              ++numMerged;
              return mergeLoops(rewriter, previous, *getNumPoints(previous),
                                loop, *points);
            }
            return loop;
          });
  }
};
} // namespace
