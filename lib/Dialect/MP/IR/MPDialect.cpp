//===- MPDialect.cpp - mp dialect -------------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Dialect/MP/IR/MPOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/Sequence.h"
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
  if ((name == SignaturePrecisionAttrHelper::getNameStr() ||
       name == GpuStreamOrderedAttrHelper::getNameStr()) &&
      !isa<FunctionOpInterface>(op))
    return op->emitError() << "'" << name << "' belongs on a function";
  if (name == OverrideAttrHelper::getNameStr() ||
      name == AccumulatorAttrHelper::getNameStr() ||
      name == SignaturePrecisionAttrHelper::getNameStr())
    return check(isa<PrecisionAttr>(value),
                 "a precision such as #mp.precision<f16>");
  if (name == ClassAttrHelper::getNameStr())
    return check(isa<PrecisionClassAttr>(value),
                 "a precision class such as #mp.class<allow>");
  if (name == PrecisionAttrHelper::getNameStr())
    return check(isPrecisionOrArray(value),
                 "a precision or an array of precisions");
  if (name == GpuTileAttrHelper::getNameStr()) {
    auto tile = dyn_cast<DenseI64ArrayAttr>(value);
    ArrayRef<int64_t> t = tile ? tile.asArrayRef() : ArrayRef<int64_t>();
    // What each kind of contraction needs of the warp (or thread) tile,
    // mp-gpu-tile-contractions checks.
    return check(t.size() == 4 && t[2] > 0 && t[3] > 0 && t[0] > 0 &&
                     t[1] > 0 && t[0] % t[2] == 0 && t[1] % t[3] == 0,
                 "array<i64: tile-m, tile-n, warp-m, warp-n> of positive "
                 "sizes, warp-m dividing tile-m and warp-n tile-n");
  }
  if (name == GpuGemmAttrHelper::getNameStr()) {
    auto how = dyn_cast<StringAttr>(value);
    return check(how && how.getValue() == "library", "\"library\"");
  }
  if (name == GpuCopyAttrHelper::getNameStr()) {
    auto how = dyn_cast<StringAttr>(value);
    return check(
        how && (how.getValue() == "ahead" || how.getValue() == "prefetch"),
        "\"ahead\" or \"prefetch\"");
  }
  if (name == GpuReductionAttrHelper::getNameStr()) {
    auto how = dyn_cast<StringAttr>(value);
    return check(how && (how.getValue() == "block" || how.getValue() == "warp"),
                 "\"block\" or \"warp\"");
  }
  if (name == GpuStreamOrderedAttrHelper::getNameStr())
    return check(isa<UnitAttr>(value), "a unit attribute");
  if (name == GpuChipVariantsAttrHelper::getNameStr()) {
    auto variants = dyn_cast<DictionaryAttr>(value);
    return check(variants && llvm::all_of(variants,
                                          [](NamedAttribute entry) {
                                            return isa<FlatSymbolRefAttr>(
                                                entry.getValue());
                                          }),
                 "a dictionary of module names to symbol references");
  }
  return op->emitError() << "unknown mp attribute '" << name
                         << "' (known: " << OverrideAttrHelper::getNameStr()
                         << ", " << ClassAttrHelper::getNameStr() << ", "
                         << PrecisionAttrHelper::getNameStr() << ", "
                         << AccumulatorAttrHelper::getNameStr() << ", "
                         << SignaturePrecisionAttrHelper::getNameStr() << ", "
                         << GpuTileAttrHelper::getNameStr() << ", "
                         << GpuGemmAttrHelper::getNameStr() << ", "
                         << GpuCopyAttrHelper::getNameStr() << ", "
                         << GpuReductionAttrHelper::getNameStr() << ", "
                         << GpuStreamOrderedAttrHelper::getNameStr() << ", "
                         << GpuChipVariantsAttrHelper::getNameStr() << ")";
}

std::string MPDialect::getRoleAttrName(Role role) {
  return (getDialectNamespace() + "." + stringifyRole(role)).str();
}

std::optional<Role> mlir::mp::getRoleOfAttrName(StringRef name) {
  if (!name.consume_front(MPDialect::getDialectNamespace()) ||
      !name.consume_front("."))
    return std::nullopt;
  return symbolizeRole(name);
}

bool mlir::mp::isArgumentRole(Role role) {
  switch (role) {
  case Role::param:
  case Role::input:
  case Role::grad_seed:
  case Role::state:
  case Role::loss_scale:
    return true;
  case Role::loss:
  case Role::grad_of:
  case Role::updates:
  case Role::found_inf:
  case Role::output:
    return false;
  }
  llvm_unreachable("unknown role");
}

RoleValue mlir::mp::getRoleValue(Role role) {
  switch (role) {
  case Role::state:
    return RoleValue::Number;
  case Role::grad_of:
  case Role::updates:
    return RoleValue::ArgIndex;
  default:
    return RoleValue::None;
  }
}

