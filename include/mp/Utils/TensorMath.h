//===- TensorMath.h - Elementwise and reduction linalg builders -*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Small builders for the f32 bookkeeping code that loss scaling and training
// steps generate: elementwise maps over same-shaped tensors, full reductions
// to a 0-d tensor, and 0-d tensor <-> scalar conversions.
//
//===----------------------------------------------------------------------===//

#ifndef MP_UTILS_TENSORMATH_H
#define MP_UTILS_TENSORMATH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
class RewriterBase;
namespace linalg {
class GenericOp;
class LinalgOp;
} // namespace linalg
namespace mp {

/// Builds the body of a linalg.generic from the scalar block arguments
/// (inputs, then outputs) and returns the values to yield.
using ScalarBodyBuilder = function_ref<SmallVector<Value>(
    OpBuilder &b, Location loc, ValueRange args)>;

/// An all-parallel linalg.generic over `inputs` (same shape) producing one
/// new tensor of that shape per entry of `resultElementTypes`.
SmallVector<Value> createElementwise(OpBuilder &b, Location loc,
                                     ValueRange inputs,
                                     TypeRange resultElementTypes,
                                     ScalarBodyBuilder body);

/// Reduces every element of `input` into the 0-d tensor `init` with `body`
/// (arguments: element, accumulator; returns the new accumulator).
Value createFullReduction(OpBuilder &b, Location loc, Value input, Value init,
                          ScalarBodyBuilder body);

/// A tensor of `type` (static shape) filled with zeros (false for i1).
Value createZeros(OpBuilder &b, Location loc, RankedTensorType type);

/// The element of a 0-d tensor.
Value extractScalar(OpBuilder &b, Location loc, Value tensor);

/// A 0-d tensor holding `scalar`.
Value fromScalar(OpBuilder &b, Location loc, Value scalar);

/// `x` as f32 (widened if it is f16/bf16).
Value toF32(OpBuilder &b, Location loc, Value x);

/// Rebuilds the body of a named structured op (linalg.matmul, conv...) from
/// the current types of its block arguments, through `rewriter`.
void regenerateNamedOpBody(RewriterBase &rewriter, linalg::LinalgOp op);

/// Whether the body of `op` (two inputs, one output) is exactly
/// `acc + ext(a) * ext(b)`, in either order (ext: arith.extf to the
/// accumulator's type, or none): what linalg.contract computes.
bool isMultiplyAccumulate(linalg::LinalgOp op);

/// The bytes of a tensor or memref of static shape and integer or float
/// elements (each a whole number of bytes), if `value` is one.
std::optional<int64_t> getStaticBytes(Value value);

/// Whether computing a value in each of its `readers` from `inputs` bytes
/// moves no more memory than a kernel of its own, which reads the inputs
/// once and writes its `result` bytes for each reader to read: R x inputs
/// against inputs + result + R x result. `epilogue` of the input bytes are
/// a GEMM epilogue's to compute: kept, the value is computed from them in
/// registers (they cost nothing); recomputed, they are stored and read
/// (they cost once more). With any, a tie counts as kept. `shared` of the
/// input bytes are read by other kernels anyway (a softmax's scores, which
/// its reductions read), which the value's own kernel may join: kept, they
/// cost nothing either.
bool isCheaperRecomputed(int64_t readers, int64_t inputs, int64_t result,
                         int64_t epilogue = 0, int64_t shared = 0);

/// Whether `op` is a transpose as a `linalg.generic` on tensors: all loops
/// parallel, one input read at a permutation of them, one result written
/// at them, the input yielded unchanged.
bool isTensorTranspose(Operation *op);

/// `op` as a `linalg.contract` with its indexing maps if isMultiplyAccumulate
/// holds: the form that vectorizes to one vector.contract (a generic
/// vectorizes to a product and a multi-reduction); failure otherwise.
FailureOr<linalg::LinalgOp> rewriteAsNamedContraction(RewriterBase &rewriter,
                                                      linalg::GenericOp op);

} // namespace mp
} // namespace mlir

#endif // MP_UTILS_TENSORMATH_H
