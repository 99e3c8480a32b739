//===- Passes.h - mp GPU code generation ------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The NVIDIA GPU backend: its passes and the mp-lower-to-gpu pipeline, which
// lowers linalg on tensors (fp32 or mixed) to GPU kernels (PTX or a fatbin
// per module, for each chip) and host code that launches them.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CODEGEN_GPU_PASSES_H
#define MP_CODEGEN_GPU_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace mp {

/// How Tensor Core contractions are computed (mp-gpu-select-gemm).
enum class GpuGemm { automatic, library, codegen };

/// The values of the `gemm` options.
inline auto gpuGemmValues() {
  return llvm::cl::values(
      clEnumValN(GpuGemm::automatic, "auto",
                 "cuBLASLt/cuDNN from library-min-macs, else generated"),
      clEnumValN(GpuGemm::library, "library",
                 "cuBLASLt matmuls and cuDNN convolutions"),
      clEnumValN(GpuGemm::codegen, "codegen", "generated mma.sync kernels"));
}

#define GEN_PASS_DECL
#include "mp/Codegen/GPU/Passes.h.inc"

/// The chips mp compiles for unless told otherwise: Ampere (mma.sync) and
/// Hopper (with its architecture-specific features).
constexpr const char *kDefaultGpuChips = "sm_80,sm_90a";

/// Whether mp-lower-to-gpu splits the K loop of contractions with few thread
/// blocks (mp-gpu-split-k) unless told otherwise.
constexpr bool kDefaultSplitK = true;
/// Whether mp-lower-to-gpu runs consecutive independent kernels as one
/// launch (mp-gpu-merge-launches) by default.
constexpr bool kDefaultMergeLaunches = true;

/// What gpu-module-to-binary makes of each GPU module.
enum class GpuBinaryFormat { isa, bin, fatbin };

