//===- ReturnStateInPlace.cpp - mp-return-state-in-place --------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Dialect/MP/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_RETURNSTATEINPLACEPASS
#include "mp/Dialect/MP/Transforms/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct ReturnStateInPlacePass
    : public mp::impl::ReturnStateInPlacePassBase<ReturnStateInPlacePass> {
  void runOnOperation() override {
    std::string updates = MPDialect::getRoleAttrName(Role::updates);
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal() || !fn.isPublic())
        continue;
      fn.walk([&](func::ReturnOp ret) {
        for (OpOperand &operand : ret->getOpOperands()) {
          auto index = fn.getResultAttrOfType<IntegerAttr>(
              operand.getOperandNumber(), updates);
          auto clone = operand.get().getDefiningOp<bufferization::CloneOp>();
          if (!index || !clone || index.getInt() < 0 ||
              index.getInt() >= fn.getNumArguments() ||
              clone.getInput() != fn.getArgument(index.getInt()) ||
              clone.getInput().getType() != operand.get().getType())
            continue;
          // Besides the return, deallocation only keeps the clone from
          // being freed (`retain`, or the pointer comparisons it lowers to);
          // the argument is not freed either.
          if (!llvm::all_of(clone->getUses(), [&](OpOperand &use) {
                Operation *user = use.getOwner();
                auto dealloc = dyn_cast<bufferization::DeallocOp>(user);
                return user == ret ||
                       isa<memref::ExtractAlignedPointerAsIndexOp>(user) ||
                       (dealloc &&
                        !llvm::is_contained(dealloc.getMemrefs(), use.get()));
              }))
            continue;
          clone.replaceAllUsesWith(clone.getInput());
          clone->erase();
          ++numReturnedInPlace;
        }
      });
    }
  }
};
} // namespace
