//===- CpuCompiler.h - Compile graphs to shared objects ---------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Ahead-of-time compilation for the runtime's CPU backend: a module of
// functions on tensors is lowered with mp-lower-to-cpu, translated to LLVM IR,
// given a packed entry point and a signature string per function (the ABI of
// runtime/include/mp/Runtime/mp_runtime.h), optimized for a target CPU and
// linked into a shared object with the system C compiler driver.
//
//===----------------------------------------------------------------------===//

#ifndef MP_COMPILER_CPUCOMPILER_H
#define MP_COMPILER_CPUCOMPILER_H

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace func {
class FuncOp;
} // namespace func
namespace mp {

/// The runtime signature of `fn`, e.g. "f32[64,784];f32->f32[64,10]". Fails,
/// after an error at the offending argument, for types the runtime cannot
/// pass (memrefs, unranked or complex tensors, scalar results).
FailureOr<std::string> getEntrySignature(func::FuncOp fn);

/// The entries of `module` (its public functions with a body), each with its
/// runtime signature, in order; fails as getEntrySignature does.
FailureOr<SmallVector<std::pair<std::string, std::string>>>
getEntrySignatures(ModuleOp module);

/// The target CPU that names the CPU compiling (with all its features).
inline constexpr llvm::StringLiteral kHostCpu = "host";

/// A target CPU whose code runs on most machines of the host's
/// architecture: x86-64-v3 (AVX2, FMA and F16C: Haswell, Zen and later) on
/// x86-64, else "generic". What `mp-run --compile-only` compiles for unless
/// told otherwise.
StringRef getPortableCpu();

/// Fails, saying why, unless `cpu` is kHostCpu or a CPU that LLVM knows for
/// the host's architecture (`llc -mcpu=help`).
llvm::Error checkTargetCpu(StringRef cpu);

/// Whether the target CPU `cpu` has AVX512-BF16 (mp-lower-to-cpu's
/// bf16-dot); false for an unknown CPU.
bool cpuHasAvx512Bf16(StringRef cpu);

/// Compiles every public function of `module` (which is lowered in place by
/// mp-lower-to-cpu with `options`) into the shared object `outputPath`,
/// optimized by LLVM at `options.optLevel` for `targetCpu`.
LogicalResult
compileToSharedObject(ModuleOp module, StringRef outputPath,
                      const CpuPipelineOptions &options = CpuPipelineOptions(),
                      StringRef targetCpu = kHostCpu);

/// The same with the pipeline that `buildPipeline` adds (it must lower the
/// module to the LLVM dialect with C interface wrappers, as mp-lower-to-cpu
/// and mp-lower-to-gpu-emulation do); LLVM optimizes at `optLevel` (0-3).
/// The object names `backend`, the runtime backend that runs it ("cpu",
/// "cuda"), in its `_mp_backend` string. Its code is for the CPU
/// `targetCpu` (checkTargetCpu), which it names in `_mp_target_cpu`, and
/// `_mp_cpu_features` lists the instruction set extensions of
/// runtime/include/mp/Runtime/CpuFeatures.def that this CPU has: the
/// runtime loads the object only on a CPU that has them all.
LogicalResult
compileToSharedObject(ModuleOp module, StringRef outputPath, unsigned optLevel,
                      function_ref<void(OpPassManager &)> buildPipeline,
                      StringRef backend, StringRef targetCpu = kHostCpu);

} // namespace mp
} // namespace mlir

#endif // MP_COMPILER_CPUCOMPILER_H
