//===- MPDialect.cpp - mp dialect -------------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Dialect/MP/IR/MPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h" // used by the generated attribute code

#include <cmath>

using namespace mlir;
using namespace mlir::mp;

#include "mp/Dialect/MP/IR/MPEnums.cpp.inc"
#include "mp/Dialect/MP/IR/MPOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mp/Dialect/MP/IR/MPAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "mp/Dialect/MP/IR/MPOps.cpp.inc"

namespace {
/// mp's ops are pure computations on tensors: always legal to inline, so
/// training steps can inline their gradient function (and hoist its casts
/// of the weights out of a micro-batch loop).
struct MPInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void MPDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mp/Dialect/MP/IR/MPAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "mp/Dialect/MP/IR/MPOps.cpp.inc"
      >();
  addInterfaces<MPInlinerInterface>();
}

/// `mp.precision` is a precision, or an array of them on ops that carry
/// values through regions.
static bool isPrecisionOrArray(Attribute attr) {
  if (isa<PrecisionAttr>(attr))
    return true;
  auto array = dyn_cast<ArrayAttr>(attr);
  return array && llvm::all_of(array, llvm::IsaPred<PrecisionAttr>);
}

LogicalResult MPDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  auto check = [&](bool ok, StringRef expected) -> LogicalResult {
    if (ok)
      return success();
    return op->emitError() << "'" << name << "' must be " << expected
                           << ", got " << value;
  };
  if (name == kOverrideAttrName || name == kAccumulatorAttrName)
    return check(isa<PrecisionAttr>(value),
                 "a precision such as #mp.precision<f16>");
  if (name == kClassAttrName)
    return check(isa<PrecisionClassAttr>(value),
                 "a precision class such as #mp.class<allow>");
  if (name == kPrecisionAttrName)
    return check(isPrecisionOrArray(value),
                 "a precision or an array of precisions");
  return op->emitError() << "unknown mp attribute '" << name
                         << "' (known: mp.override, mp.class, mp.precision, "
                            "mp.accumulator)";
}

namespace {
/// A training-contract attribute that takes a value.
struct ValuedRole {
  StringRef name;
  function_ref<bool(Attribute)> isValid;
  StringRef example;
};
} // namespace

static bool isIndex(Attribute value) {
  auto index = dyn_cast<IntegerAttr>(value);
  return index && index.getType().isSignlessInteger() && index.getInt() >= 0;
}

static bool isNumber(Attribute value) {
  return isa<FloatAttr, IntegerAttr>(value);
}

/// Checks the kind of a training-contract attribute on an argument or
/// result; the contract as a whole is checked by mp-verify-training-contract.
static LogicalResult verifyRoleAttribute(Operation *op, StringRef where,
                                         unsigned index, NamedAttribute attr,
                                         ArrayRef<StringRef> unitRoles,
                                         ArrayRef<ValuedRole> valuedRoles) {
  StringRef name = attr.getName().getValue();
  if (llvm::is_contained(unitRoles, name)) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << where << " #" << index << ": '" << name
                             << "' takes no value (write {" << name << "})";
    return success();
  }
  for (const ValuedRole &role : valuedRoles) {
    if (name != role.name)
      continue;
    if (!role.isValid(attr.getValue()))
      return op->emitError() << where << " #" << index << ": '" << name
                             << "' must be " << role.example;
    return success();
  }
  std::string known;
  for (StringRef role : unitRoles)
    known += (known.empty() ? "" : ", ") + role.str();
  for (const ValuedRole &role : valuedRoles)
    known += ", " + role.name.str();
  return op->emitError() << where << " #" << index << ": unknown mp attribute '"
                         << name << "' (known: " << known << ")";
}

LogicalResult MPDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  return verifyRoleAttribute(
      op, "argument", argIndex, attr,
      {kParamAttrName, kInputAttrName, kGradSeedAttrName, kLossScaleAttrName},
      {{kStateAttrName, isNumber,
        "the state's initial value, e.g. {mp.state = 0.0 : f32}"}});
}

