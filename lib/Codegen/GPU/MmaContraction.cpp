//===- MmaContraction.cpp - Contractions Tensor Cores compute -------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "MmaContraction.h"

#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

using namespace mlir;

/// The loops of `op` if it is a contraction of static shape (of any shape
/// with `anyShape`) whose operands are both of a type that `isOperandType`
/// takes, whose accumulator is f32, with one M, N and K loop and at most one
/// batch loop, outermost in the operands and the result.
static std::optional<mp::MmaContraction>
matchContraction(linalg::LinalgOp op, function_ref<bool(Type)> isOperandType,
                 bool anyShape = false) {
  if (!linalg::isaContractionOpInterface(op) || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 ||
      !llvm::all_of(op->getOperandTypes(), [&](Type type) {
        auto shaped = dyn_cast<ShapedType>(type);
        return shaped && (anyShape || shaped.hasStaticShape());
      }))
    return std::nullopt;
  Type lhs = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
  Type rhs = getElementTypeOrSelf(op.getDpsInputOperand(1)->get());
  Type acc = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  if (lhs != rhs || !isOperandType(lhs) || !acc.isF32())
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return std::nullopt;
  mp::MmaContraction c{std::nullopt, dims->m[0], dims->n[0], dims->k[0],
                       op.getStaticLoopRanges()};
  if (!dims->batch.empty()) {
    // The tiles are (1 x) rows x columns: the batch outermost everywhere.
    c.batch = dims->batch[0];
    AffineExpr batch = getAffineDimExpr(*c.batch, op.getContext());
    if (llvm::any_of(op.getIndexingMapsArray(),
                     [&](AffineMap map) { return map.getResult(0) != batch; }))
      return std::nullopt;
  }
  return c;
}

std::optional<mp::MmaContraction> mp::matchMmaContraction(linalg::LinalgOp op) {
  return matchContraction(op, [](Type t) { return t.isF16() || t.isBF16(); });
}

static bool isLibraryOperandType(Type t) {
  return t.isF16() || t.isBF16() || t.isF32();
}

std::optional<mp::MmaContraction>
mp::matchLibraryContraction(linalg::LinalgOp op) {
  return matchContraction(op, isLibraryOperandType);
}

bool mp::isDynamicConvolution(linalg::LinalgOp op) {
  return op.hasDynamicShape() && linalg::isaConvolutionOpInterface(op) &&
         isMultiplyAccumulate(op) &&
         llvm::all_of(op->getOperandTypes(), [](Type type) {
           return isLibraryOperandType(getElementTypeOrSelf(type));
         });
}

std::optional<mp::MmaContraction> mp::matchTiledContraction(linalg::LinalgOp op,
                                                            bool dynamicSizes) {
  std::optional<MmaContraction> c =
      matchContraction(op, isLibraryOperandType, dynamicSizes);
  if (c)
    c->simt = getElementTypeOrSelf(op.getDpsInputOperand(0)->get()).isF32();
  return c;
}

SmallVector<int64_t> mp::chooseSimtTiles(const MmaContraction &c, int64_t block,
                                         int64_t thread) {
  auto tile = [&](int64_t extent) {
    if (ShapedType::isDynamic(extent))
      return block;
    int64_t size = thread;
    while (size < extent && size < block)
      size *= 2;
    return size;
  };
  return {tile(c.ranges[c.m]), tile(c.ranges[c.n]), thread, thread};
}

std::optional<std::string> mp::checkSimtOptions(int64_t block, int64_t thread) {
  std::string problem = "simt-block=" + std::to_string(block) +
                        " simt-thread=" + std::to_string(thread) +
                        " is invalid: ";
  if (thread <= 0 || block < thread || block % thread ||
      !llvm::isPowerOf2_64(block / thread))
    return problem + "expected simt-block to be simt-thread (1 or more) "
                     "times a power of two";
  if ((block / thread) * (block / thread) > kMaxBlockThreads)
    return problem + "blocks of " + std::to_string(block / thread) + " x " +
           std::to_string(block / thread) + " threads exceed the " +
           std::to_string(kMaxBlockThreads) + " a block may have";
  return std::nullopt;
}

