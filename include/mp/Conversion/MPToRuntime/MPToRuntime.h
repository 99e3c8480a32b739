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

/// Conversion patterns of convert-mp-to-runtime: the buffer form of
/// `mp.all_reduce` and `mp.world_size` to calls of the runtime, which must
/// be declared in the module (the pass declares them).
void populateMPToRuntimeConversionPatterns(RewritePatternSet &patterns);

} // namespace mp
} // namespace mlir

#endif // MP_CONVERSION_MPTORUNTIME_MPTORUNTIME_H
