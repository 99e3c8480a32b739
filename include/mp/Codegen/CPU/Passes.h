//===- Passes.h - mp CPU code generation ------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The CPU backend: its passes and the mp-lower-to-cpu pipeline, which lowers
// linalg on tensors (fp32 or mixed, after convert-mp-to-standard's patterns)
// to the LLVM dialect for the host CPU.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CODEGEN_CPU_PASSES_H
#define MP_CODEGEN_CPU_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace mp {

/// The register block of mp-vectorize-contractions (rows, columns, reduction
/// steps), which mp-conv-to-gemm and mp-lower-to-cpu default to as well.
constexpr int64_t kDefaultTileM = 8;
constexpr int64_t kDefaultTileN = 16;
constexpr int64_t kDefaultTileK = 1;

/// The work of a linalg op (iterations of its loop nest times the simple
/// ops of its body, a math op counting 8) from which mp-distribute-loops
/// runs it on threads: below, starting the threads costs more than they
/// save.
constexpr int64_t kDefaultMinParallelWork = 1 << 17;

#define GEN_PASS_DECL
#include "mp/Codegen/CPU/Passes.h.inc"

/// The LLVM optimization level of compiled CPU code unless told otherwise.
constexpr unsigned kDefaultCpuOptLevel = 3;
/// The highest LLVM optimization level (0 to 3).
constexpr unsigned kMaxCpuOptLevel = 3;

/// Options of mp-lower-to-cpu.
struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<int64_t> tileM{
      *this, "tile-m", llvm::cl::desc("Rows of a contraction register block"),
      llvm::cl::init(kDefaultTileM)};
  PassOptions::Option<int64_t> tileN{
      *this, "tile-n",
      llvm::cl::desc("Columns of a contraction register block (a multiple "
                     "of the vector width)"),
      llvm::cl::init(kDefaultTileN)};
  PassOptions::Option<int64_t> tileK{
      *this, "tile-k",
      llvm::cl::desc("Reduction steps per iteration of the innermost loop"),
      llvm::cl::init(kDefaultTileK)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run large ops on threads (mp-distribute-loops, "
                     "OpenMP): the compiled code then needs LLVM's OpenMP "
                     "runtime (libomp.so.5) where it runs"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> bf16Dot{
      *this, "bf16-dot",
      llvm::cl::desc("Multiply bf16 contractions with AVX512-BF16's "
                     "vdpbf16ps (mp-pack-bf16-contractions): the compiled "
                     "code then needs a CPU that has it"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("0-3: LLVM's optimization and code generation level "
                     "when compiled; 0 also keeps contractions as scalar "
                     "loops (fastest to compile)"),
      llvm::cl::init(kDefaultCpuOptLevel)};
};

/// Reports option values mp-lower-to-cpu cannot use.
LogicalResult verifyCpuPipelineOptions(
    const CpuPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler);

/// Lowers linalg on tensors (fp32 or mixed) to the LLVM dialect for the host
/// CPU: mp ops converted, aggregate ops decomposed, elementwise tensor ops
/// turned into linalg, contractions tiled and vectorized, one-shot
/// bufferization with identity-layout function boundaries, buffer
/// deallocation, loops, f16/bf16 arithmetic computed through f32 (exact for
/// + - * /), bf16 casts expanded to integer ops, math through LLVM intrinsics
/// and libm, and C interface wrappers (`_mlir_ciface_*`) for every function.
void buildLowerToCpuPipeline(OpPassManager &pm,
                             const CpuPipelineOptions &options);

/// The second half of mp-lower-to-cpu, from bufferized linalg, vector and
/// scf to the LLVM dialect for the host: loops, unrolled vector transfers,
/// f16/bf16 arithmetic through f32, math through intrinsics and libm. The GPU
/// backend's emulation runs its tiled stage through it.
void addLowerBuffersToLLVMPasses(OpPassManager &pm);

/// Registers the CPU codegen passes and mp-lower-to-cpu.
void registerCPUCodegenPassesAndPipelines();

} // namespace mp
} // namespace mlir

#endif // MP_CODEGEN_CPU_PASSES_H
