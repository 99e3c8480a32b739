//===- EmulateWorkgroupMemory.cpp - Workgroup buffers on the host ---------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUEMULATEWORKGROUPMEMORYPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// `type` without its GPU address space if it is a buffer in one.
static Type getHostType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref ||
      !isa_and_nonnull<gpu::AddressSpaceAttr>(memref.getMemorySpace()))
    return type;
  return MemRefType::get(memref.getShape(), memref.getElementType(),
                         memref.getLayout());
}

namespace {
struct GPUEmulateWorkgroupMemoryPass
    : public mp::impl::GPUEmulateWorkgroupMemoryPassBase<
          GPUEmulateWorkgroupMemoryPass> {
  void runOnOperation() override {
    // The ops on these buffers (alloc, dealloc, views, loads, stores,
    // transfers) constrain the memory space only to agree between operands
    // and results, so re-typing every value keeps the IR valid.
    getOperation()->walk([](Operation *op) {
      for (Value result : op->getResults())
        result.setType(getHostType(result.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(getHostType(arg.getType()));
    });
  }
};
} // namespace
