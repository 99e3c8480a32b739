//===- TileReductions.cpp - Reductions over the threads of a block --------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The target-independent tiled stage of the GPU backend's long reductions
// (the loss, the finite check, bias and filter gradients): one thread block
// per output element, each thread a strided partial in the accumulator's
// type, then a tree over a workgroup buffer.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "GemmFusion.h"
#include "MmaContraction.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUTILEREDUCTIONSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
/// A reduction the pass distributes: `combiner` (one of whose operands is
/// the accumulator `acc`, the body's output argument) folds each term into
/// the output; `neutral` is its neutral element. There are `outputs`
/// elements of `extent` terms each.
struct Reduction {
  linalg::LinalgOp op;
  Operation *combiner = nullptr;
  BlockArgument acc;
  TypedAttr neutral;
  /// Whether the combiner subtracts each term from the accumulator (a loss
  /// `acc - t`): the threads' partials are then sums of negated terms, which
  /// the tree and the output add.
  bool negated = false;
  /// The combiner as a gpu.subgroup_reduce operation, if it is one on 32
  /// bits or fewer (a warp's shuffles).
  std::optional<gpu::AllReduceOperation> warpOp;
  SmallVector<int64_t> ranges;
  SmallVector<unsigned> parallelDims, reductionDims;
  int64_t outputs = 1, extent = 1;
};

/// How a reduction is distributed: one block per output element, one warp
/// per output element and several per block, or one thread per output
/// element (a short reduction with an epilogue).
enum class Strategy { Blocks, Warps, Threads };
} // namespace

/// The gpu.subgroup_reduce operation that merges partials of `combiner`, if
/// its values fit a 32-bit shuffle.
static std::optional<gpu::AllReduceOperation>
getWarpOperation(Operation *combiner) {
  using Op = gpu::AllReduceOperation;
  Type type = combiner->getResult(0).getType();
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() > 32)
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<Op>>(combiner)
      // A subtracting combiner's partials are added (Reduction::negated).
      .Case<arith::AddFOp, arith::AddIOp, arith::SubFOp, arith::SubIOp>(
          [](auto) { return Op::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return Op::MUL; })
      .Case([](arith::MinNumFOp) { return Op::MINNUMF; })
      .Case([](arith::MaxNumFOp) { return Op::MAXNUMF; })
      .Case([](arith::MinimumFOp) { return Op::MINIMUMF; })
      .Case([](arith::MaximumFOp) { return Op::MAXIMUMF; })
      .Case([](arith::MinSIOp) { return Op::MINSI; })
      .Case([](arith::MinUIOp) { return Op::MINUI; })
      .Case([](arith::MaxSIOp) { return Op::MAXSI; })
      .Case([](arith::MaxUIOp) { return Op::MAXUI; })
      .Case([](arith::AndIOp) { return Op::AND; })
      .Case([](arith::OrIOp) { return Op::OR; })
      .Case([](arith::XOrIOp) { return Op::XOR; })
      .Default([](Operation *) { return std::nullopt; });
}

