//===- TypePlan.cpp - Planned types of a painted graph ----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/TypePlan.h"
#include "mp/Analysis/PrecisionAnalysis.h"
#include "mp/Utils/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::mp;

/// Named structured ops rebuild their body from their types.
static bool hasGeneratedBody(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp &&
         !isa<linalg::GenericOp, linalg::MapOp, linalg::ReduceOp>(op) &&
         linalgOp.getRegionBuilder() != nullptr;
}

/// Scalar arith/math ops that compute in whatever float type they are given.
static bool isRetypableScalarOp(Operation *op) {
  Dialect *dialect = op->getDialect();
  if (!dialect || op->getNumRegions() != 0 || isa<arith::BitcastOp>(op))
    return false;
  StringRef ns = dialect->getNamespace();
  return (ns == "arith" || ns == "math") && isF32Op(op);
}

void TypePlan::retype(Value value, Type type) {
  if (type == value.getType() || newTypes.count(value))
    return;
  newTypes[value] = type;
  retyped.emplace_back(value, type);
}

LogicalResult TypePlan::planOp(Operation *op) {
  Attribute attr = op->getAttr(MPDialect::PrecisionAttrHelper::getNameStr());
  if (isa<FunctionOpInterface>(op)) {
    if (attr)
      return op->emitError()
             << "'" << MPDialect::PrecisionAttrHelper::getNameStr()
             << "' does not apply to a function; '"
             << MPDialect::SignaturePrecisionAttrHelper::getNameStr()
             << "' gives the precision its signature may take";
    auto boundary = op->getAttrOfType<PrecisionAttr>(
        MPDialect::SignaturePrecisionAttrHelper::getNameStr());
    if (boundary && boundary.getValue() != Precision::f32) {
      if (cast<FunctionOpInterface>(op).isExternal())
        return op->emitError()
               << "'" << MPDialect::SignaturePrecisionAttrHelper::getNameStr()
               << "' on a declaration: mp changes the signature of functions "
                  "whose body it rewrites, and this one has none";
      boundaryFunctions.emplace_back(op, boundary.getValue());
    }
    return success();
  }
  if (!attr)
    return success();
  if (auto body = computePrecision.find(op); body != computePrecision.end()) {
    // Planned with the body of the op around it, whose precision rules.
    auto own = dyn_cast<PrecisionAttr>(attr);
    if (own && own.getValue() == body->second)
      return success();
    return op->emitError()
           << "'" << MPDialect::PrecisionAttrHelper::getNameStr()
           << "' here contradicts the op around it, whose body computes in "
           << stringifyPrecision(body->second)
           << "; drop one of the two attributes";
  }
  MLIRContext *ctx = op->getContext();
  if (const CarriedValues *slots = carried.lookup(op)) {
    auto array = dyn_cast<ArrayAttr>(attr);
    unsigned count = slots->getNumSlots();
    if (!array || array.size() != count)
      return op->emitError()
             << "'" << MPDialect::PrecisionAttrHelper::getNameStr()
             << "' on this op must be an array of " << count
             << " precisions, one per carried value";
    for (unsigned i = 0; i < count; ++i) {
      Precision p = cast<PrecisionAttr>(array[i]).getValue();
      for (Value value : slots->getValues(i))
        if (p != Precision::f32 && isF32Like(value.getType()))
          retype(value, withElementType(value.getType(), getFloatType(ctx, p)));
    }
    return success();
  }
  auto precisionAttr = dyn_cast<PrecisionAttr>(attr);
  if (!precisionAttr)
    return op->emitError() << "'"
                           << MPDialect::PrecisionAttrHelper::getNameStr()
                           << "' must be a single precision on this op";
  Precision p = precisionAttr.getValue();
  if (p == Precision::f32)
    return success();
  if (isa<CallOpInterface>(op))
    return emitCallRetypeError(op,
                               MPDialect::PrecisionAttrHelper::getNameStr());
  Type lowType = getFloatType(ctx, p);
  // Only f32 values are retyped: other floats (f64) would meet the low ones
  // in one op.
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes())) {
    if (isa<BaseMemRefType>(type))
      return op->emitError()
             << "'" << MPDialect::PrecisionAttrHelper::getNameStr()
             << "' asks for " << stringifyPrecision(p)
             << " on an op on buffers; mp changes tensors and scalars only";
    auto element = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    if (element && !element.isF32() && element != lowType)
      return op->emitError()
             << "'" << MPDialect::PrecisionAttrHelper::getNameStr()
             << "' asks for " << stringifyPrecision(p) << " on an op with "
             << element << " values; mp changes f32 values only";
  }
  if (!acceptsElementType(op, lowType))
    return op->emitError() << "'"
                           << MPDialect::PrecisionAttrHelper::getNameStr()
                           << "' asks for " << stringifyPrecision(p)
                           << ", but this op's operand and result types "
                              "must stay f32";
  computePrecision[op] = p;
  Type accType = lowType;
  if (isArithmeticAccumulation(op)) {
    auto acc = op->getAttrOfType<PrecisionAttr>(
        MPDialect::AccumulatorAttrHelper::getNameStr());
    Precision accPrecision = acc ? acc.getValue() : Precision::f32;
    if (accPrecision != Precision::f32 && accPrecision != p)
      return op->emitError()
             << "'" << MPDialect::AccumulatorAttrHelper::getNameStr()
             << "' asks for " << stringifyPrecision(accPrecision)
             << " accumulation in an op computing in " << stringifyPrecision(p)
             << "; an accumulator is f32 or the op's own precision";
    accumulators[op] = accPrecision;
    accType = getFloatType(ctx, accPrecision);
  }
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    // A constant that cannot be converted stays f32 (its users get a cast).
    if (failed(convertFloatConstant(cst.getValue(),
                                    withElementType(cst.getType(), lowType))))
      return success();
    constants.push_back(op);
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  for (OpResult result : op->getResults()) {
    if (!isF32Like(result.getType()))
      continue;
    bool isAcc = linalgOp && accumulators.count(op);
    retype(result,
           withElementType(result.getType(), isAcc ? accType : lowType));
  }
  if (linalgOp) {
    for (OpOperand *operand : linalgOp.getOpOperandsMatchingBBargs()) {
      BlockArgument arg = linalgOp.getMatchingBlockArgument(operand);
      if (!isF32Like(arg.getType()))
        continue;
      retype(arg, linalgOp.isDpsInit(operand) ? accType : lowType);
    }
    if (hasGeneratedBody(op)) {
      regenerated.push_back(op);
      return success();
    }
    if (accumulators.count(op))
      return success();
  } else if (!isa<tensor::PadOp, tensor::GenerateOp>(op)) {
    return success();
  }
  // Elementwise bodies compute in the low type.
  for (Region &region : op->getRegions())
    region.walk([&](Operation *bodyOp) {
      if (!isRetypableScalarOp(bodyOp))
        return;
      if (auto cst = dyn_cast<arith::ConstantOp>(bodyOp)) {
        if (failed(convertFloatConstant(
                cst.getValue(), withElementType(cst.getType(), lowType))))
          return;
        constants.push_back(bodyOp);
      }
      computePrecision[bodyOp] = p;
      for (OpResult result : bodyOp->getResults())
        if (isF32Like(result.getType()))
          retype(result, withElementType(result.getType(), lowType));
    });
  return success();
}

