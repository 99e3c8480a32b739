//===- GemmFusion.cpp - Ops a GEMM on buffers computes besides ------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "GemmFusion.h"

#include "KernelMemory.h"
#include "MmaContraction.h"
#include "mp/Utils/Bufferization.h"
#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

using namespace mlir;
using namespace mlir::mp;

/// The most operations (besides `linalg.index` and the yield) in the body
/// of a producer that the copies of a contraction's operand tiles compute:
/// every block that reads a tile computes it again.
constexpr int64_t kMaxFusedProducerOps = 8;

/// Whether `op`, on buffers with all loops parallel, writes its one output
/// whole (identity map) and its body does not read it.
static bool writesWholeOutput(linalg::GenericOp op) {
  return op.getNumDpsInits() == 1 && op.getNumReductionLoops() == 0 &&
         op.hasPureBufferSemantics() &&
         op.getIndexingMapsArray().back().isIdentity() &&
         op.getRegion().front().getArguments().back().use_empty();
}

/// Whether the body of `op` holds, besides its terminator and the ops
/// `free` takes, at most kMaxFusedProducerOps ops, all taken by `allowed`.
static bool hasSmallBody(linalg::GenericOp op,
                         function_ref<bool(Operation &)> free,
                         function_ref<bool(Operation &)> allowed) {
  int64_t numOps = 0;
  for (Operation &inner : op.getRegion().front().without_terminator()) {
    if (free(inner))
      continue;
    if (!allowed(inner) || ++numOps > kMaxFusedProducerOps)
      return false;
  }
  return true;
}

/// Whether `inner` is a constant.
static bool isConstantOp(Operation &inner) {
  return matchPattern(&inner, m_Constant());
}

/// Whether `inner` is a pure elementwise op that works on vectors as well.
static bool isPureElementwise(Operation &inner) {
  return inner.hasTrait<OpTrait::Vectorizable>() && isMemoryEffectFree(&inner);
}

/// Whether `op` is a producer that copies into a Tensor Core contraction's
/// operand buffers may compute, element by element: all loops parallel, one
/// output written whole (identity map) and not read, inputs read through any
/// affine maps (permutations, broadcasts, a convolution's gather), and a
/// small body of pure operations, `linalg.index` and loads (a flipped
/// filter).
static bool isFusibleProducer(linalg::GenericOp op) {
  return writesWholeOutput(op) &&
         hasSmallBody(
             op, [](Operation &inner) { return isa<linalg::IndexOp>(inner); },
             [](Operation &inner) {
               return inner.getNumRegions() == 0 &&
                      (isMemoryEffectFree(&inner) ||
                       isa<memref::LoadOp>(inner));
             });
}

bool mlir::mp::isLoadingProducer(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1)
    return false;
  Block &body = op.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(0);
  if (yielded == body.getArgument(0))
    return true;
  auto trunc = yielded.getDefiningOp<arith::TruncFOp>();
  return trunc && trunc.getIn() == body.getArgument(0) &&
         body.getOperations().size() == 2;
}

bool mlir::mp::isVectorizableProducer(linalg::GenericOp op) {
  return isLoadingProducer(op) && op.getIndexingMapsArray()[0].isIdentity();
}

SmallVector<Value> mlir::mp::getReadBuffers(linalg::GenericOp producer) {
  SmallVector<Value> buffers(producer.getDpsInputs());
  producer.getRegion().walk(
      [&](memref::LoadOp load) { buffers.push_back(load.getMemRef()); });
  return buffers;
}

SmallVector<Value> mlir::mp::getCapturedValues(linalg::GenericOp producer) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(producer.getRegion(), captured);
  return captured.takeVector();
}
/// Whether `user` only reads `value` (conservatively: a linalg op taking it
/// as an input, a load, a dealloc).
static bool onlyReads(Operation *user, Value value) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user))
    return llvm::none_of(linalgOp.getDpsInits(),
                         [&](Value init) { return init == value; });
  return isa<memref::LoadOp, vector::LoadOp, vector::TransferReadOp,
             memref::DeallocOp>(user);
}