/// Options of mp-lower-to-gpu. Tile sizes default to those of
/// mp-gpu-tile-contractions.
struct GpuPipelineOptions : public PassPipelineOptions<GpuPipelineOptions> {
  PassOptions::ListOption<std::string> chips{
      *this, "chips",
      llvm::cl::desc("GPU architectures to compile for (default: sm_80, "
                     "sm_90a)")};
  PassOptions::Option<GpuBinaryFormat> format{
      *this, "format", llvm::cl::desc("What each GPU module becomes"),
      llvm::cl::init(GpuBinaryFormat::fatbin),
      llvm::cl::values(
          clEnumValN(GpuBinaryFormat::isa, "isa", "PTX text per chip"),
          clEnumValN(GpuBinaryFormat::bin, "bin",
                     "a cubin (SASS) per chip, by ptxas; the first chip's "
                     "is embedded"),
          clEnumValN(GpuBinaryFormat::fatbin, "fatbin",
                     "one fatbin with SASS for every chip and PTX "
                     "(mp-gpu-fatbin)"))};
  PassOptions::Option<std::string> ptxFeatures{
      *this, "ptx-features",
      llvm::cl::desc("PTX ISA version of the generated code (+ptx70 to "
                     "+ptx90), raised per chip to the oldest LLVM emits "
                     "for it"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> cudaToolkit{
      *this, "cuda-toolkit",
      llvm::cl::desc("CUDA toolkit whose ptxas, fatbinary and libdevice "
                     "(math functions) the binaries are made with"),
      llvm::cl::init("/usr/local/cuda")};
  PassOptions::Option<std::string> ptxDir{
      *this, "ptx-dir",
      llvm::cl::desc("With format=fatbin: keep each GPU module's PTX per "
                     "chip in this directory as <module>.<chip>.ptx "
                     "(mp-gpu-fatbin)")};
  PassOptions::Option<GpuGemm> gemm{
      *this, "gemm",
      llvm::cl::desc("How Tensor Core contractions and convolutions are "
                     "computed (see mp-gpu-select-gemm)"),
      llvm::cl::init(GPUSelectGemmPassOptions().gemm), gpuGemmValues()};
  PassOptions::Option<int64_t> libraryMinMacs{
      *this, "library-min-macs",
      llvm::cl::desc("With gemm=auto: the smallest contraction (batch x M x "
                     "N x K) or convolution given to a library"),
      llvm::cl::init(GPUSelectGemmPassOptions().libraryMinMacs)};
  PassOptions::Option<int64_t> tileM{
      *this, "tile-m", llvm::cl::desc("Rows of C per thread block"),
      llvm::cl::init(GPUTileContractionsPassOptions().tileM)};
  PassOptions::Option<int64_t> tileN{
      *this, "tile-n", llvm::cl::desc("Columns of C per thread block"),
      llvm::cl::init(GPUTileContractionsPassOptions().tileN)};
  PassOptions::Option<int64_t> warpM{
      *this, "warp-m", llvm::cl::desc("Rows of C per warp"),
      llvm::cl::init(GPUTileContractionsPassOptions().warpM)};
  PassOptions::Option<int64_t> warpN{
      *this, "warp-n", llvm::cl::desc("Columns of C per warp"),
      llvm::cl::init(GPUTileContractionsPassOptions().warpN)};
  PassOptions::Option<int64_t> simtBlock{
      *this, "simt-block",
      llvm::cl::desc("f32 GEMMs on CUDA cores: the most rows (and columns) "
                     "of C per thread block"),
      llvm::cl::init(GPUChooseTilesPassOptions().simtBlock)};
  PassOptions::Option<int64_t> simtThread{
      *this, "simt-thread",
      llvm::cl::desc("f32 GEMMs on CUDA cores: rows (and columns) of C per "
                     "thread"),
      llvm::cl::init(GPUChooseTilesPassOptions().simtThread)};
  PassOptions::Option<int64_t> stages{
      *this, "stages",
      llvm::cl::desc("K steps of the generated GEMMs' panels staged at once: "
                     "1 single-buffers them; N > 1 loads the next N - 1 "
                     "steps' (cp.async) during one step's Tensor Core work"),
      llvm::cl::init(GPUTileContractionsPassOptions().stages)};
  PassOptions::Option<int64_t> tileK{
      *this, "tile-k",
      llvm::cl::desc("Largest K step of a trip of the generated Tensor Core "
                     "GEMMs' K loop: 16, 32 or 64 (halved, down to 16, until "
                     "it divides K)"),
      llvm::cl::init(GPUTileContractionsPassOptions().tileK)};
  PassOptions::Option<bool> splitK{
      *this, "split-k",
      llvm::cl::desc("Split the K loop of generated GEMMs with too few "
                     "thread blocks into parallel partial GEMMs and their sum "
                     "(mp-gpu-split-k)"),
      llvm::cl::init(kDefaultSplitK)};
  PassOptions::Option<bool> wgmma{
      *this, "wgmma",
      llvm::cl::desc("On sm_90a (Hopper), compute the generated GEMMs' K "
                     "steps with wgmma.mma_async (mp-gpu-wgmma-variants; the "
                     "other chips keep mma.sync): blocks of one or two "
                     "warpgroups whose warps own 16 rows each (warp-m and "
                     "warp-n are then 16 and tile-n; tile-m must be 64 or "
                     "128, tile-n 16, 32, 64, 128 or 256)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> wgmmaLargeMinBlocks{
      *this, "wgmma-large-min-blocks",
      llvm::cl::desc("With wgmma and blocks smaller than 128 x 128: GEMMs "
                     "with at least this many blocks of 128 x 128 take them, "
                     "two warpgroups of 64 x 128 (mp-gpu-choose-tiles' "
                     "large-tiles); 0 keeps tile-m x tile-n for all"),
      llvm::cl::init(GPUChooseTilesPassOptions().largeMinBlocks)};
  PassOptions::Option<int64_t> warpMinExtent{
      *this, "warp-min-extent",
      llvm::cl::desc("Reductions to more output elements than one block each "
                     "takes: the fewest terms per output element (consecutive "
                     "in memory) for one warp per output element "
                     "(mp-gpu-tile-reductions); 0: one thread per output "
                     "element for them all"),
      llvm::cl::init(GPUTileReductionsPassOptions().warpMinExtent)};
  PassOptions::Option<std::string> kernelReport{
      *this, "kernel-report",
      llvm::cl::desc("Write mp-gpu-kernel-report's JSON (kernels, bytes "
                     "moved) to this file")};
  PassOptions::Option<bool> kernelSummary{
      *this, "kernel-summary",
      llvm::cl::desc("Print mp-gpu-kernel-report's line per function"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> kernelDot{
      *this, "kernel-dot",
      llvm::cl::desc("Write mp-gpu-kernel-report's Graphviz view (ops "
                     "clustered and coloured by kernel) to this file")};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block of the parallel-loop kernels"),
      llvm::cl::init(GPUMapParallelLoopsPassOptions().blockSize)};
  PassOptions::Option<bool> mergeLaunches{
      *this, "merge-launches",
      llvm::cl::desc("Run consecutive kernels that touch different buffers "
                     "and have as many threads per block as one launch "
                     "(mp-gpu-merge-launches)"),
      llvm::cl::init(kDefaultMergeLaunches)};
};

/// Reports option values mp-lower-to-gpu cannot use.
LogicalResult verifyGpuPipelineOptions(
    const GpuPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler);

/// Lowers linalg on tensors (fp32 or mixed) for NVIDIA GPUs: mp ops
/// converted, aggregates decomposed, one-shot bufferization, Tensor Core
/// contractions tiled (mp-gpu-tile-contractions) and lowered to
/// mma.sync (f16 and bf16), everything else as parallel loops, both mapped to
/// gpu.launch, kernels outlined and lowered to NVVM, one binary per chip
/// (gpu.binary), host code in the LLVM dialect calling the mgpu* runtime.
void buildLowerToGpuPipeline(OpPassManager &pm,
                             const GpuPipelineOptions &options);

/// The GPU pipeline on a CPU: mp-lower-to-gpu's tensor stage (padding
/// included) and tiled stage (blocks, warps and m16n8k16 vector.contract),
/// then scf.forall as sequential loops and mp-lower-to-cpu's lowering of
/// buffers to the LLVM dialect, with C interface wrappers. What mp-run's
/// `--backend gpu-emulation` executes. The target options (chips, format,
/// ptx-features, cuda-toolkit, block-size) have no effect.
void buildLowerToGpuEmulationPipeline(OpPassManager &pm,
                                      const GpuPipelineOptions &options);

/// Registers the GPU codegen passes, mp-lower-to-gpu and
/// mp-lower-to-gpu-emulation.
void registerGPUCodegenPassesAndPipelines();

} // namespace mp
} // namespace mlir

#endif // MP_CODEGEN_GPU_PASSES_H
