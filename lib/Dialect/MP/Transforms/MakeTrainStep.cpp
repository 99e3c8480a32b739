//===- MakeTrainStep.cpp - mp-make-train-step -------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Wraps a gradient function into the training step of docs/Design.md:
// call it, clip, and update fp32 master weights and optimizer state with
// PyTorch's equations, all skipped on overflow.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/TrainingContract.h"
#include "mp/Dialect/MP/IR/MPOps.h"
#include "mp/Dialect/MP/Transforms/Passes.h"
#include "mp/Utils/OptionErrors.h"
#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_MAKETRAINSTEPPASS
#include "mp/Dialect/MP/Transforms/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {

/// The optimizer and its hyper-parameters, resolved from the pass options.
struct OptimizerConfig {
  Optimizer kind;
  double lr, momentum, beta1, beta2, eps, weightDecay, clipNorm;
  bool nesterov;

  /// Per-parameter state tensors: momentum buffer, or Adam's two moments.
  unsigned numSlots() const {
    return kind == Optimizer::SGD ? 0 : kind == Optimizer::Momentum ? 1 : 2;
  }
  bool isAdam() const {
    return kind == Optimizer::Adam || kind == Optimizer::AdamW;
  }
};

/// Scalars shared by all parameter updates of one step.
struct StepScalars {
  Value clipCoef; // f32, or null without clipping
  Value stepSize; // Adam: lr / (1 - beta1^t)
  Value bc2Sqrt;  // Adam: sqrt(1 - beta2^t)
};

class StepBuilder {
public:
  StepBuilder(OpBuilder &b, Location loc, const OptimizerConfig &config)
      : b(b), loc(loc), config(config) {}

  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value f64(double v) {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
  }

  /// min(1, clip / (||grads||_2 + 1e-6)), as torch.nn.utils.clip_grad_norm_.
  Value clipCoefficient(ValueRange grads) {
    Value zero = f32(0.0);
    Value init = createZeros(b, loc, RankedTensorType::get({}, b.getF32Type()));
    Value total = zero;
    for (Value g : grads) {
      Value sum = createFullReduction(
          b, loc, g, init, [](OpBuilder &nb, Location l, ValueRange args) {
            Value sq = arith::MulFOp::create(nb, l, args[0], args[0]);
            return SmallVector<Value>{
                arith::AddFOp::create(nb, l, args[1], sq)};
          });
      total = arith::AddFOp::create(b, loc, total, extractScalar(b, loc, sum));
    }
    Value norm = math::SqrtOp::create(b, loc, total);
    Value coef =
        arith::DivFOp::create(b, loc, f32(config.clipNorm),
                              arith::AddFOp::create(b, loc, norm, f32(1e-6)));
    return arith::MinimumFOp::create(b, loc, coef, f32(1.0));
  }

  /// Adam's bias corrections for step count `t` (already incremented),
  /// computed in f64 as PyTorch does in Python.
  void biasCorrections(Value t, StepScalars &scalars) {
    Value t64 = arith::ExtFOp::create(b, loc, b.getF64Type(), t);
    auto correction = [&](double beta) -> Value {
      Value power = math::PowFOp::create(b, loc, f64(beta), t64);
      return arith::SubFOp::create(b, loc, f64(1.0), power);
    };
    Value stepSize =
        arith::DivFOp::create(b, loc, f64(config.lr), correction(config.beta1));
    Value bc2Sqrt = math::SqrtOp::create(b, loc, correction(config.beta2));
    scalars.stepSize =
        arith::TruncFOp::create(b, loc, b.getF32Type(), stepSize);
    scalars.bc2Sqrt = arith::TruncFOp::create(b, loc, b.getF32Type(), bc2Sqrt);
  }

