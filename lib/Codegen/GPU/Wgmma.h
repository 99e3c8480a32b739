//===- Wgmma.h - mma.sync chains as warpgroup MMAs (sm_90a) -----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What mp-gpu-wgmma-variants, mp-gpu-swizzle-panels,
// mp-gpu-align-workgroup-buffers and mp-gpu-merge-chip-variants agree on
// about Hopper's wgmma.mma_async: it reads its operands straight from the
// staged panels, through shared memory descriptors that describe the
// panels' swizzled layout, and exists on sm_90a only, so its kernels are
// variants of the mma.sync ones.
//
//===----------------------------------------------------------------------===//

#ifndef MP_LIB_CODEGEN_GPU_WGMMA_H
#define MP_LIB_CODEGEN_GPU_WGMMA_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpu {
class GPUFuncOp;
class LaunchOp;
} // namespace gpu
namespace mp {

/// The one chip with wgmma.
constexpr const char *kWgmmaChip = "sm_90a";

/// The threads of a warpgroup, and the rows of C one wgmma computes.
constexpr int64_t kWarpgroupSize = 128, kWgmmaM = 64;

/// The alignment in bytes of every workgroup buffer of a kernel that runs
/// wgmma: the largest swizzle pattern (128-byte rows, 8 of them) repeats
/// every 1024 bytes, and the descriptors assume that the panels start at
/// such a boundary.
constexpr int64_t kWgmmaPanelAlignment = 1024;

/// A panel that wgmma reads with rows wider than the widest swizzle pattern
/// (128 bytes: M- or N-major operands of 128 or 256 columns) is laid out by
/// mp-gpu-swizzle-panels as its 64-column blocks one after the other, each
/// a panel of 128-byte rows swizzled in the 128-byte pattern: what the
/// descriptors' leading byte offset steps over. Its rows must be whole
/// 8-row patterns, so that each block starts at a pattern's boundary.
constexpr int64_t kSplitPanelRows = 8, kSplitPanelBlockBytes = 128;

/// Rewrites the mma.sync chains of the outlined kernel `func` (after
/// mp-gpu-vector-to-mma: upstream's nvgpu.mma.sync for f16, its bf16
/// nvvm.mma.sync, both on ldmatrix'd panels) that one warpgroup computes on
/// the whole of its panels as wgmma.mma_async: a block of warpgroups of 128
/// threads (`known_block_size`) whose warps each own 16 rows of the tile
/// (warpgroup g rows 64 g to 64 g + 63) and all its N columns, per K step of
/// 16 and warpgroup one m64nNk16 whose A and B are read through descriptors
/// of the panels. The panels' writes must then be
/// swizzled (mp-gpu-swizzle-panels recognises them by the
/// `memref.extract_aligned_pointer_as_index` of the descriptors) and the
/// buffers aligned (kWgmmaPanelAlignment). Chains of another shape stay as
/// they are. Each K step's wgmmas are waited for at the end of the step,
/// or with `inFlight`, where the panels have 3 slots or more (staged with
/// mp-gpu-tile-contractions' reserve-slot), at the end of the next one
/// (and after the K loop). Returns the chains rewritten.
int64_t convertChainsToWgmma(RewriterBase &rewriter, gpu::GPUFuncOp func,
                             bool inFlight);

/// The chains of `launch` (the kernel stage, before outlining) that
/// convertChainsToWgmma rewrites once it is outlined.
int64_t countWgmmaChains(gpu::LaunchOp launch);

} // namespace mp
} // namespace mlir

#endif // MP_LIB_CODEGEN_GPU_WGMMA_H