/// Whether anything from just after `first` to `last` (ops of one block)
/// may write `buffer` (through any view of its memory).
static bool isWrittenBetween(Value buffer, Operation *first, Operation *last) {
  Block *block = first->getBlock();
  return llvm::any_of(
      getMemoryUses(getRootBuffer(buffer)), [&](OpOperand *use) {
        Operation *at = block->findAncestorOpInBlock(*use->getOwner());
        return at && first->isBeforeInBlock(at) && !last->isBeforeInBlock(at) &&
               !onlyReads(use->getOwner(), use->get());
      });
}

/// From the indices of one side of `reshape` (a static memref.collapse_shape
/// or expand_shape) to those of the other: of its source if `toSource`,
/// else of its result. Collapsed to expanded delinearizes each group,
/// expanded to collapsed linearizes it.
static AffineMap getReshapeMap(Operation *reshape, bool toSource) {
  MLIRContext *ctx = reshape->getContext();
  auto collapse = dyn_cast<memref::CollapseShapeOp>(reshape);
  SmallVector<ReassociationIndices> groups =
      collapse ? collapse.getReassociationIndices()
               : cast<memref::ExpandShapeOp>(reshape).getReassociationIndices();
  auto expanded = cast<MemRefType>(
      (collapse ? reshape->getOperand(0) : reshape->getResult(0)).getType());
  SmallVector<AffineExpr> exprs;
  if (collapse ? toSource : !toSource) {
    exprs.resize(expanded.getRank());
    for (auto [g, group] : llvm::enumerate(groups)) {
      AffineExpr index = getAffineDimExpr(g, ctx);
      int64_t inner = 1;
      for (int64_t d : llvm::reverse(group)) {
        AffineExpr e = index.floorDiv(inner);
        exprs[d] = d == group.front() ? e : e % expanded.getDimSize(d);
        inner *= expanded.getDimSize(d);
      }
    }
    return AffineMap::get(groups.size(), 0, exprs, ctx);
  }
  for (ReassociationIndices &group : groups) {
    exprs.push_back(getAffineConstantExpr(0, ctx));
    for (int64_t d : group)
      exprs.back() =
          exprs.back() * expanded.getDimSize(d) + getAffineDimExpr(d, ctx);
  }
  return AffineMap::get(expanded.getRank(), 0, exprs, ctx);
}

/// The memref.collapse_shape or expand_shape that defines `value`, if any.
static Operation *getReshape(Value value) {
  Operation *op = value.getDefiningOp();
  return isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(op)
             ? op
             : nullptr;
}

/// The buffer that `value` is a chain of reshapes (getReshape) of, and the
/// map from the indices of `value` to that buffer's (null: no reshape).
static std::pair<Value, AffineMap> getReshapedBuffer(Value value) {
  AffineMap toBuffer;
  while (Operation *reshape = getReshape(value)) {
    AffineMap toSource = getReshapeMap(reshape, /*toSource=*/true);
    toBuffer = toBuffer ? toSource.compose(toBuffer) : toSource;
    value = reshape->getOperand(0);
  }
  if (toBuffer)
    toBuffer = simplifyAffineMap(toBuffer);
  return {value, toBuffer};
}

/// Whether an op other than `producer` that is no contraction or
/// convolution reads `buffer` (any view of its memory): a kernel that reads
/// it anyway (a reduction, an elementwise op), which the producer's loops
/// may join.
static bool isReadByOthers(Value buffer, linalg::GenericOp producer) {
  for (OpOperand *use : getMemoryUses(getRootBuffer(buffer))) {
    Operation *user = use->getOwner();
    if (user == producer.getOperation())
      continue;
    if (auto linalgUser = dyn_cast<linalg::LinalgOp>(user)) {
      if (linalgUser.isDpsInput(use) &&
          !linalg::isaContractionOpInterface(linalgUser) &&
          !linalg::isaConvolutionOpInterface(linalgUser))
        return true;
    } else if (isa<memref::LoadOp, vector::LoadOp, vector::TransferReadOp>(
                   user)) {
      return true;
    }
  }
  return false;
}