/// `op` as a Reduction if the pass takes it: on buffers, static sizes, one
/// output indexed by exactly its parallel dimensions, a body that folds
/// each term into the output with one combiner that has a neutral element,
/// and an accumulator that is not a float narrower than 32 bits.
static std::optional<Reduction> matchReductionOp(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || op->getNumRegions() != 1 ||
      !op->getRegion(0).hasOneBlock())
    return std::nullopt;
  Reduction r;
  r.op = op;
  r.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(r.ranges, ShapedType::isDynamic))
    return std::nullopt;
  Type elementType = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (isa<FloatType>(elementType) && elementType.getIntOrFloatBitWidth() < 32)
    return std::nullopt;

  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outputMap.isProjectedPermutation(/*allowZeroInResults=*/true))
    return std::nullopt;
  for (auto [d, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool parallel = iterator == utils::IteratorType::parallel;
    if (parallel != outputMap.isFunctionOfDim(d))
      return std::nullopt;
    (parallel ? r.parallelDims : r.reductionDims).push_back(d);
    (parallel ? r.outputs : r.extent) *= r.ranges[d];
  }

  SmallVector<Operation *> combiners;
  SmallVector<BlockArgument> outputArgs(op.getRegionOutputArgs());
  if (!matchReduction(outputArgs, 0, combiners) || combiners.size() != 1)
    return std::nullopt;
  r.combiner = combiners.front();
  r.acc = outputArgs.front();
  if (r.combiner->getNumOperands() != 2 || !r.acc.hasOneUse() ||
      r.combiner->getResult(0).getType() != elementType)
    return std::nullopt;
  r.negated = isa<arith::SubFOp, arith::SubIOp>(r.combiner) &&
              r.combiner->getOperand(0) == r.acc;
  std::optional<TypedAttr> neutral = r.negated
                                         ? Builder(op).getZeroAttr(elementType)
                                         : arith::getNeutralElement(r.combiner);
  if (!neutral)
    return std::nullopt;
  r.neutral = *neutral;
  r.warpOp = getWarpOperation(r.combiner);
  return r;
}

/// The loop indices of `r` as expressions of d0, the output element (row
/// major over the parallel loops), and d1, the term (row major over the
/// reduction loops).
static SmallVector<AffineExpr> getLoopExprs(const Reduction &r,
                                            MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs(r.ranges.size());
  for (auto [linear, dims] :
       {std::make_pair(getAffineDimExpr(0, ctx), ArrayRef(r.parallelDims)),
        std::make_pair(getAffineDimExpr(1, ctx), ArrayRef(r.reductionDims))}) {
    int64_t stride = 1;
    for (unsigned d : llvm::reverse(dims)) {
      exprs[d] = linear.floorDiv(stride) % r.ranges[d];
      stride *= r.ranges[d];
    }
  }
  return exprs;
}

/// `expr` (of the output element and the term) at `output` and `term` (term 0
/// if it is null).
static Value applyAt(OpBuilder &b, Location loc, AffineExpr expr, Value output,
                     Value term) {
  OpFoldResult termOrZero = term ? OpFoldResult(term) : b.getIndexAttr(0);
  return affine::makeComposedAffineApply(b, loc, AffineMap::get(2, 0, expr),
                                         {OpFoldResult(output), termOrZero})
      .getResult();
}

/// The indices of `operand` of `r` at `output` and `term`.
static SmallVector<Value> getIndices(OpBuilder &b, Location loc,
                                     const Reduction &r, OpOperand &operand,
                                     ArrayRef<AffineExpr> loops, Value output,
                                     Value term) {
  AffineMap map = linalg::LinalgOp(r.op).getMatchingIndexingMap(&operand);
  return llvm::map_to_vector(map.getResults(), [&](AffineExpr e) {
    return applyAt(b, loc, e.replaceDims(loops), output, term);
  });
}

/// `r`'s combiner applied to `term` (a partial) and the accumulated `acc`,
/// in the body's operand order; an addition where the combiner subtracts.
static Value combine(OpBuilder &b, const Reduction &r, Value term, Value acc) {
  if (r.negated) {
    Location loc = r.combiner->getLoc();
    if (isa<arith::SubFOp>(r.combiner))
      return arith::AddFOp::create(b, loc, acc, term);
    return arith::AddIOp::create(b, loc, acc, term);
  }
  IRMapping mapping;
  mapping.map(r.acc, acc);
  for (Value operand : r.combiner->getOperands())
    if (operand != r.acc)
      mapping.map(operand, term);
  return b.clone(*r.combiner, mapping)->getResult(0);
}

/// An scf.forall over `count` threads (#gpu.thread<x>) whose body
/// `buildBody` builds from the thread index.
static void buildThreads(OpBuilder &b, Location loc, int64_t count,
                         function_ref<void(Value)> buildBody) {
  MLIRContext *ctx = b.getContext();
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(count)}, ValueRange(),
      b.getArrayAttr(
          {gpu::GPUThreadMappingAttr::get(ctx, gpu::MappingId::DimX)}));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getBody()->getTerminator());
  buildBody(forall.getInductionVar(0));
}

