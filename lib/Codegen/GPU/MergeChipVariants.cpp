//===- MergeChipVariants.cpp - A variant's binary into its module's -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// mp-gpu-wgmma-variants compiles a module's kernels for sm_90a from a copy
// of the module. Once gpu-module-to-binary has made both binaries, the
// copy's objects join the module's: the host launches the module's kernels,
// and the runtime (through mp-gpu-fatbin's fatbin) picks the object of the
// device's chip.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUMERGECHIPVARIANTSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct GPUMergeChipVariantsPass
    : public mp::impl::GPUMergeChipVariantsPassBase<GPUMergeChipVariantsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MPDialect::GpuChipVariantsAttrHelper helper(&getContext());
    DictionaryAttr variants = helper.getAttr(module);
    if (!variants)
      return;
    SymbolTable symbols(module);
    auto binaryOf = [&](StringRef name) -> gpu::BinaryOp {
      gpu::BinaryOp binary = symbols.lookup<gpu::BinaryOp>(name);
      if (!binary)
        module.emitError() << "mp-gpu-merge-chip-variants: no gpu.binary @"
                           << name << " (run gpu-module-to-binary first)";
      return binary;
    };
    for (NamedAttribute entry : variants) {
      // The dialect's verifier checked the entries.
      auto target = cast<FlatSymbolRefAttr>(entry.getValue());
      gpu::BinaryOp variant = binaryOf(entry.getName().getValue());
      gpu::BinaryOp binary = binaryOf(target.getValue());
      if (!variant || !binary)
        return signalPassFailure();
      SmallVector<Attribute> objects(binary.getObjects().getValue());
      llvm::append_range(objects, variant.getObjects().getValue());
      binary.setObjectsAttr(ArrayAttr::get(&getContext(), objects));
      symbols.erase(variant);
    }
    helper.removeAttr(module);
  }
};
} // namespace
