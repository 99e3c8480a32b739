//===- EmulateWorkgroupMemory.cpp - Workgroup buffers on the host ---------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"
#include "mp/Utils/Bufferization.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUEMULATEWORKGROUPMEMORYPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct GPUEmulateWorkgroupMemoryPass
    : public mp::impl::GPUEmulateWorkgroupMemoryPassBase<
          GPUEmulateWorkgroupMemoryPass> {
  void runOnOperation() override {
    WalkResult gpuCode = getOperation()->walk([&](Operation *op) {
      // A kernel's workgroup attributions, asynchronous copies, ldmatrix.
      if (!isGpuDialectOp(op) || !findGpuBuffer(op))
        return WalkResult::advance();
      op->emitError() << getArgument() << ": '" << op->getName()
                      << "' needs its buffers in GPU memory, which the "
                         "emulation makes host buffers: run the pass on "
                         "the tiled stage (mp-gpu-tile-contractions), "
                         "before the kernel stage of mp-lower-to-gpu";
      return WalkResult::interrupt();
    });
    if (gpuCode.wasInterrupted())
      return signalPassFailure();
    // The ops on these buffers (alloc, dealloc, views, loads, stores,
    // transfers, calls) constrain the memory space only to agree between
    // operands, results and function types, so re-typing every type and
    // attribute keeps the IR valid.
    AttrTypeReplacer replacer;
    replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
      if (!isGpuBuffer(type))
        return std::nullopt;
      return MemRefType::get(type.getShape(), type.getElementType(),
                             type.getLayout());
    });
    replacer.recursivelyReplaceElementsIn(getOperation(), /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};
} // namespace