/// Folds the terms `first`, `first + step`, ... of output element `output` of
/// each reduction of `group` (the same loops) into `starts` (by default its
/// neutral element), in one loop that loads each input element they read
/// once: a thread's partials.
static SmallVector<Value> buildPartials(OpBuilder &b, Location loc,
                                        ArrayRef<const Reduction *> group,
                                        ArrayRef<AffineExpr> loops,
                                        Value output, Value first, int64_t step,
                                        ValueRange starts = {}) {
  SmallVector<Value> inits(starts);
  if (inits.empty())
    inits = llvm::map_to_vector(group, [&](const Reduction *r) -> Value {
      return arith::ConstantOp::create(b, loc, r->neutral);
    });
  Value stepValue = arith::ConstantIndexOp::create(b, loc, step);
  Value extent = arith::ConstantIndexOp::create(b, loc, group[0]->extent);
  auto loop = scf::ForOp::create(b, loc, first, extent, stepValue, inits);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value term = loop.getInductionVar();
  DenseMap<std::pair<Value, AffineMap>, Value> loaded;
  SmallVector<Value> yielded;
  for (auto [i, r] : llvm::enumerate(group)) {
    linalg::LinalgOp op = r->op;
    IRMapping mapping;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      if (isa<MemRefType>(value.getType())) {
        Value &load = loaded[{value, op.getMatchingIndexingMap(input)}];
        if (!load)
          load = memref::LoadOp::create(
              b, loc, value,
              getIndices(b, loc, *r, *input, loops, output, term));
        value = load;
      }
      mapping.map(op.getMatchingBlockArgument(input), value);
    }
    mapping.map(r->acc, loop.getRegionIterArg(i));
    Block *body = op.getBlock();
    for (Operation &inner : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        mapping.map(index.getResult(),
                    applyAt(b, loc, loops[index.getDim()], output, term));
        continue;
      }
      b.clone(inner, mapping);
    }
    yielded.push_back(mapping.lookup(body->getTerminator()->getOperand(0)));
  }
  scf::YieldOp::create(b, loc, yielded);
  return loop.getResults();
}

/// The initial value of output element `output` of `r` and its indices:
/// `start` if it is set (the value of the fill that set the output before),
/// else the element.
static std::pair<Value, SmallVector<Value>>
getInitialValue(OpBuilder &b, Location loc, const Reduction &r,
                ArrayRef<AffineExpr> loops, Value output, Value start) {
  OpOperand *init = linalg::LinalgOp(r.op).getDpsInitOperand(0);
  SmallVector<Value> indices =
      getIndices(b, loc, r, *init, loops, output, /*term=*/Value());
  return {start ? start : memref::LoadOp::create(b, loc, init->get(), indices),
          indices};
}

/// Stores `element` at `indices` of `r`'s output and, with an epilogue (the
/// output's elementwise consumer, its finite checks), computes that on it
/// as well; then it stores the element only if the epilogue needs it stored.
static void storeElement(OpBuilder &b, Location loc, const Reduction &r,
                         Value element, ValueRange indices,
                         const Epilogue *epilogue) {
  if (!epilogue || epilogue->storesC)
    memref::StoreOp::create(b, loc, element,
                            linalg::LinalgOp(r.op).getDpsInits()[0], indices);
  if (epilogue)
    buildEpilogue(b, loc, *epilogue, element, indices);
}

/// Folds `total` into output element `output` of `r`'s initial value
/// (getInitialValue) and stores it (storeElement).
static void storeTotal(OpBuilder &b, Location loc, const Reduction &r,
                       ArrayRef<AffineExpr> loops, Value output, Value total,
                       Value start, const Epilogue *epilogue) {
  auto [old, indices] = getInitialValue(b, loc, r, loops, output, start);
  storeElement(b, loc, r, combine(b, r, total, old), indices, epilogue);
}

