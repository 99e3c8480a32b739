//===- PrecisionAnalysis.cpp - AMP classification and painting --*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The painting follows TensorFlow's auto_mixed_precision (see
// docs/Design.md and docs/Classification.md):
//   1. allow-list ops go low;
//   2. deny spreads forward through infer/clear ops, ending at a deny or infer
//      op (clear ops on the way are painted deny only if the path reaches one);
//   3. infer/clear ops both downstream and upstream of low ops go low;
//   4. clear ops connected to low ops through clear ops go low;
//   5. a loop-carried value goes low only if the loop body yields it low.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/PrecisionAnalysis.h"
#include "mp/Analysis/CarriedValues.h"
#include "mp/Analysis/Location.h"
#include "mp/Utils/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ParallelCombiningOpInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#include <deque>

using namespace mlir;
using namespace mlir::mp;

//===----------------------------------------------------------------------===//
// Op and type predicates
//===----------------------------------------------------------------------===//

bool mlir::mp::isF32Like(Type type) {
  // Unranked tensors cannot be cast (arith.truncf needs ranked shapes):
  // ops on them keep their precision.
  if (isa<RankedTensorType, VectorType>(type))
    type = cast<ShapedType>(type).getElementType();
  return type.isF32();
}

namespace {
/// How the types of an op relate to the AMP rewrite.
enum class TypeFit {
  /// No floating-point operand or result.
  NoFloat,
  /// Every float operand/result is f32 (tensor, vector or scalar).
  F32,
  /// Some float value has another type (f64, f16, complex, memref...).
  Foreign,
};
} // namespace

static TypeFit getTypeFit(Operation *op) {
  bool anyF32 = false;
  auto check = [&](Type type) {
    Type elem = type;
    if (auto shaped = dyn_cast<ShapedType>(type))
      elem = shaped.getElementType();
    if (!isa<FloatType, ComplexType>(elem))
      return true;
    if (!isF32Like(type))
      return false;
    anyF32 = true;
    return true;
  };
  for (Type t : op->getOperandTypes())
    if (!check(t))
      return TypeFit::Foreign;
  for (Type t : op->getResultTypes())
    if (!check(t))
      return TypeFit::Foreign;
  return anyF32 ? TypeFit::F32 : TypeFit::NoFloat;
}

bool mlir::mp::isF32Op(Operation *op) { return getTypeFit(op) == TypeFit::F32; }

/// Verifies a copy of `op` whose f32 operands and results take `elem`,
/// placed right before `op` (verifiers may look at the parent op) and erased
/// again (diagnostics dropped).
static LogicalResult verifyRetyped(Operation *op, Type elem) {
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  OpBuilder b(op);
  auto retype = [&](Type type) {
    return isF32Like(type) ? withElementType(type, elem) : type;
  };
  IRMapping mapping;
  SmallVector<Operation *> scratch;
  for (Value operand : op->getOperands()) {
    auto cast = UnrealizedConversionCastOp::create(
        b, op->getLoc(), retype(operand.getType()), ValueRange{});
    scratch.push_back(cast);
    mapping.map(operand, cast.getResult(0));
  }
  Operation *copy = b.clone(*op, mapping);
  scratch.push_back(copy);
  for (OpResult result : copy->getResults())
    result.setType(retype(result.getType()));
  LogicalResult verified = verify(copy, /*verifyRecursively=*/false);
  for (Operation *scratchOp : llvm::reverse(scratch))
    scratchOp->erase();
  return verified;
}

bool mlir::mp::acceptsElementType(Operation *op, Type low) {
  // Constants are converted value by value (constantOverflows); region ops
  // are retyped with their bodies or carried values, when mp models them
  // (not scf.forall: its shared outputs would keep f32).
  if (op->getNumRegions() != 0)
    return isa<linalg::LinalgOp, tensor::PadOp, tensor::GenerateOp>(op) ||
           carriesValues(op);
  if (isa<arith::ConstantOp>(op))
    return true;
  // What scf.forall.in_parallel combines goes into the shared outputs, which
  // keep their types.
  if (isa_and_nonnull<InParallelOpInterface>(op->getParentOp()))
    return false;
  // Constraints a copy cannot meet (a terminator's place) say nothing of
  // types: only a copy that verifies in f32 and fails in `low` rejects it.
  return succeeded(verifyRetyped(op, low)) ||
         failed(verifyRetyped(op, Float32Type::get(op->getContext())));
}