bool mp::isSimtContraction(vector::ContractionOp contract) {
  return contract.getLhsType().getElementType().isF32();
}

/// Puts a barrier after the writes of `loop`'s results when the loop's steps
/// end with one. Those writes were the last of each step before they were
/// hoisted out of the loop, past its barrier, and the epilogue after the
/// loop reads the tile they write (in workgroup or global memory) with
/// another mapping of threads to elements: without a barrier it reads other
/// threads' elements before they are written.
static void fenceHoistedWrites(scf::ForOp loop) {
  if (!llvm::any_of(loop.getBody()->without_terminator(),
                    llvm::IsaPred<gpu::BarrierOp>))
    return;
  Operation *last = nullptr;
  for (Operation *user : loop->getUsers())
    if (isa<vector::TransferWriteOp>(user) &&
        user->getBlock() == loop->getBlock() &&
        (!last || last->isBeforeInBlock(user)))
      last = user;
  Operation *next = last ? last->getNextNode() : nullptr;
  if (!next || isa<gpu::BarrierOp>(next) ||
      next->hasTrait<OpTrait::IsTerminator>())
    return;
  OpBuilder builder(last->getContext());
  builder.setInsertionPointAfter(last);
  gpu::BarrierOp::create(builder, loop.getLoc());
}

/// Whether `memref` is seen through a subview, defined outside `launch`, of
/// part of a buffer (the slice of attention's q, k and v projections that a
/// GEMM's operand copies read): folded, the accesses would name the whole
/// buffer, and the kernel report would count all of it as read.
static bool isOutsideSlice(Value memref, gpu::LaunchOp launch) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>()) {
    auto subview = dyn_cast<memref::SubViewOp>(view.getOperation());
    if (subview && !launch->isAncestor(subview) &&
        subview.getType().getNumElements() <
            subview.getSourceType().getNumElements())
      return true;
    memref = view.getViewSource();
  }
  return false;
}

namespace {
/// Gives a vector load that replaces one with an alignment (the views
/// folded into it: the same address) that alignment. Upstream's patterns
/// that fold a `memref.collapse_shape` or `expand_shape` into a
/// `vector.load` drop it, and LLVM then splits an f32 operand's 16-byte
/// copy through a reshape (the MLP's image rows) into 4 loads. (The greedy
/// driver passes its listener the replacing values, not the op.)
struct KeepAlignment : public RewriterBase::Listener {
  void notifyOperationReplaced(Operation *op, ValueRange replacement) override {
    auto from = dyn_cast<vector::LoadOp>(op);
    auto to = replacement.size() == 1
                  ? replacement[0].getDefiningOp<vector::LoadOp>()
                  : nullptr;
    if (from && to && from.getAlignmentAttr() && !to.getAlignmentAttr())
      to.setAlignmentAttr(from.getAlignmentAttr());
  }
};
} // namespace

LogicalResult mp::keepAccumulatorsInRegisters(gpu::LaunchOp launch) {
  RewritePatternSet patterns(launch.getContext());
  memref::populateFoldMemRefAliasOpPatterns(patterns);
  KeepAlignment keepAlignment;
  SmallVector<Operation *> folded;
  launch.walk([&](Operation *op) {
    if (llvm::none_of(op->getOperands(), [&](Value operand) {
          return isa<MemRefType>(operand.getType()) &&
                 isOutsideSlice(operand, launch);
        }))
      folded.push_back(op);
  });
  if (failed(applyOpPatternsGreedily(
          folded, std::move(patterns),
          GreedyRewriteConfig()
              .setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
              .setListener(&keepAlignment))))
    return failure();
  IRRewriter rewriter(launch.getContext());
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, launch);
  launch.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
  linalg::hoistRedundantVectorTransfers(launch, /*verifyNonZeroTrip=*/true);
  launch.walk(fenceHoistedWrites);
  return success();
}

