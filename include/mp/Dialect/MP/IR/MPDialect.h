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
#include "mlir/IR/Operation.h"

#include "mp/Dialect/MP/IR/MPEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mp/Dialect/MP/IR/MPAttrs.h.inc"

// After the attributes: the helpers of the dialect's discardable attributes
// use them.
#include "mp/Dialect/MP/IR/MPOpsDialect.h.inc"

namespace mlir {
class Type;
namespace mp {

/// Returns the MLIR float type of `precision`.
Type getFloatType(MLIRContext *ctx, Precision precision);

/// The role named by a function argument or result attribute ("mp.param"),
/// if `name` is one (MPDialect::getRoleAttrName is the converse).
std::optional<Role> getRoleOfAttrName(StringRef name);
/// Whether `role` marks arguments (else results).
bool isArgumentRole(Role role);
/// What the attribute of a role holds.
enum class RoleValue {
  None,    // nothing: a unit attribute
  Number,  // a number: the initial value of an mp.state
  ArgIndex // the index of an argument: mp.grad_of, mp.updates
};
RoleValue getRoleValue(Role role);

} // namespace mp
} // namespace mlir

#endif // MP_DIALECT_MP_IR_MPDIALECT_H