/// Whether computing `producer` in the copies of each of its `readers`
/// reads no more memory than writing its result once and reading it there
/// (isCheaperRecomputed), its inputs that other ops but GEMMs read as well
/// shared (such as the scores that a softmax's reductions read: the kernel
/// that computes them reads them with those). A softmax in f16, computed from
/// f32 scores that its reductions read and that two GEMMs read (the attention's
/// output and its value gradient), is stored once in f16; a weight's cast read
/// by the forward GEMM and the input gradient's is computed in both. Buffers of
/// dynamic shape count as fused.
static bool isCheaperFused(linalg::GenericOp producer, int64_t readers) {
  std::optional<int64_t> result = getStaticBytes(producer.getDpsInits()[0]);
  int64_t inputs = 0, shared = 0;
  for (Value read : getReadBuffers(producer)) {
    std::optional<int64_t> bytes = getStaticBytes(read);
    if (!bytes || !result)
      return true;
    inputs += *bytes;
    if (isReadByOthers(read, producer))
      shared += *bytes;
  }
  return isCheaperRecomputed(readers, inputs, *result, /*epilogue=*/0, shared);
}

DenseMap<Value, FusedProducer>
mlir::mp::findFusedProducers(ArrayRef<linalg::LinalgOp> consumers,
                             bool canOutline) {
  // Per allocated buffer, the consumers that read it (themselves or through
  // reshapes: the attention output's heads, merged for the projection and
  // split again for its weight gradient's split K) and the operands they
  // read.
  llvm::MapVector<Value, SmallVector<Operation *>> readers;
  DenseMap<Value, SmallVector<Value>> operands;
  for (linalg::LinalgOp op : consumers)
    for (Value input : op.getDpsInputs()) {
      Value buffer = getReshapedBuffer(input).first;
      if (!buffer.getDefiningOp<memref::AllocOp>())
        continue;
      if (!llvm::is_contained(readers[buffer], op.getOperation()))
        readers[buffer].push_back(op);
      if (!llvm::is_contained(operands[buffer], input))
        operands[buffer].push_back(input);
    }
  // Whether `use` is one of `ops` reading the buffer as an input.
  auto isRead = [](OpOperand &use, ArrayRef<Operation *> ops) {
    return llvm::is_contained(ops, use.getOwner()) &&
           cast<linalg::LinalgOp>(use.getOwner()).isDpsInput(&use);
  };
  // Whether `reshape` (of the buffer, or of a reshape of it) is only read
  // by `ops` as inputs, itself or through further reshapes.
  std::function<bool(Operation *, ArrayRef<Operation *>)> onlyReadBy =
      [&](Operation *reshape, ArrayRef<Operation *> ops) {
        return llvm::all_of(
            reshape->getResult(0).getUses(), [&](OpOperand &use) {
              Operation *user = use.getOwner();
              return isRead(use, ops) ||
                     (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(
                          user) &&
                      onlyReadBy(user, ops));
            });
      };
  DenseMap<Value, FusedProducer> fused;
  for (auto &[buffer, ops] : readers) {
    if (ops.size() > 2)
      continue;
    linalg::GenericOp producer;
    bool ok = true;
    for (OpOperand &use : buffer.getUses()) {
      Operation *user = use.getOwner();
      auto generic = dyn_cast<linalg::GenericOp>(user);
      if (isa<memref::DeallocOp>(user) || isRead(use, ops))
        continue;
      // A reshape that only the consumers read, as inputs.
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user) &&
          onlyReadBy(user, ops))
        continue;
      if (generic && !producer && generic.isDpsInit(&use) &&
          isFusibleProducer(generic) &&
          (canOutline || isLoadingProducer(generic))) {
        producer = generic;
        continue;
      }
      ok = false;
    }
    if (!ok || !producer ||
        !isCheaperFused(producer, static_cast<int64_t>(ops.size())))
      continue;
    Block *block = producer->getBlock();
    Operation *last = producer;
    for (Operation *op : ops) {
      if (op->getBlock() != block || !producer->isBeforeInBlock(op))
        ok = false;
      else if (last->isBeforeInBlock(op))
        last = op;
    }
    if (!ok || llvm::any_of(getReadBuffers(producer), [&](Value read) {
          return isWrittenBetween(read, producer, last);
        }))
      continue;
    for (Value operand : operands[buffer])
      fused[operand] = {producer, getReshapedBuffer(operand).second};
  }
  return fused;
}

