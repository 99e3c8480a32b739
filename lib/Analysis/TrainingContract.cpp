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

/// The roles in `attrs` (an argument's or a result's attributes), but
/// mp.loss_scale, which marks a state rather than giving a role of its own.
static SmallVector<Role, 1> getRoles(ArrayRef<NamedAttribute> attrs) {
  SmallVector<Role, 1> roles;
  for (NamedAttribute attr : attrs)
    if (std::optional<Role> role = getRoleOfAttrName(attr.getName()))
      if (*role != Role::loss_scale)
        roles.push_back(*role);
  llvm::sort(roles);
  return roles;
}

bool TrainingContract::isGradientFunction(FunctionOpInterface fn) {
  auto hasRole = [](ArrayRef<NamedAttribute> attrs) {
    return llvm::any_of(attrs, [](NamedAttribute attr) {
      return getRoleOfAttrName(attr.getName()).has_value();
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

/// "mp.loss, mp.grad_of = N, ... or mp.output": the roles of arguments
/// (`isArgument`) or results, as a user writes them.
static std::string listRoles(bool isArgument) {
  SmallVector<std::string> names;
  for (uint32_t value = 1; value <= getMaxEnumValForRole(); ++value) {
    Role role = *symbolizeRole(value);
    if (isArgumentRole(role) != isArgument || role == Role::loss_scale)
      continue;
    names.push_back(MPDialect::getRoleAttrName(role) +
                    (getRoleValue(role) == RoleValue::ArgIndex ? " = N" : ""));
  }
  std::string text = names.front();
  for (size_t i = 1; i < names.size(); ++i)
    text += (i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

namespace {
/// Reads the roles of a function into a TrainingContract. With `report`,
/// every breach is an error at the offending argument (or at the function,
/// for results) and a parameter without a gradient a warning; without, the
/// reader is silent and only fails.
class ContractReader {
public:
  ContractReader(FunctionOpInterface fn, bool report)
      : fn(fn), report(report) {}

  FailureOr<TrainingContract> read();

private:
  InFlightDiagnostic error(Location loc) {
    ok = false;
    return report ? emitError(loc) : InFlightDiagnostic();
  }
  InFlightDiagnostic argError(unsigned i) {
    return error(fn.getArgument(i).getLoc())
           << "argument #" << i << " of @" << fn.getName() << ": ";
  }
  InFlightDiagnostic resultError(unsigned i) {
    return error(fn.getLoc())
           << "result #" << i << " of @" << fn.getName() << ": ";
  }
  void readArgument(unsigned i);
  void readState(unsigned i);
  void readResult(unsigned i);
  /// An mp.grad_of or mp.updates result `i` naming argument `arg`.
  void readArgumentResult(unsigned i, Role role, int64_t arg);
  void checkCompleteness();

  FunctionOpInterface fn;
  bool report;
  bool ok = true;
  TrainingContract contract;
  std::optional<unsigned> seed, loss;
};
} // namespace

void ContractReader::readArgument(unsigned i) {
  SmallVector<Role, 1> roles = getRoles(fn.getArgAttrs(i));
  if (roles.size() != 1) {
    if (roles.empty())
      argError(i) << "has no role; mark it " << listRoles(/*isArgument=*/true);
    else
      argError(i) << "has two roles, " << MPDialect::getRoleAttrName(roles[0])
                  << " and " << MPDialect::getRoleAttrName(roles[1]);
    return;
  }
  Type type = fn.getArgument(i).getType();
  if (roles[0] != Role::state &&
      fn.getArgAttr(i, MPDialect::getRoleAttrName(Role::loss_scale)))
    argError(i) << "mp.loss_scale marks a state argument; add "
                   "mp.state = <initial scale>";
  switch (roles[0]) {
  case Role::param: {
    contract.params.push_back(i);
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.getElementType().isF32())
      argError(i) << "a parameter must be an f32 tensor (its fp32 master "
                     "copy), not "
                  << type;
    return;
  }
  case Role::input:
    contract.inputs.push_back(i);
    return;
  case Role::state:
    readState(i);
    return;
  case Role::grad_seed:
    if (seed) {
      argError(i) << "a second mp.grad_seed (the first is argument #" << *seed
                  << ")";
      return;
    }
    seed = i;
    if (!isScalarF32Tensor(type))
      argError(i) << "the gradient seed must be tensor<f32>, not " << type;
    return;
  default:
    llvm_unreachable("the dialect verifier admits argument roles only");
  }
}

void ContractReader::readState(unsigned i) {
  contract.states.push_back(i);
  Type type = fn.getArgument(i).getType();
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto init = cast<TypedAttr>(
      fn.getArgAttr(i, MPDialect::getRoleAttrName(Role::state)));
  if (!tensor || tensor.getElementType() != init.getType())
    argError(i) << "the initial value " << init
                << " must have the element type of the state, " << type;
  if (!fn.getArgAttr(i, MPDialect::getRoleAttrName(Role::loss_scale)))
    return;
  if (contract.lossScale)
    argError(i) << "a second mp.loss_scale (the first is argument #"
                << *contract.lossScale << ")";
  else if (!isScalarF32Tensor(type))
    argError(i) << "the loss scale must be tensor<f32>, not " << type;
  contract.lossScale = i;
}

void ContractReader::readResult(unsigned i) {
  SmallVector<Role, 1> roles = getRoles(fn.getResultAttrs(i));
  if (roles.size() != 1) {
    resultError(i) << "needs exactly one role: "
                   << listRoles(/*isArgument=*/false);
    return;
  }
  Type type = fn.getResultTypes()[i];
  switch (roles[0]) {
  case Role::output:
    contract.outputs.push_back(i);
    return;
  case Role::loss:
    if (loss)
      resultError(i) << "a second mp.loss (the first is result #" << *loss
                     << ")";
    else if (!isScalarF32Tensor(type))
      resultError(i) << "the loss must be tensor<f32>, not " << type;
    loss = i;
    return;
  case Role::found_inf: {
    auto flag = dyn_cast<RankedTensorType>(type);
    if (contract.foundInf)
      resultError(i) << "a second mp.found_inf (the first is result #"
                     << *contract.foundInf << ")";
    else if (!flag || flag.getRank() != 0 ||
             !flag.getElementType().isInteger(1))
      resultError(i) << "the overflow flag must be tensor<i1>, not " << type;
    contract.foundInf = i;
    return;
  }
  case Role::grad_of:
  case Role::updates:
    readArgumentResult(i, roles[0],
                       fn.getResultAttrOfType<IntegerAttr>(
                             i, MPDialect::getRoleAttrName(roles[0]))
                           .getInt());
    return;
  default:
    llvm_unreachable("the dialect verifier admits result roles only");
  }
}

void ContractReader::readArgumentResult(unsigned i, Role role, int64_t arg) {
  bool isGradient = role == Role::grad_of;
  bool namesArg = arg < static_cast<int64_t>(fn.getNumArguments());
  SmallVector<Role, 1> argRoles;
  if (namesArg)
    argRoles = getRoles(fn.getArgAttrs(arg));
  bool namesParam = llvm::is_contained(argRoles, Role::param);
  bool namesState = llvm::is_contained(argRoles, Role::state);
  if (isGradient ? !namesParam : !(namesParam || namesState)) {
    resultError(i) << MPDialect::getRoleAttrName(role) << " = " << arg
                   << (isGradient ? " does not name an mp.param argument"
                                  : " does not name an mp.param or mp.state "
                                    "argument");
    return;
  }
  StringRef what = isGradient ? "gradient" : "update";
  auto &pairs = isGradient ? contract.gradients : contract.updates;
  if (std::optional<unsigned> other = findResultOf(pairs, arg)) {
    resultError(i) << "a second " << what << " of argument #" << arg
                   << " (the first is result #" << *other << ")";
    return;
  }
  Type type = fn.getResultTypes()[i];
  Type argType = fn.getArgument(arg).getType();
  if (type != argType)
    resultError(i) << "the " << what << " of argument #" << arg
                   << " must have its type " << argType << ", not " << type;
  pairs.emplace_back(i, arg);
}

void ContractReader::checkCompleteness() {
  if (!seed)
    error(fn.getLoc()) << "@" << fn.getName()
                       << " has no mp.grad_seed argument (the tensor<f32> "
                          "that seeds the backward pass)";
  if (!loss)
    error(fn.getLoc()) << "@" << fn.getName() << " has no mp.loss result";
  for (unsigned state : contract.states)
    if (!contract.getUpdateOf(state))
      argError(state) << "state without an mp.updates result: the runtime "
                         "would never change it";
  if (!report)
    return;
  for (unsigned param : contract.params)
    if (!contract.getGradientOf(param) && !contract.getUpdateOf(param))
      emitWarning(fn.getArgument(param).getLoc())
          << "argument #" << param << " of @" << fn.getName()
          << " is a parameter without a gradient: training leaves it "
             "unchanged";
}

FailureOr<TrainingContract> ContractReader::read() {
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
    readArgument(i);
  for (unsigned i = 0, e = fn.getNumResults(); i < e; ++i)
    readResult(i);
  checkCompleteness();
  if (!ok)
    return failure();
  contract.seed = *seed;
  contract.loss = *loss;
  return contract;
}

FailureOr<TrainingContract> TrainingContract::parse(FunctionOpInterface fn) {
  return ContractReader(fn, /*report=*/false).read();
}

LogicalResult TrainingContract::verify(FunctionOpInterface fn) {
  return ContractReader(fn, /*report=*/true).read();
}

FailureOr<std::vector<GradientFunction>>
mlir::mp::getGradientFunctions(Operation *symbolTableOp) {
  std::vector<GradientFunction> functions;
  bool ok = true;
  for (Operation &op : symbolTableOp->getRegion(0).front()) {
    auto fn = dyn_cast<FunctionOpInterface>(&op);
    if (!fn || fn.isExternal() || !TrainingContract::isGradientFunction(fn))
      continue;
    FailureOr<TrainingContract> contract = TrainingContract::parse(fn);
    if (failed(contract)) {
      // Says why (mp-verify-training-contract, first in the pipelines, has
      // stopped them before here).
      (void)TrainingContract::verify(fn);
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