  /// The new parameter and slots of one parameter.
  SmallVector<Value> update(Value param, Value grad, ValueRange slots,
                            const StepScalars &scalars) {
    SmallVector<Value> inputs = {param, grad};
    llvm::append_range(inputs, slots);
    SmallVector<Type> types(1 + slots.size(), b.getF32Type());
    return createElementwise(
        b, loc, inputs, types, [&](OpBuilder &nb, Location l, ValueRange a) {
          return updateScalars(nb, l, a[0], a[1], a.slice(2, config.numSlots()),
                               scalars);
        });
  }

private:
  SmallVector<Value> updateScalars(OpBuilder &nb, Location l, Value p, Value g,
                                   ValueRange slots,
                                   const StepScalars &scalars) {
    auto cst = [&](double v) -> Value {
      return arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(v));
    };
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddFOp::create(nb, l, x, y);
    };
    auto mul = [&](Value x, Value y) -> Value {
      return arith::MulFOp::create(nb, l, x, y);
    };
    if (scalars.clipCoef)
      g = mul(g, scalars.clipCoef);
    bool decoupled = config.kind == Optimizer::AdamW;
    if (config.weightDecay != 0.0 && !decoupled)
      g = add(g, mul(p, cst(config.weightDecay)));
    switch (config.kind) {
    case Optimizer::SGD:
      return {add(p, mul(g, cst(-config.lr)))};
    case Optimizer::Momentum: {
      Value buf = add(mul(slots[0], cst(config.momentum)), g);
      Value step =
          config.nesterov ? add(g, mul(buf, cst(config.momentum))) : buf;
      return {add(p, mul(step, cst(-config.lr))), buf};
    }
    case Optimizer::Adam:
    case Optimizer::AdamW: {
      if (decoupled && config.weightDecay != 0.0)
        p = mul(p, cst(1.0 - config.lr * config.weightDecay));
      // exp_avg.lerp_(g, 1 - beta1); exp_avg_sq.mul_(beta2).addcmul_(g, g,
      // value=1 - beta2)
      Value m = slots[0];
      m = add(m,
              mul(arith::SubFOp::create(nb, l, g, m), cst(1.0 - config.beta1)));
      Value v = add(mul(slots[1], cst(config.beta2)),
                    mul(mul(cst(1.0 - config.beta2), g), g));
      Value denom =
          add(arith::DivFOp::create(nb, l, math::SqrtOp::create(nb, l, v),
                                    scalars.bc2Sqrt),
              cst(config.eps));
      Value neg = arith::NegFOp::create(nb, l, scalars.stepSize);
      return {add(p, arith::DivFOp::create(nb, l, mul(neg, m), denom)), m, v};
    }
    }
    llvm_unreachable("unknown optimizer");
  }

  OpBuilder &b;
  Location loc;
  const OptimizerConfig &config;
};

struct MakeTrainStepPass
    : public mp::impl::MakeTrainStepPassBase<MakeTrainStepPass> {
  using Base::Base;

  FailureOr<OptimizerConfig> getConfig();
  LogicalResult makeStep(func::FuncOp fn, const TrainingContract &contract,
                         const OptimizerConfig &config, SymbolTable &symbols);
  /// With accumulate > 1, inputs are sliced out of a stacked argument and
  /// the results summed from zeros: both need static shapes.
  LogicalResult checkAccumulation(func::FuncOp fn,
                                  const TrainingContract &contract);
  /// Why the step redoes the loss-scale update of `fn` with its own overflow
  /// flag ("accumulate=2", "data-parallel"); empty if it does not.
  std::string getCombinedStepReason() const;
  /// The mp.update_scale of `fn` (null without one) to redo with the flag of
  /// the whole step; fails unless the loss scale is `fn`'s only state and
  /// comes from its arguments.
  FailureOr<UpdateScaleOp> findScaleUpdate(func::FuncOp fn,
                                           const TrainingContract &contract);
  /// Calls `fn` once per micro-batch (inputs sliced along their new leading
  /// dimension) and returns its results: mean loss and gradients, the OR of
  /// the overflow flags, the last outputs; the state updates are left null.
  SmallVector<Value> accumulateGradients(OpBuilder &b, Location loc,
                                         func::FuncOp fn,
                                         const TrainingContract &contract,
                                         ValueRange args);
  /// Replaces gradients and loss in `results` by their means over the ranks
  /// and the overflow flag by its OR (see the pass description).
  LogicalResult reduceAcrossRanks(OpBuilder &b, Location loc, func::FuncOp fn,
                                  const TrainingContract &contract,
                                  ValueRange args,
                                  SmallVectorImpl<Value> &results);

  void runOnOperation() override {
    FailureOr<OptimizerConfig> config = getConfig();
    if (failed(config))
      return signalPassFailure();
    SymbolTable symbols(getOperation());
    FailureOr<std::vector<GradientFunction>> functions =
        getGradientFunctions(getOperation());
    if (failed(functions))
      return signalPassFailure();
    for (auto &[fn, contract] : *functions)
      if (failed(makeStep(fn, contract, *config, symbols)))
        return signalPassFailure();
  }
};

