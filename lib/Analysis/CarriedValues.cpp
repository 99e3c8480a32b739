//===- CarriedValues.cpp - Values carried through regions -------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/CarriedValues.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace mlir::mp;

CarriedValues::CarriedValues(Operation *op) {
  auto branch = cast<RegionBranchOpInterface>(op);
  // Every operand that flows somewhere, and where: from the op into its
  // regions or results, from terminators into regions or results.
  RegionBranchSuccessorMapping mapping;
  branch.getSuccessorOperandInputMapping(mapping);

  // Inputs fed by one operand share a type: join them.
  llvm::EquivalenceClasses<Value> classes;
  for (auto &[operand, inputs] : mapping)
    for (Value input : inputs)
      classes.unionSets(inputs.front(), input);

  // Number the classes by their first value, region arguments first.
  DenseMap<Value, unsigned> slotOfLeader;
  auto visit = [&](Value value) {
    if (!classes.contains(value))
      return;
    Value leader = classes.getLeaderValue(value);
    auto [it, inserted] = slotOfLeader.try_emplace(leader, slots.size());
    if (inserted)
      slots.emplace_back();
    slots[it->second].values.push_back(value);
    slotOfValue[value] = it->second;
  };
  for (Region &region : op->getRegions())
    if (!region.empty())
      for (BlockArgument arg : region.front().getArguments())
        visit(arg);
  for (Value result : op->getResults())
    visit(result);

  // Operands in a deterministic order: the op's, then the terminators'.
  auto addFeeder = [&](OpOperand &operand) {
    auto it = mapping.find(&operand);
    if (it == mapping.end() || it->second.empty())
      return;
    unsigned slot = slotOfValue.lookup(it->second.front());
    bool loops = operand.getOwner() != op &&
                 llvm::any_of(it->second, llvm::IsaPred<BlockArgument>);
    slots[slot].feeders.push_back({&operand, loops});
    slotOfFeeder[&operand] = slot;
  };
  for (OpOperand &operand : op->getOpOperands())
    addFeeder(operand);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (!block.empty())
        for (OpOperand &operand : block.back().getOpOperands())
          addFeeder(operand);
}

std::optional<unsigned> CarriedValues::getSlotOf(Value value) const {
  auto it = slotOfValue.find(value);
  if (it == slotOfValue.end())
    return std::nullopt;
  return it->second;
}

std::optional<unsigned> CarriedValues::getSlotFedBy(OpOperand &operand) const {
  auto it = slotOfFeeder.find(&operand);
  if (it == slotOfFeeder.end())
    return std::nullopt;
  return it->second;
}

/// True if operands of `op` and of its regions' terminators are all the
/// interface says flows into its carried values. Not so for scf.forall
/// (whose terminator inserts into the shared outputs through ops of its own)
/// or scf.parallel with scf.reduce (whose reductions have regions whose
/// arguments would change type too): those ops stay outside the model.
bool mp::carriesValues(Operation *op) {
  if (!isa<RegionBranchOpInterface>(op))
    return false;
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      if (block.empty())
        return false;
      Operation *terminator = &block.back();
      if (!isa<RegionBranchTerminatorOpInterface>(terminator) ||
          terminator->getNumRegions() != 0)
        return false;
    }
  return true;
}

const CarriedValues *CarriedValueCache::lookup(Operation *op) const {
  if (!op || !carriesValues(op))
    return nullptr;
  std::unique_ptr<CarriedValues> &entry = cache[op];
  if (!entry)
    entry = std::make_unique<CarriedValues>(op);
  return entry.get();
}

std::optional<std::pair<Operation *, unsigned>>
CarriedValueCache::getSlotOf(Value value) const {
  Operation *owner = isa<OpResult>(value)
                         ? value.getDefiningOp()
                         : cast<BlockArgument>(value).getOwner()->getParentOp();
  const CarriedValues *carried = lookup(owner);
  if (!carried)
    return std::nullopt;
  std::optional<unsigned> slot = carried->getSlotOf(value);
  if (!slot)
    return std::nullopt;
  return std::make_pair(owner, *slot);
}
