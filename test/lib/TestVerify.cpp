//===- TestVerify.cpp - Verify the IR and say so on failure ------*- C++
//-*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// mp-test-verify runs the verifier on the IR it is given and, if the IR does
// not verify, emits an error that says so after the verifier's own. Run after
// another pass with --verify-each=false, it tells IR that the pass made
// invalid apart from an input that the pass refused with a diagnostic (which
// stops the pipeline before this pass): test/Integration/verify-each.test's
// check in one process.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestVerifyPass : public PassWrapper<TestVerifyPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestVerifyPass)

  StringRef getArgument() const final { return "mp-test-verify"; }
  StringRef getDescription() const final {
    return "Verify the IR; on failure, add an error that names this check";
  }
  void runOnOperation() override {
    if (succeeded(verify(getOperation())))
      return;
    getOperation()->emitError("mp-test-verify: the IR does not verify");
    signalPassFailure();
  }
};
} // namespace

namespace mlir {
namespace mp {
void registerTestVerifyPass() { PassRegistration<TestVerifyPass>(); }
} // namespace mp
} // namespace mlir
