//===- InsertCasts.cpp - mp-insert-casts ------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/TypePlan.h"
#include "mp/Dialect/MP/Transforms/Passes.h"
#include "mp/Utils/FloatCasts.h"
#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_INSERTCASTSPASS
#include "mp/Dialect/MP/Transforms/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct InsertCastsPass : public mp::impl::InsertCastsPassBase<InsertCastsPass> {
  using Base::Base;

  void runOnOperation() override;
};
} // namespace

/// Creates `value` converted to `type` right after the definition of
/// `value`; casts of block arguments are kept in argument order. A use of a
/// tensor.empty gets a new tensor.empty of its type instead of a cast.
static Value materialize(OpBuilder &builder, Value value, Type type,
                         DenseMap<Block *, Operation *> &lastArgCast) {
  if (auto empty = value.getDefiningOp<tensor::EmptyOp>()) {
    builder.setInsertionPointAfter(empty);
    return tensor::EmptyOp::create(builder, empty.getLoc(), type,
                                   empty.getDynamicSizes());
  }
  if (Operation *def = value.getDefiningOp()) {
    builder.setInsertionPointAfter(def);
    return createFloatCast(builder, value.getLoc(), value, type);
  }
  Block *block = cast<BlockArgument>(value).getOwner();
  Operation *&last = lastArgCast[block];
  if (last)
    builder.setInsertionPointAfter(last);
  else
    builder.setInsertionPointToStart(block);
  Value result = createFloatCast(builder, value.getLoc(), value, type);
  last = result.getDefiningOp();
  return result;
}

void InsertCastsPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<TypePlan> plan = TypePlan::build(module);
  if (failed(plan))
    return signalPassFailure();

  for (auto [value, type] : plan->getRetypedValues())
    value.setType(type);
  numRetyped += plan->getRetypedValues().size();
  for (auto [fn, type] : plan->getNewFunctionTypes())
    cast<FunctionOpInterface>(fn).setType(type);

  for (Operation *op : plan->getConvertedConstants()) {
    auto cst = cast<arith::ConstantOp>(op);
    FailureOr<TypedAttr> converted =
        convertFloatConstant(cst.getValue(), cst.getType());
    if (failed(converted)) {
      cst.emitError() << "cannot convert this constant to " << cst.getType()
                      << " (it overflows or is not a float constant); "
                         "classify it f32 with mp.override";
      return signalPassFailure();
    }
    cst.setValueAttr(*converted);
  }

  OpBuilder builder(&getContext());
  DenseMap<std::pair<Value, Type>, Value> casts;
  DenseMap<Block *, Operation *> lastArgCast;
  for (const TypePlan::CastUse &cu : plan->getCastUses()) {
    Value source = cu.use->get();
    Value &cast = casts[{source, cu.type}];
    if (!cast)
      cast = materialize(builder, source, cu.type, lastArgCast);
    cu.use->set(cast);
  }
  numCasts += plan->getNumCasts();

  IRRewriter rewriter(&getContext());
  for (Operation *op : plan->getRegeneratedBodies())
    regenerateNamedOpBody(rewriter, cast<linalg::LinalgOp>(op));

  module.walk([](Operation *op) {
    op->removeAttr(MPDialect::ClassAttrHelper::getNameStr());
    op->removeAttr(MPDialect::PrecisionAttrHelper::getNameStr());
    op->removeAttr(MPDialect::AccumulatorAttrHelper::getNameStr());
    op->removeAttr(MPDialect::SignaturePrecisionAttrHelper::getNameStr());
  });
}
