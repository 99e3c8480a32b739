//===- Graph.cpp - Loading, trimming and compiling graphs for mp-run ------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Graph.h"
#include "Errors.h"
#include "mp/Codegen/CPU/Passes.h"
#include "mp/Codegen/GPU/Passes.h"
#include "mp/Compiler/CpuCompiler.h"
#include "mp/Compiler/GpuCompiler.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <chrono>

using namespace mlir;
using namespace mp_run;

llvm::Expected<OwningOpRef<ModuleOp>> mp_run::loadGraph(const std::string &file,
                                                        MLIRContext &context) {
  if (!llvm::sys::fs::exists(file))
    return error("cannot read '" + file + "': no such file");
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(file, &context);
  if (!module)
    return reported();
  return std::move(module);
}

llvm::Error mp_run::keepOnly(ModuleOp module, func::FuncOp fn, StringRef file) {
  for (auto f : module.getOps<func::FuncOp>())
    if (f != fn)
      f.setPrivate();
  PassManager dce(module.getContext());
  dce.addPass(createSymbolDCEPass());
  if (failed(dce.run(module)))
    return reported();
  for (auto f : module.getOps<func::FuncOp>())
    if (f.isExternal())
      return error("'" + fn.getName() + "' calls '" + f.getName() +
                   "', which is only declared in " + file +
                   "; mp-run runs self-contained graphs");
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<TempDir>> TempDir::create() {
  auto dir = std::make_unique<TempDir>();
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("mp-run", dir->path))
    return error("cannot create a temporary directory: " + ec.message());
  return std::move(dir);
}

TempDir::~TempDir() { llvm::sys::fs::remove_directories(path); }

std::string TempDir::file(StringRef name) const {
  return (path + "/" + name).str();
}

/// Seconds since `start`.
static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

void mp_run::setGpuOptions(const CompileOptions &options,
                           mp::GpuPipelineOptions &gpu) {
  gpu.gemm = options.gpuGemm;
  gpu.stages = options.gpuStages;
  gpu.tileK = options.gpuTileK;
  gpu.splitK = options.gpuSplitK;
  gpu.warpMinExtent = options.gpuWarpMinExtent;
  gpu.wgmma = options.gpuWgmma;
  if (!options.gpuChips.empty())
    gpu.chips = ArrayRef<std::string>(options.gpuChips);
  gpu.tileM = options.gpuTile[0];
  gpu.tileN = options.gpuTile[1];
  gpu.warpM = options.gpuTile[2];
  gpu.warpN = options.gpuTile[3];
  if (options.gpuTileGiven)
    gpu.wgmmaLargeMinBlocks = 0;
  gpu.simtBlock = options.gpuF32Tile[0];
  gpu.simtThread = options.gpuF32Tile[1];
  gpu.kernelReport = options.kernelReport;
  gpu.kernelDot = options.kernelDot;
}

/// Compiles `module` (lowered in place) into the shared object `soPath` as
/// `options` say, without loading it.
static llvm::Error compileToFile(ModuleOp module, const std::string &soPath,
                                 const CompileOptions &options) {
  LogicalResult compiled = failure();
  Backend backend = options.backend;
  if (backend == Backend::cpu) {
    mp::CpuPipelineOptions cpu;
    cpu.optLevel = options.optLevel;
    cpu.bf16Dot = options.bf16Dot;
    compiled =
        mp::compileToSharedObject(module, soPath, cpu, options.targetCpu);
  } else if (backend == Backend::cuda) {
    mp::GpuPipelineOptions gpu;
    setGpuOptions(options, gpu);
    compiled = mp::compileGpuToSharedObject(
        module, soPath, gpu, options.optLevel, options.targetCpu);
  } else {
    compiled = mp::compileToSharedObject(
        module, soPath, options.optLevel,
        [&](OpPassManager &pm) {
          mp::GpuPipelineOptions gpu;
          setGpuOptions(options, gpu);
          mp::buildLowerToGpuEmulationPipeline(pm, gpu);
        },
        "cpu", options.targetCpu);
  }
  return failed(compiled) ? reported() : llvm::Error::success();
}

