//===- VerifyCpuInput.cpp - mp-verify-cpu-input -----------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
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
        getOperation()->walk<WalkOrder::PreOrder>(
            [&](Operation *op) {
              if (!isa_and_present<gpu::GPUDialect, nvgpu::NVGPUDialect,
                                   NVVM::NVVMDialect>(op->getDialect()))
                return WalkResult::advance();
              op->emitError()
                  << pipeline << ": '" << op->getName()
                  << "' is GPU code, which " << pipeline
                  << " does not take: it compiles linalg on tensors (the "
                     "output of mp-amp-pipeline or mp-train-pipeline); "
                     "mp-lower-to-gpu makes GPU code from that, and "
                     "mp-lower-to-gpu-emulation runs its tiled stage on the "
                     "CPU";
              return WalkResult::interrupt();
            });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
