//===- LossScaling.cpp - mp-loss-scaling ------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/Policy.h"
#include "mp/Analysis/TrainingContract.h"
#include "mp/Dialect/MP/IR/MPOps.h"
#include "mp/Dialect/MP/Transforms/Passes.h"
#include "mp/Utils/OptionErrors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_LOSSSCALINGPASS
#include "mp/Dialect/MP/Transforms/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {

/// The gradient as returned, or its f16/bf16 source when it was widened
/// with arith.extf just for the return (mp.unscale widens it itself).
Value unwidened(Value grad) {
  if (auto ext = grad.getDefiningOp<arith::ExtFOp>()) {
    Type source = getElementTypeOrSelf(ext.getIn().getType());
    if (source.isF16() || source.isBF16())
      return ext.getIn();
  }
  return grad;
}

struct LossScalingPass : public mp::impl::LossScalingPassBase<LossScalingPass> {
  using Base::Base;

  LogicalResult checkOptions(Location loc);
  /// The mode, with `auto` resolved from the policy.
  FailureOr<LossScaleMode> resolveMode();
  void scale(func::FuncOp fn, const TrainingContract &contract,
             LossScaleMode mode);

  void runOnOperation() override {
    if (failed(checkOptions(getOperation().getLoc())))
      return signalPassFailure();
    FailureOr<LossScaleMode> resolved = resolveMode();
    if (failed(resolved))
      return signalPassFailure();
    if (*resolved == LossScaleMode::None)
      return markAllAnalysesPreserved();
    FailureOr<std::vector<GradientFunction>> functions =
        getGradientFunctions(getOperation());
    if (failed(functions))
      return signalPassFailure();
    for (auto &[fn, contract] : *functions) {
      if (contract.lossScale || contract.foundInf) {
        fn.emitError() << "@" << fn.getName()
                       << " is already loss-scaled (it has an mp.loss_scale "
                          "argument or an mp.found_inf result)";
        return signalPassFailure();
      }
      scale(fn, contract, *resolved);
      ++numFunctions;
    }
  }
};

FailureOr<LossScaleMode> LossScalingPass::resolveMode() {
  if (mode != LossScaleMode::Auto)
    return LossScaleMode(mode);
  if (policy == "none")
    return LossScaleMode::None;
  llvm::Expected<Policy> loaded = Policy::load(policy);
  if (!loaded)
    return emitError(getOperation().getLoc())
           << "mp-loss-scaling: " << llvm::toString(loaded.takeError());
  return loaded->getLossScaling() ? LossScaleMode::Dynamic
                                  : LossScaleMode::None;
}

LogicalResult LossScalingPass::checkOptions(Location loc) {
  auto fail = [&](StringRef option, double value, StringRef expected) {
    return emitOptionError(loc, "mp-loss-scaling", option, value, expected);
  };

  if (mode == LossScaleMode::Static &&
      (!(staticScale > 0.0) || !std::isfinite(static_cast<float>(staticScale))))
    return fail("static-scale", staticScale,
                "expected a positive finite scale");
  if (!(initScale > 0.0) || !std::isfinite(static_cast<float>(initScale)))
    return fail("init-scale", initScale, "expected a positive finite scale");
  if (!(growthFactor >= 1.0) || !std::isfinite(growthFactor))
    return fail("growth-factor", growthFactor, "expected a finite value >= 1");
  if (!(backoffFactor > 0.0 && backoffFactor < 1.0))
    return fail("backoff-factor", backoffFactor, "expected a value in (0, 1)");
  if (growthInterval < 1)
    return fail("growth-interval", growthInterval, "expected at least 1");
  if (hysteresis < 1)
    return fail("hysteresis", hysteresis, "expected at least 1");
  if (minScale < 0.0 || !std::isfinite(minScale))
    return fail("min-scale", minScale, "expected 0 (none) or a positive bound");
  if (maxScale < 0.0 || !std::isfinite(static_cast<float>(maxScale)))
    return fail("max-scale", maxScale, "expected 0 (none) or a positive bound");
  if (minScale > 0.0 && maxScale > 0.0 && minScale > maxScale)
    return fail("min-scale", minScale, "it exceeds max-scale");
  return success();
}