llvm::Expected<std::unique_ptr<CompiledModule>>
CompiledModule::compile(ModuleOp module, const std::string &soPath,
                        const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error = compileToFile(module, soPath, options))
    return std::move(error);
  auto result = std::make_unique<CompiledModule>();
  result->compileSeconds = secondsSince(start);
  if (mp_module_load(soPath.c_str(),
                     options.backend == Backend::cuda ? "cuda" : "cpu",
                     &result->module) != MP_OK)
    return runtimeError();
  return std::move(result);
}

/// Writes DIR/manifest.json of an artifact: what was compiled, for which
/// backend, and each entry's signature.
static llvm::Error
writeManifest(const CompileOptions &options, StringRef label, StringRef backend,
              ArrayRef<std::string> chips,
              ArrayRef<std::pair<std::string, std::string>> entries) {
  llvm::json::Array entryArray;
  for (auto &[name, signature] : entries)
    entryArray.push_back(
        llvm::json::Object{{"name", name}, {"signature", signature}});
  llvm::json::Object manifest{
      {"mp_artifact", 1},   {"module", "module.so"},
      {"backend", backend}, {"target_cpu", options.targetCpu},
      {"compiled", label},  {"entries", std::move(entryArray)}};
  if (!chips.empty())
    manifest["gpu_chips"] = llvm::json::Array(chips);
  std::string path = options.outputDir + "/manifest.json";
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (!ec) {
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
       << "\n";
    os.close();
    ec = os.error();
    os.clear_error();
  }
  if (ec)
    return error("cannot write '" + path + "': " + ec.message());
  return llvm::Error::success();
}

llvm::Error mp_run::compileOnly(ModuleOp module, StringRef label,
                                const CompileOptions &options,
                                const std::string &soPath) {
  auto start = std::chrono::steady_clock::now();
  // The entries, before the module is lowered in place.
  FailureOr<SmallVector<std::pair<std::string, std::string>>> entries =
      mp::getEntrySignatures(module);
  if (failed(entries))
    return reported();
  SmallVector<std::string> chips;
  if (options.backend != Backend::cuda) {
    // Not loaded: the module may be for another CPU (--target-cpu).
    if (llvm::Error error = compileToFile(module, soPath, options))
      return error;
    llvm::outs() << label << ": compiled for the CPU"
                 << (options.backend == Backend::gpuEmulation
                         ? " (gpu-emulation)"
                         : "")
                 << " in " << llvm::format("%.2f", secondsSince(start)) << " s";
  } else {
    // One line per function on stderr: kernels, GEMMs, bytes moved. The PTX
    // is written instead of a shared object.
    mp::GpuPipelineOptions gpu;
    setGpuOptions(options, gpu);
    gpu.kernelSummary = true;
    FailureOr<mp::GpuCompilation> compiled =
        options.savePtx.empty()
            ? mp::compileGpuToSharedObject(module, soPath, gpu,
                                           options.optLevel, options.targetCpu)
            : mp::compileForGpu(module, gpu, options.savePtx);
    if (failed(compiled))
      return reported();
    chips = compiled->chips;
    llvm::outs() << label << ": compiled " << compiled->modules.size()
                 << " GPU modules";
    if (!chips.empty())
      llvm::outs() << " for " << llvm::join(chips, ", ");
    llvm::outs() << " in " << llvm::format("%.2f", secondsSince(start)) << " s";
    if (!options.savePtx.empty())
      llvm::outs() << ", " << compiled->ptxFiles.size() << " PTX files in "
                   << options.savePtx;
  }
  if (!options.outputDir.empty()) {
    if (llvm::Error err = writeManifest(
            options, label, options.backend == Backend::cuda ? "cuda" : "cpu",
            chips, *entries))
      return err;
    llvm::outs() << ", artifact in " << options.outputDir
                 << " (module.so, manifest.json)";
  } else if (!options.emitSo.empty() && options.savePtx.empty()) {
    llvm::outs() << ", kept " << options.emitSo;
  }
  llvm::outs() << "\n";
  return llvm::Error::success();
}

CompiledModule::~CompiledModule() {
  if (module)
    mp_module_unload(module);
}

llvm::Expected<mp_entry *> CompiledModule::findEntry(const std::string &name) {
  mp_entry *entry = nullptr;
  if (mp_module_find_entry(module, name.c_str(), &entry) != MP_OK)
    return runtimeError();
  return entry;
}
