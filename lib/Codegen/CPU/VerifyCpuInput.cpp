//===- VerifyCpuInput.cpp - mp-verify-cpu-input -----------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Utils/Bufferization.h"

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

/// A buffer type in GPU memory that `op` has (results, its regions' block
/// arguments, types in its attributes: a function's signature, a global's
/// type), or null.
static Type findGpuBuffer(Operation *op) {
  for (Type type : op->getResultTypes())
    if (isGpuBuffer(type))
      return type;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Type type : block.getArgumentTypes())
        if (isGpuBuffer(type))
          return type;
  Type found;
  op->getAttrDictionary().walk([&](Type type) {
    if (!found && isGpuBuffer(type))
      found = type;
  });
  return found;
}

namespace {
struct VerifyCpuInputPass
    : public mp::impl::VerifyCpuInputPassBase<VerifyCpuInputPass> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult result =
        getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
          bool gpuOp = isa_and_present<gpu::GPUDialect, nvgpu::NVGPUDialect,
                                       NVVM::NVVMDialect>(op->getDialect());
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
