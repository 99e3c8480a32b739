//===- VerifyTrainingContract.cpp - mp-verify-training-contract -*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/TrainingContract.h"
#include "mp/Dialect/MP/Transforms/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_VERIFYTRAININGCONTRACTPASS
#include "mp/Dialect/MP/Transforms/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct VerifyTrainingContractPass
    : public mp::impl::VerifyTrainingContractPassBase<
          VerifyTrainingContractPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](FunctionOpInterface fn) {
      if (!fn.isExternal() && TrainingContract::isGradientFunction(fn))
        failedAny |= failed(TrainingContract::verify(fn));
    });
    if (failedAny)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