std::optional<FunctionType> TypePlan::getNewCalleeType(Operation *op) const {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call || newFunctionTypes.empty())
    return std::nullopt;
  Operation *callee = call.resolveCallable();
  auto it = newFunctionTypes.find(callee);
  if (it == newFunctionTypes.end())
    return std::nullopt;
  return it->second;
}

void TypePlan::planFunctionBoundaries(Operation *op, Precision precision) {
  auto fn = cast<FunctionOpInterface>(op);
  Type low = getFloatType(op->getContext(), precision);
  SmallVector<Type> inputs, results;
  for (BlockArgument arg : fn.getArguments()) {
    Type target = withElementType(arg.getType(), low);
    bool allLow = isF32Like(arg.getType()) && !arg.use_empty() &&
                  llvm::all_of(arg.getUses(), [&](OpOperand &use) {
                    return expectedType(use) == target;
                  });
    if (allLow)
      retype(arg, target);
    inputs.push_back(getNewType(arg));
  }
  for (auto [index, type] : llvm::enumerate(fn.getResultTypes())) {
    Type target = withElementType(type, low);
    bool allLow = isF32Like(type);
    unsigned i = index;
    fn.walk([&](Operation *ret) {
      if (ret->getParentOp() == op && ret->hasTrait<OpTrait::ReturnLike>())
        allLow &= getNewType(ret->getOperand(i)) == target;
    });
    results.push_back(allLow ? target : type);
  }
  auto type = FunctionType::get(op->getContext(), inputs, results);
  if (type == fn.getFunctionType())
    return;
  newFunctionTypes[op] = type;
  functionTypes.emplace_back(op, type);
}