/// An scf.forall over `count` thread blocks (#gpu.block<x>, marked with
/// `strategy` for the kernel report), where the last op of `group` was,
/// with a workgroup buffer of `partials` elements of each reduction's type,
/// which `buildBody` fills from the block index and the buffers.
static void buildBlocks(RewriterBase &rewriter,
                        ArrayRef<const Reduction *> group, Strategy strategy,
                        int64_t count, int64_t partials,
                        function_ref<void(Value, ValueRange)> buildBody) {
  Location loc = group[0]->op->getLoc();
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(static_cast<Operation *>(group.back()->op));
  auto blocks = scf::ForallOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(count)},
      ValueRange(),
      rewriter.getArrayAttr(
          {gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimX)}));
  MPDialect::GpuReductionAttrHelper(ctx).setAttr(
      blocks,
      rewriter.getStringAttr(strategy == Strategy::Warps ? "warp" : "block"));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(blocks.getBody()->getTerminator());
  auto workgroup = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  SmallVector<Value> buffers;
  for (const Reduction *r : group)
    buffers.push_back(memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({partials}, r->neutral.getType(),
                        MemRefLayoutAttrInterface(), workgroup)));
  buildBody(blocks.getInductionVar(0), buffers);
  for (Value buffer : buffers)
    memref::DeallocOp::create(rewriter, loc, buffer);
}

/// Replaces the ops of `group` (reductions over the same loops, all with a
/// warp operation or all without: one is the common case) by their tiled
/// form with one block of `threads` threads per output element, computing
/// all of them. Each total is folded into its `starts` value if that is
/// set, else into the output's element, and its `epilogues` computed on
/// it (storeTotal).
static void tileReductionOverBlocks(RewriterBase &rewriter,
                                    ArrayRef<const Reduction *> group,
                                    int64_t threads, ArrayRef<Value> starts,
                                    ArrayRef<const Epilogue *> epilogues) {
  const Reduction &first = *group[0];
  Location loc = first.op->getLoc();
  SmallVector<AffineExpr> loops = getLoopExprs(first, rewriter.getContext());
  bool warpOps = first.warpOp.has_value();
  buildBlocks(
      rewriter, group, Strategy::Blocks, first.outputs, threads,
      [&](Value output, ValueRange partials) {
        // Thread t folds the terms t, t + threads, ... into the neutral
        // element.
        buildThreads(rewriter, loc, threads, [&](Value thread) {
          for (auto [partial, buffer] :
               llvm::zip(buildPartials(rewriter, loc, group, loops, output,
                                       thread, threads),
                         partials))
            memref::StoreOp::create(rewriter, loc, partial, buffer, thread);
        });

        // A tree over the partials: element t takes element t + half while more
        // than a warp's worth (or, without a warp operation, two) are left.
        int64_t last = warpOps ? mp::kWarpSize : 2;
        for (int64_t half = threads / 2; half >= last; half /= 2)
          buildThreads(rewriter, loc, half, [&](Value thread) {
            Value other = affine::makeComposedAffineApply(
                rewriter, loc, rewriter.getAffineDimExpr(0) + half,
                {OpFoldResult(thread)});
            for (auto [r, buffer] : llvm::zip(group, partials)) {
              Value mine =
                  memref::LoadOp::create(rewriter, loc, buffer, thread);
              Value theirs =
                  memref::LoadOp::create(rewriter, loc, buffer, other);
              memref::StoreOp::create(rewriter, loc,
                                      combine(rewriter, *r, theirs, mine),
                                      buffer, thread);
            }
          });

        // One warp reduces the last 32 (gpu.subgroup_reduce: shuffles), or
        // thread 0 combines the last two (a forall of one thread would be
        // inlined into all of them); then thread 0 folds the total into the
        // output.
        buildThreads(rewriter, loc, last, [&](Value thread) {
          Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
          SmallVector<Value> totals;
          if (warpOps)
            for (auto [r, buffer] : llvm::zip(group, partials))
              totals.push_back(gpu::SubgroupReduceOp::create(
                  rewriter, loc,
                  memref::LoadOp::create(rewriter, loc, buffer, thread),
                  *r->warpOp, /*uniform=*/true));
          Value isFirst = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::eq, thread, zero);
          auto ifFirst = scf::IfOp::create(rewriter, loc, isFirst);
          rewriter.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
          for (auto [i, r] : llvm::enumerate(group)) {
            if (!warpOps) {
              Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
              Value mine =
                  memref::LoadOp::create(rewriter, loc, partials[i], zero);
              Value theirs =
                  memref::LoadOp::create(rewriter, loc, partials[i], one);
              totals.push_back(combine(rewriter, *r, theirs, mine));
            }
            storeTotal(rewriter, loc, *r, loops, output, totals[i], starts[i],
                       epilogues[i]);
          }
        });
      });
  for (const Reduction *r : group)
    rewriter.eraseOp(static_cast<Operation *>(r->op));
}

