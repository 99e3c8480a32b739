//===- AlignWorkgroupBuffers.cpp - Aligned workgroup attributions ---------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Kernel outlining gives a gpu.func's workgroup attributions no alignment,
// and the NVVM lowering then aligns each shared-memory array to its element
// type only; the staged GEMM panels are written with 16-byte stores and read
// with ldmatrix, whose row addresses must be 16-byte aligned. Kernels that
// run wgmma align them to its swizzle patterns (1024 bytes).
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "Wgmma.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUALIGNWORKGROUPBUFFERSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct GPUAlignWorkgroupBuffersPass
    : public mp::impl::GPUAlignWorkgroupBuffersPassBase<
          GPUAlignWorkgroupBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-align-workgroup-buffers: alignment="
          << static_cast<int64_t>(alignment)
          << " is invalid: expected a power of two";
      return signalPassFailure();
    }
    StringRef name = LLVM::LLVMDialect::getAlignAttrName();
    Builder b(&getContext());
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      // wgmma's descriptors take the panels' swizzle patterns to start at
      // their boundaries.
      int64_t least = alignment;
      if (func.walk(
                  [](NVVM::WgmmaMmaAsyncOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        least = std::max<int64_t>(least, kWgmmaPanelAlignment);
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e; ++i) {
        auto current = dyn_cast_or_null<IntegerAttr>(
            func.getWorkgroupAttributionAttr(i, name));
        if (current && current.getInt() >= least)
          continue;
        func.setWorkgroupAttributionAttr(i, name, b.getI64IntegerAttr(least));
        ++numAligned;
      }
    });
  }
};
} // namespace