/// Checks the kind of a training-contract attribute on an argument
/// (`isArgument`) or result; the contract as a whole is checked by
/// mp-verify-training-contract.
static LogicalResult verifyRoleAttribute(Operation *op, bool isArgument,
                                         unsigned index, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  StringRef where = isArgument ? "argument" : "result";
  std::optional<Role> role = getRoleOfAttrName(name);
  if (!role || isArgumentRole(*role) != isArgument) {
    InFlightDiagnostic diag = op->emitError() << where << " #" << index
                                              << ": unknown mp attribute '"
                                              << name << "' (known: ";
    llvm::interleaveComma(
        llvm::make_filter_range(
            llvm::seq_inclusive<uint32_t>(1, getMaxEnumValForRole()),
            [&](uint32_t value) {
              return isArgumentRole(*symbolizeRole(value)) == isArgument;
            }),
        diag, [&](uint32_t value) {
          diag << MPDialect::getRoleAttrName(*symbolizeRole(value));
        });
    return diag << ")";
  }
  Attribute value = attr.getValue();
  switch (getRoleValue(*role)) {
  case RoleValue::None:
    if (isa<UnitAttr>(value))
      return success();
    return op->emitError() << where << " #" << index << ": '" << name
                           << "' takes no value (write {" << name << "})";
  case RoleValue::Number:
    if (isa<FloatAttr, IntegerAttr>(value))
      return success();
    return op->emitError() << where << " #" << index << ": '" << name
                           << "' must be the state's initial value, e.g. {"
                           << name << " = 0.0 : f32}";
  case RoleValue::ArgIndex:
    auto argIndex = dyn_cast<IntegerAttr>(value);
    if (argIndex && argIndex.getType().isSignlessInteger() &&
        argIndex.getInt() >= 0)
      return success();
    return op->emitError() << where << " #" << index << ": '" << name
                           << "' must be the index of "
                           << (*role == Role::grad_of
                                   ? "a parameter argument"
                                   : "the argument it updates")
                           << ", e.g. {" << name << " = 0 : i64}";
  }
  llvm_unreachable("unknown role value");
}

LogicalResult MPDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  return verifyRoleAttribute(op, /*isArgument=*/true, argIndex, attr);
}

LogicalResult MPDialect::verifyRegionResultAttribute(Operation *op,
                                                     unsigned regionIndex,
                                                     unsigned resultIndex,
                                                     NamedAttribute attr) {
  return verifyRoleAttribute(op, /*isArgument=*/false, resultIndex, attr);
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

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

namespace {
/// What the ranks share: a collective on it must not be removed, merged or
/// moved past another one.
struct CommunicatorResource
    : public SideEffects::Resource::Base<CommunicatorResource> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CommunicatorResource)
  StringRef getName() final { return "<mp communicator>"; }
};
} // namespace

LogicalResult AllReduceOp::verify() {
  Type type = getInput().getType();
  bool isTensor = isa<TensorType>(type);
  if (isTensor != static_cast<bool>(getResult()))
    return emitOpError() << (isTensor ? "on a tensor must return the result"
                                      : "on a buffer reduces it in place and "
                                        "has no result");
  if (isTensor && getResult().getType() != type)
    return emitOpError() << "result type " << getResult().getType()
                         << " differs from the operand's " << type;
  if (getKind() == CollectiveKind::sum &&
      !isa<FloatType>(getElementTypeOrSelf(type)))
    return emitOpError() << "sum needs f32, f16 or bf16 elements, not "
                         << getElementTypeOrSelf(type)
                         << " (use max to OR flags)";
  return success();
}

void AllReduceOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(),
                       CommunicatorResource::get());
  if (isa<MemRefType>(getInput().getType())) {
    effects.emplace_back(MemoryEffects::Read::get(), &getInputMutable(),
                         SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Write::get(), &getInputMutable(),
                         SideEffects::DefaultResource::get());
  }
}

// On tensors the op reduces its operand's buffer in place.
bool AllReduceOp::bufferizesToMemoryRead(OpOperand &,
                                         const bufferization::AnalysisState &) {
  return true;
}

bool AllReduceOp::bufferizesToMemoryWrite(
    OpOperand &, const bufferization::AnalysisState &) {
  return true;
}

bufferization::AliasingValueList
AllReduceOp::getAliasingValues(OpOperand &,
                               const bufferization::AnalysisState &) {
  return {{getResult(), bufferization::BufferRelation::Equivalent}};
}

LogicalResult
AllReduceOp::bufferize(RewriterBase &rewriter,
                       const bufferization::BufferizationOptions &options,
                       bufferization::BufferizationState &state) {
  FailureOr<Value> buffer =
      bufferization::getBuffer(rewriter, getInput(), options, state);
  if (failed(buffer))
    return failure();
  // The runtime reduces contiguous buffers: a strided one goes through a
  // contiguous copy.
  auto type = cast<MemRefType>(buffer->getType());
  Value contiguous = *buffer;
  if (!type.getLayout().isIdentity()) {
    SmallVector<Value> sizes;
    for (auto [i, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size))
        sizes.push_back(memref::DimOp::create(rewriter, getLoc(), *buffer, i));
    contiguous = memref::AllocOp::create(
        rewriter, getLoc(),
        MemRefType::get(type.getShape(), type.getElementType()), sizes);
    memref::CopyOp::create(rewriter, getLoc(), *buffer, contiguous);
  }
  AllReduceOp::create(rewriter, getLoc(), getKind(), contiguous);
  if (contiguous != *buffer)
    memref::CopyOp::create(rewriter, getLoc(), contiguous, *buffer);
  bufferization::replaceOpWithBufferizedValues(rewriter, *this, *buffer);
  return success();
}