/// Replaces `r.op`, whose combiner has a warp operation, by its tiled form
/// with one warp per output element, `warps` warps per block: lane l folds
/// the terms l, l + 32, ... (consecutive in memory for rows), the warp's
/// gpu.subgroup_reduce combines the lanes' partials and lane 0 folds the
/// total into the output as storeTotal does.
static void tileReductionOverWarps(RewriterBase &rewriter, const Reduction &r,
                                   int64_t warps, Value start,
                                   const Epilogue *epilogue) {
  Location loc = r.op->getLoc();
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<AffineExpr> loops = getLoopExprs(r, ctx);
  AffineExpr block = getAffineDimExpr(0, ctx);
  AffineExpr thread = getAffineDimExpr(1, ctx);
  AffineExpr outputExpr = block * warps + thread.floorDiv(mp::kWarpSize);
  int64_t threads = warps * mp::kWarpSize;
  buildBlocks(
      rewriter, {&r}, Strategy::Warps, llvm::divideCeil(r.outputs, warps),
      threads, [&](Value blockIndex, ValueRange buffers) {
        Value partials = buffers[0];
        auto outputOf = [&](Value t) {
          return affine::makeComposedAffineApply(
                     rewriter, loc, AffineMap::get(2, 0, outputExpr),
                     {OpFoldResult(blockIndex), t})
              .getResult();
        };
        auto laneOf = [&](Value t) {
          return affine::makeComposedAffineApply(
                     rewriter, loc, getAffineDimExpr(0, ctx) % mp::kWarpSize,
                     {OpFoldResult(t)})
              .getResult();
        };
        bool ragged = r.outputs % warps != 0;
        buildThreads(rewriter, loc, threads, [&](Value t) {
          // The warps past the last output element fold the last row again
          // (their totals are not stored): no lane's loads leave the input.
          Value output =
              ragged ? affine::makeComposedAffineMin(
                           rewriter, loc,
                           AffineMap::get(2, 0,
                                          {outputExpr, getAffineConstantExpr(
                                                           r.outputs - 1, ctx)},
                                          ctx),
                           {OpFoldResult(blockIndex), t})
                           .getResult()
                     : outputOf(t);
          memref::StoreOp::create(rewriter, loc,
                                  buildPartials(rewriter, loc, {&r}, loops,
                                                output, laneOf(t),
                                                mp::kWarpSize)
                                      .front(),
                                  partials, t);
        });
        buildThreads(rewriter, loc, threads, [&](Value t) {
          Value total = gpu::SubgroupReduceOp::create(
              rewriter, loc, memref::LoadOp::create(rewriter, loc, partials, t),
              *r.warpOp, /*uniform=*/true);
          Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
          Value output = outputOf(t);
          Value store = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::eq, laneOf(t), zero);
          if (ragged)
            store = arith::AndIOp::create(
                rewriter, loc, store,
                arith::CmpIOp::create(
                    rewriter, loc, arith::CmpIPredicate::ult, output,
                    arith::ConstantIndexOp::create(rewriter, loc, r.outputs)));
          auto ifStore = scf::IfOp::create(rewriter, loc, store);
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPoint(ifStore.thenBlock()->getTerminator());
          storeTotal(rewriter, loc, r, loops, output, total, start, epilogue);
        });
      });
  rewriter.eraseOp(static_cast<Operation *>(r.op));
}