LogicalResult mlir::mp::emitCallRetypeError(Operation *call,
                                            StringRef attrName) {
  return call->emitError()
         << "'" << attrName
         << "' cannot change a call's types: they are its callee's (set '"
         << MPDialect::SignaturePrecisionAttrHelper::getNameStr()
         << "' on the callee)";
}

bool mlir::mp::isElementTypeAgnostic(Operation *op) {
  return isa<tensor::DimOp, tensor::RankOp>(op);
}

/// Ops whose regions are a body computing each element (not a graph).
static bool hasBodyRegions(Operation *op) {
  return isa<linalg::LinalgOp, tensor::PadOp, tensor::GenerateOp>(op);
}

static bool isArithmeticCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             math::FmaOp>(op);
}

bool mlir::mp::isArithmeticAccumulation(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumReductionLoops() == 0 ||
      op->getNumRegions() == 0 || op->getRegion(0).empty())
    return false;
  return llvm::any_of(
      linalgOp.getBlock()->getOperations(),
      [](Operation &bodyOp) { return isArithmeticCombiner(&bodyOp); });
}

std::optional<Precision> mlir::mp::getOverride(Operation *op) {
  for (Operation *cur = op; cur; cur = cur->getParentOp())
    if (auto attr = cur->getAttrOfType<PrecisionAttr>(
            MPDialect::OverrideAttrHelper::getNameStr()))
      return attr.getValue();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

namespace {
struct Classification {
  std::optional<PrecisionClass> cls;
  std::string key;
  /// Set when the class was derived from an op in a structured op's body.
  bool fromBody = false;
};
} // namespace

/// Classifies a structured op from the ops of its body: deny if one is deny,
/// unknown if one is unknown or has foreign types, else infer if one is
/// infer, else clear.
static Classification classifyBody(linalg::LinalgOp op, const Policy &policy) {
  Classification result{PrecisionClass::clear, "", true};
  for (Operation &bodyOp : op.getBlock()->without_terminator()) {
    TypeFit fit = getTypeFit(&bodyOp);
    if (fit == TypeFit::NoFloat)
      continue;
    std::string name = bodyOp.getName().getStringRef().str();
    std::optional<PrecisionClass> cls =
        fit == TypeFit::F32 && bodyOp.getNumRegions() == 0 ? policy.lookup(name)
                                                           : std::nullopt;
    if (!cls)
      return Classification{std::nullopt, name, true};
    if (*cls == PrecisionClass::deny)
      return Classification{cls, name, true};
    if (*cls != PrecisionClass::clear && result.cls == PrecisionClass::clear) {
      result.cls = PrecisionClass::infer;
      result.key = name;
    }
    if (result.key.empty())
      result.key = name;
  }
  if (result.key.empty())
    result.key = "linalg.yield";
  return result;
}

static Classification classify(Operation *op, const Policy &policy) {
  std::string name = op->getName().getStringRef().str();
  if (std::optional<PrecisionClass> cls = policy.lookup(name))
    return Classification{cls, name};
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return Classification{std::nullopt, name};
  StringRef key;
  if (linalg::isaContractionOpInterface(linalgOp))
    key = "linalg:contraction";
  else if (linalg::isaConvolutionOpInterface(linalgOp))
    key = "linalg:convolution";
  else if (isArithmeticAccumulation(op))
    key = "linalg:additive-reduction";
  if (!key.empty())
    if (std::optional<PrecisionClass> cls = policy.lookup(key))
      return Classification{cls, key.str()};
  return classifyBody(linalgOp, policy);
}

/// Returns true if an f32 constant holds a finite value that `low` cannot.
static bool constantOverflows(arith::ConstantOp op, Precision low) {
  if (!isa<FloatAttr, DenseFPElementsAttr>(op.getValue()))
    return false;
  Type lowType =
      withElementType(op.getType(), getFloatType(op.getContext(), low));
  return failed(convertFloatConstant(op.getValue(), lowType));
}

//===----------------------------------------------------------------------===//
// Graph construction
//===----------------------------------------------------------------------===//

namespace {
class Painter {
public:
  Painter(const Policy &policy, const PrecisionAnalysisOptions &opts)
      : policy(policy), opts(opts), low(policy.getLowPrecision()) {}

  LogicalResult build(Operation *root);
  void paint();
  PrecisionGraph take() { return PrecisionGraph{std::move(nodes)}; }

private:
  /// Effective role of a node during painting.
  enum class Role { Allow, Deny, Infer, Clear, Fixed };

  unsigned addNode(Operation *op, int slot);
  LogicalResult collect(Region &region);
  LogicalResult addOpNode(Operation *op);
  LogicalResult addCarriedSlots(Operation *op, const CarriedValues &carried);
  /// Applies the mp.override that covers `op` to node `idx`; returns whether
  /// there is one, and fails on a precision the passes do not support.
  FailureOr<bool> applyOverride(Operation *op, unsigned idx);
  std::optional<unsigned> nodeOf(Value value) const;
  void addEdge(Value from, unsigned to);
  void addEdges();
  /// Values that flow into the carried slot `slot` of `op`; with
  /// `loopsOnly`, only those carried around a loop (SlotFeeder::loops).
  SmallVector<Value> getSlotFeeders(Operation *op, int slot,
                                    bool loopsOnly) const;

  void propagateDeny();
  void paintBetweenAllow();
  void spreadAllowThroughClear();
  void demoteClearWithoutLowConsumer();
  void demoteLoopSlotsFedInF32();
  void keepReturnedValuesExact();
  void lowerExactConversions();
  /// The node of `op` or of the op whose body holds it.
  std::optional<unsigned> enclosingNode(Operation *op) const;
  std::string describe(unsigned node) const;
  std::string listReason(const PrecisionNode &node) const;

  const Policy &policy;
  const PrecisionAnalysisOptions &opts;
  Precision low;
  std::vector<PrecisionNode> nodes;
  std::vector<Role> roles;
  DenseMap<Operation *, unsigned> opNodes;
  DenseMap<std::pair<Operation *, int>, unsigned> slotNodes;
  CarriedValueCache carried;
};
} // namespace

unsigned Painter::addNode(Operation *op, int slot) {
  unsigned idx = nodes.size();
  nodes.emplace_back();
  nodes.back().op = op;
  nodes.back().slot = slot;
  roles.push_back(Role::Clear);
  if (slot < 0)
    opNodes[op] = idx;
  else
    slotNodes[{op, slot}] = idx;
  return idx;
}

FailureOr<bool> Painter::applyOverride(Operation *op, unsigned idx) {
  std::optional<Precision> forced = getOverride(op);
  if (!forced)
    return false;
  if (*forced != Precision::f32 && *forced != Precision::f16 &&
      *forced != Precision::bf16)
    return emitError(op->getLoc())
           << "mp.override with " << stringifyPrecision(*forced)
           << " is not supported yet; use f32, f16 or bf16";
  PrecisionNode &node = nodes[idx];
  node.overridden = true;
  node.precision = *forced;
  roles[idx] = *forced == Precision::f32 ? Role::Deny : Role::Allow;
  node.reason = "override: " + stringifyPrecision(*forced).str();
  return true;
}

LogicalResult Painter::addCarriedSlots(Operation *op,
                                       const CarriedValues &slots) {
  for (unsigned i = 0, e = slots.getNumSlots(); i < e; ++i) {
    if (!isF32Like(slots.getType(i)))
      continue;
    unsigned idx = addNode(op, i);
    nodes[idx].cls = PrecisionClass::clear;
    nodes[idx].key = op->getName().getStringRef().str();
    if (failed(applyOverride(op, idx)))
      return failure();
  }
  return success();
}

LogicalResult Painter::addOpNode(Operation *op) {
  TypeFit fit = getTypeFit(op);
  if (fit == TypeFit::Foreign) {
    if (opts.remarks)
      emitRemark(op->getLoc())
          << "mp: left in its precision: it has floating-point "
             "values that are not f32";
    return success();
  }
  if (fit == TypeFit::NoFloat)
    return success();
  unsigned idx = addNode(op, -1);
  Classification c = classify(op, policy);
  PrecisionNode &node = nodes[idx];
  node.cls = c.cls;
  node.key = c.key;
  if (auto own = op->getAttrOfType<PrecisionAttr>(
          MPDialect::OverrideAttrHelper::getNameStr());
      own && own.getValue() != Precision::f32 && isa<CallOpInterface>(op))
    return emitCallRetypeError(op, MPDialect::OverrideAttrHelper::getNameStr());
  if (!acceptsElementType(op, getFloatType(op->getContext(), low))) {
    auto own = op->getAttrOfType<PrecisionAttr>(
        MPDialect::OverrideAttrHelper::getNameStr());
    if (own && own.getValue() != Precision::f32)
      return op->emitError()
             << "'" << MPDialect::OverrideAttrHelper::getNameStr()
             << "' asks for " << stringifyPrecision(own.getValue())
             << ", but this op's operand and result types must stay f32";
    roles[idx] = Role::Fixed;
    node.reason = "its types must stay f32";
    if (opts.remarks)
      emitRemark(op->getLoc())
          << "mp: '" << node.key
          << "' stays f32: its operand and result types cannot change";
    return success();
  }
  FailureOr<bool> overridden = applyOverride(op, idx);
  if (failed(overridden))
    return failure();
  if (*overridden)
    return success();
  if (!c.cls) {
    roles[idx] = Role::Fixed;
    node.reason = c.fromBody ? "body op " + c.key + " is in no list: keeps f32"
                             : "in no list: keeps f32";
    if (opts.remarks)
      emitRemark(op->getLoc())
          << "mp: '" << (c.fromBody ? c.key : node.key)
          << "' is in no precision list; the op stays f32 (add "
             "it to a list with the policy options)";
    return success();
  }
  if (isa<CallOpInterface>(op)) {
    roles[idx] = Role::Fixed;
    node.reason = "a call keeps its callee's types (mp.signature_precision "
                  "changes them)";
    return success();
  }
  if (auto cst = dyn_cast<arith::ConstantOp>(op);
      cst && constantOverflows(cst, low)) {
    emitWarning(cst.getLoc())
        << "constant does not fit in " << stringifyPrecision(low)
        << " (values overflow to inf); it stays f32";
    roles[idx] = Role::Deny;
    node.cls = PrecisionClass::deny;
    node.reason = "constant overflows " + stringifyPrecision(low).str();
    return success();
  }
  switch (*c.cls) {
  case PrecisionClass::allow:
    roles[idx] = Role::Allow;
    break;
  case PrecisionClass::deny:
    roles[idx] = Role::Deny;
    break;
  case PrecisionClass::infer:
    roles[idx] = policy.getLevel() == PolicyLevel::TreatInferAsDeny
                     ? Role::Deny
                     : Role::Infer;
    break;
  case PrecisionClass::clear:
    roles[idx] = Role::Clear;
    break;
  }
  return success();
}

LogicalResult Painter::collect(Region &region) {
  for (Block &block : region) {
    for (Operation &op : block) {
      // tensor.empty holds no data: each use gets an empty tensor of the type
      // it needs, so it never joins the graph.
      if (op.hasTrait<OpTrait::IsTerminator>() || isElementTypeAgnostic(&op) ||
          isa<tensor::EmptyOp>(op))
        continue;
      const CarriedValues *slots = carried.lookup(&op);
      if (failed(slots ? addCarriedSlots(&op, *slots) : addOpNode(&op)))
        return failure();
      if (hasBodyRegions(&op))
        continue;
      for (Region &nested : op.getRegions())
        if (failed(collect(nested)))
          return failure();
    }
  }
  return success();
}

std::optional<unsigned> Painter::nodeOf(Value value) const {
  if (std::optional<std::pair<Operation *, unsigned>> slot =
          carried.getSlotOf(value)) {
    auto it = slotNodes.find({slot->first, static_cast<int>(slot->second)});
    if (it == slotNodes.end())
      return std::nullopt;
    return it->second;
  }
  auto result = dyn_cast<OpResult>(value);
  if (!result || carried.lookup(result.getOwner()))
    return std::nullopt;
  auto it = opNodes.find(result.getOwner());
  if (it == opNodes.end())
    return std::nullopt;
  return it->second;
}

void Painter::addEdge(Value from, unsigned to) {
  std::optional<unsigned> src = nodeOf(from);
  if (!src || *src == to)
    return;
  nodes[*src].succs.push_back(to);
  nodes[to].preds.push_back(*src);
}

SmallVector<Value> Painter::getSlotFeeders(Operation *op, int slot,
                                           bool loopsOnly) const {
  SmallVector<Value> feeders;
  for (const SlotFeeder &feeder : carried.lookup(op)->getFeeders(slot))
    if (!loopsOnly || feeder.loops)
      feeders.push_back(feeder.operand->get());
  return feeders;
}

void Painter::addEdges() {
  for (unsigned idx = 0, e = nodes.size(); idx < e; ++idx) {
    Operation *op = nodes[idx].op;
    if (nodes[idx].slot >= 0) {
      for (Value feeder : getSlotFeeders(op, nodes[idx].slot, false))
        addEdge(feeder, idx);
      continue;
    }
    // An f32 accumulator does not follow the precision of its op: its
    // initial value is not connected to the op.
    bool f32Accumulator =
        !opts.lowPrecisionAccumulation && isArithmeticAccumulation(op);
    for (OpOperand &operand : op->getOpOperands())
      if (!f32Accumulator ||
          !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand))
        addEdge(operand.get(), idx);
    if (hasBodyRegions(op)) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(op->getRegions(), captured);
      for (Value value : captured)
        addEdge(value, idx);
    }
  }
}

