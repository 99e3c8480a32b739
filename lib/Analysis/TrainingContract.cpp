//===- TrainingContract.cpp - Roles of a gradient function ------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/TrainingContract.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::mp;

static std::optional<unsigned>
findResultOf(ArrayRef<std::pair<unsigned, unsigned>> pairs, unsigned arg) {
  for (auto [result, argument] : pairs)
    if (argument == arg)
      return result;
  return std::nullopt;
}

std::optional<unsigned> TrainingContract::getGradientOf(unsigned param) const {
  return findResultOf(gradients, param);
}

std::optional<unsigned> TrainingContract::getUpdateOf(unsigned arg) const {
  return findResultOf(updates, arg);
}

bool TrainingContract::isGradientFunction(FunctionOpInterface fn) {
  auto hasRole = [](ArrayRef<NamedAttribute> attrs) {
    return llvm::any_of(attrs, [](NamedAttribute attr) {
      return attr.getName().getValue().starts_with("mp.");
    });
  };
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
    if (hasRole(fn.getArgAttrs(i)))
      return true;
  for (unsigned i = 0, e = fn.getNumResults(); i < e; ++i)
    if (hasRole(fn.getResultAttrs(i)))
      return true;
  return false;
}

static bool isScalarF32Tensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 0 && tensor.getElementType().isF32();
}