FailureOr<OptimizerConfig> MakeTrainStepPass::getConfig() {
  Location loc = getOperation().getLoc();
  OptimizerConfig config;
  config.kind = optimizer;
  config.lr = lr;
  config.momentum = momentum;
  config.nesterov = nesterov;
  config.beta1 = beta1;
  config.beta2 = beta2;
  config.eps = eps;
  config.clipNorm = clipNorm;
  // -1 (the default) stands for the optimizer's PyTorch default.
  bool defaultDecay = weightDecay == MakeTrainStepPassOptions().weightDecay;
  config.weightDecay =
      defaultDecay ? (optimizer == Optimizer::AdamW ? 1e-2 : 0) : weightDecay;
  auto fail = [&](StringRef option, double value, StringRef expected) {
    return emitOptionError(loc, "mp-make-train-step", option, value, expected);
  };
  if (!defaultDecay && (!(weightDecay >= 0.0) || !std::isfinite(weightDecay)))
    return fail("weight-decay", weightDecay,
                "expected 0 or a positive value (-1: the optimizer's "
                "default)");

  if (!(lr > 0.0) || !std::isfinite(lr))
    return fail("lr", lr, "expected a positive learning rate");
  if (!(momentum >= 0.0 && momentum < 1.0))
    return fail("momentum", momentum, "expected a value in [0, 1)");
  if (!(beta1 >= 0.0 && beta1 < 1.0))
    return fail("beta1", beta1, "expected a value in [0, 1)");
  if (!(beta2 >= 0.0 && beta2 < 1.0))
    return fail("beta2", beta2, "expected a value in [0, 1)");
  if (!(eps > 0.0))
    return fail("eps", eps, "expected a positive value");
  if (!(clipNorm >= 0.0) || !std::isfinite(clipNorm))
    return fail("clip-norm", clipNorm, "expected 0 (off) or a positive norm");
  if (accumulate < 1)
    return fail("accumulate", accumulate, "expected at least 1 micro-batch");
  if (nesterov && optimizer != Optimizer::Momentum)
    return emitError(loc) << "mp-make-train-step: nesterov needs "
                             "optimizer=momentum, not '"
                          << stringifyOptimizer(optimizer) << "'";
  return config;
}

LogicalResult
MakeTrainStepPass::checkAccumulation(func::FuncOp fn,
                                     const TrainingContract &contract) {
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (ranked && ranked.hasStaticShape())
      return success();
    return fn.emitError() << "accumulate=" << static_cast<int64_t>(accumulate)
                          << ": " << what << " #" << index << " of @"
                          << fn.getName() << " has type " << type
                          << "; accumulating micro-batches needs static "
                             "shapes";
  };
  for (unsigned input : contract.inputs)
    if (failed(check(fn.getArgumentTypes()[input], "input argument", input)))
      return failure();
  for (unsigned r = 0; r < fn.getNumResults(); ++r)
    if (!fn.getResultAttr(r, MPDialect::getRoleAttrName(Role::updates)) &&
        failed(check(fn.getResultTypes()[r], "result", r)))
      return failure();
  return success();
}