LogicalResult Painter::build(Operation *root) {
  for (Region &region : root->getRegions())
    if (failed(collect(region)))
      return failure();
  addEdges();
  return success();
}

//===----------------------------------------------------------------------===//
// Painting
//===----------------------------------------------------------------------===//

std::string Painter::describe(unsigned idx) const {
  const PrecisionNode &node = nodes[idx];
  std::string text = node.op->getName().getStringRef().str();
  if (node.slot >= 0)
    text += " (carried value #" + std::to_string(node.slot) + ")";
  return text + " at " + formatLocation(node.op->getLoc());
}

std::string Painter::listReason(const PrecisionNode &node) const {
  std::string text =
      (stringifyPrecisionClass(*node.cls) + " list: " + node.key).str();
  return node.slot < 0 && isa<linalg::LinalgOp>(node.op) &&
                 node.key != node.op->getName().getStringRef() &&
                 node.key.find(':') == std::string::npos
             ? text + " (in the body)"
             : text;
}

void Painter::propagateDeny() {
  // Forward search from deny nodes through infer/clear nodes.
  std::vector<int> origin(nodes.size(), -1);
  std::deque<unsigned> queue;
  for (unsigned i = 0; i < nodes.size(); ++i)
    if (roles[i] == Role::Deny) {
      origin[i] = i;
      queue.push_back(i);
    }
  std::vector<bool> reached(nodes.size(), false);
  while (!queue.empty()) {
    unsigned cur = queue.front();
    queue.pop_front();
    for (unsigned next : nodes[cur].succs) {
      if (reached[next] ||
          (roles[next] != Role::Infer && roles[next] != Role::Clear))
        continue;
      reached[next] = true;
      origin[next] = origin[cur];
      queue.push_back(next);
    }
  }
  // A reached node is painted deny if the path goes on to an infer or deny
  // node: search backwards from such end points within the reached set.
  std::vector<bool> marked(nodes.size(), false);
  for (unsigned i = 0; i < nodes.size(); ++i) {
    if (!reached[i])
      continue;
    bool isEnd = roles[i] == Role::Infer ||
                 llvm::any_of(nodes[i].succs, [&](unsigned s) {
                   return roles[s] == Role::Deny;
                 });
    if (isEnd && !marked[i]) {
      marked[i] = true;
      queue.push_back(i);
    }
  }
  while (!queue.empty()) {
    unsigned cur = queue.front();
    queue.pop_front();
    for (unsigned prev : nodes[cur].preds)
      if (reached[prev] && !marked[prev]) {
        marked[prev] = true;
        queue.push_back(prev);
      }
  }
  for (unsigned i = 0; i < nodes.size(); ++i) {
    if (!marked[i])
      continue;
    roles[i] = Role::Deny;
    nodes[i].reason = "propagated deny from " + describe(origin[i]) + " (" +
                      listReason(nodes[i]) + ")";
  }
}

