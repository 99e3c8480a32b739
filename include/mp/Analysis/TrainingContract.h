//===- TrainingContract.h - Roles of a gradient function --------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// A gradient function (docs/Design.md, docs/Training.md) marks its
// arguments mp.param / mp.input / mp.grad_seed and its results mp.loss /
// mp.grad_of = N / mp.output. Loss scaling and training steps add state
// arguments (mp.state = initial value, optionally mp.loss_scale) with results
// mp.updates = N, and an mp.found_inf result. This reads and checks roles.
//
//===----------------------------------------------------------------------===//

#ifndef MP_ANALYSIS_TRAININGCONTRACT_H
#define MP_ANALYSIS_TRAININGCONTRACT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace mlir {
namespace mp {

struct TrainingContract {
  /// Argument indices.
  SmallVector<unsigned> params, inputs, states;
  unsigned seed = 0;
  std::optional<unsigned> lossScale;
  /// Result indices.
  unsigned loss = 0;
  SmallVector<unsigned> outputs;
  /// (result index, parameter argument index).
  SmallVector<std::pair<unsigned, unsigned>> gradients;
  /// (result index, argument index) of each mp.updates result.
  SmallVector<std::pair<unsigned, unsigned>> updates;
  std::optional<unsigned> foundInf;

  /// The gradient result of parameter argument `param`, if any.
  std::optional<unsigned> getGradientOf(unsigned param) const;
  /// The result that updates argument `arg`, if any.
  std::optional<unsigned> getUpdateOf(unsigned arg) const;

  /// True if `fn` uses any training-contract attribute.
  static bool isGradientFunction(FunctionOpInterface fn);

  /// Reads the roles of `fn`; fails, silently, on any breach of the
  /// contract (`verify` says what is wrong).
  static FailureOr<TrainingContract> parse(FunctionOpInterface fn);
  /// Reports every breach of the contract as an error at the offending
  /// argument (or at the function, for results), and each parameter without
  /// a gradient as a warning.
  static LogicalResult verify(FunctionOpInterface fn);
};

/// A defined func.func with gradient results (mp.grad_of) and its contract.
struct GradientFunction {
  func::FuncOp fn;
  TrainingContract contract;
};

/// The gradient functions directly inside `symbolTableOp` (e.g. a module)
/// and their contracts; fails on any breach (reported by
/// TrainingContract::verify), and on gradient functions that are not
/// func.func (training steps call them).
FailureOr<std::vector<GradientFunction>>
getGradientFunctions(Operation *symbolTableOp);

} // namespace mp
} // namespace mlir

#endif // MP_ANALYSIS_TRAININGCONTRACT_H
