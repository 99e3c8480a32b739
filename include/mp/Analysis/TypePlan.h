//===- TypePlan.h - Planned types of a painted graph ------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Reads the precisions that mp-classify-precision wrote (`mp.precision`,
// `mp.accumulator`) and computes, without changing the IR, the type every
// value will have after mp-insert-casts and every use that needs a cast.
// mp-insert-casts applies the plan; the report counts its casts.
//
//===----------------------------------------------------------------------===//

#ifndef MP_ANALYSIS_TYPEPLAN_H
#define MP_ANALYSIS_TYPEPLAN_H

#include "mp/Analysis/CarriedValues.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace mlir {
namespace mp {

class TypePlan {
public:
  /// Plans `root`. Fails, after an error at the offending op, on malformed
  /// mp attributes.
  static FailureOr<TypePlan> build(Operation *root);

  /// The type of `value` after the rewrite.
  Type getNewType(Value value) const {
    return newTypes.lookup(value) ? newTypes.lookup(value) : value.getType();
  }

  /// A use whose value must be cast to `type` first.
  struct CastUse {
    OpOperand *use;
    Type type;
  };
  ArrayRef<CastUse> getCastUses() const { return castUses; }

  /// Values whose type changes, with their new type, in IR order.
  ArrayRef<std::pair<Value, Type>> getRetypedValues() const { return retyped; }

  /// Constants whose value is converted to a low-precision type.
  ArrayRef<Operation *> getConvertedConstants() const { return constants; }

  /// Named structured ops (linalg.matmul...) whose body is rebuilt from its
  /// types after the rewrite.
  ArrayRef<Operation *> getRegeneratedBodies() const { return regenerated; }

  /// Functions whose signature changes, with their new type: a function with
  /// `mp.precision = P` takes an f32 argument in P when every use of it wants
  /// P, and returns P where the returned value is P.
  ArrayRef<std::pair<Operation *, FunctionType>> getNewFunctionTypes() const {
    return functionTypes;
  }

  /// Number of distinct (value, type) casts the rewrite inserts (a use of a
  /// tensor.empty of another type gets a new tensor.empty, not a cast).
  unsigned getNumCasts() const;

private:
  Type expectedType(OpOperand &use) const;
  void retype(Value value, Type type);
  LogicalResult planOp(Operation *op);
  void planFunctionBoundaries(Operation *fn, Precision precision);
  /// The new type of the function called by `op`, if it changes.
  std::optional<FunctionType> getNewCalleeType(Operation *op) const;

  /// Compute precision of ops (painted ops and ops inside low bodies).
  CarriedValueCache carried;
  DenseMap<Operation *, Precision> computePrecision;
  /// Accumulator precision of low structured ops that accumulate.
  DenseMap<Operation *, Precision> accumulators;
  DenseMap<Value, Type> newTypes;
  std::vector<std::pair<Value, Type>> retyped;
  std::vector<CastUse> castUses;
  std::vector<Operation *> constants;
  std::vector<Operation *> regenerated;
  std::vector<std::pair<Operation *, Precision>> boundaryFunctions;
  std::vector<std::pair<Operation *, FunctionType>> functionTypes;
  DenseMap<Operation *, FunctionType> newFunctionTypes;
};

} // namespace mp
} // namespace mlir

#endif // MP_ANALYSIS_TYPEPLAN_H
