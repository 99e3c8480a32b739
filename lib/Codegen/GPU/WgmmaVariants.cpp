//===- WgmmaVariants.cpp - sm_90a variants of GEMM kernels on wgmma -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// gpu-module-to-binary compiles one gpu.module for all its targets, but
// wgmma exists on sm_90a only: a module with wgmma cannot be compiled for
// sm_80 (and NVVM's verifier rejects it). So the module keeps mma.sync for
// its other chips, and a copy for sm_90a alone gets wgmma; the kernels keep
// their names, and mp-gpu-merge-chip-variants later makes the copy's binary
// the module's sm_90a object.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "Wgmma.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUWGMMAVARIANTSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Whether `target` is NVVM's target for the chip with wgmma.
static bool isWgmmaTarget(Attribute target) {
  auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target);
  return nvvm && nvvm.getChip() == kWgmmaChip;
}

namespace {
struct GPUWgmmaVariantsPass
    : public mp::impl::GPUWgmmaVariantsPassBase<GPUWgmmaVariantsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    MPDialect::GpuChipVariantsAttrHelper helper(&getContext());
    NamedAttrList variants;
    if (DictionaryAttr old = helper.getAttr(module))
      variants.append(old.getValue());
    for (auto gpuModule : llvm::to_vector(module.getOps<gpu::GPUModuleOp>())) {
      ArrayAttr targets = gpuModule.getTargetsAttr();
      if (!targets || llvm::none_of(targets, isWgmmaTarget))
        continue;
      bool alone = targets.size() == 1;
      gpu::GPUModuleOp variant = gpuModule;
      if (!alone) {
        rewriter.setInsertionPointAfter(gpuModule);
        variant = cast<gpu::GPUModuleOp>(rewriter.clone(*gpuModule));
      }
      int64_t converted = 0;
      variant.walk([&](gpu::GPUFuncOp func) {
        if (func.isKernel())
          converted += convertChainsToWgmma(rewriter, func, inFlight);
      });
      numWgmma += converted;
      if (alone || !converted) {
        if (!alone)
          rewriter.eraseOp(variant);
        continue;
      }
      ++numVariants;
      SmallVector<Attribute> others, wgmmaTargets;
      for (Attribute target : targets)
        (isWgmmaTarget(target) ? wgmmaTargets : others).push_back(target);
      gpuModule.setTargetsAttr(rewriter.getArrayAttr(others));
      variant.setTargetsAttr(rewriter.getArrayAttr(wgmmaTargets));
      variant.setSymName((gpuModule.getSymName() + "_" + kWgmmaChip).str());
      symbols.insert(variant); // renamed if the name is taken
      variants.set(variant.getSymName(),
                   FlatSymbolRefAttr::get(gpuModule.getSymNameAttr()));
    }
    if (!variants.empty())
      helper.setAttr(module, variants.getDictionary(&getContext()));
  }
};
} // namespace
