//===- UpdateStateInPlace.cpp - mp-update-state-in-place --------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Dialect/MP/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_UPDATESTATEINPLACEPASS
#include "mp/Dialect/MP/Transforms/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The values that `value` may be: itself, or through the branches of the
/// scf.if that yields it, what each branch yields.
static void collectSources(Value value, SmallVectorImpl<OpResult> &sources) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return;
  if (auto ifOp = dyn_cast<scf::IfOp>(result.getOwner())) {
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
      if (!region->empty())
        collectSources(region->front().getTerminator()->getOperand(
                           result.getResultNumber()),
                       sources);
    return;
  }
  sources.push_back(result);
}

/// Makes the elementwise op that computes `result` write into `state`, if
/// it reads `state` at the element it writes and its destination is a
/// tensor.empty whose value it never reads.
static bool writeInto(OpResult result, BlockArgument state) {
  auto op = dyn_cast<linalg::LinalgOp>(result.getOwner());
  if (!op || !op.hasPureTensorSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  OpOperand *init = op.getDpsInitOperand(result.getResultNumber());
  if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
      op.payloadUsesValueFromOperand(init))
    return false;
  AffineMap written = op.getMatchingIndexingMap(init);
  if (!llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
        return input->get() == state &&
               op.getMatchingIndexingMap(input) == written;
      }))
    return false;
  init->set(state);
  return true;
}

namespace {
struct UpdateStateInPlacePass
    : public mp::impl::UpdateStateInPlacePassBase<UpdateStateInPlacePass> {
  void runOnOperation() override {
    std::string updates = MPDialect::getRoleAttrName(Role::updates);
    BoolAttr writable = BoolAttr::get(&getContext(), true);
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal() || !fn.isPublic() || !fn.getBody().hasOneBlock())
        continue;
      Operation *ret = fn.getBody().front().getTerminator();
      for (unsigned r = 0, e = fn.getNumResults(); r < e; ++r) {
        auto index = fn.getResultAttrOfType<IntegerAttr>(r, updates);
        if (!index || index.getInt() < 0 ||
            index.getInt() >= fn.getNumArguments())
          continue;
        BlockArgument state = fn.getArgument(index.getInt());
        if (state.getType() != fn.getResultTypes()[r])
          continue;
        SmallVector<OpResult> sources;
        collectSources(ret->getOperand(r), sources);
        bool updated = false;
        for (OpResult source : sources)
          updated |= writeInto(source, state);
        if (!updated)
          continue;
        fn.setArgAttr(state.getArgNumber(),
                      bufferization::BufferizationDialect::kWritableAttrName,
                      writable);
        ++numUpdatedInPlace;
      }
    }
  }
};
} // namespace
