//===- FloatCasts.cpp - Creating and converting float casts ---*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Utils/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::mp;

Type mlir::mp::withElementType(Type type, Type elem) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(elem);
  return elem;
}

bool mlir::mp::isFloatCast(Operation *op) {
  return isa<arith::TruncFOp, arith::ExtFOp>(op);
}

Value mlir::mp::createFloatCast(OpBuilder &builder, Location loc, Value value,
                                Type type) {
  unsigned from = getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
  unsigned to = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  if (from < to)
    return arith::ExtFOp::create(builder, loc, type, value);
  if (from > to)
    return arith::TruncFOp::create(builder, loc, type, value);
  Type wide = withElementType(type, builder.getF32Type());
  Value widened = arith::ExtFOp::create(builder, loc, wide, value);
  return arith::TruncFOp::create(builder, loc, type, widened);
}

FailureOr<TypedAttr> mlir::mp::convertFloatConstant(Attribute value,
                                                    Type type) {
  auto elemType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  if (!elemType)
    return failure();
  const llvm::fltSemantics &sem = elemType.getFloatSemantics();
  bool overflow = false;
  auto convert = [&](APFloat x) {
    bool wasFinite = x.isFinite();
    bool losesInfo;
    x.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
    overflow |= wasFinite && x.isInfinity();
    return x;
  };
  TypedAttr result;
  if (auto attr = dyn_cast<FloatAttr>(value))
    result = FloatAttr::get(elemType, convert(attr.getValue()));
  else if (auto attr = dyn_cast<DenseFPElementsAttr>(value))
    result = attr.mapValues(elemType, [&](const APFloat &x) {
      return convert(x).bitcastToAPInt();
    });
  if (!result || overflow)
    return failure();
  return result;
}
