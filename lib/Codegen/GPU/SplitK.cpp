//===- SplitK.cpp - Tensor Core contractions split along K ----------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// A contraction with few thread blocks and a long K becomes a batched GEMM of
// partial products over parts of K, then their sum: more blocks at once, the
// same f32 accumulation, a fixed summation order.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUSPLITKPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The most parts a contraction is split into (a GPU has at most a few
/// hundred multiprocessors; the bound keeps the search short for any K).
constexpr int64_t kMaxParts = 1024;

/// The number of parts to split `k` terms into for a contraction of
/// `blocks` thread blocks (1 if none): the fewest that give `minBlocks`
/// blocks, else the most, each part a multiple of two mma K steps and at
/// least `minK` terms, at most kMaxParts.
static int64_t chooseSplits(int64_t blocks, int64_t k, int64_t minBlocks,
                            int64_t minK) {
  if (blocks >= minBlocks)
    return 1;
  int64_t best = 1;
  int64_t most = std::min(k / minK, kMaxParts);
  for (int64_t parts = 2; parts <= most; ++parts) {
    if (k % parts || (k / parts) % (2 * kMmaK))
      continue;
    best = parts;
    if (blocks * parts >= minBlocks)
      break;
  }
  return best;
}

/// The elementwise producer of `operand` that splitOperand computes over the
/// parts instead, if it has one that it can: the operand's only reader is
/// its contraction, and the producer has one output (identity map, not read),
/// parallel loops, inputs read through projected permutations and no
/// `linalg.index`. Failure if the operand has a producer it cannot take.
static FailureOr<linalg::GenericOp> getSplittableProducer(Value operand) {
  auto producer = operand.getDefiningOp<linalg::GenericOp>();
  if (!producer)
    return linalg::GenericOp();
  if (!operand.hasOneUse() || producer->getNumResults() != 1 ||
      producer.getNumReductionLoops() != 0 ||
      !producer.getIndexingMapsArray().back().isIdentity() ||
      producer.payloadUsesValueFromOperand(producer.getDpsInitOperand(0)) ||
      !producer.getBody()->getOps<linalg::IndexOp>().empty() ||
      llvm::any_of(producer.getDpsInputOperands(), [&](OpOperand *input) {
        return !isa<RankedTensorType>(input->get().getType()) ||
               !producer.getMatchingIndexingMap(input).isProjectedPermutation(
                   /*allowZeroInResults=*/false);
      }))
    return failure();
  return producer;
}

/// `map` over the loops (part, loops of `map`), the part its first result.
static AffineMap prependPart(AffineMap map) {
  SmallVector<AffineExpr> exprs{getAffineDimExpr(0, map.getContext())};
  for (AffineExpr e : map.getResults())
    exprs.push_back(e.shiftDims(map.getNumDims(), 1));
  return AffineMap::get(map.getNumDims() + 1, 0, exprs, map.getContext());
}

/// The shape of `parts` tensors of `type` stacked outermost.
static SmallVector<int64_t> getPartsShape(RankedTensorType type,
                                          int64_t parts) {
  SmallVector<int64_t> shape{parts};
  llvm::append_range(shape, type.getShape());
  return shape;
}

/// `value` (read with `map`, `k` among its loops) with the dimension that
/// `k` indexes expanded into `parts` x K/parts, and `map` over the loops
/// (part, loops of `map`) with that dimension read as (part, k).
static std::pair<Value, AffineMap> expandK(RewriterBase &rewriter, Location loc,
                                           Value value, AffineMap map,
                                           unsigned k, int64_t parts) {
  MLIRContext *ctx = rewriter.getContext();
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  SmallVector<AffineExpr> exprs;
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    AffineExpr shifted = e.shiftDims(map.getNumDims(), 1);
    ReassociationIndices group;
    if (e.isFunctionOfDim(k)) {
      group.push_back(shape.size());
      shape.push_back(parts);
      exprs.push_back(getAffineDimExpr(0, ctx));
      group.push_back(shape.size());
      shape.push_back(type.getDimSize(i) / parts);
    } else {
      group.push_back(shape.size());
      shape.push_back(type.getDimSize(i));
    }
    exprs.push_back(shifted);
    groups.push_back(group);
  }
  AffineMap expandedMap = AffineMap::get(map.getNumDims() + 1, 0, exprs, ctx);
  if (shape.size() == static_cast<size_t>(type.getRank()))
    return {value, expandedMap};
  auto expandedType = RankedTensorType::get(shape, type.getElementType());
  return {
      tensor::ExpandShapeOp::create(rewriter, loc, expandedType, value, groups),
      expandedMap};
}

