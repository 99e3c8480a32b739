//===- MPDialect.h - mp dialect ---------------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_DIALECT_MP_IR_MPDIALECT_H
#define MP_DIALECT_MP_IR_MPDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include "mp/Dialect/MP/IR/MPOpsDialect.h.inc"

#include "mp/Dialect/MP/IR/MPEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mp/Dialect/MP/IR/MPAttrs.h.inc"

namespace mlir {
class Type;
namespace mp {

/// Returns the MLIR float type of `precision`.
Type getFloatType(MLIRContext *ctx, Precision precision);

} // namespace mp
} // namespace mlir

#endif // MP_DIALECT_MP_IR_MPDIALECT_H
