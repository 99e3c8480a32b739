//===- GpuCompiler.cpp - Compile graphs for NVIDIA GPUs ---------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Compiler/GpuCompiler.h"
#include "mp/Codegen/GPU/PtxFiles.h"
#include "mp/Compiler/CpuCompiler.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::mp;

/// Checks `options` and registers what gpu-module-to-binary and the
/// translation of gpu.binary ops need.
static LogicalResult prepare(ModuleOp module,
                             const GpuPipelineOptions &options) {
  if (failed(verifyGpuPipelineOptions(options, [&](const Twine &message) {
        return module.emitError(message);
      })))
    return failure();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  module.getContext()->appendDialectRegistry(registry);
  return success();
}

/// What the lowered `module` holds; the PTX files that mp-gpu-fatbin kept
/// in `ptxDir` if it is not empty.
static GpuCompilation collect(ModuleOp module, StringRef ptxDir) {
  GpuCompilation result;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    result.modules.push_back(binary.getSymName().str());
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      if (!target)
        continue;
      // A fatbin of mp-gpu-fatbin holds SASS for several chips.
      SmallVector<std::string> chips{target.getChip().str()};
      if (DictionaryAttr properties = object.getProperties())
        if (auto sass = properties.getAs<ArrayAttr>("mp.sass"))
          chips = llvm::map_to_vector(sass.getAsValueRange<StringAttr>(),
                                      [](StringRef c) { return c.str(); });
      for (const std::string &c : chips) {
        if (!llvm::is_contained(result.chips, c))
          result.chips.push_back(c);
        if (!ptxDir.empty())
          result.ptxFiles.push_back(
              getPtxFilePath(ptxDir, binary.getSymName(), c));
      }
    }
  }
  return result;
}

FailureOr<GpuCompilation>
mlir::mp::compileGpuToSharedObject(ModuleOp module, StringRef outputPath,
                                   const GpuPipelineOptions &options,
                                   unsigned optLevel, StringRef targetCpu) {
  if (failed(prepare(module, options)))
    return failure();
  if (failed(compileToSharedObject(
          module, outputPath, optLevel,
          [&](OpPassManager &pm) {
            pm.addNestedPass<func::FuncOp>(
                LLVM::createLLVMRequestCWrappersPass());
            buildLowerToGpuPipeline(pm, options);
          },
          "cuda", targetCpu)))
    return failure();
  return collect(module, "");
}

FailureOr<GpuCompilation>
mlir::mp::compileForGpu(ModuleOp module, const GpuPipelineOptions &options,
                        StringRef ptxDir) {
  if (failed(prepare(module, options)))
    return failure();

  GpuPipelineOptions lowering;
  lowering.copyOptionValuesFrom(options);
  if (!ptxDir.empty()) {
    // Before compiling, which takes a while.
    if (std::error_code ec = llvm::sys::fs::create_directories(ptxDir))
      return module.emitError()
             << "cannot create '" << ptxDir << "': " << ec.message();
    lowering.format = GpuBinaryFormat::fatbin;
    lowering.ptxDir = ptxDir.str();
  }
  PassManager pm(module.getContext());
  buildLowerToGpuPipeline(pm, lowering);
  if (failed(pm.run(module)))
    return failure();

  return collect(module, ptxDir);
}