/// `operand` of a contraction (read with `map`, the contraction's K loop
/// `k`, `pos` its dimension that K indexes) as a tensor of `parts` parts of
/// it outermost, K/parts at `pos`, and the map that reads it over the loops
/// (part, the contraction's loops with K within a part). With `pos` 0, a
/// reshape of it; else computed by `producer` over the parts (or by a copy
/// without one).
static std::pair<Value, AffineMap> splitOperand(RewriterBase &rewriter,
                                                Location loc, Value operand,
                                                AffineMap map, unsigned k,
                                                unsigned pos, int64_t parts,
                                                linalg::GenericOp producer) {
  MLIRContext *ctx = rewriter.getContext();
  if (pos == 0 && !producer)
    return expandK(rewriter, loc, operand, map, k, parts);

  // The producer's (or a copy's) loops are the operand's dimensions (its
  // output map is the identity): dimension `pos` is K's.
  auto type = cast<RankedTensorType>(operand.getType());
  unsigned rank = type.getRank();
  SmallVector<std::pair<Value, AffineMap>> reads;
  if (producer)
    for (OpOperand *input : producer.getDpsInputOperands())
      reads.emplace_back(input->get(), producer.getMatchingIndexingMap(input));
  else
    reads.emplace_back(operand, AffineMap::getMultiDimIdentityMap(rank, ctx));
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (auto [value, readMap] : reads) {
    auto [expanded, expandedMap] =
        expandK(rewriter, loc, value, readMap, pos, parts);
    inputs.push_back(expanded);
    maps.push_back(expandedMap);
  }
  SmallVector<int64_t> shape = getPartsShape(type, parts);
  shape[pos + 1] /= parts;
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank + 1, ctx));
  SmallVector<utils::IteratorType> iterators(rank + 1,
                                             utils::IteratorType::parallel);
  auto split = linalg::GenericOp::create(rewriter, loc, empty.getType(), inputs,
                                         empty, maps, iterators);
  if (producer) {
    rewriter.cloneRegionBefore(producer.getRegion(), split.getRegion(),
                               split.getRegion().end());
  } else {
    Block *body = rewriter.createBlock(
        &split.getRegion(), {}, {type.getElementType(), type.getElementType()},
        {loc, loc});
    linalg::YieldOp::create(rewriter, loc, body->getArgument(0));
  }
  return {split.getResult(0), prependPart(map)};
}

namespace {
struct GPUSplitKPass : public mp::impl::GPUSplitKPassBase<GPUSplitKPass> {
  using Base::Base;

  void runOnOperation() override {
    if (minK < 1 || minBlocks < 0) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-split-k: min-blocks=" << static_cast<int64_t>(minBlocks)
          << " min-k=" << static_cast<int64_t>(minK)
          << " is invalid: expected min-blocks >= 0 (0: never split) and "
             "min-k >= 1";
      return signalPassFailure();
    }
    SmallVector<std::tuple<linalg::LinalgOp, MmaContraction, int64_t>> splits;
    getOperation()->walk([&](linalg::LinalgOp op) {
      auto tiles = op->getAttrOfType<DenseI64ArrayAttr>(
          MPDialect::GpuTileAttrHelper::getNameStr());
      if (!tiles || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2)
        return;
      std::optional<MmaContraction> c = matchTiledContraction(op);
      if (!c || c->batch)
        return;
      int64_t blocks = llvm::divideCeil(c->ranges[c->m], tiles[0]) *
                       llvm::divideCeil(c->ranges[c->n], tiles[1]);
      int64_t parts = chooseSplits(blocks, c->ranges[c->k], minBlocks, minK);
      if (parts > 1 && llvm::all_of(op.getDpsInputs(), [](Value input) {
            return succeeded(getSplittableProducer(input));
          }))
        splits.emplace_back(op, *c, parts);
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, c, parts] : splits)
      split(rewriter, op, c, parts);
    numSplit += splits.size();
  }