/// The last op before `op` in its block that uses the memory of `buffer`
/// (getMemoryUses of its root buffer) with a use that satisfies `filter` (none
/// if that use is in a nested region).
static Operation *
getLastUserBefore(Value buffer, Operation *op,
                  function_ref<bool(OpOperand *)> filter = nullptr) {
  Operation *last = nullptr;
  bool nested = false;
  for (OpOperand *use : getMemoryUses(getRootBuffer(buffer))) {
    Operation *user = use->getOwner();
    Operation *at = op->getBlock()->findAncestorOpInBlock(*user);
    if (!at || !at->isBeforeInBlock(op) || (filter && !filter(use)))
      continue;
    if (!last || last->isBeforeInBlock(at)) {
      last = at;
      nested = at != user;
    }
  }
  return nested ? nullptr : last;
}

std::optional<FoldedInit> mlir::mp::findFoldedInit(linalg::LinalgOp op,
                                                   bool canOutline) {
  // C may be a reshape of a buffer (a convolution's output seen as a
  // matrix): the buffer is then what is set.
  Value c = op.getDpsInits()[0];
  AffineMap toProducer = AffineMap::getMultiDimIdentityMap(
      cast<MemRefType>(c.getType()).getRank(), op.getContext());
  if (Operation *reshape = getReshape(c)) {
    c = reshape->getOperand(0);
    toProducer = getReshapeMap(reshape, /*toSource=*/true);
  }
  Operation *setter = getLastUserBefore(c, op);
  if (!setter)
    return std::nullopt;
  if (auto producer = dyn_cast<linalg::GenericOp>(setter)) {
    if (producer.getDpsInits()[0] == c && isFusibleProducer(producer) &&
        (canOutline || isLoadingProducer(producer)) &&
        llvm::none_of(getReadBuffers(producer), [&](Value read) {
          return getRootBuffer(read) == getRootBuffer(c) ||
                 isWrittenBetween(read, producer, op->getPrevNode());
        }))
      return FoldedInit{nullptr, producer, producer, toProducer};
    return std::nullopt;
  }
  auto getFill = [](Operation *candidate, Value buffer) -> Value {
    auto fill = dyn_cast_or_null<linalg::FillOp>(candidate);
    if (!fill || !fill.hasPureBufferSemantics() ||
        fill.getDpsInits()[0] != buffer)
      return nullptr;
    return fill.value();
  };
  if (Value value = getFill(setter, c))
    return FoldedInit{value, setter};
  auto copy = dyn_cast<memref::CopyOp>(setter);
  if (!copy || copy.getTarget() != c)
    return std::nullopt;
  // The last op before the copy that writes the copy's source must be a
  // fill (copies from it and other reads may come between).
  Value source = copy.getSource();
  auto writes = [&](OpOperand *use) {
    auto other = dyn_cast<memref::CopyOp>(use->getOwner());
    return !onlyReads(use->getOwner(), use->get()) &&
           !(other && other.getSource() == use->get());
  };
  Operation *writer = getLastUserBefore(source, copy, writes);
  if (Value value = getFill(writer, source))
    return FoldedInit{value, copy};
  return std::nullopt;
}

/// Whether `op` is an elementwise op that the copies of a contraction's C
/// may compute: all loops parallel, one output of whole bytes written whole
/// and not read, inputs read through projected permutations (index 0 of
/// a unit dimension too: a row statistic of shape Nx1), a small body of
/// elementwise (vectorizable) pure ops and constants.
static bool isFusibleConsumer(linalg::GenericOp op) {
  if (!writesWholeOutput(op) ||
      !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/true);
      }))
    return false;
  Type out = getElementTypeOrSelf(op.getDpsInits()[0]);
  return out.isIntOrFloat() && out.getIntOrFloatBitWidth() % 8 == 0 &&
         hasSmallBody(op, isConstantOp, isPureElementwise);
}

