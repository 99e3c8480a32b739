//===- LLVMBF16AsI16.cpp - bf16 moved and carried as i16 ------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// In the LLVM dialect, bf16 values are loaded, stored, selected, passed
// between blocks and to and from the module's own functions as i16, so that
// LLVM's x86 backend never soft-promotes a bf16 phi, select or value live
// across blocks (a libcall of __truncsfbf2 without AVX512-BF16, an instruction
// selection abort in some vectorized loops with it).
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_LLVMBF16ASI16PASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// `type` with i16 for bf16 (a scalar or a vector's elements), or null if it
/// holds no bf16.
static Type getBitsType(Type type) {
  if (type.isBF16())
    return IntegerType::get(type.getContext(), 16);
  if (auto vector = dyn_cast<VectorType>(type);
      vector && vector.getElementType().isBF16())
    return vector.clone(IntegerType::get(type.getContext(), 16));
  return nullptr;
}

/// Makes `result` (of bf16: an op's result or a block argument) a value of
/// `bits` (i16), with a bitcast back for its uses (at the block's start for
/// an argument).
static void retypeResult(OpBuilder &builder, Value result, Type bits) {
  Type type = result.getType();
  result.setType(bits);
  builder.setInsertionPointAfterValue(result);
  auto back = LLVM::BitcastOp::create(builder, result.getLoc(), type, result);
  result.replaceAllUsesExcept(back, back);
}

/// Makes the uses of `value` (of bf16) in blocks other than its own read it
/// through i16: bitcast to i16 where it is defined and back to bf16 at the
/// start of each such block.
static void keepInItsBlock(OpBuilder &builder, Value value) {
  Block *home = value.getParentBlock();
  llvm::MapVector<Block *, SmallVector<OpOperand *>> away;
  for (OpOperand &use : value.getUses())
    if (Block *block = use.getOwner()->getBlock(); block != home)
      away[block].push_back(&use);
  if (away.empty())
    return;
  Type type = value.getType();
  builder.setInsertionPointAfterValue(value);
  Value bits = LLVM::BitcastOp::create(builder, value.getLoc(),
                                       getBitsType(type), value);
  for (auto &[block, uses] : away) {
    builder.setInsertionPointToStart(block);
    Value back = LLVM::BitcastOp::create(builder, value.getLoc(), type, bits);
    for (OpOperand *use : uses)
      use->set(back);
  }
}

/// Bitcasts `operand` (of bf16) to `bits` (i16) before `user`.
static void retypeOperand(OpBuilder &builder, OpOperand &operand, Type bits) {
  Operation *user = operand.getOwner();
  builder.setInsertionPoint(user);
  operand.set(
      LLVM::BitcastOp::create(builder, user->getLoc(), bits, operand.get()));
}

/// Bitcasts each bf16 operand of `op` to i16.
static void retypeOperands(OpBuilder &builder, Operation *op) {
  for (OpOperand &operand : op->getOpOperands())
    if (Type bits = getBitsType(operand.get().getType()))
      retypeOperand(builder, operand, bits);
}

/// Makes `func` (defined in `module`) take and return i16 where it takes or
/// returns bf16, and its calls pass and receive i16: at `-O0` the x86
/// backend passes a bf16 argument or result through f32 too. A function
/// with a body is one of the module's own (an outlined producer); mp's
/// runtime calls entry points with buffers only.
static void retypeSignature(OpBuilder &builder, LLVM::LLVMFuncOp func,
                            Operation *module) {
  LLVM::LLVMFunctionType type = func.getFunctionType();
  auto bitsOr = [](Type t) {
    Type bits = getBitsType(t);
    return bits ? bits : t;
  };
  SmallVector<Type> params = llvm::map_to_vector(type.getParams(), bitsOr);
  Type result = bitsOr(type.getReturnType());
  if (params == type.getParams() && result == type.getReturnType())
    return;
  func.setFunctionType(
      LLVM::LLVMFunctionType::get(result, params, type.isVarArg()));
  for (BlockArgument argument : func.getArguments())
    if (Type bits = getBitsType(argument.getType()))
      retypeResult(builder, argument, bits);
  func.walk([&](LLVM::ReturnOp ret) { retypeOperands(builder, ret); });
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func.getSymNameAttr(), module))
    for (const SymbolTable::SymbolUse &use : *uses)
      if (auto call = dyn_cast<LLVM::CallOp>(use.getUser())) {
        retypeOperands(builder, call);
        for (Value value : call.getResults())
          if (Type bits = getBitsType(value.getType()))
            retypeResult(builder, value, bits);
      }
}

