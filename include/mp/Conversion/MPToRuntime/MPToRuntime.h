//===- MPToRuntime.h - mp collectives to runtime calls ----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CONVERSION_MPTORUNTIME_MPTORUNTIME_H
#define MP_CONVERSION_MPTORUNTIME_MPTORUNTIME_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class RewritePatternSet;
namespace mp {

/// The runtime's entry points for the collectives (runtime/lib/
/// Communicator.cpp): `void mp_all_reduce(i64 address, i64 count, i32 dtype,
/// i32 kind)` and `i32 mp_world_size()`.
constexpr llvm::StringLiteral kAllReduceFunction = "mp_all_reduce";
constexpr llvm::StringLiteral kWorldSizeFunction = "mp_world_size";
/// The CUDA backend's all-reduce on its stream (runtime/lib/
/// CudaCollectives.cpp), with the arguments of `mp_all_reduce`.
constexpr llvm::StringLiteral kCudaAllReduceFunction = "mp_cuda_all_reduce";

/// Conversion patterns of convert-mp-to-runtime: the buffer form of
/// `mp.all_reduce` to calls of `allReduceFunction` (kAllReduceFunction or
/// kCudaAllReduceFunction) and `mp.world_size` to calls of
/// kWorldSizeFunction, which must be declared in the module (the pass
/// declares them).
void populateMPToRuntimeConversionPatterns(RewritePatternSet &patterns,
                                           llvm::StringRef allReduceFunction);

} // namespace mp
} // namespace mlir

#endif // MP_CONVERSION_MPTORUNTIME_MPTORUNTIME_H