/// Whether `uses` (of the memory of the buffer `root`, all by `at`)
/// overwrite it whole without reading it, or free it. A write through a
/// subview (a tensor.insert_slice's copy) overwrites only part of it.
static bool overwritesOrFrees(Operation *at, ArrayRef<OpOperand *> uses,
                              Value root) {
  if (uses.size() != 1 || uses[0]->getOwner() != at)
    return false;
  if (isa<memref::DeallocOp>(at))
    return true;
  // The whole buffer: itself or reshapes of it.
  Value written = uses[0]->get();
  while (written != root) {
    Operation *reshape = getReshape(written);
    if (!reshape)
      return false;
    written = reshape->getOperand(0);
  }
  if (auto copy = dyn_cast<memref::CopyOp>(at))
    return uses[0]->get() == copy.getTarget();
  if (auto fill = dyn_cast<linalg::FillOp>(at))
    return fill.hasPureBufferSemantics() && fill.isDpsInit(uses[0]);
  auto generic = dyn_cast<linalg::GenericOp>(at);
  return generic && generic.isDpsInit(uses[0]) &&
         generic.getNumDpsInits() == 1 && isFusibleProducer(generic);
}

bool mlir::mp::isFlagReduction(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      !op.hasPureBufferSemantics() ||
      op.getNumReductionLoops() != op.getNumLoops() ||
      !op.getIndexingMapsArray()[0].isIdentity())
    return false;
  auto flagType = cast<MemRefType>(op.getDpsInits()[0].getType());
  if (flagType.getRank() != 0 || !flagType.getElementType().isInteger(1))
    return false;
  Block &body = op.getRegion().front();
  BlockArgument flag = body.getArguments().back();
  auto any = body.getTerminator()->getOperand(0).getDefiningOp<arith::OrIOp>();
  if (!any || !flag.hasOneUse() ||
      (any.getLhs() != flag && any.getRhs() != flag))
    return false;
  return hasSmallBody(
      op,
      [&](Operation &inner) {
        return &inner == any.getOperation() || isConstantOp(inner);
      },
      isPureElementwise);
}

/// The ops of `block` between `first` and `last` that use the memory of
/// `buffer` (getMemoryUses), in order, each once; failure if a use is
/// nested in one, unless `nested`.
static FailureOr<SmallVector<Operation *>>
getUsersBetween(Value buffer, Operation *first, Operation *last,
                bool nested = false) {
  llvm::SetVector<Operation *> users;
  for (OpOperand *use : getMemoryUses(getRootBuffer(buffer))) {
    Operation *at = first->getBlock()->findAncestorOpInBlock(*use->getOwner());
    if (!at || !first->isBeforeInBlock(at) || !at->isBeforeInBlock(last))
      continue;
    if (at != use->getOwner() && !nested)
      return failure();
    users.insert(at);
  }
  SmallVector<Operation *> sorted = users.takeVector();
  llvm::sort(sorted,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  return sorted;
}

/// Whether every use of the memory of `flag` (a 0-d i1 buffer) in `user`
/// stores `true` into it: a kernel already tiled whose epilogue sets the
/// overflow flag.
static bool onlySetsFlag(Operation *user, Value flag) {
  return llvm::all_of(getMemoryUses(getRootBuffer(flag)), [&](OpOperand *use) {
    Operation *owner = use->getOwner();
    return !user->isAncestor(owner) ||
           (setsFlag(owner) &&
            use->get() == cast<memref::StoreOp>(owner).getMemRef());
  });
}

/// Whether the values that `op` uses and does not define are available
/// before `at`.
static bool capturesOnlyBefore(linalg::GenericOp op, Operation *at,
                               DominanceInfo &dominance) {
  return llvm::all_of(getCapturedValues(op), [&](Value captured) {
    return dominance.properlyDominates(captured, at);
  });
}

/// Whether the copies of `op`'s C may compute `consumer` (an elementwise
/// consumer after it reading C through `acc`): nothing between `op` and it
/// uses its output's memory, `op` does not read it (`reads`: `op`'s inputs,
/// or what the producers fused into its copies read), and nothing writes
/// its other inputs between `op` and it; what it uses is defined before
/// `op` (but an allocation of its output, then added to `hoisted`).
static bool canComputeConsumer(linalg::LinalgOp op, linalg::GenericOp consumer,
                               OpOperand *acc, Value root,
                               ArrayRef<Value> reads, DominanceInfo &dominance,
                               SmallVectorImpl<Operation *> &hoisted) {
  Value out = consumer.getDpsInits()[0];
  Value outRoot = getRootBuffer(out);
  if (out != root) {
    FailureOr<SmallVector<Operation *>> between =
        getUsersBetween(out, op, consumer);
    if (failed(between) || !between->empty() || outRoot == root ||
        llvm::any_of(
            reads, [&](Value read) { return getRootBuffer(read) == outRoot; }))
      return false;
    if (!dominance.properlyDominates(out, op)) {
      auto outAlloc = out.getDefiningOp<memref::AllocOp>();
      if (!outAlloc || outAlloc->getNumOperands() != 0)
        return false;
      hoisted.push_back(outAlloc);
    }
  }
  // Its other inputs: available at `op`, not written until it; read in
  // place if they are its output.
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    Value value = input->get();
    if (input == acc)
      continue;
    if (value == out) {
      if (!consumer.getMatchingIndexingMap(input).isIdentity())
        return false;
      continue;
    }
    if (!dominance.properlyDominates(value, op) ||
        (isa<MemRefType>(value.getType()) &&
         (getRootBuffer(value) == outRoot ||
          isWrittenBetween(value, op, consumer->getPrevNode()))))
      return false;
  }
  return capturesOnlyBefore(consumer, op, dominance);
}

