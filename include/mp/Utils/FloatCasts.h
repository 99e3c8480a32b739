//===- FloatCasts.h - Creating and converting float casts -----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_UTILS_FLOATCASTS_H
#define MP_UTILS_FLOATCASTS_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace mp {

/// Returns `type` (a scalar, tensor or vector) with element type `elem`.
Type withElementType(Type type, Type elem);

/// Casts `value` (a float scalar, tensor or vector) to `type`, which differs
/// only in its float element type: arith.truncf to narrow, arith.extf to
/// widen, through f32 between two 16-bit types.
Value createFloatCast(OpBuilder &builder, Location loc, Value value, Type type);

/// The constant `value` (a FloatAttr or dense float elements) converted to
/// `type` (same shape, another float element type), rounding to nearest even.
/// Fails if a finite value overflows or the attribute kind is not supported.
FailureOr<TypedAttr> convertFloatConstant(Attribute value, Type type);

/// True for arith.truncf and arith.extf.
bool isFloatCast(Operation *op);

} // namespace mp
} // namespace mlir

#endif // MP_UTILS_FLOATCASTS_H