FailureOr<TrainingContract> TrainingContract::get(FunctionOpInterface fn) {
  TrainingContract contract;
  bool ok = true;
  auto argError = [&](unsigned i) {
    ok = false;
    return emitError(fn.getArgument(i).getLoc())
           << "argument #" << i << " of @" << fn.getName() << ": ";
  };
  auto resultError = [&](unsigned i) {
    ok = false;
    return fn.emitError() << "result #" << i << " of @" << fn.getName() << ": ";
  };

  std::optional<unsigned> seed;
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
    SmallVector<StringRef> roles;
    for (StringRef role :
         {MPDialect::kParamAttrName, MPDialect::kInputAttrName,
          MPDialect::kGradSeedAttrName, MPDialect::kStateAttrName})
      if (fn.getArgAttr(i, role))
        roles.push_back(role);
    if (roles.size() != 1) {
      argError(i) << (roles.empty() ? "has no role; mark it mp.param, "
                                      "mp.input, mp.grad_seed or mp.state"
                                    : "has two roles, " + roles[0].str() +
                                          " and " + roles[1].str());
      continue;
    }
    Type type = fn.getArgument(i).getType();
    auto tensor = dyn_cast<RankedTensorType>(type);
    bool isScaleState =
        static_cast<bool>(fn.getArgAttr(i, MPDialect::kLossScaleAttrName));
    if (isScaleState && roles[0] != MPDialect::kStateAttrName)
      argError(i) << "mp.loss_scale marks a state argument; add "
                     "mp.state = <initial scale>";
    if (roles[0] == MPDialect::kParamAttrName) {
      contract.params.push_back(i);
      if (!tensor || !tensor.getElementType().isF32())
        argError(i) << "a parameter must be an f32 tensor (its fp32 master "
                       "copy), not "
                    << type;
    } else if (roles[0] == MPDialect::kInputAttrName) {
      contract.inputs.push_back(i);
    } else if (roles[0] == MPDialect::kStateAttrName) {
      contract.states.push_back(i);
      auto init = cast<TypedAttr>(fn.getArgAttr(i, MPDialect::kStateAttrName));
      if (!tensor || tensor.getElementType() != init.getType())
        argError(i) << "the initial value " << init
                    << " must have the element type of the state, " << type;
      if (isScaleState) {
        if (contract.lossScale)
          argError(i) << "a second mp.loss_scale (the first is argument #"
                      << *contract.lossScale << ")";
        else if (!isScalarF32Tensor(type))
          argError(i) << "the loss scale must be tensor<f32>, not " << type;
        contract.lossScale = i;
      }
    } else if (seed) {
      argError(i) << "a second mp.grad_seed (the first is argument #" << *seed
                  << ")";
    } else {
      seed = i;
      if (!isScalarF32Tensor(type))
        argError(i) << "the gradient seed must be tensor<f32>, not " << type;
    }
  }
  if (!seed) {
    ok = false;
    fn.emitError() << "@" << fn.getName()
                   << " has no mp.grad_seed argument (the tensor<f32> that "
                      "seeds the backward pass)";
  }
  contract.seed = seed.value_or(0);

  std::optional<unsigned> loss;
  for (unsigned i = 0, e = fn.getNumResults(); i < e; ++i) {
    bool isLoss =
        static_cast<bool>(fn.getResultAttr(i, MPDialect::kLossAttrName));
    bool isOutput =
        static_cast<bool>(fn.getResultAttr(i, MPDialect::kOutputAttrName));
    bool isFoundInf =
        static_cast<bool>(fn.getResultAttr(i, MPDialect::kFoundInfAttrName));
    auto gradOf =
        fn.getResultAttrOfType<IntegerAttr>(i, MPDialect::kGradOfAttrName);
    auto updateOf =
        fn.getResultAttrOfType<IntegerAttr>(i, MPDialect::kUpdatesAttrName);
    if (int(isLoss) + int(isOutput) + int(isFoundInf) +
            int(static_cast<bool>(gradOf)) + int(static_cast<bool>(updateOf)) !=
        1) {
      resultError(i) << "needs exactly one role: mp.loss, mp.grad_of = N, "
                        "mp.updates = N, mp.found_inf or mp.output";
      continue;
    }
    Type type = fn.getResultTypes()[i];
    if (isOutput) {
      contract.outputs.push_back(i);
    } else if (isLoss) {
      if (loss)
        resultError(i) << "a second mp.loss (the first is result #" << *loss
                       << ")";
      else if (!isScalarF32Tensor(type))
        resultError(i) << "the loss must be tensor<f32>, not " << type;
      loss = i;
    } else if (isFoundInf) {
      auto flag = dyn_cast<RankedTensorType>(type);
      if (contract.foundInf)
        resultError(i) << "a second mp.found_inf (the first is result #"
                       << *contract.foundInf << ")";
      else if (!flag || flag.getRank() != 0 ||
               !flag.getElementType().isInteger(1))
        resultError(i) << "the overflow flag must be tensor<i1>, not " << type;
      contract.foundInf = i;
    } else {
      bool isGradient = static_cast<bool>(gradOf);
      StringRef what = isGradient ? "gradient" : "update";
      int64_t arg = isGradient ? gradOf.getInt() : updateOf.getInt();
      bool namesArg = arg < static_cast<int64_t>(fn.getNumArguments());
      bool namesParam =
          namesArg && fn.getArgAttr(arg, MPDialect::kParamAttrName);
      bool namesState =
          namesArg && fn.getArgAttr(arg, MPDialect::kStateAttrName);
      if (isGradient ? !namesParam : !(namesParam || namesState)) {
        resultError(i) << (isGradient ? "mp.grad_of = " : "mp.updates = ")
                       << arg
                       << (isGradient
                               ? " does not name an mp.param argument"
                               : " does not name an mp.param or mp.state "
                                 "argument");
        continue;
      }
      auto &pairs = isGradient ? contract.gradients : contract.updates;
      if (std::optional<unsigned> other = findResultOf(pairs, arg)) {
        resultError(i) << "a second " << what << " of argument #" << arg
                       << " (the first is result #" << *other << ")";
        continue;
      }
      Type argType = fn.getArgument(arg).getType();
      if (type != argType)
        resultError(i) << "the " << what << " of argument #" << arg
                       << " must have its type " << argType << ", not " << type;
      pairs.emplace_back(i, arg);
    }
  }
  if (!loss) {
    ok = false;
    fn.emitError() << "@" << fn.getName() << " has no mp.loss result";
  }
  contract.loss = loss.value_or(0);
  for (unsigned state : contract.states)
    if (!contract.getUpdateOf(state))
      argError(state) << "state without an mp.updates result: the runtime "
                         "would never change it";
  for (unsigned param : contract.params)
    if (!contract.getGradientOf(param) && !contract.getUpdateOf(param))
      emitWarning(fn.getArgument(param).getLoc())
          << "argument #" << param << " of @" << fn.getName()
          << " is a parameter without a gradient: training leaves it "
             "unchanged";
  if (!ok)
    return failure();
  return contract;
}

FailureOr<std::vector<GradientFunction>>
mlir::mp::getGradientFunctions(Operation *symbolTableOp) {
  std::vector<GradientFunction> functions;
  bool ok = true;
  for (Operation &op : symbolTableOp->getRegion(0).front()) {
    auto fn = dyn_cast<FunctionOpInterface>(&op);
    if (!fn || fn.isExternal() || !TrainingContract::isGradientFunction(fn))
      continue;
    FailureOr<TrainingContract> contract = TrainingContract::get(fn);
    if (failed(contract)) {
      ok = false;
      continue;
    }
    if (contract->gradients.empty())
      continue;
    auto func = dyn_cast<func::FuncOp>(&op);
    if (!func) {
      fn.emitError() << "gradient functions must be func.func, not '"
                     << op.getName() << "'";
      ok = false;
      continue;
    }
    functions.push_back({func, std::move(*contract)});
  }
  if (!ok)
    return failure();
  return functions;
}