/// Whether the copies of `op`'s C may compute `flag` (a flag reduction after
/// it reading C): between `op` and it, the flag's memory is set by a fill
/// (moved before `op`: added to `hoisted`, with the flag's allocation if
/// that comes after `op`) and then only ORed into by other flag reductions
/// or set by ops that only store `true` into it (onlySetsFlag).
static bool canComputeFlag(linalg::LinalgOp op, linalg::GenericOp flag,
                           DominanceInfo &dominance,
                           SmallVectorImpl<Operation *> &hoisted) {
  Value value = flag.getDpsInits()[0];
  FailureOr<SmallVector<Operation *>> between =
      getUsersBetween(value, op, flag, /*nested=*/true);
  if (failed(between) || value.getDefiningOp<ViewLikeOpInterface>() ||
      !capturesOnlyBefore(flag, op, dominance))
    return false;
  SmallVector<Operation *> moved;
  for (auto [i, user] : llvm::enumerate(*between)) {
    auto fill = dyn_cast<linalg::FillOp>(user);
    if (i == 0 && fill && fill.getDpsInits()[0] == value &&
        dominance.properlyDominates(fill.value(), op)) {
      moved.push_back(fill);
      continue;
    }
    auto other = dyn_cast<linalg::GenericOp>(user);
    if ((!other || !isFlagReduction(other) ||
         other.getDpsInits()[0] != value) &&
        !onlySetsFlag(user, value))
      return false;
  }
  if (!dominance.properlyDominates(value, op)) {
    auto alloc = value.getDefiningOp<memref::AllocOp>();
    if (!alloc || alloc->getNumOperands() != 0)
      return false;
    moved.insert(moved.begin(), alloc);
  }
  llvm::append_range(hoisted, moved);
  return true;
}

