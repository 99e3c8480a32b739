//===- Graph.h - Loading, trimming and compiling graphs for mp-run -*- C++ -*-//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_TOOLS_MPRUN_GRAPH_H
#define MP_TOOLS_MPRUN_GRAPH_H

#include "mp/Codegen/GPU/Passes.h"
#include "mp/Compiler/CpuCompiler.h"
#include "mp/Runtime/mp_runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"

#include <array>
#include <memory>
#include <string>

namespace mlir::mp {
enum class GpuGemm; // mp/Codegen/GPU/Passes.h
} // namespace mlir::mp

namespace mp_run {

/// Parses `file` (its errors are MLIR diagnostics).
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
loadGraph(const std::string &file, mlir::MLIRContext &context);

/// Drops every function but `fn` and what it calls; fails on calls to
/// functions that are only declared (in `file`).
llvm::Error keepOnly(mlir::ModuleOp module, mlir::func::FuncOp fn,
                     llvm::StringRef file);

/// A temporary directory, removed with its contents at scope exit.
class TempDir {
public:
  static llvm::Expected<std::unique_ptr<TempDir>> create();
  ~TempDir();
  /// `name` inside the directory.
  std::string file(llvm::StringRef name) const;

private:
  llvm::SmallString<128> path;
};

/// Where mp-run executes a graph.
enum class Backend {
  automatic,    ///< cuda if usable, else cpu (resolved before compiling)
  cpu,          ///< mp-lower-to-cpu
  gpuEmulation, ///< mp-lower-to-gpu-emulation: the GPU tiled stage on the CPU
  cuda,         ///< mp-lower-to-gpu, run by the runtime's CUDA backend
};

/// How mp-run compiles a graph.
struct CompileOptions {
  Backend backend = Backend::cpu;
  unsigned optLevel = 0;
  bool bf16Dot = false;        ///< with cpu: mp-lower-to-cpu's bf16-dot
  /// The CPU the host code is compiled for (mp::checkTargetCpu's names).
  std::string targetCpu = mlir::mp::kHostCpu.str();
  mlir::mp::GpuGemm gpuGemm{}; ///< with cuda: how contractions are computed
  /// With cuda or gpu-emulation: K steps of the GEMM panels copied
  /// unchanged staged at once (the next ones loaded with cp.async on the
  /// GPU).
  int64_t gpuStages = mlir::mp::GPUTileContractionsPassOptions().stages;
  /// With cuda or gpu-emulation: the largest K step of a Tensor Core GEMM's
  /// trip.
  int64_t gpuTileK = mlir::mp::GPUTileContractionsPassOptions().tileK;
  /// With cuda or gpu-emulation: contractions with few blocks split along
  /// K (mp-gpu-split-k).
  bool gpuSplitK = mlir::mp::kDefaultSplitK;
  /// With cuda or gpu-emulation: the fewest terms per row of a reduction to
  /// many rows for a warp per row (0: a thread per row).
  int64_t gpuWarpMinExtent =
      mlir::mp::GPUTileReductionsPassOptions().warpMinExtent;
  /// With cuda or gpu-emulation: GEMM K steps on wgmma on sm_90a, in
  /// blocks of one warpgroup (two for large GEMMs unless gpuTileGiven).
  bool gpuWgmma = false;
  /// With cuda: the chips to compile for (empty: mp-lower-to-gpu's).
  std::vector<std::string> gpuChips;
  /// With cuda or gpu-emulation: the block's and a warp's tile of C (M, N,
  /// warp M, warp N).
  std::array<int64_t, 4> gpuTile = {
      mlir::mp::GPUTileContractionsPassOptions().tileM,
      mlir::mp::GPUTileContractionsPassOptions().tileN,
      mlir::mp::GPUTileContractionsPassOptions().warpM,
      mlir::mp::GPUTileContractionsPassOptions().warpN};
  /// Whether gpuTile was given: then every GEMM takes it (no larger blocks
  /// for large GEMMs with wgmma).
  bool gpuTileGiven = false;
  /// With cuda or gpu-emulation: the largest block's and a thread's tile of
  /// C (square) in f32 GEMMs on CUDA cores.
  std::array<int64_t, 2> gpuF32Tile = {
      mlir::mp::GPUChooseTilesPassOptions().simtBlock,
      mlir::mp::GPUChooseTilesPassOptions().simtThread};
  std::string emitSo;    ///< keep the shared object here
  std::string outputDir; ///< with compileOnly: the artifact's directory
  bool compileOnly = false;
  std::string savePtx;      ///< write each GPU module's PTX per chip here
  std::string kernelReport; ///< with cuda: mp-gpu-kernel-report's JSON here
  std::string kernelDot;    ///< with cuda: its Graphviz view here
};

/// Sets mp-lower-to-gpu's options from mp-run's (what the CUDA and
/// emulation backends compile with, and mp-run's flag checks verify).
void setGpuOptions(const CompileOptions &options,
                   mlir::mp::GpuPipelineOptions &gpu);

/// mp-run --compile-only: compiles `module` (lowered in place) as `options`
/// say, into `soPath` (for cuda without --save-ptx too), and prints one
/// line, headed `label`, saying what was made; with `outputDir` (whose
/// module.so `soPath` is) also writes the artifact's manifest.json. Runs
/// nothing.
llvm::Error compileOnly(mlir::ModuleOp module, llvm::StringRef label,
                        const CompileOptions &options,
                        const std::string &soPath);

/// A module compiled to a shared object and loaded by the runtime.
class CompiledModule {
public:
  /// Compiles `module` (lowered in place) as `options` say (backend,
  /// optimization level, GPU options) to `soPath` and loads it.
  static llvm::Expected<std::unique_ptr<CompiledModule>>
  compile(mlir::ModuleOp module, const std::string &soPath,
          const CompileOptions &options);
  ~CompiledModule();

  llvm::Expected<mp_entry *> findEntry(const std::string &name);
  /// Seconds spent compiling.
  double getCompileSeconds() const { return compileSeconds; }

private:
  mp_module *module = nullptr;
  double compileSeconds = 0;
};

} // namespace mp_run

#endif // MP_TOOLS_MPRUN_GRAPH_H
