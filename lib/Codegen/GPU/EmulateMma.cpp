//===- EmulateMma.cpp - The tiled stage's MMA tiles as loops over K -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <tuple>

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUEMULATEMMAPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Which dimension of an operand whose map in a contraction over the loops
/// (M, N, K) is `map` holds K (loop 2), if its other dimension is loop
/// `other`.
static std::optional<unsigned> getKDim(AffineMap map, unsigned other) {
  MLIRContext *ctx = map.getContext();
  AffineExpr k = getAffineDimExpr(2, ctx);
  AffineExpr d = getAffineDimExpr(other, ctx);
  if (map == AffineMap::get(3, 0, {d, k}, ctx))
    return 1;
  if (map == AffineMap::get(3, 0, {k, d}, ctx))
    return 0;
  return std::nullopt;
}

/// Whether `type` is a fixed-size 2-D vector of floats no wider than
/// `accType`'s.
static bool isOperandType(Type type, FloatType accType) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.getRank() != 2 || vector.isScalable())
    return false;
  auto element = dyn_cast<FloatType>(vector.getElementType());
  return element && element.getWidth() <= accType.getWidth();
}

/// The dimension that holds K in A and in B if `op` is a contraction this
/// pass computes as a loop: C(m, n) += A(m, k) * B(k, n), either operand
/// possibly transposed, floats extended to C's type.
static std::optional<std::pair<unsigned, unsigned>>
matchLoopContraction(vector::ContractionOp op) {
  auto accType = dyn_cast<VectorType>(op.getAccType());
  if (!accType || op.getKind() != vector::CombiningKind::ADD || op.isMasked())
    return std::nullopt;
  auto accElement = dyn_cast<FloatType>(accType.getElementType());
  if (!accElement || accType.getRank() != 2 || accType.isScalable() ||
      !isOperandType(op.getLhsType(), accElement) ||
      !isOperandType(op.getRhsType(), accElement))
    return std::nullopt;
  SmallVector<vector::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators !=
      ArrayRef<vector::IteratorType>{vector::IteratorType::parallel,
                                     vector::IteratorType::parallel,
                                     vector::IteratorType::reduction})
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  MLIRContext *ctx = op.getContext();
  if (maps[2] !=
      AffineMap::get(3, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)},
                     ctx))
    return std::nullopt;
  std::optional<unsigned> lhsK = getKDim(maps[0], 0);
  std::optional<unsigned> rhsK = getKDim(maps[1], 1);
  if (!lhsK || !rhsK)
    return std::nullopt;
  return std::make_pair(*lhsK, *rhsK);
}

/// The 1-D slice at index `k` of dimension `kDim` of the 2-D `buffer`,
/// extended to `element`: a row is one vector load, a column one load per
/// element.
static Value readSlice(OpBuilder &b, Location loc, Value buffer, unsigned kDim,
                       Value k, FloatType element) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t size = type.getDimSize(1 - kDim);
  auto sliceType = VectorType::get({size}, type.getElementType());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value slice;
  if (kDim == 0) {
    slice =
        vector::LoadOp::create(b, loc, sliceType, buffer, ValueRange{k, zero});
  } else {
    SmallVector<Value> elements;
    for (int64_t i = 0; i < size; ++i)
      elements.push_back(memref::LoadOp::create(
          b, loc, buffer,
          ValueRange{arith::ConstantIndexOp::create(b, loc, i), k}));
    slice = vector::FromElementsOp::create(b, loc, sliceType, elements);
  }
  if (type.getElementType() == element)
    return slice;
  return arith::ExtFOp::create(b, loc, VectorType::get({size}, element), slice);
}

namespace {
struct GPUEmulateMmaPass
    : public mp::impl::GPUEmulateMmaPassBase<GPUEmulateMmaPass> {
  void runOnOperation() override {
    SmallVector<vector::ContractionOp> contracts;
    getOperation()->walk(
        [&](vector::ContractionOp op) { contracts.push_back(op); });
    // One stack buffer per function, operand (A or B) and type, allocated
    // in the function's entry block (not in a loop, where each trip would
    // take more stack): the contractions run one after another.
    DenseMap<std::tuple<Operation *, unsigned, Type>, Value> buffers;
    IRRewriter rewriter(&getContext());
    for (vector::ContractionOp op : contracts) {
      std::optional<std::pair<unsigned, unsigned>> kDims =
          matchLoopContraction(op);
      Operation *scope = op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
      if (!kDims || !scope)
        continue;
      Location loc = op.getLoc();
      auto getBuffer = [&](unsigned operand, VectorType type) {
        Value &buffer = buffers[{scope, operand, type}];
        if (!buffer) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(&scope->getRegion(0).front());
          buffer = memref::AllocaOp::create(
              rewriter, loc,
              MemRefType::get(type.getShape(), type.getElementType()));
        }
        return buffer;
      };
      rewriter.setInsertionPoint(op);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value lhs = getBuffer(0, op.getLhsType());
      Value rhs = getBuffer(1, cast<VectorType>(op.getRhsType()));
      SmallVector<bool> inBounds(2, true);
      vector::TransferWriteOp::create(rewriter, loc, op.getLhs(), lhs,
                                      ValueRange{zero, zero}, inBounds);
      vector::TransferWriteOp::create(rewriter, loc, op.getRhs(), rhs,
                                      ValueRange{zero, zero}, inBounds);
      int64_t k = op.getLhsType().getDimSize(kDims->first);
      auto accType = cast<VectorType>(op.getAccType());
      auto element = cast<FloatType>(accType.getElementType());
      auto loop = scf::ForOp::create(
          rewriter, loc, zero, arith::ConstantIndexOp::create(rewriter, loc, k),
          arith::ConstantIndexOp::create(rewriter, loc, 1),
          ValueRange{op.getAcc()},
          [&](OpBuilder &b, Location loc, Value iv, ValueRange acc) {
            Value a = readSlice(b, loc, lhs, kDims->first, iv, element);
            Value bk = readSlice(b, loc, rhs, kDims->second, iv, element);
            scf::YieldOp::create(b, loc,
                                 ValueRange{vector::OuterProductOp::create(
                                     b, loc, accType, a, bk, acc.front(),
                                     vector::CombiningKind::ADD)});
          });
      rewriter.replaceOp(op, loop.getResults());
      ++numLoops;
    }
  }
};
} // namespace