std::optional<Epilogue> mlir::mp::findEpilogue(linalg::LinalgOp op,
                                               ArrayRef<Value> reads,
                                               DominanceInfo &dominance) {
  Epilogue epilogue;
  epilogue.c = op.getDpsInits()[0];
  Value root = epilogue.c;
  AffineMap toRoot = AffineMap::getMultiDimIdentityMap(
      cast<MemRefType>(root.getType()).getRank(), op.getContext());
  if (Operation *reshape = getReshape(root)) {
    root = reshape->getOperand(0);
    toRoot = getReshapeMap(reshape, /*toSource=*/true);
  }
  auto alloc = root.getDefiningOp<memref::AllocOp>();
  Block *block = op->getBlock();
  if (!alloc || alloc->getBlock() != block)
    return std::nullopt;
  // The uses of C's memory after `op`, by the op of the block they are in.
  llvm::MapVector<Operation *, SmallVector<OpOperand *>> later;
  for (OpOperand *use : getMemoryUses(root)) {
    Operation *at = block->findAncestorOpInBlock(*use->getOwner());
    if (at && op->isBeforeInBlock(at))
      later[at].push_back(use);
  }
  SmallVector<Operation *> after =
      llvm::to_vector(llvm::make_first_range(later));
  llvm::sort(after,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  bool inPlace = false;
  size_t next = 0;
  for (; next < after.size() && !inPlace; ++next) {
    auto user = dyn_cast<linalg::GenericOp>(after[next]);
    if (!user)
      break;
    // It reads C's buffer or a reshape of it in one input with the identity
    // map, and may write the buffer.
    OpOperand *input = nullptr;
    bool writes = false;
    Operation *view = nullptr;
    for (OpOperand *use : later[user]) {
      Operation *reshape = getReshape(use->get());
      bool isRoot = use->get() == root;
      if (use->getOwner() != user ||
          !(isRoot || (reshape && reshape->getOperand(0) == root)))
        return std::nullopt;
      if (user.isDpsInit(use) && isRoot) {
        writes = true;
        continue;
      }
      if (input || user.isDpsInit(use) ||
          !user.getMatchingIndexingMap(use).isIdentity())
        return std::nullopt;
      input = use;
      view = isRoot ? nullptr : reshape;
    }
    if (!input)
      break;
    SmallVector<Operation *> hoisted;
    if (!writes && isFlagReduction(user) &&
        canComputeFlag(op, user, dominance, hoisted)) {
      epilogue.flags.push_back(user);
    } else if (!epilogue.consumer && isFusibleConsumer(user) &&
               canComputeConsumer(op, user, input, root, reads, dominance,
                                  hoisted)) {
      epilogue.consumer = user;
      epilogue.acc = input;
      epilogue.toConsumer =
          view ? getReshapeMap(view, /*toSource=*/false).compose(toRoot)
               : toRoot;
      inPlace = writes;
    } else {
      break;
    }
    llvm::append_range(epilogue.hoisted, hoisted);
  }
  if (!epilogue.consumer && epilogue.flags.empty())
    return std::nullopt;
  epilogue.storesC = !inPlace && next < after.size() &&
                     !overwritesOrFrees(after[next], later[after[next]], root);
  return epilogue;
}

void mlir::mp::buildElementwiseBody(OpBuilder &b, Location loc,
                                    linalg::GenericOp op, VectorType vectorType,
                                    IRMapping &mapping) {
  auto splat = [&](Value v) -> Value {
    if (!vectorType)
      return v;
    return vector::BroadcastOp::create(b, loc, vectorType.clone(v.getType()),
                                       v);
  };
  for (Value captured : getCapturedValues(op))
    mapping.map(captured, splat(captured));
  Block &body = op.getRegion().front();
  BlockArgument out = body.getArguments().back();
  for (Operation &inner : body.without_terminator()) {
    if (llvm::is_contained(inner.getOperands(), out))
      continue;
    if (matchPattern(&inner, m_Constant())) {
      mapping.map(inner.getResult(0), splat(b.clone(inner)->getResult(0)));
      continue;
    }
    OperationState state(inner.getLoc(), inner.getName());
    for (Value operand : inner.getOperands())
      state.addOperands(mapping.lookupOrDefault(operand));
    for (Type type : inner.getResultTypes())
      state.addTypes(vectorType ? vectorType.clone(type) : type);
    state.addAttributes(inner.getAttrs());
    mapping.map(inner.getResults(), b.create(state)->getResults());
  }
}

/// The value that the body of a flag reduction (isFlagReduction) ORs into
/// its flag.
static Value getFlagPredicate(linalg::GenericOp flag) {
  Block &body = flag.getRegion().front();
  auto any = body.getTerminator()->getOperand(0).getDefiningOp<arith::OrIOp>();
  return any.getLhs() == body.getArguments().back() ? any.getRhs()
                                                    : any.getLhs();
}

void mlir::mp::buildFlag(OpBuilder &b, Location loc, linalg::GenericOp flag,
                         Value value) {
  auto vectorType = dyn_cast<VectorType>(value.getType());
  IRMapping mapping;
  mapping.map(flag.getRegion().front().getArgument(0), value);
  buildElementwiseBody(b, loc, flag, vectorType, mapping);
  Value holds = mapping.lookupOrDefault(getFlagPredicate(flag));
  if (vectorType)
    holds =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, holds);
  auto set = scf::IfOp::create(b, loc, holds);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(set.thenBlock()->getTerminator());
  Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  memref::StoreOp::create(b, loc, yes, flag.getDpsInits()[0], ValueRange());
}

