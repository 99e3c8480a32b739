//===- GemmFusion.h - Ops a GEMM on buffers computes besides ----*- C++ -*-===//
//-*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Analyses of the ops around a Tensor Core contraction on buffers that its
// generated kernel (mp-gpu-tile-contractions) or its library call
// (mp-gpu-library-gemm) may compute instead of running them: the fill or
// producer that sets its C, the producers of its A and B, the epilogue
// that consumes its C. They only look; the passes rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef MP_LIB_CODEGEN_GPU_GEMMFUSION_H
#define MP_LIB_CODEGEN_GPU_GEMMFUSION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace mlir {
namespace mp {

/// What the copies of a contraction's C tiles back to memory compute besides
/// (or instead of) storing C (findEpilogue).
struct Epilogue {
  /// The contraction's C.
  Value c;
  /// An elementwise consumer of C whose result is stored, if any; its input
  /// that reads C (or the buffer C is a reshape of, or a reshape of that);
  /// the map from C's indices to those of its loops.
  linalg::GenericOp consumer;
  OpOperand *acc;
  AffineMap toConsumer;
  /// Reductions that OR a predicate of C's elements into a 0-d i1 flag (a
  /// loss scaler's finite checks): the copy sets the flag where it holds.
  SmallVector<linalg::GenericOp> flags;
  /// Whether C is stored as well (it is read after them).
  bool storesC = false;
  /// Ops to move before the contraction: the allocation of the consumer's
  /// output, the fills of the flags (and their allocations).
  SmallVector<Operation *> hoisted;
};

/// An initial value of C folded into a contraction: `value` fills C, or
/// `producer` (an elementwise op writing C, such as a broadcast bias) is
/// computed at each element, its loop indices `toProducer` of C's; the ops
/// that set it (a `linalg.fill` or the producer, or a `memref.copy` into C
/// of a buffer a fill set) are erased.
struct FoldedInit {
  Value value;
  Operation *setter;
  linalg::GenericOp producer = nullptr;
  AffineMap toProducer = {};
};

/// Whether the fused producer `op` only loads: it yields its one input or
/// `arith.truncf` of it.
bool isLoadingProducer(linalg::GenericOp op);

/// Whether copies may read the result of the fused producer `op` in vectors
/// of more than one element: it loads its input in place.
bool isVectorizableProducer(linalg::GenericOp op);

/// The buffers that `producer` reads: its inputs and those its body loads.
SmallVector<Value> getReadBuffers(linalg::GenericOp producer);

/// The values that the body of `producer` uses and does not define.
SmallVector<Value> getCapturedValues(linalg::GenericOp producer);

/// A producer that the copies of a contraction's operand compute: at the
/// operand's indices `toProducer` of the producer's loops (its output's:
/// the operand may be a reshape of it), or the same indices if null.
struct FusedProducer {
  linalg::GenericOp producer;
  AffineMap toProducer = {};
};

/// The producers that the copies of `consumers` (Tensor Core contractions
/// about to be tiled) compute instead of reading their results, by the
/// operand the consumers read: for each operand buffer allocated in the
/// function, written only by an elementwise producer (isFusibleProducer: a
/// cast, transpose, gather...) and read only by one or two of `consumers`
/// as an A or B operand, itself or through `memref.collapse_shape`s and
/// `expand_shape`s of it (the heads of attention, batch and head in one
/// dimension; rows merged, then split for a split K), when nothing writes what
/// the producer reads (or a view of its memory) between the producer and the
/// last consumer, and, unless `canOutline`, only producers that load
/// (isLoadingProducer). The buffer is then never written nor read; each
/// consumer computes the producer from what it reads.
DenseMap<Value, FusedProducer>
findFusedProducers(ArrayRef<linalg::LinalgOp> consumers, bool canOutline);

/// The initial value of `op`'s accumulator C, if C (or the buffer it is a
/// reshape of) is set just before `op` (nothing uses its memory in between,
/// through any view) by a `linalg.fill`, by a `memref.copy` from a buffer
/// that a fill set (and only reads used in between), or by an elementwise
/// producer that copies could compute (isFusibleProducer; computing ones
/// only if `canOutline`) from what nothing writes until `op` and is not C.
/// The tiled contraction then starts from the value (or the producer's)
/// instead of reading C, and the setter goes.
std::optional<FoldedInit> findFoldedInit(linalg::LinalgOp op, bool canOutline);

/// What the copies of `op`'s C tiles back to memory may compute: C must be
/// (a reshape of) a buffer the function allocates in `op`'s block, and the
/// ops that next use its memory, in order, read C (or that buffer, or a
/// reshape of it) in one input with the identity map and are
/// - at most one elementwise consumer (isFusibleConsumer,
///   canComputeConsumer), which may write the buffer in place (the last
///   one taken then);
/// - flag reductions (isFlagReduction, canComputeFlag).
/// C is stored as well unless its next use frees it or writes it whole
/// without reading it (or the consumer writes it in place).
std::optional<Epilogue> findEpilogue(linalg::LinalgOp op, ArrayRef<Value> reads,
                                     DominanceInfo &dominance);

/// Whether `op` ORs a predicate of each element of its one input (read
/// whole, in order) into a 0-d i1 flag: all loops reductions, the body
/// pure elementwise ops (at most kMaxFusedProducerOps) and constants ending
/// in `arith.ori` of the flag's block argument, used there only.
bool isFlagReduction(linalg::GenericOp op);

/// Clones the body of the elementwise `op` (but the ops that use its output's
/// block argument) at `b`, on `vectorType`'s shape if it is given: the
/// values it captures and its constants broadcast, every other op given
/// vector results. `mapping` holds its inputs' block arguments.
void buildElementwiseBody(OpBuilder &b, Location loc, linalg::GenericOp op,
                          VectorType vectorType, IRMapping &mapping);

/// Sets the flag of `flag` (a flag reduction) to true if its predicate holds
/// for `value` (an element of its input, or a vector of elements): threads
/// that find one all store the same value, so none needs the others'.
void buildFlag(OpBuilder &b, Location loc, linalg::GenericOp flag, Value value);

/// Computes what `epilogue` computes where its C holds `value` (an element,
/// or a vector of elements along C's last dimension) at `indices` of C:
/// its consumer, whose result it stores (its other inputs loaded at their
/// maps' indices, in vectors where the map takes the last loop, broadcast
/// where it does not), and its flags. It does not store `value`.
void buildEpilogue(OpBuilder &b, Location loc, const Epilogue &epilogue,
                   Value value, ValueRange indices);

/// The results of `map` at `indices`, one `affine.apply` each.
SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ValueRange indices);

/// The alignment of a vector of `type` (or of one element of it).
llvm::MaybeAlign getVectorAlignment(Type type);

} // namespace mp
} // namespace mlir

#endif // MP_LIB_CODEGEN_GPU_GEMMFUSION_H
