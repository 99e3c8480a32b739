//===- TestAmpInvariants.cpp - Check what mp-amp-pipeline promises -*- C++ -*-//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// mp-test-amp-invariants emits an error at every op of a rewritten graph that
// breaks a guarantee of mp-amp-pipeline (see docs/Passes.md):
//   * contractions and convolutions take low-precision inputs and accumulate
//     in f32;
//   * ops of the deny list and additive reductions compute in f32;
//   * no value is cast twice to one type, no truncf(extf(x)) round trip;
//   * casts convert between f32 and f16/bf16 only.
// Ops carrying mp.override are exempt. Used by the random-graph tests.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/Policy.h"
#include "mp/Analysis/PrecisionAnalysis.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::mp;

namespace {
struct TestAmpInvariantsPass
    : public PassWrapper<TestAmpInvariantsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAmpInvariantsPass)

  StringRef getArgument() const final { return "mp-test-amp-invariants"; }
  StringRef getDescription() const final {
    return "Check the guarantees of mp-amp-pipeline on a rewritten graph";
  }
  void runOnOperation() override;
};
} // namespace

static bool isLowFloat(Type type) {
  Type elem = getElementTypeOrSelf(type);
  return elem.isF16() || elem.isBF16();
}

static bool isFloatValue(Value value) {
  return isa<FloatType>(getElementTypeOrSelf(value.getType()));
}

void TestAmpInvariantsPass::runOnOperation() {
  Policy policy = *Policy::getBuiltin("fp16");
  bool failedCheck = false;
  auto fail = [&](Operation *op, const Twine &message) {
    op->emitError() << "amp invariant broken: " << message;
    failedCheck = true;
  };
  llvm::DenseSet<std::pair<Value, Type>> casts;
  getOperation().walk([&](Operation *op) {
    if (getOverride(op))
      return;
    if (isa<arith::TruncFOp, arith::ExtFOp>(op)) {
      Value in = op->getOperand(0);
      Type out = op->getResult(0).getType();
      if (!casts.insert({in, out}).second)
        fail(op, "a value is cast twice to the same type");
      if (auto ext = in.getDefiningOp<arith::ExtFOp>();
          ext && isa<arith::TruncFOp>(op) && ext.getIn().getType() == out)
        fail(op, "truncf(extf(x)) round trip");
      bool lowToF32 =
          isLowFloat(in.getType()) && getElementTypeOrSelf(out).isF32();
      bool f32ToLow =
          getElementTypeOrSelf(in.getType()).isF32() && isLowFloat(out);
      if (!lowToF32 && !f32ToLow)
        fail(op, "cast is not between f32 and f16/bf16");
      return;
    }
    std::optional<PrecisionClass> cls =
        policy.lookup(op->getName().getStringRef());
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      // Poolings have the convolutions' interface; the policy lists them
      // (max and min pooling clear, sum pooling deny).
      bool listedOther =
          cls == PrecisionClass::clear || cls == PrecisionClass::deny;
      bool isContraction =
          !listedOther && (linalg::isaContractionOpInterface(linalgOp) ||
                           linalg::isaConvolutionOpInterface(linalgOp));
      if (isContraction && llvm::all_of(op->getOperands(), isFloatValue)) {
        for (Value in : linalgOp.getDpsInputs())
          if (!isLowFloat(in.getType()))
            fail(op, "contraction input is not f16/bf16");
        for (Value init : linalgOp.getDpsInits())
          if (!getElementTypeOrSelf(init.getType()).isF32())
            fail(op, "contraction does not accumulate in f32");
        return;
      }
      if (!isContraction && isArithmeticAccumulation(op))
        for (Value v : op->getOperands())
          if (isLowFloat(v.getType()))
            fail(op, "additive reduction is not f32");
    }
    if (cls == PrecisionClass::deny) {
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes()))
        if (isLowFloat(t))
          fail(op, "deny-list op is not f32");
    }
  });
  if (failedCheck)
    signalPassFailure();
}

namespace mlir {
namespace mp {
void registerTestAmpInvariantsPass() {
  PassRegistration<TestAmpInvariantsPass>();
}
} // namespace mp
} // namespace mlir
