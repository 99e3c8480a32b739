//===- MmaContraction.cpp - Contractions Tensor Cores compute -------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "MmaContraction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

std::optional<mp::MmaContraction>
mp::matchMmaContraction(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op) || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 ||
      !llvm::all_of(op->getOperandTypes(), [](Type type) {
        auto shaped = dyn_cast<ShapedType>(type);
        return shaped && shaped.hasStaticShape();
      }))
    return std::nullopt;
  Type lhs = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
  Type rhs = getElementTypeOrSelf(op.getDpsInputOperand(1)->get());
  Type acc = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  if (lhs != rhs || !(lhs.isF16() || lhs.isBF16()) || !acc.isF32())
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return std::nullopt;
  MmaContraction c{std::nullopt, dims->m[0], dims->n[0], dims->k[0],
                   op.getStaticLoopRanges()};
  if (!dims->batch.empty())
    c.batch = dims->batch[0];
  return c;
}