void Painter::paintBetweenAllow() {
  auto search = [&](bool forward) {
    std::vector<bool> seen(nodes.size(), false);
    std::deque<unsigned> queue;
    for (unsigned i = 0; i < nodes.size(); ++i)
      if (roles[i] == Role::Allow)
        queue.push_back(i);
    while (!queue.empty()) {
      unsigned cur = queue.front();
      queue.pop_front();
      for (unsigned next : forward ? nodes[cur].succs : nodes[cur].preds) {
        if (seen[next] ||
            (roles[next] != Role::Infer && roles[next] != Role::Clear))
          continue;
        seen[next] = true;
        queue.push_back(next);
      }
    }
    return seen;
  };
  std::vector<bool> downstream = search(true), upstream = search(false);
  for (unsigned i = 0; i < nodes.size(); ++i) {
    if (!downstream[i] || !upstream[i])
      continue;
    roles[i] = Role::Allow;
    nodes[i].reason =
        "between low-precision ops (" + listReason(nodes[i]) + ")";
  }
}

void Painter::spreadAllowThroughClear() {
  std::deque<unsigned> queue;
  for (unsigned i = 0; i < nodes.size(); ++i)
    if (roles[i] == Role::Allow)
      queue.push_back(i);
  while (!queue.empty()) {
    unsigned cur = queue.front();
    queue.pop_front();
    auto visit = [&](unsigned next) {
      if (roles[next] != Role::Clear)
        return;
      roles[next] = Role::Allow;
      nodes[next].reason = "clear op next to low-precision " + describe(cur) +
                           " (" + listReason(nodes[next]) + ")";
      queue.push_back(next);
    };
    llvm::for_each(nodes[cur].succs, visit);
    llvm::for_each(nodes[cur].preds, visit);
  }
}