/// Replaces `r.op`, a reduction with an epilogue that takes neither blocks
/// nor warps, by an scf.parallel over its output elements: each folds its
/// terms in order into the element's initial value, as the op's loops
/// would, and stores it with the epilogue (storeElement), so the epilogue
/// is not a loop of its own.
static void tileReductionOverThreads(RewriterBase &rewriter, const Reduction &r,
                                     Value start, const Epilogue &epilogue) {
  Location loc = r.op->getLoc();
  SmallVector<AffineExpr> loops = getLoopExprs(r, rewriter.getContext());
  rewriter.setInsertionPoint(r.op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value outputs = arith::ConstantIndexOp::create(rewriter, loc, r.outputs);
  scf::ParallelOp::create(
      rewriter, loc, zero, outputs, one,
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        auto [initial, indices] =
            getInitialValue(b, l, r, loops, ivs[0], start);
        Value element =
            buildPartials(b, l, {&r}, loops, ivs[0], zero, 1, initial).front();
        storeElement(b, l, r, element, indices, &epilogue);
      });
  rewriter.eraseOp(static_cast<Operation *>(r.op));
}

/// Whether the terms of each output element of `r` lie consecutively in
/// memory: every buffer it reads whose element depends on the term is
/// indexed last by the innermost reduction loop (a row's sum or maximum),
/// and there is one.
static bool hasContiguousTerms(const Reduction &r) {
  bool any = false;
  linalg::LinalgOp op = r.op;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    if (llvm::none_of(r.reductionDims,
                      [&](unsigned d) { return map.isFunctionOfDim(d); }))
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || last.getPosition() != r.reductionDims.back())
      return false;
    any = true;
  }
  return any;
}

/// Replaces `op`, a flag reduction (isFlagReduction) with loops, by an
/// scf.parallel over its input in which each element that holds the
/// predicate sets the flag: an OR needs no tree, so it runs one thread per
/// element (the parallel-loop path), where a loop over the same elements
/// may join it (mp-gpu-fuse-parallel-loops).
static void parallelizeFlagReduction(RewriterBase &rewriter,
                                     linalg::GenericOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> lbs, ubs, steps;
  for (Range range :
       cast<linalg::LinalgOp>(*op).createLoopRanges(rewriter, loc)) {
    lbs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.offset));
    ubs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
    steps.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, range.stride));
  }
  scf::ParallelOp::create(
      rewriter, loc, lbs, ubs, steps,
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        buildFlag(b, l, op,
                  memref::LoadOp::create(b, l, op.getDpsInputs()[0], ivs));
      });
  rewriter.eraseOp(op);
}

/// The buffers that `r` reads: its inputs and what its body uses from
/// above, through any view.
static SmallVector<Value> getReadRoots(const Reduction &r) {
  llvm::SetVector<Value> used;
  linalg::LinalgOp op = r.op;
  getUsedValuesDefinedAbove(op->getRegion(0), used);
  used.insert_range(op.getDpsInputs());
  SmallVector<Value> roots;
  for (Value value : used)
    if (isa<MemRefType>(value.getType()))
      roots.push_back(getRootBuffer(value));
  return roots;
}

