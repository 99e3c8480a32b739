//===- VerifyCpuInput.cpp - mp-verify-cpu-input -----------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Utils/Bufferization.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_VERIFYCPUINPUTPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct VerifyCpuInputPass
    : public mp::impl::VerifyCpuInputPassBase<VerifyCpuInputPass> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult result =
        getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
          bool gpuOp = isGpuDialectOp(op);
          Type buffer = gpuOp ? Type() : findGpuBuffer(op);
          if (!gpuOp && !buffer)
            return WalkResult::advance();
          InFlightDiagnostic diag = op->emitError()
                                    << pipeline << ": '" << op->getName();
          if (buffer)
            diag << "' has a buffer in GPU memory (" << buffer
                 << "), that is GPU code";
          else
            diag << "' is GPU code";
          diag << ", which " << pipeline
               << " does not take: it compiles linalg on tensors (the "
                  "output of mp-amp-pipeline or mp-train-pipeline); "
                  "mp-lower-to-gpu makes GPU code from that, and "
                  "mp-lower-to-gpu-emulation runs its tiled stage on the CPU";
          return WalkResult::interrupt();
        });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
