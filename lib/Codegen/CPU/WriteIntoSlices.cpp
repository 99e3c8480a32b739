//===- WriteIntoSlices.cpp - mp-write-into-slices ---------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// After bufferization: a buffer that one structured op writes whole and that
// is then copied whole into a slice of another buffer is not needed; the op
// writes the slice.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Utils/Bufferization.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_WRITEINTOSLICESPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
/// A value as views of an allocation: `root`, then `views` in order, each
/// reading the previous one (or `root`) as its only operand.
struct ViewChain {
  memref::AllocOp root;
  SmallVector<Operation *> views;
};
} // namespace

/// `value` as a chain of `Views` ops with static parameters (no operand but
/// their source) from an allocation of static shape, if it is one.
template <typename... Views>
static std::optional<ViewChain> getViewChain(Value value) {
  ViewChain chain;
  while (Operation *op = value.getDefiningOp()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (op->getNumOperands() != 0)
        return std::nullopt;
      chain.root = alloc;
      std::reverse(chain.views.begin(), chain.views.end());
      return chain;
    }
    if (!isa<Views...>(op) || op->getNumOperands() != 1)
      return std::nullopt;
    chain.views.push_back(op);
    value = op->getOperand(0);
  }
  return std::nullopt;
}

/// The op that writes all of `chain.root` and nothing else uses, but the
/// chain to `copy` and deallocations.
static linalg::LinalgOp getWholeWriter(const ViewChain &chain,
                                       memref::CopyOp copy) {
  // Each view is read by the next one or, the last, by the copy alone.
  if (llvm::any_of(chain.views,
                   [](Operation *view) { return !view->hasOneUse(); }))
    return nullptr;
  Operation *next =
      chain.views.empty() ? copy.getOperation() : chain.views.front();
  linalg::LinalgOp writer;
  for (OpOperand &use : chain.root->getUses()) {
    Operation *user = use.getOwner();
    if (user == next || isa<memref::DeallocOp>(user))
      continue;
    auto op = dyn_cast<linalg::LinalgOp>(user);
    if (writer || !op || !op.isDpsInit(&use) || op.getNumDpsInits() != 1 ||
        !op.hasPureBufferSemantics() ||
        op.getNumLoops() != op.getNumParallelLoops() ||
        op.payloadUsesValueFromOperand(&use) ||
        !op.getMatchingIndexingMap(&use).isPermutation())
      return nullptr;
    writer = op;
  }
  if (!writer || writer->getBlock() != copy->getBlock() ||
      !writer->isBeforeInBlock(copy))
    return nullptr;
  return writer;
}

/// Whether an op from `writer` up to `copy` (exclusive) reads or writes
/// elements of `root`, the allocation of `copy`'s target, that the target
/// may cover.
static bool isTargetTouched(linalg::LinalgOp writer, memref::CopyOp copy,
                            Value root) {
  Block *block = copy->getBlock();
  return llvm::any_of(getMemoryUses(root), [&](OpOperand *use) {
    Operation *at = block->findAncestorOpInBlock(*use->getOwner());
    return at && !at->isBeforeInBlock(writer) && at->isBeforeInBlock(copy) &&
           !areDisjointSubviews(use->get(), copy.getTarget());
  });
}

/// `view` (of the copy source's shape) reshaped back through `source`'s
/// chain to its allocation's shape, built at `builder` (the ops appended to
/// `built`), if every step has a layout.
static Value reshapeBack(OpBuilder &builder, Value view,
                         const ViewChain &source,
                         SmallVectorImpl<Operation *> &built) {
  for (Operation *op : llvm::reverse(source.views)) {
    auto type = cast<MemRefType>(view.getType());
    Location loc = op->getLoc();
    if (auto collapse = dyn_cast<memref::CollapseShapeOp>(op)) {
      FailureOr<MemRefType> expanded =
          memref::ExpandShapeOp::computeExpandedType(
              type, collapse.getSrcType().getShape(),
              collapse.getReassociationIndices());
      if (failed(expanded))
        return nullptr;
      view = memref::ExpandShapeOp::create(builder, loc, *expanded, view,
                                           collapse.getReassociationIndices());
      built.push_back(view.getDefiningOp());
      continue;
    }
    auto expand = cast<memref::ExpandShapeOp>(op);
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(
            type, expand.getReassociationIndices()))
      return nullptr;
    view = memref::CollapseShapeOp::create(builder, loc, view,
                                           expand.getReassociationIndices());
    built.push_back(view.getDefiningOp());
  }
  return view;
}

namespace {
struct WriteIntoSlicesPass
    : public mp::impl::WriteIntoSlicesPassBase<WriteIntoSlicesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies)
      if (forward(copy))
        ++numForwarded;
  }

  /// Lets the writer of `copy`'s source write its target; false if it
  /// cannot.
  bool forward(memref::CopyOp copy) {
    auto source = getViewChain<memref::CollapseShapeOp, memref::ExpandShapeOp>(
        copy.getSource());
    auto target = getViewChain<memref::SubViewOp, memref::CollapseShapeOp,
                               memref::ExpandShapeOp>(copy.getTarget());
    if (!source || !target || source->root == target->root ||
        target->root->getBlock() != copy->getBlock())
      return false;
    linalg::LinalgOp writer = getWholeWriter(*source, copy);
    if (!writer || isTargetTouched(writer, copy, target->root))
      return false;

    OpBuilder builder(writer);
    SmallVector<Operation *> built;
    Value view = target->root;
    for (Operation *op : target->views) {
      Operation *clone = builder.clone(*op);
      clone->setOperand(0, view);
      built.push_back(clone);
      view = clone->getResult(0);
    }
    Value written = reshapeBack(builder, view, *source, built);
    if (!written) {
      for (Operation *op : llvm::reverse(built))
        op->erase();
      return false;
    }
    if (writer->isBeforeInBlock(target->root))
      target->root->moveBefore(built.empty() ? writer.getOperation()
                                             : built.front());
    writer->setOperand(writer.getDpsInitOperand(0)->getOperandNumber(),
                       written);

    // The copy, the source and the target's views that nothing reads now.
    copy->erase();
    for (Operation *op : llvm::reverse(source->views))
      op->erase();
    for (Operation *user : llvm::make_early_inc_range(source->root->getUsers()))
      user->erase();
    source->root->erase();
    for (Operation *op : llvm::reverse(target->views))
      if (op->use_empty())
        op->erase();
    return true;
  }
};
} // namespace