  /// Replaces `op` (the contraction `c`) by a contraction of `parts` parts
  /// of K and their sum.
  void split(RewriterBase &rewriter, linalg::LinalgOp op,
             const MmaContraction &c, int64_t parts) {
    MLIRContext *ctx = &getContext();
    Location loc = op.getLoc();
    AffineExpr kExpr = getAffineDimExpr(c.k, ctx);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<linalg::GenericOp> producers;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      linalg::GenericOp producer = *getSplittableProducer(input->get());
      rewriter.setInsertionPoint(producer ? producer.getOperation()
                                          : op.getOperation());
      auto [value, partMap] =
          splitOperand(rewriter, loc, input->get(), map, c.k,
                       *map.getResultPosition(kExpr), parts, producer);
      if (producer)
        producers.push_back(producer);
      inputs.push_back(value);
      maps.push_back(partMap);
    }

    // The partial products, each from zero, in f32.
    rewriter.setInsertionPoint(op);
    Value init = op.getDpsInits()[0];
    auto initType = cast<RankedTensorType>(init.getType());
    SmallVector<int64_t> shape = getPartsShape(initType, parts);
    Type f32 = initType.getElementType();
    Value zero = arith::ConstantOp::create(rewriter, loc, f32,
                                           rewriter.getZeroAttr(f32));
    Value empty = tensor::EmptyOp::create(rewriter, loc, shape, f32);
    Value zeros = linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                                         ValueRange{empty})
                      .getResult(0);
    maps.push_back(
        prependPart(op.getMatchingIndexingMap(op.getDpsInitOperand(0))));
    SmallVector<utils::IteratorType> iterators{utils::IteratorType::parallel};
    llvm::append_range(iterators, op.getIteratorTypesArray());
    auto partial = linalg::GenericOp::create(rewriter, loc, zeros.getType(),
                                             inputs, zeros, maps, iterators);
    rewriter.cloneRegionBefore(op->getRegion(0), partial.getRegion(),
                               partial.getRegion().end());
    partial->setDiscardableAttrs(op->getDiscardableAttrDictionary());

    // Their sum, in order, into C's initial value. A fill of C moves next to
    // the sum, so that one loop does both (mp-gpu-fuse-parallel-loops) where
    // the contraction's tiles had set C.
    auto fill = init.getDefiningOp<linalg::FillOp>();
    if (fill)
      init = rewriter.clone(*fill)->getResult(0);
    unsigned rank = initType.getRank();
    SmallVector<utils::IteratorType> sumIterators(
        rank + 1, utils::IteratorType::parallel);
    sumIterators[0] = utils::IteratorType::reduction;
    AffineMap all = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
    auto sum = linalg::GenericOp::create(
        rewriter, loc, initType, partial.getResult(0), init,
        {all, all.dropResult(0)}, sumIterators,
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[1], args[0]).getResult());
        });
    rewriter.replaceOp(op, sum.getResults());
    if (fill && fill->use_empty())
      rewriter.eraseOp(fill);
    for (linalg::GenericOp producer : producers) {
      Value init = producer.getDpsInits()[0];
      rewriter.eraseOp(producer);
      if (init.use_empty() && init.getDefiningOp<tensor::EmptyOp>())
        rewriter.eraseOp(init.getDefiningOp());
    }
  }
};
} // namespace
