//===- MmaContraction.h - Contractions Tensor Cores compute -----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What the GPU backend's passes agree on: the warp size, the m16n8k16 shape
// of mma.sync and which contractions take it.
//
//===----------------------------------------------------------------------===//

#ifndef MP_LIB_CODEGEN_GPU_MMACONTRACTION_H
#define MP_LIB_CODEGEN_GPU_MMACONTRACTION_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir {
namespace gpu {
class LaunchOp;
} // namespace gpu
namespace linalg {
class GenericOp;
} // namespace linalg
namespace vector {
class ContractionOp;
} // namespace vector
namespace mp {

/// The runtime function that runs a contraction with cuBLASLt
/// (mp-gpu-library-gemm).
constexpr llvm::StringLiteral kLibraryGemmFunction = "mp_cuda_gemm";
/// The CPU implementation that mp-lower-to-gpu-emulation calls instead.
constexpr llvm::StringLiteral kEmulatedGemmFunction = "mp_emulated_gemm";

/// The threads of a warp.
constexpr int64_t kWarpSize = 32;

/// The most threads a CUDA thread block may have.
constexpr int64_t kMaxBlockThreads = 1024;

/// The m16n8k16 shape of mma.sync.
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;

/// The slots a staged panel needs for a K step's Tensor Core work to stay
/// in flight into the next trip (wgmma): the slot it reads, kept from the
/// copies (mp-gpu-tile-contractions' reserve-slot), the next step's, and
/// one for the copies.
constexpr int64_t kMinSlotsInFlight = 3;

/// The K step of an f32 contraction on CUDA cores (no Tensor Core computes
/// f32 x f32 in f32): each thread's tile of A and B per step.
constexpr int64_t kSimtK = 8;

/// The loops of a contraction that the generated GEMM kernels compute: on
/// Tensor Cores (f16 or bf16 operands), or on CUDA cores (`simt`: f32
/// operands).
struct MmaContraction {
  std::optional<unsigned> batch;
  unsigned m, n, k;
  SmallVector<int64_t> ranges;
  bool simt = false;
};

/// The loops of `op` if it is a contraction (on tensors or buffers) of static
/// shape whose operands are both f16 or both bf16, whose accumulator is f32
/// and that has one M, N and K loop and at most one batch loop, outermost in
/// the operands and the result.
std::optional<MmaContraction> matchMmaContraction(linalg::LinalgOp op);

/// The loops of `op` as matchMmaContraction's, and also of contractions
/// whose operands and accumulator are all f32: what cuBLASLt computes for
/// mp-gpu-library-gemm (f16/bf16 or f32 in, CUBLAS_COMPUTE_32F).
std::optional<MmaContraction> matchLibraryContraction(linalg::LinalgOp op);

/// The loops of `op` as matchLibraryContraction's: the contractions
/// mp-gpu-tile-contractions tiles, f32 ones marked `simt`; with
/// `dynamicSizes` also those of dynamic sizes (ShapedType::kDynamic in
/// `ranges`).
std::optional<MmaContraction> matchTiledContraction(linalg::LinalgOp op,
                                                    bool dynamicSizes = false);

/// Whether `op` is a convolution of f16, bf16 or f32 with dynamic sizes
/// (which mp-gpu-conv-to-gemm and cuDNN's calls do not take).
bool isDynamicConvolution(linalg::LinalgOp op);

/// The tiles of an f32 contraction `c` (tile-m, tile-n, thread-m,
/// thread-n): blocks of `thread` times the smallest power of two that
/// covers M (N), at most `block` (`block` for a dynamic size), in threads
/// of `thread` x `thread`.
SmallVector<int64_t> chooseSimtTiles(const MmaContraction &c, int64_t block,
                                     int64_t thread);

/// What is wrong with `block` and `thread` (mp-gpu-choose-tiles' simt-block
/// and simt-thread), if anything.
std::optional<std::string> checkSimtOptions(int64_t block, int64_t thread);

/// Whether `contract` (of a tiled contraction) multiplies f32 operands: a
/// CUDA-core GEMM's, lowered to FMAs rather than mma.sync.
bool isSimtContraction(vector::ContractionOp contract);

/// Keeps the accumulators of the tiled contractions of `launch` in
/// registers across K: views folded into the transfers (but slices of
/// buffers defined outside the launch), loop-invariant code
/// hoisted, then each read and write of the same accumulator tile around a
/// loop become an iteration argument of the loop (the tiles of different
/// warps or threads are disjoint, so hoisting them one by one is sound),
/// and the writes after the loop are fenced from the epilogue.
LogicalResult keepAccumulatorsInRegisters(gpu::LaunchOp launch);

/// What is wrong with these tile options, if anything: warp-m must be a
/// positive multiple of 16 and warp-n of 8, dividing tile-m and tile-n, with
/// at most 1024 threads per block.
std::optional<std::string> checkTileOptions(int64_t tileM, int64_t tileN,
                                            int64_t warpM, int64_t warpN);

/// What is wrong with the tiles (tile-m, tile-n, thread-m, thread-n; the
/// dialect checks that they are positive and divide) of an f32 contraction,
/// if anything: at most 1024 threads per block.
std::optional<std::string> checkSimtTiles(ArrayRef<int64_t> tiles);

/// Why `stages` (K steps of a GEMM's panels staged at once) is invalid, if
/// it is.
std::optional<std::string> checkStages(int64_t stages);

/// Why `tileK` (the largest K step of a Tensor Core GEMM's trip) is invalid,
/// if it is: it must be 16, 32 or 64.
std::optional<std::string> checkTileK(int64_t tileK);

/// The K step of a Tensor Core GEMM of reduction extent `k` whose trips take
/// at most `tileK` (checkTileK) of it: the largest of tileK, tileK / 2, ...,
/// 16 that divides `k` (no step is masked); where `k` is not a multiple of
/// 16 (its last step is masked anyway), the largest of them at most `k`
/// rounded up to 16; `tileK` where `k` is dynamic.
int64_t getMmaKStep(int64_t k, int64_t tileK);

/// checkTileOptions as an error at `loc` naming `pass`.
LogicalResult verifyTileOptions(Location loc, StringRef pass, int64_t tileM,
                                int64_t tileN, int64_t warpM, int64_t warpN);

/// The buffer that `value` is a view of, through any chain of views and
/// casts (itself if none).
Value getRootBuffer(Value value);
/// `value` computed again, before `before`, with each value that `replace`
/// maps to another (such as gpu.lane_id to another lane) replaced: the pure
/// ops on the way are cloned, other values kept. `value` itself if nothing
/// it depends on is replaced.
Value recomputeWith(RewriterBase &rewriter, Operation *before, Value value,
                    function_ref<Value(Value)> replace);

} // namespace mp
} // namespace mlir

#endif // MP_LIB_CODEGEN_GPU_MMACONTRACTION_H
