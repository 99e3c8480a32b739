//===- Chips.h - The NVIDIA architectures mp compiles for ------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What mp needs to know of each GPU architecture it compiles for: the
// oldest PTX ISA version that LLVM's NVPTX backend emits for it, and the
// most shared memory one thread block gets. Shared by mp-lower-to-gpu's
// option checks and targets and by mp-gpu-dynamic-shared-memory.
//
//===----------------------------------------------------------------------===//

#ifndef MP_LIB_CODEGEN_GPU_CHIPS_H
#define MP_LIB_CODEGEN_GPU_CHIPS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
namespace mp {

/// The oldest architecture the generated kernels run on (sm_NN): mma.sync
/// m16n8k16 of f16 and bf16 and cp.async came with Ampere.
constexpr unsigned kMinGpuChip = 80;

struct GpuChip {
  /// The compute capability's digits: 80 for sm_80 and 90 for sm_90a.
  unsigned version;
  /// The PTX ISA version LLVM 22 needs for the chip, as in `+ptx80`.
  unsigned minPtx;
  /// The most shared memory a block gets, in bytes (the CUDA programming
  /// guide's table of compute capabilities).
  int64_t maxSharedPerBlock;
};

/// The compute capability of `name` (`sm_NN` with any suffix), if it is
/// spelled as one.
std::optional<unsigned> parseGpuChipVersion(llvm::StringRef name);

/// The chip `name` (`sm_NN`, or `sm_NNa` for the architecture-specific
/// features of Hopper and later), if mp compiles for it: one of the
/// architectures from sm_80 that both LLVM 22 and CUDA 13's ptxas know.
std::optional<GpuChip> lookupGpuChip(llvm::StringRef name);

/// The chips lookupGpuChip knows, for messages: "sm_80, sm_86, ...".
std::string listGpuChips();

/// The PTX ISA version of `features` (`+ptxNN`, one of those LLVM 22 emits
/// from PTX 7.0 on), if it is one.
std::optional<unsigned> parsePtxFeatures(llvm::StringRef features);

/// The target features of `chip`'s code: `features`' PTX version, or the
/// chip's own minimum where that is newer.
std::string getChipPtxFeatures(const GpuChip &chip, unsigned ptx);

} // namespace mp
} // namespace mlir

#endif // MP_LIB_CODEGEN_GPU_CHIPS_H
