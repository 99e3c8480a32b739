//===- RegisterBlocks.cpp - Contractions in register blocks -----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/RegisterBlocks.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <numeric>

using namespace mlir;
using namespace mlir::mp;

FailureOr<ContractionLoops> mlir::mp::getContractionLoops(linalg::LinalgOp op) {
  // Every operand static: a loop range read off one operand says nothing
  // of another whose size along it is dynamic. One element type for both
  // operands, as vector.contract requires, of the accumulator's kind (float
  // or integer) and no wider (upstream's contract lowering extends
  // operands; it neither narrows nor converts).
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return failure();
  Type operand = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
  Type acc = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  if (!op.hasPureTensorSemantics() ||
      !llvm::all_of(
          op->getOperandTypes(),
          [](Type type) { return cast<ShapedType>(type).hasStaticShape(); }) ||
      operand != getElementTypeOrSelf(op.getDpsInputOperand(1)->get()) ||
      !operand.isIntOrFloat() || !acc.isIntOrFloat() ||
      isa<FloatType>(operand) != isa<FloatType>(acc) ||
      operand.getIntOrFloatBitWidth() > acc.getIntOrFloatBitWidth())
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() < 1 || dims->k.size() > 2)
    return failure();
  ContractionLoops loops{{dims->batch.begin(), dims->batch.end()},
                         dims->m[0],
                         dims->n[0],
                         dims->k[0],
                         std::nullopt,
                         op.getStaticLoopRanges()};
  if (dims->k.size() == 2) {
    unsigned pair = op.getNumLoops() - 1;
    auto isInnermost = [&](OpOperand *input) {
      AffineMap map = op.getMatchingIndexingMap(input);
      return map.getNumResults() &&
             map.getResults().back() == getAffineDimExpr(pair, op.getContext());
    };
    if (!operand.isBF16() || dims->k[1] != pair || loops.ranges[pair] != 2 ||
        !llvm::all_of(op.getDpsInputOperands(), isInnermost))
      return failure();
    loops.pair = pair;
  }
  if (loops.batch.size() + 3 + loops.pair.has_value() != loops.ranges.size() ||
      llvm::any_of(loops.ranges, ShapedType::isDynamic))
    return failure();
  return loops;
}

SmallVector<linalg::LinalgOp> mlir::mp::collectContractions(Operation *root) {
  SmallVector<linalg::LinalgOp> contractions;
  root->walk([&](linalg::LinalgOp op) {
    if (linalg::isaContractionOpInterface(op))
      contractions.push_back(op);
  });
  return contractions;
}

int64_t mlir::mp::fitTile(int64_t size, int64_t tile) {
  if (size % tile == 0)
    return tile;
  return size < tile ? size : std::gcd(size, tile);
}