std::optional<std::string> mp::checkTileOptions(int64_t tileM, int64_t tileN,
                                                int64_t warpM, int64_t warpN) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (tileM <= 0 || tileN <= 0 || warpM <= 0 || warpN <= 0 || warpM % kMmaM ||
      warpN % kMmaN || tileM % warpM || tileN % warpN)
    os << "tile-m=" << tileM << " tile-n=" << tileN << " warp-m=" << warpM
       << " warp-n=" << warpN
       << " is invalid: warp-m must be a positive multiple of 16 and warp-n "
          "of 8, dividing tile-m and tile-n";
  else if ((tileM / warpM) * (tileN / warpN) * kWarpSize > kMaxBlockThreads)
    os << (tileM / warpM) * (tileN / warpN) << " warps per block exceed the "
       << kMaxBlockThreads << " threads a block may have";
  else
    return std::nullopt;
  return text;
}

std::optional<std::string> mp::checkSimtTiles(ArrayRef<int64_t> tiles) {
  int64_t threads = (tiles[0] / tiles[2]) * (tiles[1] / tiles[3]);
  if (threads <= kMaxBlockThreads)
    return std::nullopt;
  return "tiles " + std::to_string(tiles[0]) + "x" + std::to_string(tiles[1]) +
         " of " + std::to_string(tiles[2]) + "x" + std::to_string(tiles[3]) +
         " per thread are " + std::to_string(threads) +
         " threads, more than the " + std::to_string(kMaxBlockThreads) +
         " a block may have";
}

std::optional<std::string> mp::checkStages(int64_t stages) {
  if (stages >= 1)
    return std::nullopt;
  return "stages=" + std::to_string(stages) +
         " is invalid: expected 1 (panels single-buffered) or more";
}

std::optional<std::string> mp::checkTileK(int64_t tileK) {
  if (llvm::is_contained({kMmaK, 2 * kMmaK, 4 * kMmaK}, tileK))
    return std::nullopt;
  return "tile-k=" + std::to_string(tileK) +
         " is invalid: expected 16, 32 or 64 (K per trip of a Tensor Core "
         "GEMM's loop)";
}

int64_t mp::getMmaKStep(int64_t k, int64_t tileK) {
  int64_t step = tileK;
  if (ShapedType::isDynamic(k))
    return step;
  if (k % kMmaK == 0)
    while (step > kMmaK && k % step != 0)
      step /= 2;
  else
    while (step > kMmaK && step > static_cast<int64_t>(llvm::alignTo(k, kMmaK)))
      step /= 2;
  return step;
}

LogicalResult mp::verifyTileOptions(Location loc, StringRef pass, int64_t tileM,
                                    int64_t tileN, int64_t warpM,
                                    int64_t warpN) {
  if (std::optional<std::string> problem =
          checkTileOptions(tileM, tileN, warpM, warpN))
    return emitError(loc) << pass << ": " << *problem;
  return success();
}

Value mp::getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

Value mp::recomputeWith(RewriterBase &rewriter, Operation *before, Value value,
                        function_ref<Value(Value)> replace) {
  if (Value replacement = replace(value))
    return replacement;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumRegions() != 0 || def->getNumResults() != 1 ||
      !isPure(def))
    return value;
  SmallVector<Value> operands;
  bool changed = false;
  for (Value operand : def->getOperands()) {
    operands.push_back(recomputeWith(rewriter, before, operand, replace));
    changed |= operands.back() != operand;
  }
  if (!changed)
    return value;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(before);
  Operation *copy = rewriter.clone(*def);
  copy->setOperands(operands);
  return copy->getResult(0);
}