namespace {
struct LLVMBF16AsI16Pass
    : public mp::impl::LLVMBF16AsI16PassBase<LLVMBF16AsI16Pass> {
  using Base::Base;

  void runOnOperation() override {
    OpBuilder builder(&getContext());
    SmallVector<Block *> blocks;
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<LLVM::LoadOp, LLVM::StoreOp, LLVM::SelectOp>(op))
        ops.push_back(op);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (!block.isEntryBlock() &&
              llvm::any_of(block.getArgumentTypes(), getBitsType))
            blocks.push_back(&block);
    });
    SmallVector<LLVM::LLVMFuncOp> funcs;
    getOperation()->walk([&](LLVM::LLVMFuncOp func) {
      if (!func.isExternal())
        funcs.push_back(func);
    });
    for (LLVM::LLVMFuncOp func : funcs)
      retypeSignature(builder, func, getOperation());
    for (Operation *op : ops) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        if (Type bits = getBitsType(load.getType()))
          retypeResult(builder, load.getResult(), bits);
      } else if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        if (Type bits = getBitsType(store.getValue().getType()))
          retypeOperand(builder, store.getValueMutable(), bits);
      } else {
        auto select = cast<LLVM::SelectOp>(op);
        if (Type bits = getBitsType(select.getType())) {
          retypeOperand(builder, select.getTrueValueMutable(), bits);
          retypeOperand(builder, select.getFalseValueMutable(), bits);
          retypeResult(builder, select.getResult(), bits);
        }
      }
    }
    for (Block *block : blocks) {
      for (Block *predecessor : block->getPredecessors())
        if (!isa<BranchOpInterface>(predecessor->getTerminator())) {
          predecessor->getTerminator()->emitError(
              "mp-llvm-bf16-as-i16: expected a branch");
          return signalPassFailure();
        }
      for (BlockArgument argument : block->getArguments()) {
        Type bits = getBitsType(argument.getType());
        if (!bits)
          continue;
        unsigned index = argument.getArgNumber();
        for (auto it = block->pred_begin(), e = block->pred_end(); it != e;
             ++it) {
          auto branch = cast<BranchOpInterface>((*it)->getTerminator());
          SuccessorOperands operands =
              branch.getSuccessorOperands(it.getSuccessorIndex());
          unsigned produced = operands.getProducedOperandCount();
          if (index < produced) {
            branch.emitError("mp-llvm-bf16-as-i16: a bf16 block argument "
                             "that the branch produces");
            return signalPassFailure();
          }
          retypeOperand(
              builder, operands.getMutableForwardedOperands()[index - produced],
              bits);
        }
        retypeResult(builder, argument, bits);
      }
    }
    // What remains of bf16 (the bitcasts above, function arguments,
    // arithmetic) is read in its own block only.
    SmallVector<Value> values;
    getOperation()->walk([&](Block *block) {
      for (BlockArgument argument : block->getArguments())
        if (getBitsType(argument.getType()))
          values.push_back(argument);
      for (Operation &op : *block)
        for (Value result : op.getResults())
          if (getBitsType(result.getType()))
            values.push_back(result);
    });
    for (Value value : values)
      keepInItsBlock(builder, value);
  }
};
} // namespace
