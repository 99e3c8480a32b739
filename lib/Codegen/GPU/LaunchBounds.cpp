//===- LaunchBounds.cpp - One block per multiprocessor for small grids ----===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// ptxas sizes a kernel's registers so that several of its blocks fit on a
// multiprocessor; in small blocks (2 or 4 warps) of a GEMM that holds many
// accumulators it then caps them below what the kernel needs and spills. A
// kernel whose grid has fewer blocks than the chips have multiprocessors
// runs at most one block on each, so `.minnctapersm 1` (nvvm.minctasm)
// loses nothing there and lets ptxas keep every value in a register.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPULAUNCHBOUNDSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct GPULaunchBoundsPass
    : public mp::impl::GPULaunchBoundsPassBase<GPULaunchBoundsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxBlocks < 0) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-launch-bounds: max-blocks=" << int64_t(maxBlocks)
          << " is invalid: expected 0 or more";
      return signalPassFailure();
    }
    Builder b(&getContext());
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      std::optional<ArrayRef<int32_t>> grid = func.getKnownGridSize();
      if (!func.isKernel() || !grid)
        return;
      int64_t blocks = 1;
      for (int32_t size : *grid)
        blocks *= size;
      if (blocks > maxBlocks)
        return;
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    b.getI32IntegerAttr(1));
      ++numBounded;
    });
  }
};
} // namespace