Type TypePlan::expectedType(OpOperand &use) const {
  Operation *owner = use.getOwner();
  Value value = use.get();
  Type original = value.getType();
  unsigned idx = use.getOperandNumber();
  if (isElementTypeAgnostic(owner))
    return getNewType(value);
  if (std::optional<FunctionType> callee = getNewCalleeType(owner))
    return callee->getInput(idx);
  Operation *parent = owner->getParentOp();
  if (owner->hasTrait<OpTrait::ReturnLike>() &&
      isa<FunctionOpInterface>(parent)) {
    auto it = newFunctionTypes.find(parent);
    return it == newFunctionTypes.end() ? original : it->second.getResult(idx);
  }
  // An operand that flows into carried values: of an op with regions, or of
  // a terminator in one of its regions.
  for (Operation *carrier : {owner, parent})
    if (const CarriedValues *slots = carried.lookup(carrier))
      if (std::optional<unsigned> slot = slots->getSlotFedBy(use))
        return getNewType(slots->getValues(*slot).front());
  if (isa<linalg::YieldOp, tensor::YieldOp>(owner)) {
    if (idx >= parent->getNumResults())
      return original;
    return withElementType(
        original, getElementTypeOrSelf(getNewType(parent->getResult(idx))));
  }
  auto it = computePrecision.find(owner);
  if (it == computePrecision.end() || !isF32Like(original))
    return original;
  Precision p = it->second;
  if (auto acc = accumulators.find(owner); acc != accumulators.end())
    if (cast<DestinationStyleOpInterface>(owner).isDpsInit(&use))
      p = acc->second;
  return withElementType(original, getFloatType(owner->getContext(), p));
}

FailureOr<TypePlan> TypePlan::build(Operation *root) {
  TypePlan plan;
  WalkResult walk = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    return failed(plan.planOp(op)) ? WalkResult::interrupt()
                                   : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  for (auto [fn, precision] : plan.boundaryFunctions)
    plan.planFunctionBoundaries(fn, precision);
  if (!plan.newFunctionTypes.empty())
    root->walk([&](func::CallOp call) {
      if (std::optional<FunctionType> callee = plan.getNewCalleeType(call))
        for (auto [result, type] :
             llvm::zip_equal(call.getResults(), callee->getResults()))
          plan.retype(result, type);
    });
  llvm::DenseSet<Operation *> skipBodies(plan.regenerated.begin(),
                                         plan.regenerated.end());
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != root && skipBodies.count(op->getParentOp()))
      return WalkResult::skip();
    for (OpOperand &use : op->getOpOperands()) {
      Type expected = plan.expectedType(use);
      if (expected != plan.getNewType(use.get()))
        plan.castUses.push_back({&use, expected});
    }
    return WalkResult::advance();
  });
  return plan;
}

unsigned TypePlan::getNumCasts() const {
  llvm::DenseSet<std::pair<Value, Type>> distinct;
  for (const CastUse &cu : castUses)
    if (!cu.use->get().getDefiningOp<tensor::EmptyOp>())
      distinct.insert({cu.use->get(), cu.type});
  return distinct.size();
}
