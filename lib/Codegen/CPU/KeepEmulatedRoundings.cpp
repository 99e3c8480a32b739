//===- KeepEmulatedRoundings.cpp - f16/bf16 ops rounded one by one --------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Drops `contract` from the f16/bf16 extensions and truncations that
// arith-emulate-unsupported-floats puts around each op it computes in f32,
// so that no fold skips the rounding of an intermediate result.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_KEEPEMULATEDROUNDINGSPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Whether `type` (a scalar or a vector's elements) is f16 or bf16.
static bool isLowPrecision(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

/// `flags` without `contract`, or null if none is left.
static arith::FastMathFlagsAttr
withoutContract(arith::FastMathFlagsAttr flags) {
  arith::FastMathFlags left =
      flags.getValue() & ~arith::FastMathFlags::contract;
  return left == arith::FastMathFlags::none
             ? nullptr
             : arith::FastMathFlagsAttr::get(flags.getContext(), left);
}

namespace {
struct KeepEmulatedRoundingsPass
    : public mp::impl::KeepEmulatedRoundingsPassBase<
          KeepEmulatedRoundingsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto ext = dyn_cast<arith::ExtFOp>(op)) {
        if (ext.getFastmathAttr() && isLowPrecision(ext.getIn().getType()))
          ext.setFastmathAttr(withoutContract(ext.getFastmathAttr()));
      } else if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
        if (trunc.getFastmathAttr() && isLowPrecision(trunc.getType()))
          trunc.setFastmathAttr(withoutContract(trunc.getFastmathAttr()));
      }
    });
  }
};
} // namespace