/// A clear node painted low whose consumers all stay f32 would only round
/// its value and add casts (e.g. a slice of an f32 accumulator that is
/// stored, or an scf.if returning exp(x) in one branch): it stays f32.
/// Repeated until no node changes, so chains of such nodes all stay f32.
void Painter::demoteClearWithoutLowConsumer() {
  bool changed = true;
  while (changed) {
    changed = false;
    for (unsigned i = 0; i < nodes.size(); ++i) {
      PrecisionNode &node = nodes[i];
      if (roles[i] != Role::Allow || node.overridden ||
          node.cls != PrecisionClass::clear)
        continue;
      if (llvm::any_of(node.succs,
                       [&](unsigned s) { return roles[s] == Role::Allow; }))
        continue;
      roles[i] = Role::Clear;
      node.reason = listReason(node) + "; no low-precision consumer";
      changed = true;
    }
  }
}

void Painter::demoteLoopSlotsFedInF32() {
  for (unsigned i = 0; i < nodes.size(); ++i) {
    PrecisionNode &node = nodes[i];
    if (node.slot < 0 || roles[i] != Role::Allow || node.overridden)
      continue;
    for (Value feeder : getSlotFeeders(node.op, node.slot, true)) {
      std::optional<unsigned> src = nodeOf(feeder);
      if (!src || roles[*src] == Role::Allow)
        continue;
      roles[i] = Role::Clear;
      node.reason = "loop-carried value produced in f32 by " + describe(*src) +
                    "; kept f32 so the loop needs no cast";
      break;
    }
  }
}

