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

std::optional<unsigned> TrainingContract::getGradientOf(unsigned param) const {
  for (auto [result, arg] : gradients)
    if (arg == param)
      return result;
  return std::nullopt;
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
    for (StringRef role : {MPDialect::kParamAttrName, MPDialect::kInputAttrName,
                           MPDialect::kGradSeedAttrName})
      if (fn.getArgAttr(i, role))
        roles.push_back(role);
    if (roles.size() != 1) {
      argError(i) << (roles.empty() ? "has no role; mark it mp.param, "
                                      "mp.input or mp.grad_seed"
                                    : "has two roles, " + roles[0].str() +
                                          " and " + roles[1].str());
      continue;
    }
    Type type = fn.getArgument(i).getType();
    if (roles[0] == MPDialect::kParamAttrName) {
      contract.params.push_back(i);
      if (!isa<RankedTensorType>(type) ||
          !cast<RankedTensorType>(type).getElementType().isF32())
        argError(i) << "a parameter must be an f32 tensor (its fp32 master "
                       "copy), not "
                    << type;
    } else if (roles[0] == MPDialect::kInputAttrName) {
      contract.inputs.push_back(i);
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
    auto gradOf =
        fn.getResultAttrOfType<IntegerAttr>(i, MPDialect::kGradOfAttrName);
    if (int(isLoss) + int(isOutput) + int(static_cast<bool>(gradOf)) != 1) {
      resultError(i) << "needs exactly one role: mp.loss, mp.grad_of = N or "
                        "mp.output";
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
    } else {
      int64_t param = gradOf.getInt();
      if (param >= static_cast<int64_t>(fn.getNumArguments()) ||
          !fn.getArgAttr(param, MPDialect::kParamAttrName)) {
        resultError(i) << "mp.grad_of = " << param
                       << " does not name an mp.param argument";
        continue;
      }
      if (std::optional<unsigned> other = contract.getGradientOf(param)) {
        resultError(i) << "a second gradient of argument #" << param
                       << " (the first is result #" << *other << ")";
        continue;
      }
      Type paramType = fn.getArgument(param).getType();
      if (type != paramType)
        resultError(i) << "the gradient of argument #" << param
                       << " must have its type " << paramType << ", not "
                       << type;
      contract.gradients.emplace_back(i, param);
    }
  }
  if (!loss) {
    ok = false;
    fn.emitError() << "@" << fn.getName() << " has no mp.loss result";
  }
  contract.loss = loss.value_or(0);
  for (unsigned param : contract.params)
    if (!contract.getGradientOf(param))
      emitWarning(fn.getArgument(param).getLoc())
          << "argument #" << param << " of @" << fn.getName()
          << " is a parameter without a gradient: training leaves it "
             "unchanged";
  if (!ok)
    return failure();
  return contract;
}