LogicalResult MPDialect::verifyRegionResultAttribute(Operation *op,
                                                     unsigned regionIndex,
                                                     unsigned resultIndex,
                                                     NamedAttribute attr) {
  return verifyRoleAttribute(
      op, "result", resultIndex, attr,
      {kLossAttrName, kOutputAttrName, kFoundInfAttrName},
      {{kGradOfAttrName, isIndex,
        "the index of a parameter argument, e.g. {mp.grad_of = 0 : i64}"},
       {kUpdatesAttrName, isIndex,
        "the index of the argument it updates, e.g. {mp.updates = 0 : i64}"}});
}

Type mlir::mp::getFloatType(MLIRContext *ctx, Precision precision) {
  Builder b(ctx);
  switch (precision) {
  case Precision::f32:
    return b.getF32Type();
  case Precision::f16:
    return b.getF16Type();
  case Precision::bf16:
    return b.getBF16Type();
  case Precision::f8E4M3FN:
    return b.getType<Float8E4M3FNType>();
  case Precision::f8E5M2:
    return b.getType<Float8E5M2Type>();
  }
  llvm_unreachable("unknown precision");
}

//===----------------------------------------------------------------------===//
// Loss-scaling ops
//===----------------------------------------------------------------------===//

LogicalResult UnscaleOp::verify() {
  if (getGrads().size() != getUnscaled().size())
    return emitOpError() << "has " << getGrads().size() << " gradients but "
                         << getUnscaled().size() << " unscaled results";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getGrads(), getUnscaled()))) {
    auto in = cast<RankedTensorType>(std::get<0>(pair).getType());
    auto out = cast<RankedTensorType>(std::get<1>(pair).getType());
    if (in.getShape() != out.getShape())
      return emitOpError() << "result #" << i << " has type " << out
                           << " but gradient #" << i << " has shape " << in
                           << "; they must have the same shape";
  }
  return success();
}

LogicalResult UpdateScaleOp::verify() {
  float growth = getGrowthFactor().convertToFloat();
  float backoff = getBackoffFactor().convertToFloat();
  if (!(growth >= 1.0f) || !std::isfinite(growth))
    return emitOpError() << "growth_factor must be a finite value >= 1, got "
                         << growth;
  if (!(backoff > 0.0f && backoff < 1.0f))
    return emitOpError() << "backoff_factor must be in (0, 1), got " << backoff;
  if (getGrowthInterval() < 1)
    return emitOpError() << "growth_interval must be at least 1, got "
                         << getGrowthInterval();
  if (getHysteresis() < 1)
    return emitOpError() << "hysteresis must be at least 1, got "
                         << getHysteresis();
  if (static_cast<bool>(getHysteresisTracker()) !=
      static_cast<bool>(getNewHysteresisTracker()))
    return emitOpError() << "takes a hysteresis counter iff it returns one";
  if (getHysteresis() > 1 && !getHysteresisTracker())
    return emitOpError() << "hysteresis = " << getHysteresis()
                         << " needs a hysteresis counter operand "
                            "(`hysteresis %counter : tensor<i32>`)";
  std::optional<float> lo, hi;
  if (getMinScale())
    lo = getMinScale()->convertToFloat();
  if (getMaxScale())
    hi = getMaxScale()->convertToFloat();
  if (lo && !(*lo > 0.0f && std::isfinite(*lo)))
    return emitOpError() << "min_scale must be positive and finite, got "
                         << *lo;
  if (hi && !(*hi > 0.0f && std::isfinite(*hi)))
    return emitOpError() << "max_scale must be positive and finite, got "
                         << *hi;
  if (lo && hi && *lo > *hi)
    return emitOpError() << "min_scale (" << *lo << ") exceeds max_scale ("
                         << *hi << ")";
  return success();
}