/// True if a result of `op` is returned by its function.
static bool isReturned(Operation *op) {
  return llvm::any_of(op->getUsers(), [](Operation *user) {
    return user->hasTrait<OpTrait::ReturnLike>() &&
           isa<FunctionOpInterface>(user->getParentOp());
  });
}

void Painter::keepReturnedValuesExact() {
  if (opts.lowPrecisionBoundaries)
    return;
  for (unsigned i = 0; i < nodes.size(); ++i) {
    PrecisionNode &node = nodes[i];
    if (roles[i] != Role::Allow || node.overridden || node.slot >= 0 ||
        node.cls != PrecisionClass::clear || !isReturned(node.op))
      continue;
    roles[i] = Role::Clear;
    node.reason = listReason(node) +
                  "; returned by the function: kept f32, cast once for its "
                  "low consumers";
  }
}

std::optional<unsigned> Painter::enclosingNode(Operation *op) const {
  for (; op; op = op->getParentOp())
    if (auto it = opNodes.find(op); it != opNodes.end())
      return it->second;
  return std::nullopt;
}

/// True if `op` converts integers to floats that `low` holds exactly: an
/// uitofp from at most as many bits as the significand of `low`, a sitofp
/// from one bit more.
static bool isExactConversionTo(Operation *op, Type low) {
  if (!isa<arith::UIToFPOp, arith::SIToFPOp>(op))
    return false;
  auto in = dyn_cast<IntegerType>(getElementTypeOrSelf(op->getOperand(0)));
  if (!in)
    return false;
  unsigned digits = llvm::APFloat::semanticsPrecision(
      cast<FloatType>(low).getFloatSemantics());
  unsigned magnitudeBits =
      isa<arith::SIToFPOp>(op) ? in.getWidth() - 1 : in.getWidth();
  return magnitudeBits <= digits;
}

