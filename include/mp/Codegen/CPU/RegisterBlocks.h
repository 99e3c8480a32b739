//===- RegisterBlocks.h - Contractions in register blocks -------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Which contractions mp-vectorize-contractions runs as register blocks, and
// the block it fits to each loop: mp-distribute-loops splits the same
// contractions along whole blocks so each thread's share still vectorizes.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CODEGEN_CPU_REGISTERBLOCKS_H
#define MP_CODEGEN_CPU_REGISTERBLOCKS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir {
namespace mp {

/// The f32 lanes of AVX512-BF16's dot product (`vdpbf16ps` on 512 bits):
/// the widest register block of bf16 pairs, whose N
/// mp-pack-bf16-contractions requires to be a multiple of it.
constexpr int64_t kDotLanes = 16;

/// The batch, m, n and k loops of a contraction with one m, n and k loop,
/// the loop over the elements of a pair in the layout of
/// mp-pack-bf16-contractions if it has one, and the static range of every
/// loop.
struct ContractionLoops {
  SmallVector<unsigned> batch;
  unsigned m, n, k;
  std::optional<unsigned> pair;
  SmallVector<int64_t> ranges;
};

/// The loops of `op` if it is a contraction on tensors that
/// mp-vectorize-contractions vectorizes: static shapes, one m, n and k loop
/// (and the pair loop: the last loop, of 2 iterations, innermost in both
/// bf16 operands), both operands of one element type no wider than the
/// accumulator's.
FailureOr<ContractionLoops> getContractionLoops(linalg::LinalgOp op);

/// The contractions (linalg ops of the contraction interface) in `root`,
/// in order: the ops a contraction pass rewrites one by one.
SmallVector<linalg::LinalgOp> collectContractions(Operation *root);

/// The register block's extent along a loop of `size` iterations: `tile`
/// if it divides the size, the whole loop if shorter, else the largest
/// divisor of both (a 10-wide layer: one block of 10 columns, 2 rows).
int64_t fitTile(int64_t size, int64_t tile);

} // namespace mp
} // namespace mlir

#endif // MP_CODEGEN_CPU_REGISTERBLOCKS_H
