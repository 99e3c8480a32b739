//===- CarriedValues.h - Values carried through regions ---------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// An op with regions that implements RegionBranchOpInterface (scf.for,
// scf.while, scf.if, affine.for, ...) carries values: its operands and the
// operands of its regions' terminators flow into region arguments and into
// its results. Values fed by one operand must have one type, so they are
// retyped together: they form a slot. The painter gives each slot one
// precision; the type plan retypes its values and casts its feeders. Ops
// outside this model (scf.forall...) are ops like others: in no list, they
// keep f32.
//
//===----------------------------------------------------------------------===//

#ifndef MP_ANALYSIS_CARRIEDVALUES_H
#define MP_ANALYSIS_CARRIEDVALUES_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>

namespace mlir {
namespace mp {

/// An operand flowing into a slot.
struct SlotFeeder {
  OpOperand *operand;
  /// True when it flows into region arguments from inside the op (a loop's
  /// back edge, scf.while's condition): the value is carried around.
  bool loops;
};

/// The slots of one op. They are numbered by their first value, taking the
/// entry arguments of the regions in order, then the results: scf.for has
/// one slot per iter_arg (with its result), scf.while its `before`
/// arguments then its results (with the `after` arguments), scf.if its
/// results.
class CarriedValues {
public:
  explicit CarriedValues(Operation *op);

  unsigned getNumSlots() const { return slots.size(); }
  /// The region arguments and results in `slot`, which share a type.
  ArrayRef<Value> getValues(unsigned slot) const { return slots[slot].values; }
  Type getType(unsigned slot) const {
    return getValues(slot).front().getType();
  }
  ArrayRef<SlotFeeder> getFeeders(unsigned slot) const {
    return slots[slot].feeders;
  }
  /// The slot of a result or region argument of the op.
  std::optional<unsigned> getSlotOf(Value value) const;
  /// The slot `operand` (of the op or of one of its regions' terminators)
  /// feeds, if it feeds one.
  std::optional<unsigned> getSlotFedBy(OpOperand &operand) const;

private:
  struct Slot {
    SmallVector<Value, 2> values;
    SmallVector<SlotFeeder, 2> feeders;
  };
  SmallVector<Slot> slots;
  DenseMap<Value, unsigned> slotOfValue;
  DenseMap<OpOperand *, unsigned> slotOfFeeder;
};

/// Whether `op` is in the model: it implements RegionBranchOpInterface and
/// its region terminators say where every value goes
/// (RegionBranchTerminatorOpInterface without regions). Not so for
/// scf.forall or scf.parallel with scf.reduce.
bool carriesValues(Operation *op);

/// CarriedValues of the ops an analysis meets, computed once each.
class CarriedValueCache {
public:
  /// Null for ops outside the model (see carriesValues).
  const CarriedValues *lookup(Operation *op) const;
  /// The slot of `value` if it is carried (a result or region argument of
  /// an op with slots).
  std::optional<std::pair<Operation *, unsigned>> getSlotOf(Value value) const;

private:
  mutable DenseMap<Operation *, std::unique_ptr<CarriedValues>> cache;
};

} // namespace mp
} // namespace mlir

#endif // MP_ANALYSIS_CARRIEDVALUES_H