void Painter::lowerExactConversions() {
  if (nodes.empty())
    return;
  Type lowType = getFloatType(nodes.front().op->getContext(), low);
  for (unsigned i = 0; i < nodes.size(); ++i) {
    PrecisionNode &node = nodes[i];
    if ((roles[i] != Role::Infer && roles[i] != Role::Clear) ||
        node.overridden || node.slot >= 0 ||
        !isExactConversionTo(node.op, lowType) || node.op->use_empty())
      continue;
    bool onlyLowUsers = llvm::all_of(node.op->getUsers(), [&](Operation *u) {
      std::optional<unsigned> user = enclosingNode(u);
      return user && roles[*user] == Role::Allow;
    });
    if (!onlyLowUsers)
      continue;
    roles[i] = Role::Allow;
    node.reason = listReason(node) + "; exact in " +
                  stringifyPrecision(low).str() +
                  " and only low-precision consumers: converts to it "
                  "directly";
  }
}

void Painter::paint() {
  PolicyLevel level = policy.getLevel();
  if (level == PolicyLevel::UnsafeForceAll) {
    for (unsigned i = 0; i < nodes.size(); ++i)
      if (roles[i] != Role::Fixed && !nodes[i].overridden &&
          roles[i] != Role::Allow) {
        roles[i] = Role::Allow;
        nodes[i].reason = listReason(nodes[i]) + "; level unsafe-force-all";
      }
  } else if (level != PolicyLevel::TensorCoresOnly) {
    propagateDeny();
    paintBetweenAllow();
    spreadAllowThroughClear();
    keepReturnedValuesExact();
    demoteClearWithoutLowConsumer();
    lowerExactConversions();
    demoteLoopSlotsFedInF32();
  }
  for (unsigned i = 0; i < nodes.size(); ++i) {
    PrecisionNode &node = nodes[i];
    if (node.overridden)
      continue;
    node.precision = roles[i] == Role::Allow ? low : Precision::f32;
    if (!node.reason.empty())
      continue;
    if (roles[i] == Role::Allow || roles[i] == Role::Deny)
      node.reason = listReason(node);
    else if (level == PolicyLevel::TensorCoresOnly)
      node.reason = listReason(node) + "; level tensor-cores-only";
    else
      node.reason = listReason(node) + "; no low-precision neighbours";
  }
}

FailureOr<PrecisionGraph>
mlir::mp::paintPrecisions(Operation *root, const Policy &policy,
                          const PrecisionAnalysisOptions &opts) {
  Painter painter(policy, opts);
  if (failed(painter.build(root)))
    return failure();
  painter.paint();
  return painter.take();
}
