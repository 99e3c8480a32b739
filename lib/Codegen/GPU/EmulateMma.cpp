//===- EmulateMma.cpp - The tiled stage's MMA tiles as loops over K -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// Where the elements of a contraction's 2-D operand are in memory: element
/// (i, j) is `buffer[indices[0], ..., indices[r-2] + i, indices[r-1] + j]`.
struct OperandMemory {
  Value buffer;
  SmallVector<Value> indices;
};

/// Where `operand` of `contract` can be read at the contraction itself: the
/// buffer of the in-bounds, unmasked, minor-identity vector.transfer_read
/// that defines it in the contraction's block, if no op between the two
/// writes memory (or may).
static std::optional<OperandMemory>
getReadMemory(Value operand, vector::ContractionOp contract) {
  auto read = operand.getDefiningOp<vector::TransferReadOp>();
  if (!read || read->getBlock() != contract->getBlock() || read.getMask() ||
      !isa<MemRefType>(read.getBase().getType()) ||
      !read.getPermutationMap().isMinorIdentity() ||
      llvm::is_contained(read.getInBoundsValues(), false) ||
      !read->isBeforeInBlock(contract))
    return std::nullopt;
  for (Operation *op = read->getNextNode(); op != contract;
       op = op->getNextNode()) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects || llvm::any_of(*effects, [](auto &effect) {
          return !isa<MemoryEffects::Read>(effect.getEffect());
        }))
      return std::nullopt;
  }
  return OperandMemory{read.getBase(), read.getIndices()};
}

/// The 1-D slice at index `k` of dimension `kDim` of a 2-D operand of
/// `type` in `memory`, extended to `element`: a row is one read, a column
/// one load per element.
static Value readSlice(OpBuilder &b, Location loc, const OperandMemory &memory,
                       VectorType type, unsigned kDim, Value k,
                       FloatType element) {
  int64_t size = type.getDimSize(1 - kDim);
  auto sliceType = VectorType::get({size}, type.getElementType());
  auto add = [&](Value x, Value y) -> Value {
    if (isConstantIntValue(x, 0))
      return y;
    if (isConstantIntValue(y, 0))
      return x;
    return arith::AddIOp::create(b, loc, x, y);
  };
  // The indices of element (i, j).
  auto at = [&](Value i, Value j) {
    SmallVector<Value> indices(memory.indices);
    indices[indices.size() - 2] = add(indices[indices.size() - 2], i);
    indices.back() = add(indices.back(), j);
    return indices;
  };
  Value slice;
  if (kDim == 0) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    slice = vector::TransferReadOp::create(b, loc, sliceType, memory.buffer,
                                           at(k, zero), std::nullopt,
                                           ArrayRef<bool>{true});
  } else {
    SmallVector<Value> elements;
    for (int64_t i = 0; i < size; ++i)
      elements.push_back(memref::LoadOp::create(
          b, loc, memory.buffer,
          at(arith::ConstantIndexOp::create(b, loc, i), k)));
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
      // Each operand from the buffer it was read from, or else from a copy.
      auto getMemory = [&](unsigned index) {
        Value operand = op->getOperand(index);
        if (std::optional<OperandMemory> memory = getReadMemory(operand, op))
          return *memory;
        Value buffer = getBuffer(index, cast<VectorType>(operand.getType()));
        vector::TransferWriteOp::create(rewriter, loc, operand, buffer,
                                        ValueRange{zero, zero},
                                        ArrayRef<bool>{true, true});
        return OperandMemory{buffer, {zero, zero}};
      };
      OperandMemory lhs = getMemory(0), rhs = getMemory(1);
      Value lhsRead = op.getLhs(), rhsRead = op.getRhs();
      int64_t k = op.getLhsType().getDimSize(kDims->first);
      auto accType = cast<VectorType>(op.getAccType());
      auto element = cast<FloatType>(accType.getElementType());
      auto loop = scf::ForOp::create(
          rewriter, loc, zero, arith::ConstantIndexOp::create(rewriter, loc, k),
          arith::ConstantIndexOp::create(rewriter, loc, 1),
          ValueRange{op.getAcc()},
          [&](OpBuilder &b, Location loc, Value iv, ValueRange acc) {
            Value a = readSlice(b, loc, lhs, op.getLhsType(), kDims->first, iv,
                                element);
            Value bk = readSlice(b, loc, rhs, op.getRhsType(), kDims->second,
                                 iv, element);
            scf::YieldOp::create(b, loc,
                                 ValueRange{vector::OuterProductOp::create(
                                     b, loc, accType, a, bk, acc.front(),
                                     vector::CombiningKind::ADD)});
          });
      rewriter.replaceOp(op, loop.getResults());
      // The fragments' reads that no other op uses.
      for (Value read : {lhsRead, rhsRead})
        if (auto transfer = read.getDefiningOp<vector::TransferReadOp>();
            transfer && transfer->use_empty())
          rewriter.eraseOp(transfer);
      ++numLoops;
    }
  }
};
} // namespace