/// `tensor * factor` element-wise (f32).
static Value scaleBy(OpBuilder &b, Location loc, Value tensor, Value factor) {
  return createElementwise(b, loc, tensor, b.getF32Type(),
                           [&](OpBuilder &eb, Location el, ValueRange x) {
                             return SmallVector<Value>{
                                 arith::MulFOp::create(eb, el, x[0], factor)};
                           })[0];
}

/// The element-wise sums over the ranks of `values` (of one element type) in
/// one all-reduce, as DDP's gradient buckets: flattened, concatenated,
/// reduced and sliced back. Values of dynamic shape are reduced alone.
static SmallVector<Value> allReduceSums(OpBuilder &b, Location loc,
                                        ValueRange values) {
  auto sum = [&](Value v) -> Value {
    return AllReduceOp::create(b, loc, CollectiveKind::sum, v).getResult();
  };
  auto isStatic = [](Value v) {
    return cast<RankedTensorType>(v.getType()).hasStaticShape();
  };
  if (values.size() < 2 || !llvm::all_of(values, isStatic))
    return llvm::map_to_vector(values, sum);
  // The reassociation that flattens a tensor of `rank` (none for a scalar).
  auto flatten = [](int64_t rank) {
    SmallVector<ReassociationIndices> all;
    if (rank > 0)
      all.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank)));
    return all;
  };
  SmallVector<Value> flat;
  for (Value v : values) {
    auto type = cast<RankedTensorType>(v.getType());
    auto flatType =
        RankedTensorType::get({type.getNumElements()}, type.getElementType());
    if (type.getRank() == 1)
      flat.push_back(v);
    else if (type.getRank() == 0)
      flat.push_back(
          tensor::ExpandShapeOp::create(b, loc, flatType, v, flatten(0)));
    else
      flat.push_back(
          tensor::CollapseShapeOp::create(b, loc, v, flatten(type.getRank())));
  }
  Value bucket = sum(tensor::ConcatOp::create(b, loc, /*dim=*/0, flat));
  SmallVector<Value> sums;
  int64_t offset = 0;
  for (Value v : values) {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t size = type.getNumElements();
    Value slice = tensor::ExtractSliceOp::create(
        b, loc, bucket, ArrayRef<OpFoldResult>{b.getIndexAttr(offset)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(size)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    offset += size;
    if (type.getRank() == 1)
      sums.push_back(slice);
    else if (type.getRank() == 0)
      sums.push_back(
          tensor::CollapseShapeOp::create(b, loc, type, slice, flatten(0)));
    else
      sums.push_back(tensor::ExpandShapeOp::create(b, loc, type, slice,
                                                   flatten(type.getRank())));
  }
  return sums;
}

/// The step's argument for `v` if it is an argument of `fn`'s body.
static Value getStepArgument(func::FuncOp fn, ValueRange args, Value v) {
  auto blockArg = dyn_cast_or_null<BlockArgument>(v);
  return blockArg && blockArg.getOwner() == &fn.getBody().front()
             ? args[blockArg.getArgNumber()]
             : Value();
}

std::string MakeTrainStepPass::getCombinedStepReason() const {
  if (accumulate > 1)
    return "accumulate=" + std::to_string(static_cast<int64_t>(accumulate));
  return dataParallel ? "data-parallel" : "";
}

FailureOr<UpdateScaleOp>
MakeTrainStepPass::findScaleUpdate(func::FuncOp fn,
                                   const TrainingContract &contract) {
  std::string reason = getCombinedStepReason();
  UpdateScaleOp update;
  fn.walk([&](UpdateScaleOp op) { update = op; });
  auto returnOp = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
  for (auto [result, arg] : contract.updates) {
    Value value = returnOp.getOperand(result);
    if (!update || value.getDefiningOp() != update.getOperation())
      return fn.emitError()
             << reason << ": result #" << result << " of @" << fn.getName()
             << " updates state that is not the loss scale's; only the loss "
                "scale is supported with "
             << (accumulate > 1 ? "gradient accumulation"
                                : "data-parallel training");
  }
  auto isArgument = [&](Value v) {
    return static_cast<bool>(getStepArgument(fn, fn.getArguments(), v));
  };
  if (update &&
      (!isArgument(update.getScale()) || !isArgument(update.getTracker()) ||
       (update.getHysteresisTracker() &&
        !isArgument(update.getHysteresisTracker()))))
    return update.emitError() << reason
                              << ": the loss-scale state must be arguments "
                                 "of the gradient function";
  return update;
}

SmallVector<Value> MakeTrainStepPass::accumulateGradients(
    OpBuilder &b, Location loc, func::FuncOp fn,
    const TrainingContract &contract, ValueRange args) {
  // Carried per result: gradient and loss sums, the overflow flag, the last
  // outputs.
  unsigned numResults = fn.getNumResults();
  SmallVector<unsigned> carried;
  SmallVector<Value> inits;
  for (unsigned r = 0; r < numResults; ++r) {
    if (fn.getResultAttr(r, MPDialect::getRoleAttrName(Role::updates)))
      continue;
    // The sums start as zeros of the result's shape, known before the call.
    carried.push_back(r);
    inits.push_back(
        createZeros(b, loc, cast<RankedTensorType>(fn.getResultTypes()[r])));
  }
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, accumulate);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, one, inits,
      [&](OpBuilder &nb, Location l, Value k, ValueRange acc) {
        SmallVector<Value> callArgs(args);
        for (unsigned input : contract.inputs) {
          auto micro = cast<RankedTensorType>(fn.getArgumentTypes()[input]);
          SmallVector<OpFoldResult> offsets(micro.getRank() + 1,
                                            nb.getIndexAttr(0));
          offsets[0] = k;
          SmallVector<OpFoldResult> sizes = {nb.getIndexAttr(1)};
          for (int64_t size : micro.getShape())
            sizes.push_back(nb.getIndexAttr(size));
          SmallVector<OpFoldResult> strides(micro.getRank() + 1,
                                            nb.getIndexAttr(1));
          callArgs[input] = tensor::ExtractSliceOp::create(
              nb, l, micro, args[input], offsets, sizes, strides);
        }
        auto call = func::CallOp::create(nb, l, fn, callArgs);
        SmallVector<Value> next;
        for (auto [i, r] : llvm::enumerate(carried)) {
          Value value = call.getResult(r);
          bool isSum =
              r == contract.loss ||
              fn.getResultAttr(r, MPDialect::getRoleAttrName(Role::grad_of));
          bool isFlag = contract.foundInf && r == *contract.foundInf;
          if (!isSum && !isFlag) {
            next.push_back(value);
            continue;
          }
          next.push_back(createElementwise(
              nb, l, ValueRange{acc[i], value},
              getElementTypeOrSelf(value.getType()),
              [&](OpBuilder &eb, Location el, ValueRange x) {
                return SmallVector<Value>{
                    isFlag ? Value(arith::OrIOp::create(eb, el, x[0], x[1]))
                           : Value(arith::AddFOp::create(eb, el, x[0], x[1]))};
              })[0]);
        }
        scf::YieldOp::create(nb, l, next);
      });

  // Means over the micro-batches, as dividing each loss by K in PyTorch.
  SmallVector<Value> results(numResults);
  Value inv = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(1.0f / static_cast<float>(accumulate)));
  for (auto [i, r] : llvm::enumerate(carried)) {
    Value value = loop.getResult(i);
    if (r == contract.loss ||
        fn.getResultAttr(r, MPDialect::getRoleAttrName(Role::grad_of)))
      value = scaleBy(b, loc, value, inv);
    results[r] = value;
  }
  return results;
}

