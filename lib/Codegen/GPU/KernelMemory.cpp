//===- KernelMemory.cpp - The memory kernels touch ------------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "KernelMemory.h"

#include "MmaContraction.h"
#include "mp/Utils/Bufferization.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::mp;

func::FuncOp mp::getCalledBody(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return nullptr;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      op, call.getCalleeAttr());
  return callee && !callee.isExternal() ? callee : nullptr;
}

/// Calls `each` for the effects of `op` on buffers; false if it has effects
/// on memory that name no value, or buffer operands and no declared effects.
static bool forEffects(Operation *op,
                       function_ref<void(Value, bool, bool)> each) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
           llvm::none_of(op->getOperandTypes(), llvm::IsaPred<MemRefType>);
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  bool known = true;
  for (const MemoryEffects::EffectInstance &effect : instances) {
    bool read = isa<MemoryEffects::Read>(effect.getEffect());
    bool written = isa<MemoryEffects::Write>(effect.getEffect());
    Value value = effect.getValue();
    if (value && isa<MemRefType>(value.getType()))
      each(value, read, written);
    else if (!value && (read || written))
      known = false;
  }
  return known;
}

bool mp::forEachAccess(Operation *op,
                       function_ref<void(Value, bool, bool)> touch) {
  func::FuncOp callee = getCalledBody(op);
  if (!callee)
    return forEffects(op, touch);
  bool known = true;
  callee.walk([&](Operation *inner) {
    known &= forEffects(inner, [&](Value value, bool read, bool written) {
      while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
        value = view.getViewSource();
      if (auto argument = dyn_cast<BlockArgument>(value);
          argument && argument.getOwner() == &callee.front())
        touch(op->getOperand(argument.getArgNumber()), read, written);
      else
        known = false; // a buffer the callee gets some other way
    });
  });
  return known;
}

bool mp::setsFlag(Operation *op) {
  auto store = dyn_cast<memref::StoreOp>(op);
  return store && store.getMemRefType().getRank() == 0 &&
         store.getMemRefType().getElementType().isInteger(1) &&
         matchPattern(store.getValueToStore(), m_One());
}

bool mp::mayAlias(Value a, Value b, AliasAnalysis &aliases) {
  if (aliases.alias(a, b).isNo() || areDisjointSubviews(a, b))
    return false;
  auto existedBefore = [](Value other, Value root) {
    auto alloc = root.getDefiningOp<memref::AllocOp>();
    if (!alloc)
      return false;
    if (auto arg = dyn_cast<BlockArgument>(other))
      return isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
    Operation *def = other.getDefiningOp();
    return def->getBlock() == alloc->getBlock() && def->isBeforeInBlock(alloc);
  };
  Value rootA = getRootBuffer(a), rootB = getRootBuffer(b);
  return !existedBefore(rootB, rootA) && !existedBefore(rootA, rootB);
}

Value mp::getElementRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
             memref::CastOp>(def))
      return isa<ViewLikeOpInterface>(def) ? Value() : value;
    value = def->getOperand(0);
  }
  return value;
}

bool ElementOffset::operator==(const ElementOffset &other) const {
  return constant == other.constant && terms.size() == other.terms.size() &&
         llvm::all_of(terms, [&](const std::pair<Value, int64_t> &term) {
           return llvm::is_contained(other.terms, term);
         });
}

std::optional<ElementOffset> mp::getElementOffset(Value memref,
                                                  ValueRange indices) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(cast<MemRefType>(memref.getType())
                 .getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  ElementOffset element{offset, {}};
  for (auto [value, stride] : llvm::zip(indices, strides)) {
    Value index = value; // Not a structured binding: the lambda captures it.
    int64_t term;
    if (std::optional<int64_t> constant = getConstantIntValue(index)) {
      if (llvm::MulOverflow(*constant, stride, term) ||
          llvm::AddOverflow(element.constant, term, element.constant))
        return std::nullopt;
      continue;
    }
    auto *it =
        llvm::find_if(element.terms, [&](auto &t) { return t.first == index; });
    if (it == element.terms.end())
      element.terms.push_back({index, stride});
    else if (llvm::AddOverflow(it->second, stride, it->second))
      return std::nullopt;
  }
  return element;
}

int64_t mp::getParameterBytes(ArrayRef<Region *> regions) {
  llvm::SetVector<Value> captured;
  for (Region *region : regions)
    getUsedValuesDefinedAbove(*region, captured);
  int64_t bytes = 0;
  for (Value value : captured) {
    if (matchPattern(value, m_Constant()))
      continue;
    auto memref = dyn_cast<MemRefType>(value.getType());
    bytes += memref ? 8 * (3 + 2 * memref.getRank()) : 8;
  }
  return bytes;
}