SmallVector<Value> mlir::mp::applyMap(OpBuilder &b, Location loc, AffineMap map,
                                      ValueRange indices) {
  SmallVector<Value> results;
  for (unsigned i = 0, e = map.getNumResults(); i < e; ++i)
    results.push_back(affine::makeComposedAffineApply(
        b, loc, map.getSubMap({i}), getAsOpFoldResult(indices)));
  return results;
}

llvm::MaybeAlign mlir::mp::getVectorAlignment(Type type) {
  auto vectorType = dyn_cast<VectorType>(type);
  int64_t elements = vectorType ? vectorType.getNumElements() : 1;
  return llvm::MaybeAlign(
      elements * getElementTypeOrSelf(type).getIntOrFloatBitWidth() / 8);
}

/// Computes the consumer of `epilogue` where C holds `value` (an element,
/// or a vector of elements along C's last dimension) at `indices` of C, and
/// stores its result: its other inputs loaded at their maps' indices (in
/// vectors where the map takes the last loop, broadcast where it does not),
/// its body on them.
static void buildConsumer(OpBuilder &b, Location loc, const Epilogue &epilogue,
                          Value value, ValueRange indices) {
  linalg::GenericOp consumer = epilogue.consumer;
  auto vectorType = dyn_cast<VectorType>(value.getType());
  SmallVector<Value> at = applyMap(b, loc, epilogue.toConsumer, indices);
  unsigned last = consumer.getNumLoops() - 1;
  Block &body = consumer.getRegion().front();
  IRMapping mapping;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    Value arg = body.getArgument(input->getOperandNumber());
    Value buffer = input->get();
    Type type = getElementTypeOrSelf(buffer.getType());
    if (vectorType)
      type = vectorType.clone(type);
    if (input == epilogue.acc) {
      mapping.map(arg, value);
    } else if (!isa<MemRefType>(buffer.getType())) {
      mapping.map(arg, vectorType
                           ? vector::BroadcastOp::create(b, loc, type, buffer)
                           : buffer);
    } else {
      AffineMap map = consumer.getMatchingIndexingMap(input);
      SmallVector<Value> inputAt = applyMap(b, loc, map, at);
      Value v;
      if (vectorType && map.isFunctionOfDim(last))
        v = vector::LoadOp::create(b, loc, type, buffer, inputAt,
                                   /*nontemporal=*/false,
                                   getVectorAlignment(type));
      else
        v = memref::LoadOp::create(b, loc, buffer, inputAt);
      if (vectorType && !map.isFunctionOfDim(last))
        v = vector::BroadcastOp::create(b, loc, type, v);
      mapping.map(arg, v);
    }
  }
  buildElementwiseBody(b, loc, consumer, vectorType, mapping);
  Value result = mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
  Value out = consumer.getDpsInits()[0];
  if (vectorType)
    vector::StoreOp::create(b, loc, result, out, at, /*nontemporal=*/false,
                            getVectorAlignment(result.getType()));
  else
    memref::StoreOp::create(b, loc, result, out, at);
}

void mlir::mp::buildEpilogue(OpBuilder &b, Location loc,
                             const Epilogue &epilogue, Value value,
                             ValueRange indices) {
  if (epilogue.consumer)
    buildConsumer(b, loc, epilogue, value, indices);
  for (linalg::GenericOp flag : epilogue.flags)
    buildFlag(b, loc, flag, value);
}