void LossScalingPass::scale(func::FuncOp fn, const TrainingContract &contract,
                            LossScaleMode mode) {
  MLIRContext *ctx = fn.getContext();
  OpBuilder b(ctx);
  Block &entry = fn.getBody().front();
  Location loc = fn.getLoc();
  Builder attrs(ctx);
  auto f32Scalar = RankedTensorType::get({}, b.getF32Type());
  auto i32Scalar = RankedTensorType::get({}, b.getI32Type());

  // The scale: a constant, or state arguments appended to the signature.
  SmallVector<BlockArgument> state;
  Value scaleValue;
  if (mode == LossScaleMode::Static) {
    b.setInsertionPointToStart(&entry);
    scaleValue = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(f32Scalar, static_cast<float>(staticScale)));
  } else {
    SmallVector<Type> types = {f32Scalar, i32Scalar};
    SmallVector<DictionaryAttr> argAttrs = {
        attrs.getDictionaryAttr(
            {attrs.getNamedAttr(MPDialect::getRoleAttrName(Role::state),
                                attrs.getF32FloatAttr(initScale)),
             attrs.getNamedAttr(MPDialect::getRoleAttrName(Role::loss_scale),
                                attrs.getUnitAttr())}),
        attrs.getDictionaryAttr(
            {attrs.getNamedAttr(MPDialect::getRoleAttrName(Role::state),
                                attrs.getI32IntegerAttr(0))})};
    if (hysteresis > 1) {
      types.push_back(i32Scalar);
      argAttrs.push_back(attrs.getDictionaryAttr(
          {attrs.getNamedAttr(MPDialect::getRoleAttrName(Role::state),
                              attrs.getI32IntegerAttr(hysteresis))}));
    }
    unsigned first = fn.getNumArguments();
    SmallVector<unsigned> indices(types.size(), first);
    SmallVector<Location> locs(types.size(), loc);
    (void)fn.insertArguments(indices, types, argAttrs, locs);
    for (unsigned i = 0; i < types.size(); ++i)
      state.push_back(fn.getArgument(first + i));
    scaleValue = state[0];
    b.setInsertionPointToStart(&entry);
  }

  // Seed the backward pass with seed * scale.
  BlockArgument seed = fn.getArgument(contract.seed);
  auto scaled =
      ScaleSeedOp::create(b, seed.getLoc(), f32Scalar, seed, scaleValue);
  seed.replaceAllUsesExcept(scaled, scaled);

  // Unscale and check the returned gradients; update the scale.
  SmallVector<Type> extraTypes;
  fn.walk([&](func::ReturnOp ret) {
    b.setInsertionPoint(ret);
    SmallVector<Value> grads;
    for (auto [result, param] : contract.gradients)
      grads.push_back(unwidened(ret.getOperand(result)));
    SmallVector<Type> f32Types;
    for (auto [result, param] : contract.gradients)
      f32Types.push_back(fn.getResultTypes()[result]);
    auto unscale = UnscaleOp::create(b, ret.getLoc(), f32Types,
                                     RankedTensorType::get({}, b.getI1Type()),
                                     scaleValue, grads);
    SmallVector<Value> operands(ret.getOperands());
    for (auto [i, pair] : llvm::enumerate(contract.gradients))
      operands[pair.first] = unscale.getUnscaled()[i];
    operands.push_back(unscale.getFoundInf());
    if (mode == LossScaleMode::Dynamic) {
      Value counter = hysteresis > 1 ? Value(state[2]) : Value();
      auto update = UpdateScaleOp::create(
          b, ret.getLoc(), f32Scalar, i32Scalar,
          counter ? Type(i32Scalar) : Type(), state[0], state[1],
          unscale.getFoundInf(), counter, b.getF32FloatAttr(growthFactor),
          b.getF32FloatAttr(backoffFactor), b.getI32IntegerAttr(growthInterval),
          b.getI32IntegerAttr(hysteresis),
          minScale > 0.0 ? b.getF32FloatAttr(minScale) : FloatAttr(),
          maxScale > 0.0 ? b.getF32FloatAttr(maxScale) : FloatAttr());
      llvm::append_range(operands, update.getResults());
    }
    ret->setOperands(operands);
    extraTypes.clear();
    for (Value extra : ArrayRef(operands).drop_front(fn.getNumResults()))
      extraTypes.push_back(extra.getType());
  });

  // New results: the flag, then the next value of each state argument.
  SmallVector<DictionaryAttr> resultAttrs = {
      attrs.getDictionaryAttr({attrs.getNamedAttr(
          MPDialect::getRoleAttrName(Role::found_inf), attrs.getUnitAttr())})};
  for (BlockArgument arg : state)
    resultAttrs.push_back(attrs.getDictionaryAttr(
        {attrs.getNamedAttr(MPDialect::getRoleAttrName(Role::updates),
                            attrs.getI64IntegerAttr(arg.getArgNumber()))}));
  SmallVector<unsigned> indices(extraTypes.size(), fn.getNumResults());
  (void)fn.insertResults(indices, extraTypes, resultAttrs);
}

} // namespace
