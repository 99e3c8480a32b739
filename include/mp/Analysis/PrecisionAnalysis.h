//===- PrecisionAnalysis.h - AMP classification and painting ----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Classifies every op of a function with a policy and paints the graph with
// TensorFlow's AMP algorithm, extended to MLIR regions. The analysis changes
// nothing; mp-classify-precision turns its result into attributes.
//
// Nodes of the graph are ops whose floating-point operands and results are
// all f32 (tensors, vectors or scalars), plus one node per value carried by
// scf.for / scf.while / scf.if (a "carried slot"), so that the init value, the
// region arguments, the yielded values and the results share one precision.
//
//===----------------------------------------------------------------------===//

#ifndef MP_ANALYSIS_PRECISIONANALYSIS_H
#define MP_ANALYSIS_PRECISIONANALYSIS_H

#include "mp/Analysis/Policy.h"

#include "mlir/IR/Operation.h"

#include <string>
#include <vector>

namespace mlir {
namespace mp {

/// One node of the painted graph.
struct PrecisionNode {
  Operation *op = nullptr;
  /// -1 for the op itself; otherwise the index of a carried slot of an op
  /// with regions (see CarriedValues).
  int slot = -1;
  /// The list class, or none for ops in no list ("unknown": they keep f32).
  std::optional<PrecisionClass> cls;
  /// The painted precision.
  Precision precision = Precision::f32;
  /// The list key that classified the op ("math.exp", "linalg:contraction").
  std::string key;
  /// Why the node got its precision.
  std::string reason;
  /// True when an override attribute fixed the precision.
  bool overridden = false;
  /// Graph edges (indices into PrecisionGraph::nodes), producers first.
  SmallVector<unsigned, 4> preds, succs;
};

struct PrecisionAnalysisOptions {
  /// Emit a remark on each op that is left alone because it is in no list or
  /// has types mp does not convert.
  bool remarks = false;
  /// Accumulators of ops that go low go low too (else they stay f32).
  bool lowPrecisionAccumulation = false;
  /// Values the function returns may be rounded to the low type (else a
  /// clear op whose result is returned stays f32).
  bool lowPrecisionBoundaries = false;
};

/// The painted graph of one function-like op.
struct PrecisionGraph {
  std::vector<PrecisionNode> nodes;
};

/// Classifies and paints `root` (usually a func.func). Emits warnings for
/// constants that overflow the low-precision type and, when asked, remarks.
/// Fails (after emitting an error) on an unsupported override.
FailureOr<PrecisionGraph> paintPrecisions(Operation *root, const Policy &policy,
                                          const PrecisionAnalysisOptions &opts);

/// True for f32 and for ranked tensors and vectors of f32 (unranked tensors
/// cannot be cast, so ops on them keep their precision).
bool isF32Like(Type type);

/// True if `op` has f32 values and every floating-point value it has is f32.
bool isF32Op(Operation *op);

/// False when `op` (without regions) would fail verification with its f32
/// values retyped to `low` (ops whose definition fixes f32 operands, such as
/// mp.update_scale): those keep f32 whatever the policy says.
bool acceptsElementType(Operation *op, Type low);

/// The error at `call` for an attribute (`attrName`: mp.override or
/// mp.precision) that asks to change its types, which are its callee's.
LogicalResult emitCallRetypeError(Operation *call, StringRef attrName);

/// True for structured ops that accumulate with arithmetic (contractions,
/// convolutions, sums): their accumulator stays f32 when they go low.
bool isArithmeticAccumulation(Operation *op);

/// True for ops that only read the shape of their operand (tensor.dim...):
/// they accept any element type, so no cast is needed before them.
bool isElementTypeAgnostic(Operation *op);

/// Returns the "mp.override" precision that applies to `op` (its own or the
/// innermost enclosing one).
std::optional<Precision> getOverride(Operation *op);

} // namespace mp
} // namespace mlir

#endif // MP_ANALYSIS_PRECISIONANALYSIS_H