/// Whether `next`, a block reduction after those of `group` in their block,
/// can join their kernel: it runs over the same loops, has a warp operation
/// if they have one, its output and theirs are different buffers the
/// function allocates that none of the others reads, and only allocations,
/// ops without effects on memory or fills of `next`'s output come between
/// the last of them and `next` (their kernel takes `next`'s place).
static bool canJoin(ArrayRef<const Reduction *> group, const Reduction &next) {
  const Reduction &first = *group[0];
  Operation *last = group.back()->op, *op = next.op;
  if (last->getBlock() != op->getBlock() || !last->isBeforeInBlock(op) ||
      first.ranges != next.ranges || first.parallelDims != next.parallelDims ||
      first.reductionDims != next.reductionDims ||
      first.warpOp.has_value() != next.warpOp.has_value())
    return false;
  auto getOutput = [](const Reduction &r) {
    linalg::LinalgOp op = r.op;
    Value root = getRootBuffer(op.getDpsInits()[0]);
    return root.getDefiningOp<memref::AllocOp>() ? root : Value();
  };
  Value nextOutput = getOutput(next);
  SmallVector<Value> nextReads = getReadRoots(next);
  if (!nextOutput)
    return false;
  for (const Reduction *r : group) {
    Value output = getOutput(*r);
    if (!output || output == nextOutput ||
        llvm::is_contained(nextReads, output) ||
        llvm::is_contained(getReadRoots(*r), nextOutput))
      return false;
  }
  for (Operation *between = last->getNextNode(); between != op;
       between = between->getNextNode()) {
    auto fill = dyn_cast<linalg::FillOp>(between);
    if (!isa<memref::AllocOp>(between) &&
        !(between->getNumRegions() == 0 && isMemoryEffectFree(between)) &&
        !(fill && fill.hasPureBufferSemantics() &&
          getRootBuffer(fill.getDpsInits()[0]) == nextOutput))
      return false;
  }
  return true;
}

