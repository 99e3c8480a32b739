//===- GpuCompiler.h - Compile graphs for NVIDIA GPUs -----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Ahead-of-time compilation for NVIDIA GPUs: a module of functions on tensors
// is lowered with mp-lower-to-gpu (kernels in gpu.binary ops, one object per
// chip; host code in the LLVM dialect), and each GPU module's PTX can be
// written out per chip, or the whole compiled into a shared object that the
// runtime's CUDA backend loads (the GPU binaries embedded in it).
//
//===----------------------------------------------------------------------===//

#ifndef MP_COMPILER_GPUCOMPILER_H
#define MP_COMPILER_GPUCOMPILER_H

#include "mp/Codegen/GPU/Passes.h"
#include "mp/Compiler/CpuCompiler.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace mp {

/// What compileForGpu made.
struct GpuCompilation {
  /// The GPU modules (gpu.binary ops), in order.
  SmallVector<std::string> modules;
  /// The chips each was compiled for.
  SmallVector<std::string> chips;
  /// The PTX files written, if any.
  SmallVector<std::string> ptxFiles;
};

/// Lowers `module` in place with mp-lower-to-gpu and `options`. If `ptxDir`
/// is not empty, the binaries are fatbins (`format` is overridden) and
/// mp-gpu-fatbin keeps each GPU module's PTX for each chip, which it
/// assembled, as `ptxDir/<module>.<chip>.ptx` (the directory is created), so
/// the kernel report gets ptxas's registers and spills as well. Errors are
/// emitted on `module`.
FailureOr<GpuCompilation> compileForGpu(ModuleOp module,
                                        const GpuPipelineOptions &options,
                                        StringRef ptxDir);

/// Compiles every public function of `module` (lowered in place with
/// mp-lower-to-gpu and `options`) into the shared object `outputPath` for
/// the runtime's CUDA backend: packed entries and signatures as for the CPU
/// backend, host code optimized by LLVM at `optLevel` for `targetCpu` (as
/// compileToSharedObject's), the GPU modules' binaries embedded and loaded
/// when the runtime loads the object.
FailureOr<GpuCompilation>
compileGpuToSharedObject(ModuleOp module, StringRef outputPath,
                         const GpuPipelineOptions &options, unsigned optLevel,
                         StringRef targetCpu = kHostCpu);

} // namespace mp
} // namespace mlir

#endif // MP_COMPILER_GPUCOMPILER_H
