//===- DeviceScalars.cpp - Scalar state and decisions on the device -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// A training step reads scalars out of 0-d tensors (the loss scale, the
// growth tracker, the overflow flag) and computes with them: the scale
// update, the scaled seed, the choice between updated and kept parameters.
// On the GPU those tensors live in device memory, so each read would be a
// host round trip. These patterns move the scalar code into linalg ops that
// take the 0-d tensors as operands: it runs in kernels.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUDEVICESCALARSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The 0-d tensor `value` is read from, if it is a `tensor.extract` of one.
static Value getExtractedTensor(Value value) {
  auto extract = value.getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract.getTensor().getType().getRank() != 0)
    return nullptr;
  return extract.getTensor();
}

namespace {
/// The scalar computation of a value from 0-d tensors: `ops` in order (pure
/// scalar ops without regions and constants), reading `tensors` through
/// their `tensor.extract`s (`reads`).
struct ScalarSlice {
  SetVector<Operation *> ops;
  SetVector<Value> tensors;
  SetVector<Value> reads;

  /// Adds the computation of `value`; false if it is not one (a block
  /// argument, a non-scalar op, one with regions or effects).
  bool add(Value value) {
    if (Value tensor = getExtractedTensor(value)) {
      tensors.insert(tensor);
      reads.insert(value);
      return true;
    }
    Operation *op = value.getDefiningOp();
    if (!op || op->getNumRegions() != 0 || !isPure(op) ||
        !llvm::all_of(op->getResultTypes(),
                      [](Type t) { return t.isIntOrIndexOrFloat(); }))
      return false;
    if (ops.contains(op))
      return true;
    for (Value operand : op->getOperands())
      if (!add(operand))
        return false;
    ops.insert(op);
    return true;
  }

  /// Clones the computation into a linalg body whose arguments `args` are
  /// `tensors`' elements; `mapping` then maps the reads and the ops'
  /// results to their clones.
  void clone(OpBuilder &b, ArrayRef<BlockArgument> args,
             IRMapping &mapping) const {
    for (Value read : reads)
      mapping.map(read, args[llvm::find(tensors, getExtractedTensor(read)) -
                             tensors.begin()]);
    for (Operation *op : ops)
      b.clone(*op, mapping);
  }
};

/// `tensor.from_elements` of a 0-d tensor computed from other 0-d tensors'
/// elements: a 0-d linalg.generic of those tensors.
struct FromElementsToGeneric : OpRewritePattern<tensor::FromElementsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::FromElementsOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getType().getRank() != 0)
      return failure();
    Value element = op.getElements()[0];
    ScalarSlice slice;
    if (!slice.add(element) || slice.tensors.empty())
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value init = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{},
                                         op.getType().getElementType());
    SmallVector<AffineMap> maps(slice.tensors.size() + 1,
                                AffineMap::get(0, 0, ctx));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, op.getType(), slice.tensors.getArrayRef(), init, maps,
        ArrayRef<utils::IteratorType>{},
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          IRMapping mapping;
          SmallVector<BlockArgument> inputs;
          for (Value arg : args.drop_back())
            inputs.push_back(cast<BlockArgument>(arg));
          slice.clone(b, inputs, mapping);
          linalg::YieldOp::create(b, bodyLoc, mapping.lookupOrDefault(element));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// A linalg.generic on tensors whose body uses scalars computed from 0-d
/// tensors' elements: the tensors become operands (broadcast to every
/// iteration) and the computation moves into the body.
struct CapturedScalarsToOperands : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op.getRegion(), captured);
    ScalarSlice slice;
    SmallVector<Value> moved;
    for (Value value : captured) {
      ScalarSlice one;
      if (one.add(value) && !one.tensors.empty() && slice.add(value))
        moved.push_back(value);
    }
    if (moved.empty())
      return failure();

    MLIRContext *ctx = rewriter.getContext();
    Block *body = op.getBody();
    unsigned numInputs = op.getNumDpsInputs();
    AffineMap broadcast = AffineMap::get(op.getNumLoops(), 0, ctx);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<BlockArgument> args;
    rewriter.modifyOpInPlace(op, [&] {
      for (auto [i, tensor] : llvm::enumerate(slice.tensors)) {
        op.getInputsMutable().append(tensor);
        maps.insert(maps.begin() + numInputs + i, broadcast);
        args.push_back(body->insertArgument(
            numInputs + i, cast<ShapedType>(tensor.getType()).getElementType(),
            op.getLoc()));
      }
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(body);
    IRMapping mapping;
    slice.clone(rewriter, args, mapping);
    for (Value value : moved)
      replaceAllUsesInRegionWith(value, mapping.lookupOrDefault(value),
                                 op.getRegion());
    return success();
  }
};

/// `scf.if` on an element of a 0-d i1 tensor (the overflow flag) whose
/// branches only compute tensors: both branches computed, each result that
/// differs chosen elementwise by a linalg.generic reading the flag.
struct IfToSelect : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::IfOp op,
                                PatternRewriter &rewriter) const override {
    Value flag = getExtractedTensor(op.getCondition());
    if (!flag || op.getNumResults() == 0 || op.getElseRegion().empty())
      return failure();
    for (Type type : op.getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape())
        return failure();
    }
    for (Region *region : {&op.getThenRegion(), &op.getElseRegion()})
      for (Operation &inner : region->front().without_terminator())
        if (!isMemoryEffectFree(&inner))
          return failure();

    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto inlineBranch = [&](Block *block) {
      auto yield = cast<scf::YieldOp>(block->getTerminator());
      SmallVector<Value> values(yield.getOperands());
      rewriter.eraseOp(yield);
      rewriter.inlineBlockBefore(block, op);
      return values;
    };
    SmallVector<Value> thenValues = inlineBranch(op.thenBlock());
    SmallVector<Value> elseValues = inlineBranch(op.elseBlock());
    SmallVector<Value> results;
    for (auto [type, whenTrue, whenFalse] :
         llvm::zip_equal(op.getResultTypes(), thenValues, elseValues)) {
      if (whenTrue == whenFalse) {
        results.push_back(whenTrue);
        continue;
      }
      auto tensor = cast<RankedTensorType>(type);
      Value init = tensor::EmptyOp::create(rewriter, loc, tensor.getShape(),
                                           tensor.getElementType());
      unsigned rank = tensor.getRank();
      AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
      SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, ctx), identity,
                                     identity, identity};
      auto select = linalg::GenericOp::create(
          rewriter, loc, tensor, ValueRange{flag, whenTrue, whenFalse}, init,
          maps,
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [](OpBuilder &b, Location bodyLoc, ValueRange args) {
            Value chosen =
                arith::SelectOp::create(b, bodyLoc, args[0], args[1], args[2]);
            linalg::YieldOp::create(b, bodyLoc, chosen);
          });
      results.push_back(select.getResult(0));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct GPUDeviceScalarsPass
    : public mp::impl::GPUDeviceScalarsPassBase<GPUDeviceScalarsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FromElementsToGeneric, CapturedScalarsToOperands, IfToSelect>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitError()
          << getArgument() << ": the scalar rewrites did not converge";
      return signalPassFailure();
    }
  }
};
} // namespace
