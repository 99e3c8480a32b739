//===- VectorToFMA.cpp - The tiled stage's f32 contractions to FMAs -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// An f32 contraction's tiled stage gives each thread a small tile of C
// (mp-gpu-tile-contractions): its vector.contract becomes one outer product
// per element of K, and each outer product one vector.fma per row.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUVECTORTOFMAPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// One row of a thread's tile for its transfers; other ops whole.
static std::optional<SmallVector<int64_t>> getRowShape(Operation *op) {
  if (!isa<vector::TransferReadOp, vector::TransferWriteOp>(op))
    return std::nullopt;
  auto type = cast<VectorType>(isa<vector::TransferReadOp>(op)
                                   ? op->getResult(0).getType()
                                   : op->getOperand(0).getType());
  SmallVector<int64_t> shape(type.getRank(), 1);
  shape.back() = type.getShape().back();
  return shape;
}

/// The largest divisor that is a power of two, capped (0 and large powers
/// are kMaxAlign: more than any access needs).
static constexpr int64_t kMaxAlign = int64_t(1) << 20;
static int64_t getPowerOfTwo(int64_t v) {
  if (v == 0 || v == std::numeric_limits<int64_t>::min())
    return kMaxAlign;
  uint64_t bits = v < 0 ? -uint64_t(v) : uint64_t(v);
  return std::min<int64_t>(bits & -bits, kMaxAlign);
}

static int64_t getKnownDivisor(Value value, unsigned depth);

/// A power of two that divides `expr` where its dims and symbols are
/// multiples of `operands`.
static int64_t getKnownDivisor(AffineExpr expr, ArrayRef<int64_t> operands,
                               unsigned numDims) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return getPowerOfTwo(c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return operands[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return operands[numDims + s.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = getKnownDivisor(binary.getLHS(), operands, numDims);
  int64_t rhs = getKnownDivisor(binary.getRHS(), operands, numDims);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return std::min(lhs, rhs);
  case AffineExprKind::Mul:
    return std::min(lhs * rhs, kMaxAlign);
  case AffineExprKind::Mod:
    // x mod c = x - c * floor(x / c): a multiple of what divides both.
    return std::min(lhs, rhs);
  default:
    return 1;
  }
}

/// A power of two that divides the index `value`: through constants,
/// affine.apply and integer adds and multiplies (thread and block ids
/// count as 1).
static int64_t getKnownDivisor(Value value, unsigned depth) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return getPowerOfTwo(constant.getSExtValue());
  if (depth == 0)
    return 1;
  Operation *def = value.getDefiningOp();
  if (auto apply = dyn_cast_or_null<affine::AffineApplyOp>(def)) {
    SmallVector<int64_t> operands =
        llvm::map_to_vector(apply.getOperands(), [&](Value v) {
          return getKnownDivisor(v, depth - 1);
        });
    return getKnownDivisor(apply.getAffineMap().getResult(0), operands,
                           apply.getAffineMap().getNumDims());
  }
  if (isa_and_nonnull<arith::AddIOp, arith::MulIOp>(def)) {
    int64_t lhs = getKnownDivisor(def->getOperand(0), depth - 1);
    int64_t rhs = getKnownDivisor(def->getOperand(1), depth - 1);
    return isa<arith::AddIOp>(def) ? std::min(lhs, rhs)
                                   : std::min(lhs * rhs, kMaxAlign);
  }
  return 1;
}

/// The alignment in bytes of a vector of `vectorType` at `indices` of a
/// buffer of `type` (buffers start at 16-byte boundaries): the largest
/// power of two that divides the element offset times the element size, at
/// most the vector's size.
static int64_t getAccessAlignment(MemRefType type, ValueRange indices,
                                  VectorType vectorType) {
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (bytes == 0 || failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset))
    return std::max<int64_t>(bytes, 1);
  int64_t divisor = getPowerOfTwo(offset);
  for (auto [index, stride] : llvm::zip_equal(indices, strides)) {
    if (ShapedType::isDynamic(stride))
      return bytes;
    divisor = std::min(divisor, std::min(getKnownDivisor(index, /*depth=*/8) *
                                             getPowerOfTwo(stride),
                                         kMaxAlign));
  }
  int64_t size = vectorType.getNumElements() * bytes;
  return std::min({divisor * bytes, getPowerOfTwo(size), int64_t(16)});
}

/// A 1-d, unmasked, in-bounds transfer of a thread's tile row on a buffer
/// (read or write) as a vector load or store as aligned as its indices
/// show: the rows of 4 elements a thread reads from the panels are 16-byte
/// loads.
template <typename TransferOp>
struct TransferToAlignedAccess : OpRewritePattern<TransferOp> {
  using OpRewritePattern<TransferOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(TransferOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<MemRefType>(op.getBase().getType());
    VectorType vectorType = op.getVectorType();
    if (!type || vectorType.getRank() != 1 || op.getMask() ||
        !op.getPermutationMap().isMinorIdentity() || !op.isDimInBounds(0))
      return failure();
    llvm::MaybeAlign alignment(
        getAccessAlignment(type, op.getIndices(), vectorType));
    if constexpr (std::is_same_v<TransferOp, vector::TransferReadOp>)
      rewriter.replaceOpWithNewOp<vector::LoadOp>(
          op, vectorType, op.getBase(), op.getIndices(),
          /*nontemporal=*/false, alignment);
    else
      rewriter.replaceOpWithNewOp<vector::StoreOp>(
          op, op.getVector(), op.getBase(), op.getIndices(),
          /*nontemporal=*/false, alignment);
    return success();
  }
};

namespace {
struct GPUVectorToFMAPass
    : public mp::impl::GPUVectorToFMAPassBase<GPUVectorToFMAPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> stages;
    getOperation()->walk([&](gpu::LaunchOp launch) {
      WalkResult found = launch.getBody().walk([](vector::ContractionOp op) {
        return isSimtContraction(op) ? WalkResult::interrupt()
                                     : WalkResult::advance();
      });
      if (found.wasInterrupted())
        stages.push_back(launch);
    });
    for (gpu::LaunchOp stage : stages) {
      if (failed(keepAccumulatorsInRegisters(stage)))
        return signalPassFailure();
      // The tiles' reads and writes row by row, as vector loads and stores
      // (the tiles' rows are contiguous).
      RewritePatternSet patterns(&getContext());
      vector::populateVectorUnrollPatterns(
          patterns,
          vector::UnrollVectorOptions().setNativeShapeFn(getRowShape));
      patterns.add<TransferToAlignedAccess<vector::TransferReadOp>,
                   TransferToAlignedAccess<vector::TransferWriteOp>>(
          &getContext());
      vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::EltWise);
      if (failed(applyPatternsGreedily(stage, std::move(patterns))))
        return signalPassFailure();
      bool left = false;
      stage.walk([&](vector::ContractionOp contract) {
        contract.emitError("mp-gpu-vector-to-fma: cannot lower this f32 "
                           "contraction to fused multiply-adds");
        left = true;
      });
      if (left)
        return signalPassFailure();
      ++numConverted;
    }
  }
};
} // namespace