namespace {
struct GPUTileReductionsPass
    : public mp::impl::GPUTileReductionsPassBase<GPUTileReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (threads < 32 || threads > 1024 || !llvm::isPowerOf2_64(threads)) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-tile-reductions: threads=" << static_cast<int64_t>(threads)
          << " is invalid: expected a power of two from 32 to 1024";
      return signalPassFailure();
    }
    if (warpMinExtent < 0) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-tile-reductions: warp-min-extent="
          << static_cast<int64_t>(warpMinExtent)
          << " is invalid: expected 0 (no warp reductions) or more";
      return signalPassFailure();
    }
    SmallVector<std::pair<Reduction, Strategy>, 4> reductions;
    SmallVector<linalg::GenericOp> flags;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op->getParentOfType<scf::ForallOp>())
        return;
      auto generic = dyn_cast<linalg::GenericOp>(*op);
      if (generic && op.getNumLoops() > 0 && isFlagReduction(generic)) {
        flags.push_back(generic);
        return;
      }
      // A full reduction has no parallel loop to run on the GPU otherwise.
      std::optional<Reduction> r = matchReductionOp(op);
      if (!r)
        return;
      if (r->parallelDims.empty() ||
          (r->extent >= minExtent && r->outputs <= maxOutputs))
        reductions.emplace_back(std::move(*r), Strategy::Blocks);
      else if (r->warpOp && warpMinExtent > 0 && r->extent >= warpMinExtent &&
               hasContiguousTerms(*r))
        reductions.emplace_back(std::move(*r), Strategy::Warps);
      else if (epilogues)
        reductions.emplace_back(std::move(*r), Strategy::Threads);
    });
    IRRewriter rewriter(&getContext());
    // Consecutive block reductions over the same loops share a kernel
    // (`siblings`): a layer norm's weight and bias gradients, both column
    // sums of the output gradient, read it once.
    SmallVector<std::pair<SmallVector<const Reduction *>, Strategy>> groups;
    for (const auto &[r, strategy] : reductions) {
      if (siblings && strategy == Strategy::Blocks && !groups.empty() &&
          groups.back().second == Strategy::Blocks &&
          canJoin(groups.back().first, r)) {
        groups.back().first.push_back(&r);
        ++numSiblings;
        continue;
      }
      groups.push_back({{&r}, strategy});
    }
    // The thread that stores an output element computes its epilogue: the
    // consumer (its allocation and the flags' fills move before the
    // reduction) and the flags, which are then not parallel loops.
    DenseMap<const Reduction *, Epilogue> found;
    llvm::SetVector<Operation *> taken;
    DominanceInfo dominance(getOperation());
    for (const auto &[group, strategy] : groups) {
      if (!epilogues)
        break;
      SmallVector<Value> outputs =
          llvm::map_to_vector(group, [](const Reduction *r) {
            return getRootBuffer(linalg::LinalgOp(r->op).getDpsInits()[0]);
          });
      for (auto [r, output] : llvm::zip(group, outputs)) {
        std::optional<Epilogue> epilogue =
            findEpilogue(r->op, getReadRoots(*r), dominance);
        // The others' outputs are stored in the same kernel. A short
        // reduction takes an epilogue only with finite checks (a gradient's
        // unscaling): its other consumers (a norm's mean) are loops over its
        // points, which the parallel-loop path fuses with it anyway.
        if (!epilogue ||
            (strategy == Strategy::Threads && epilogue->flags.empty()) ||
            (epilogue->consumer &&
             llvm::any_of(getReadBuffers(epilogue->consumer), [&](Value v) {
               Value root = getRootBuffer(v);
               return root != output && llvm::is_contained(outputs, root);
             })))
          continue;
        for (Operation *hoisted : epilogue->hoisted)
          hoisted->moveBefore(r->op);
        if (epilogue->consumer)
          taken.insert(epilogue->consumer);
        taken.insert_range(epilogue->flags);
        found[r] = std::move(*epilogue);
      }
    }
    for (linalg::GenericOp flag : flags)
      if (!taken.contains(flag)) {
        parallelizeFlagReduction(rewriter, flag);
        ++numFlags;
      }
    auto getEpilogue = [&](const Reduction *r) -> const Epilogue * {
      auto it = found.find(r);
      return it == found.end() ? nullptr : &it->second;
    };
    for (const auto &[group, strategy] : groups) {
      // A short reduction stays the parallel-loop path's unless it computes
      // an epilogue.
      if (strategy == Strategy::Threads && !getEpilogue(group[0]))
        continue;
      // A fill of an output just before (a bias gradient's zeros) is
      // folded: thread 0 combines the total with the fill's value.
      SmallVector<Operation *> setters;
      SmallVector<Value> starts;
      for (const Reduction *r : group) {
        std::optional<FoldedInit> init =
            findFoldedInit(r->op, /*canOutline=*/false);
        if (init && init->value &&
            init->value.getType() == r->neutral.getType()) {
          starts.push_back(init->value);
          setters.push_back(init->setter);
        } else {
          starts.push_back(Value());
        }
      }
      const Reduction &r = *group[0];
      if (strategy == Strategy::Threads) {
        tileReductionOverThreads(rewriter, r, starts[0], *getEpilogue(&r));
        ++numThreadTiled;
      } else if (strategy == Strategy::Warps) {
        // No more warps than output elements.
        tileReductionOverWarps(
            rewriter, r, std::min<int64_t>(threads / mp::kWarpSize, r.outputs),
            starts[0], getEpilogue(&r));
        ++numWarpTiled;
      } else {
        // No more threads than terms (rounded up to a power of two), at
        // least a warp.
        tileReductionOverBlocks(
            rewriter, group,
            std::clamp<int64_t>(llvm::PowerOf2Ceil(r.extent), mp::kWarpSize,
                                threads),
            starts, llvm::map_to_vector(group, getEpilogue));
        numTiled += group.size();
      }
      for (Operation *setter : setters)
        rewriter.eraseOp(setter);
      numFoldedFills += setters.size();
    }
    for (Operation *op : taken)
      rewriter.eraseOp(op);
    numEpilogues += taken.size();
  }
};
} // namespace
