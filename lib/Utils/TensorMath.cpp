//===- TensorMath.cpp - Elementwise and reduction linalg builders ---------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mp;

SmallVector<Value> mlir::mp::createElementwise(OpBuilder &b, Location loc,
                                               ValueRange inputs,
                                               TypeRange resultElementTypes,
                                               ScalarBodyBuilder body) {
  Value shape = inputs.front();
  unsigned rank = cast<RankedTensorType>(shape.getType()).getRank();
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, shape);
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (Type elem : resultElementTypes) {
    inits.push_back(tensor::EmptyOp::create(b, loc, sizes, elem));
    types.push_back(inits.back().getType());
  }
  SmallVector<AffineMap> maps(inputs.size() + inits.size(),
                              b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, types, inputs, inits, maps, iterators,
      [&](OpBuilder &nested, Location l, ValueRange args) {
        linalg::YieldOp::create(nested, l, body(nested, l, args));
      });
  return SmallVector<Value>(generic.getResults());
}

Value mlir::mp::createFullReduction(OpBuilder &b, Location loc, Value input,
                                    Value init, ScalarBodyBuilder body) {
  unsigned rank = cast<RankedTensorType>(input.getType()).getRank();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, b.getContext())};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), input, init, maps, iterators,
      [&](OpBuilder &nested, Location l, ValueRange args) {
        linalg::YieldOp::create(nested, l, body(nested, l, args));
      });
  return generic.getResult(0);
}

Value mlir::mp::createZeros(OpBuilder &b, Location loc, RankedTensorType type) {
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

Value mlir::mp::extractScalar(OpBuilder &b, Location loc, Value tensor) {
  return tensor::ExtractOp::create(b, loc, tensor, ValueRange{});
}

Value mlir::mp::fromScalar(OpBuilder &b, Location loc, Value scalar) {
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, scalar.getType()), scalar);
}

Value mlir::mp::toF32(OpBuilder &b, Location loc, Value x) {
  if (x.getType().isF32())
    return x;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), x);
}

void mlir::mp::regenerateNamedOpBody(RewriterBase &rewriter,
                                     linalg::LinalgOp op) {
  Block *block = op.getBlock();
  for (Operation &nested : llvm::make_early_inc_range(llvm::reverse(*block)))
    rewriter.eraseOp(&nested);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(block);
  // A copy of the rewriter's builder: it notifies the same listener.
  ImplicitLocOpBuilder builder(op.getLoc(), rewriter);
  op.getRegionBuilder()(builder, *block, op->getAttrs(),
                        [&] { return op.emitError(); });
}

/// Whether `value` is block argument `arg` of `body`, possibly extended.
static bool isInput(Value value, Block &body, unsigned arg) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    value = ext.getIn();
  return value == body.getArgument(arg);
}

std::optional<int64_t> mlir::mp::getStaticBytes(Value value) {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
}

bool mlir::mp::isCheaperRecomputed(int64_t readers, int64_t inputs,
                                   int64_t result, int64_t epilogue,
                                   int64_t shared) {
  int64_t recomputed = readers * inputs + epilogue;
  int64_t kept = inputs - epilogue - shared + (readers + 1) * result;
  return epilogue ? recomputed < kept : recomputed <= kept;
}

bool mlir::mp::isTensorTranspose(Operation *op) {
  auto generic = dyn_cast_if_present<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return false;
  Block *body = generic.getBody();
  return body->getTerminator()->getOperand(0) == body->getArgument(0) &&
         generic.getIndexingMapsArray()[0].isPermutation() &&
         generic.getIndexingMapsArray()[1].isIdentity();
}

bool mlir::mp::isMultiplyAccumulate(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return false;
  Block &body = *op.getBlock();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  BlockArgument acc = body.getArgument(2);
  Value product = add.getLhs() == acc   ? add.getRhs()
                  : add.getRhs() == acc ? add.getLhs()
                                        : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul ||
      !((isInput(mul.getLhs(), body, 0) && isInput(mul.getRhs(), body, 1)) ||
        (isInput(mul.getLhs(), body, 1) && isInput(mul.getRhs(), body, 0))))
    return false;
  // Nothing else: the extensions, the product, the sum and the yield.
  size_t expected =
      3 + isa_and_nonnull<arith::ExtFOp>(mul.getLhs().getDefiningOp()) +
      isa_and_nonnull<arith::ExtFOp>(mul.getRhs().getDefiningOp());
  return body.getOperations().size() == expected;
}

FailureOr<linalg::LinalgOp>
mlir::mp::rewriteAsNamedContraction(RewriterBase &rewriter,
                                    linalg::GenericOp op) {
  if (!isMultiplyAccumulate(op))
    return failure();
  rewriter.setInsertionPoint(op);
  auto contract = linalg::ContractOp::create(
      rewriter, op.getLoc(), op.getResultTypes(), op.getDpsInputs(),
      op.getDpsInits(), op.getIndexingMaps());
  rewriter.replaceOp(op, contract);
  return cast<linalg::LinalgOp>(contract.getOperation());
}
