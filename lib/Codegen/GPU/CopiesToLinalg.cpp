//===- CopiesToLinalg.cpp - Buffer copies as kernels ----------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"
#include "mp/Utils/Bufferization.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUCOPIESTOLINALGPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Whether `value` is (a view of) a host global, which kernels cannot read.
static bool isHostGlobal(Value value) {
  return getRootBuffer(value).getDefiningOp<memref::GetGlobalOp>() != nullptr;
}

namespace {
struct GPUCopiesToLinalgPass
    : public mp::impl::GPUCopiesToLinalgPassBase<GPUCopiesToLinalgPass> {
  void runOnOperation() override {
    // Copies on the host; a kernel's own copies stay, and so do copies out
    // of host globals (the host moves constants into buffers that kernels
    // can read).
    numCopies += copiesToLinalg(getOperation(), [](memref::CopyOp copy) {
      return !copy->getParentOfType<gpu::LaunchOp>() &&
             !isHostGlobal(copy.getSource());
    });
  }
};
} // namespace