LogicalResult MakeTrainStepPass::reduceAcrossRanks(
    OpBuilder &b, Location loc, func::FuncOp fn,
    const TrainingContract &contract, ValueRange args,
    SmallVectorImpl<Value> &results) {
  auto allReduce = [&](CollectiveKind kind, Value value) -> Value {
    return AllReduceOp::create(b, loc, kind, value).getResult();
  };
  Type f32 = b.getF32Type();
  // The world size first in the step: the GPU backend asks the runtime for
  // it before launching the gradient function's kernels, not after waiting
  // for them.
  auto top = OpBuilder::atBlockBegin(b.getInsertionBlock());
  Value size = arith::SIToFPOp::create(
      b, loc, f32, WorldSizeOp::create(top, loc, b.getI32Type()));
  Value inv = arith::DivFOp::create(
      b, loc, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f)), size);
  SmallVector<unsigned> gradResults;
  for (unsigned r = 0; r < fn.getNumResults(); ++r)
    if (fn.getResultAttr(r, MPDialect::getRoleAttrName(Role::grad_of)))
      gradResults.push_back(r);

  Value overflow; // found by the finite check of compressed sums
  if (allreduceType == AllReduceType::f32) {
    // Gradients and loss in one bucket.
    SmallVector<Value> values;
    for (unsigned r : gradResults)
      values.push_back(results[r]);
    values.push_back(results[contract.loss]);
    SmallVector<Value> sums = allReduceSums(b, loc, values);
    for (auto [r, sum] : llvm::zip(gradResults, sums))
      results[r] = scaleBy(b, loc, sum, inv);
    results[contract.loss] = scaleBy(b, loc, sums.back(), inv);
  } else {
    if (allreduceType == AllReduceType::f16 && !contract.foundInf)
      return fn.emitError()
             << "allreduce-type=f16: @" << fn.getName()
             << " has no loss scaling; f16 gradients need it to stay in "
                "range and to skip steps whose sum overflows (run "
                "mp-loss-scaling, or use allreduce-type=bf16 or f32)";
    // The scale the gradients were computed with: the loss-scale argument,
    // the constant of a static scale, or 1.
    UnscaleOp unscale;
    fn.walk([&](UnscaleOp op) { unscale = op; });
    Value scale;
    if (contract.lossScale) {
      scale = args[*contract.lossScale];
    } else if (unscale) {
      Attribute constant;
      if (!matchPattern(unscale.getScale(), m_Constant(&constant)))
        return unscale.emitError()
               << "allreduce-type=" << stringifyAllReduceType(allreduceType)
               << ": the loss scale is neither an argument nor a constant";
      scale = arith::ConstantOp::create(b, loc, cast<TypedAttr>(constant));
    } else {
      scale = fromScalar(
          b, loc, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f)));
    }
    Type wire = allreduceType == AllReduceType::f16 ? Type(b.getF16Type())
                                                    : Type(b.getBF16Type());
    Value factor =
        arith::MulFOp::create(b, loc, extractScalar(b, loc, scale), inv);
    SmallVector<Value> compressed;
    SmallVector<Type> unscaledTypes;
    for (unsigned r : gradResults) {
      compressed.push_back(createElementwise(
          b, loc, results[r], wire,
          [&](OpBuilder &eb, Location el, ValueRange x) {
            Value scaled = arith::MulFOp::create(eb, el, x[0], factor);
            return SmallVector<Value>{
                arith::TruncFOp::create(eb, el, wire, scaled)};
          })[0]);
      unscaledTypes.push_back(results[r].getType());
    }
    SmallVector<Value> sums = allReduceSums(b, loc, compressed);
    if (contract.foundInf) {
      auto widened = UnscaleOp::create(b, loc, unscaledTypes,
                                       RankedTensorType::get({}, b.getI1Type()),
                                       scale, sums);
      for (auto [r, value] : llvm::zip(gradResults, widened.getUnscaled()))
        results[r] = value;
      overflow = widened.getFoundInf();
    } else {
      for (auto [r, sum] : llvm::zip(gradResults, sums))
        results[r] = createElementwise(
            b, loc, sum, f32, [&](OpBuilder &eb, Location el, ValueRange x) {
              return SmallVector<Value>{
                  arith::ExtFOp::create(eb, el, eb.getF32Type(), x[0])};
            })[0];
    }
    results[contract.loss] = scaleBy(
        b, loc, allReduce(CollectiveKind::sum, results[contract.loss]), inv);
  }
  if (contract.foundInf) {
    Value flag = allReduce(CollectiveKind::max, results[*contract.foundInf]);
    if (overflow)
      flag = createElementwise(
          b, loc, ValueRange{flag, overflow}, b.getI1Type(),
          [](OpBuilder &eb, Location el, ValueRange x) {
            return SmallVector<Value>{arith::OrIOp::create(eb, el, x[0], x[1])};
          })[0];
    results[*contract.foundInf] = flag;
  }
  return success();
}

LogicalResult MakeTrainStepPass::makeStep(func::FuncOp fn,
                                          const TrainingContract &contract,
                                          const OptimizerConfig &config,
                                          SymbolTable &symbols) {
  if (accumulate > 1 && failed(checkAccumulation(fn, contract)))
    return failure();
  MLIRContext *ctx = fn.getContext();
  Location loc = fn.getLoc();
  Builder attrs(ctx);
  auto f32Scalar = RankedTensorType::get({}, attrs.getF32Type());
  auto stateAttrs = attrs.getDictionaryAttr({attrs.getNamedAttr(
      MPDialect::getRoleAttrName(Role::state), attrs.getF32FloatAttr(0.0))});
  auto updatesAttrs = [&](unsigned arg) {
    return attrs.getDictionaryAttr(
        {attrs.getNamedAttr(MPDialect::getRoleAttrName(Role::updates),
                            attrs.getI64IntegerAttr(arg))});
  };

  // Parameters that have a gradient are trained; each gets its slots.
  SmallVector<std::pair<unsigned, unsigned>> trained; // (param arg, grad res)
  for (unsigned param : contract.params)
    if (std::optional<unsigned> grad = contract.getGradientOf(param))
      trained.emplace_back(param, *grad);

  // Signature: the gradient function's arguments, then the optimizer state.
  unsigned numFnArgs = fn.getNumArguments();
  SmallVector<Type> argTypes(fn.getArgumentTypes());
  if (accumulate > 1)
    for (unsigned input : contract.inputs) {
      auto type = cast<RankedTensorType>(argTypes[input]);
      SmallVector<int64_t> shape = {accumulate};
      llvm::append_range(shape, type.getShape());
      argTypes[input] = type.clone(shape);
    }
  SmallVector<DictionaryAttr> argAttrs;
  fn.getAllArgAttrs(argAttrs);
  for (unsigned slot = 0; slot < config.numSlots(); ++slot)
    for (auto [param, grad] : trained) {
      argTypes.push_back(fn.getArgumentTypes()[param]);
      argAttrs.push_back(stateAttrs);
    }
  std::optional<unsigned> stepArg;
  if (config.isAdam()) {
    stepArg = argTypes.size();
    argTypes.push_back(f32Scalar);
    argAttrs.push_back(stateAttrs);
  }

  // Results: new parameters and state, then the rest of fn's results.
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  for (auto [param, grad] : trained) {
    resultTypes.push_back(argTypes[param]);
    resultAttrs.push_back(updatesAttrs(param));
  }
  for (unsigned arg = numFnArgs; arg < argTypes.size(); ++arg) {
    resultTypes.push_back(argTypes[arg]);
    resultAttrs.push_back(updatesAttrs(arg));
  }
  SmallVector<unsigned> passedResults;
  for (unsigned r = 0; r < fn.getNumResults(); ++r) {
    if (fn.getResultAttr(r, MPDialect::getRoleAttrName(Role::grad_of)))
      continue;
    passedResults.push_back(r);
    resultTypes.push_back(fn.getResultTypes()[r]);
    resultAttrs.push_back(fn.getResultAttrDict(r));
  }

  OpBuilder b(ctx);
  b.setInsertionPointAfter(fn);
  auto step = func::FuncOp::create(b, loc, fn.getName().str() + "_step",
                                   b.getFunctionType(argTypes, resultTypes));
  step.setAllArgAttrs(argAttrs);
  step.setAllResultAttrs(resultAttrs);
  symbols.insert(step);
  Block *body = step.addEntryBlock();
  b.setInsertionPointToStart(body);

  ValueRange fnArgs = body->getArguments().take_front(numFnArgs);
  bool combined = accumulate > 1 || dataParallel;
  FailureOr<UpdateScaleOp> update =
      combined ? findScaleUpdate(fn, contract) : FailureOr<UpdateScaleOp>();
  if (combined && failed(update))
    return failure();
  SmallVector<Value> fnResults =
      accumulate > 1
          ? accumulateGradients(b, loc, fn, contract, fnArgs)
          : SmallVector<Value>(
                func::CallOp::create(b, loc, fn, fnArgs).getResults());
  if (dataParallel &&
      failed(reduceAcrossRanks(b, loc, fn, contract, fnArgs, fnResults)))
    return failure();
  if (combined && *update) {
    // The loss scale is updated once, with the overflow flag of the whole
    // step.
    auto again = cast<UpdateScaleOp>(b.clone(**update));
    auto argumentOf = [&](Value v) { return getStepArgument(fn, fnArgs, v); };
    again.getScaleMutable().assign(argumentOf(update->getScale()));
    again.getTrackerMutable().assign(argumentOf(update->getTracker()));
    again.getFoundInfMutable().assign(fnResults[*contract.foundInf]);
    if (Value h = update->getHysteresisTracker())
      again.getHysteresisTrackerMutable().assign(argumentOf(h));
    auto returnOp = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
    for (auto [result, arg] : contract.updates)
      fnResults[result] = again->getResult(
          cast<OpResult>(returnOp.getOperand(result)).getResultNumber());
  }
  SmallVector<Value> old, grads;
  for (auto [param, grad] : trained) {
    old.push_back(body->getArgument(param));
    grads.push_back(fnResults[grad]);
  }
  for (unsigned arg = numFnArgs; arg < argTypes.size(); ++arg)
    old.push_back(body->getArgument(arg));

  auto computeUpdate = [&](OpBuilder &nb, Location l) {
    StepBuilder sb(nb, l, config);
    StepScalars scalars;
    if (config.clipNorm > 0.0)
      scalars.clipCoef = sb.clipCoefficient(grads);
    Value newStep;
    if (stepArg) {
      Value t = arith::AddFOp::create(
          nb, l, extractScalar(nb, l, body->getArgument(*stepArg)),
          sb.f32(1.0));
      sb.biasCorrections(t, scalars);
      newStep = fromScalar(nb, l, t);
    }
    SmallVector<Value> params, slots;
    for (auto [i, pair] : llvm::enumerate(trained)) {
      SmallVector<Value> paramSlots;
      for (unsigned s = 0; s < config.numSlots(); ++s)
        paramSlots.push_back(old[trained.size() * (1 + s) + i]);
      SmallVector<Value> updated =
          sb.update(old[i], grads[i], paramSlots, scalars);
      params.push_back(updated[0]);
      slots.append(updated.begin() + 1, updated.end());
    }
    // Order the slots as the arguments: slot-major.
    SmallVector<Value> result = params;
    unsigned numSlots = config.numSlots();
    for (unsigned s = 0; s < numSlots; ++s)
      for (unsigned i = 0; i < trained.size(); ++i)
        result.push_back(slots[i * numSlots + s]);
    if (newStep)
      result.push_back(newStep);
    return result;
  };

  SmallVector<Value> updated;
  if (contract.foundInf) {
    // On overflow, return every parameter and state unchanged.
    Value skip = extractScalar(b, loc, fnResults[*contract.foundInf]);
    auto ifOp = scf::IfOp::create(
        b, loc, skip,
        [&](OpBuilder &nb, Location l) { scf::YieldOp::create(nb, l, old); },
        [&](OpBuilder &nb, Location l) {
          scf::YieldOp::create(nb, l, computeUpdate(nb, l));
        });
    updated = SmallVector<Value>(ifOp.getResults());
  } else {
    updated = computeUpdate(b, loc);
  }
  for (unsigned r : passedResults)
    updated.push_back(fnResults[r]);
  func::ReturnOp::create(b, loc, updated);
  return success();
}

} // namespace
