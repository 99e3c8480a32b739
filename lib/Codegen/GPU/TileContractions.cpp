//===- TileContractions.cpp - Tensor Core tiles for contractions ----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The target-independent tiled stage of the GPU backend's GEMMs: thread
// blocks and warps as scf.forall, K as scf.for, and vector.contract on the
// m16n8k16 tiles of mma.sync.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUTILECONTRACTIONSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The unrolled shape of vector ops on the way to mma.sync: contractions to
/// m16n8k16 (batch 1), the C tiles they write to 16x8, and reads to the
/// slices the unrolled contractions take of them.
static std::optional<SmallVector<int64_t>> getMmaNativeShape(Operation *op) {
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    llvm::SmallDenseSet<unsigned> lhsDims, rhsDims;
    for (AffineExpr e : contract.getIndexingMapsArray()[0].getResults())
      lhsDims.insert(cast<AffineDimExpr>(e).getPosition());
    for (AffineExpr e : contract.getIndexingMapsArray()[1].getResults())
      rhsDims.insert(cast<AffineDimExpr>(e).getPosition());
    SmallVector<int64_t> shape;
    for (auto [d, iterator] : llvm::enumerate(contract.getIteratorTypes())) {
      if (vector::isReductionIterator(iterator))
        shape.push_back(kMmaK);
      else if (lhsDims.count(d) && rhsDims.count(d))
        shape.push_back(1); // batch
      else
        shape.push_back(lhsDims.count(d) ? kMmaM : kMmaN);
    }
    return shape;
  }
  if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
    int64_t rank = write.getVectorType().getRank();
    if (rank < 2)
      return std::nullopt;
    SmallVector<int64_t> shape(rank - 2, 1);
    shape.append({kMmaM, kMmaN});
    return shape;
  }
  if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
    for (Operation *user : read->getUsers())
      if (auto slice = dyn_cast<vector::ExtractStridedSliceOp>(user))
        return llvm::to_vector(slice.getType().getShape());
    return std::nullopt;
  }
  return std::nullopt;
}

/// The widest copy (16 bytes, 8, 4, 2 or 1 element) that is aligned to its size
/// in every row of a panel of `type` whose innermost size is `inner`: the
/// innermost stride is 1, and the offset and the other strides are multiples
/// of it (the panels start at multiples of their sizes; buffers are aligned
/// to 16 bytes).
static int64_t getCopyWidth(MemRefType type, int64_t inner) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      strides.back() != 1 || ShapedType::isDynamic(offset))
    return 1;
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  for (int64_t width = 16 / bytes; width > 1; width /= 2) {
    auto aligned = [&](int64_t v) {
      return !ShapedType::isDynamic(v) && v % width == 0;
    };
    if (inner % width == 0 && aligned(offset) &&
        llvm::all_of(ArrayRef(strides).drop_back(), aligned))
      return width;
  }
  return 1;
}

namespace {
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
} // namespace

/// One side of a copy between a tile of an operand and a block's buffer.
struct CopySide {
  Value buffer;
  /// Whether the copy's static shape may extend past the buffer's (dynamic)
  /// sizes: reads there give zeros, writes there do nothing.
  bool masked = false;
  /// The producer fused into the copy (a cast, transpose, gather or other
  /// elementwise op that `buffer` is a tile of the result of): the copy
  /// computes it from its inputs instead.
  linalg::GenericOp producer = nullptr;
  /// The value every element reads instead of `buffer`'s (C's initial value
  /// when a fill of C is folded into the contraction).
  Value fill = nullptr;
  /// The consumer of C whose result is stored instead of `buffer`'s
  /// elements (a tile of C).
  const Epilogue *epilogue = nullptr;
  /// From the indices of `buffer` (resolved through its views) to the
  /// producer's loop indices, if they differ (C a reshape of what its
  /// initializing producer writes).
  AffineMap producerMap = {};
};

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

/// Whether the fused producer `op` only loads: it yields its one input or
/// `arith.truncf` of it.
static bool isLoadingProducer(linalg::GenericOp op) {
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

/// Whether copies may read the result of the fused producer `op` in vectors
/// of more than one element: it loads its input in place.
static bool isVectorizableProducer(linalg::GenericOp op) {
  return isLoadingProducer(op) && op.getIndexingMapsArray()[0].isIdentity();
}

/// The buffers that `producer` reads: its inputs and those its body loads.
static SmallVector<Value> getReadBuffers(linalg::GenericOp producer) {
  SmallVector<Value> buffers(producer.getDpsInputs());
  producer.getRegion().walk(
      [&](memref::LoadOp load) { buffers.push_back(load.getMemRef()); });
  return buffers;
}

/// The results of `map` at `indices`, one `affine.apply` each.
static SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                                   ValueRange indices) {
  SmallVector<Value> results;
  for (unsigned i = 0, e = map.getNumResults(); i < e; ++i)
    results.push_back(affine::makeComposedAffineApply(
        b, loc, map.getSubMap({i}), getAsOpFoldResult(indices)));
  return results;
}

/// The attribute of a fused producer that names the function computing one
/// element of it (outlineProducer).
constexpr llvm::StringLiteral kComputeAttr = "mp.gpu_compute";

/// The values that the body of `producer` uses and does not define.
static SmallVector<Value> getCapturedValues(linalg::GenericOp producer) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(producer.getRegion(), captured);
  return captured.takeVector();
}

/// Makes a private function, before the function of `producer`, that
/// computes one element of it from the indices of its loops, its inputs
/// and the values its body captures: its inputs loaded at the indices their
/// maps give, its body on them, `linalg.index` giving the indices. The
/// copies call it rather than computing the body in place: upstream's
/// vector-to-nvgpu conversion takes every scalar `arith` op of a kernel for
/// part of the Tensor Core chain and fails on it; after kernel outlining the
/// function is a device function of the kernel's module.
static void outlineProducer(OpBuilder &b, linalg::GenericOp producer) {
  auto parent = producer->getParentOfType<func::FuncOp>();
  Location loc = producer.getLoc();
  SmallVector<Value> captured = getCapturedValues(producer);
  SmallVector<Type> argTypes(producer.getNumLoops(), b.getIndexType());
  llvm::append_range(argTypes, ValueRange(producer.getDpsInputs()).getTypes());
  llvm::append_range(argTypes, ValueRange(captured).getTypes());
  Type result = getElementTypeOrSelf(producer.getDpsInits()[0]);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(parent);
  auto func = func::FuncOp::create(b, loc, parent.getName().str() + "_compute",
                                   b.getFunctionType(argTypes, result));
  func.setPrivate();
  SymbolTable(parent->getParentOp()).insert(func);
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  unsigned numLoops = producer.getNumLoops();
  ValueRange indices = entry->getArguments().take_front(numLoops);
  Block &body = producer.getRegion().front();
  IRMapping mapping;
  for (auto [value, arg] : llvm::zip_equal(
           captured, entry->getArguments().take_back(captured.size())))
    mapping.map(value, arg);
  for (OpOperand *input : producer.getDpsInputOperands()) {
    Value buffer = entry->getArgument(numLoops + input->getOperandNumber());
    SmallVector<Value> at =
        applyMap(b, loc, producer.getMatchingIndexingMap(input), indices);
    mapping.map(body.getArgument(input->getOperandNumber()),
                memref::LoadOp::create(b, loc, buffer, at));
  }
  for (Operation &inner : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner))
      mapping.map(index.getResult(), indices[index.getDim()]);
    else
      b.clone(inner, mapping);
  }
  func::ReturnOp::create(b, loc,
                         mapping.lookup(body.getTerminator()->getOperand(0)));
  producer->setAttr(kComputeAttr, FlatSymbolRefAttr::get(func));
}

/// The result of `producer` read at `indices` (of its loops) as `type`: if
/// it only loads (isLoadingProducer), its input loaded (as a vector if
/// `type` is one) and converted; else a call of its function
/// (outlineProducer; a vector `type` then has one element).
static Value buildProducedRead(OpBuilder &b, Location loc,
                               linalg::GenericOp producer, ValueRange indices,
                               Type type, llvm::MaybeAlign alignment) {
  if (isLoadingProducer(producer)) {
    Value source = producer.getDpsInputs()[0];
    SmallVector<Value> sourceAt =
        applyMap(b, loc, producer.getIndexingMapsArray()[0], indices);
    Type sourceElement = getElementTypeOrSelf(source.getType());
    Value v;
    if (auto vectorType = dyn_cast<VectorType>(type))
      v = vector::LoadOp::create(b, loc, vectorType.clone(sourceElement),
                                 source, sourceAt, /*nontemporal=*/false,
                                 alignment);
    else
      v = memref::LoadOp::create(b, loc, source, sourceAt);
    if (sourceElement != getElementTypeOrSelf(type))
      v = arith::TruncFOp::create(b, loc, type, v);
    return v;
  }
  SmallVector<Value> args(indices);
  llvm::append_range(args, producer.getDpsInputs());
  llvm::append_range(args, getCapturedValues(producer));
  auto compute = producer->getAttrOfType<FlatSymbolRefAttr>(kComputeAttr);
  Value v =
      func::CallOp::create(
          b, loc, compute.getValue(),
          TypeRange(getElementTypeOrSelf(producer.getDpsInits()[0])), args)
          .getResult(0);
  if (isa<VectorType>(type))
    v = vector::BroadcastOp::create(b, loc, type, v);
  return v;
}

/// `value` and `indices` into it seen through the unit-stride views that
/// tiling made of its buffer (folded later, views would lose the alignment).
static std::pair<Value, SmallVector<Value>>
resolveViews(OpBuilder &b, Location loc, Value value, ValueRange indices) {
  SmallVector<Value> resolved(indices);
  AffineExpr d0, d1;
  bindDims(b.getContext(), d0, d1);
  while (auto view = value.getDefiningOp<memref::SubViewOp>()) {
    if (!view.hasUnitStride() ||
        view.getSourceType().getRank() != view.getType().getRank())
      break;
    for (auto [index, offset] :
         llvm::zip_equal(resolved, view.getMixedOffsets()))
      index = affine::makeComposedAffineApply(b, loc, d0 + d1, {offset, index});
    value = view.getSource();
  }
  return {value, resolved};
}

/// The alignment of a vector of `type` (or of one element of it).
static llvm::MaybeAlign getVectorAlignment(Type type) {
  auto vectorType = dyn_cast<VectorType>(type);
  int64_t elements = vectorType ? vectorType.getNumElements() : 1;
  return llvm::MaybeAlign(
      elements * getElementTypeOrSelf(type).getIntOrFloatBitWidth() / 8);
}

/// Clones the body of the elementwise `op` (but the ops that use its output's
/// block argument) at `b`, on `vectorType`'s shape if it is given: the
/// values it captures and its constants broadcast, every other op given
/// vector results. `mapping` holds its inputs' block arguments.
static void buildElementwiseBody(OpBuilder &b, Location loc,
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

/// The value that the body of a flag reduction (isFlagReduction) ORs into
/// its flag.
static Value getFlagPredicate(linalg::GenericOp flag) {
  Block &body = flag.getRegion().front();
  auto any = body.getTerminator()->getOperand(0).getDefiningOp<arith::OrIOp>();
  return any.getLhs() == body.getArguments().back() ? any.getRhs()
                                                    : any.getLhs();
}

/// Sets the flag of `flag` (a flag reduction) to true if its predicate holds
/// for `value` (an element of C, or a vector of elements).
static void buildFlag(OpBuilder &b, Location loc, linalg::GenericOp flag,
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

/// Stores `value` (an element or a vector) in `to` at `indices` and, with
/// an epilogue, its consumer's result there and its flags (then `value`
/// only if C is stored as well).
static void buildStore(OpBuilder &b, Location loc, const CopySide &to,
                       Value value, ValueRange indices) {
  auto [dest, at] = resolveViews(b, loc, to.buffer, indices);
  if (!to.epilogue || to.epilogue->storesC) {
    if (isa<VectorType>(value.getType()))
      vector::StoreOp::create(b, loc, value, dest, at, /*nontemporal=*/false,
                              getVectorAlignment(value.getType()));
    else
      memref::StoreOp::create(b, loc, value, dest, at);
  }
  if (!to.epilogue)
    return;
  assert(dest == to.epilogue->c && "tiles of C are unit-stride subviews");
  if (to.epilogue->consumer)
    buildConsumer(b, loc, *to.epilogue, value, at);
  for (linalg::GenericOp flag : to.epilogue->flags)
    buildFlag(b, loc, flag, value);
}

/// Whether `indices` are within the sizes of `buffer`.
static Value buildInBounds(OpBuilder &b, Location loc, Value buffer,
                           ValueRange indices) {
  Value inBounds;
  for (auto [d, index] : llvm::enumerate(indices)) {
    Value size = memref::DimOp::create(b, loc, buffer, d);
    Value lt =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, size);
    inBounds = inBounds ? arith::AndIOp::create(b, loc, inBounds, lt) : lt;
  }
  return inBounds;
}

/// Copies the chunk of `type` at `indices` from `from` to `to`: one vector
/// load and store, or with a masked side (whose chunks are one element), the
/// element if it is inside: a read outside gives zero, a write outside is
/// skipped.
static void buildChunkCopy(OpBuilder &b, Location loc, const CopySide &from,
                           const CopySide &to, ValueRange indices,
                           VectorType type) {
  Type toElement = type.getElementType();
  // The element (or, unmasked, the vector) of `from` at `indices`.
  auto read = [&](OpBuilder &nested, Location nestedLoc,
                  Type readType) -> Value {
    if (from.fill) {
      if (isa<VectorType>(readType))
        return vector::BroadcastOp::create(nested, nestedLoc, readType,
                                           from.fill);
      return from.fill;
    }
    auto [source, at] = resolveViews(nested, nestedLoc, from.buffer, indices);
    if (from.producerMap)
      at = applyMap(nested, nestedLoc, from.producerMap, at);
    if (linalg::GenericOp producer = from.producer) {
      llvm::MaybeAlign inputAlignment;
      if (isa<VectorType>(readType) && isLoadingProducer(producer))
        inputAlignment = getVectorAlignment(
            type.clone(getElementTypeOrSelf(producer.getDpsInputs()[0])));
      return buildProducedRead(nested, nestedLoc, producer, at, readType,
                               inputAlignment);
    }
    if (isa<VectorType>(readType))
      return vector::LoadOp::create(nested, nestedLoc, readType, source, at,
                                    /*nontemporal=*/false,
                                    getVectorAlignment(readType))
          .getResult();
    return memref::LoadOp::create(nested, nestedLoc, source, at).getResult();
  };
  if (!from.masked && !to.masked) {
    buildStore(b, loc, to, read(b, loc, type), indices);
    return;
  }
  assert(type.getNumElements() == 1 && "masked copies go element by element");
  Value in = buildInBounds(b, loc, (from.masked ? from : to).buffer, indices);
  if (to.masked) {
    auto guarded = scf::IfOp::create(b, loc, in);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(guarded.thenBlock()->getTerminator());
    buildStore(b, loc, to, read(b, loc, toElement), indices);
    return;
  }
  auto element = scf::IfOp::create(
      b, loc, in,
      [&](OpBuilder &then, Location thenLoc) {
        scf::YieldOp::create(then, thenLoc, read(then, thenLoc, toElement));
      },
      [&](OpBuilder &otherwise, Location otherwiseLoc) {
        Value zero = arith::ConstantOp::create(
            otherwise, otherwiseLoc, otherwise.getZeroAttr(toElement));
        scf::YieldOp::create(otherwise, otherwiseLoc, zero);
      });
  buildStore(b, loc, to, element.getResult(0), indices);
}

/// Copies the elements of a static `shape` (row major) from `from` to `to`
/// with the threads of a block, `threads` = {y, x}: an scf.forall mapped to
/// #gpu.thread<y>, #gpu.thread<x> in which thread t (y * x-count + x) moves
/// the chunks t, t + threads, ... of `width` contiguous elements. Returns
/// the forall.
static scf::ForallOp buildCopy(OpBuilder &b, Location loc, const CopySide &from,
                               const CopySide &to, ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> threads, int64_t width) {
  MLIRContext *ctx = b.getContext();
  int64_t numThreads = threads[0] * threads[1];
  int64_t numChunks = ShapedType::getNumElements(shape) / width;
  auto forall = scf::ForallOp::create(
      b, loc, getAsIndexOpFoldResult(ctx, threads), ValueRange(),
      b.getArrayAttr(
          {gpu::GPUThreadMappingAttr::get(ctx, gpu::MappingId::DimY),
           gpu::GPUThreadMappingAttr::get(ctx, gpu::MappingId::DimX)}));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getBody()->getTerminator());
  Value y = forall.getInductionVar(0), x = forall.getInductionVar(1);
  AffineExpr d0, d1;
  bindDims(ctx, d0, d1);
  AffineExpr thread = d0 * threads[1] + d1;
  Type elementType = getElementTypeOrSelf(to.buffer.getType());
  auto vectorType = VectorType::get({width}, elementType);
  for (int64_t first = 0; first < numChunks; first += numThreads) {
    AffineExpr chunk = thread + first;
    OpBuilder::InsertionGuard chunkGuard(b);
    if (first + numThreads > numChunks) {
      Value index = affine::makeComposedAffineApply(
          b, loc, AffineMap::get(2, 0, chunk), {y, x});
      Value count = arith::ConstantIndexOp::create(b, loc, numChunks);
      Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            index, count);
      auto guarded = scf::IfOp::create(b, loc, inRange);
      b.setInsertionPoint(guarded.thenBlock()->getTerminator());
    }
    // Row-major coordinates of the chunk's first element.
    SmallVector<Value> indices;
    int64_t stride = 1;
    SmallVector<AffineExpr> coords(shape.size());
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      coords[d] = (chunk * width).floorDiv(stride) % shape[d];
      stride *= shape[d];
    }
    for (AffineExpr coord : coords)
      indices.push_back(affine::makeComposedAffineApply(
          b, loc, AffineMap::get(2, 0, coord), {y, x}));
    buildChunkCopy(b, loc, from, to, indices, vectorType);
  }
  return forall;
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

/// The uses of `buffer`'s memory: of it, of the buffer it is a view of, or
/// of any view of that one (views are followed, not listed).
static SmallVector<OpOperand *> getMemoryUses(Value buffer) {
  SmallVector<OpOperand *> uses;
  SmallVector<Value> worklist = {getRootBuffer(buffer)};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      auto view = dyn_cast<ViewLikeOpInterface>(use.getOwner());
      if (view && view.getViewSource() == value)
        worklist.append(view->result_begin(), view->result_end());
      else
        uses.push_back(&use);
    }
  }
  return uses;
}

/// Whether anything from just after `first` to `last` (ops of one block)
/// may write `buffer` (through any view of its memory).
static bool isWrittenBetween(Value buffer, Operation *first, Operation *last) {
  Block *block = first->getBlock();
  return llvm::any_of(getMemoryUses(buffer), [&](OpOperand *use) {
    Operation *at = block->findAncestorOpInBlock(*use->getOwner());
    return at && first->isBeforeInBlock(at) && !last->isBeforeInBlock(at) &&
           !onlyReads(use->getOwner(), use->get());
  });
}

/// The producers that the copies of `consumers` (Tensor Core contractions
/// about to be tiled) compute instead of reading their results: for each
/// operand buffer allocated in the function, written only by an
/// elementwise producer (isFusibleProducer: a cast, transpose, gather...)
/// and read only by one or two of `consumers` as an A or B operand, when
/// nothing writes what the producer reads (or a view of its memory) between
/// the producer and the last consumer, and, unless `canOutline`, only
/// producers that load (isLoadingProducer). The buffer is then never
/// written nor read; each consumer computes the producer from what it
/// reads.
static DenseMap<Value, linalg::GenericOp>
findFusedProducers(ArrayRef<linalg::LinalgOp> consumers, bool canOutline) {
  DenseMap<Value, SmallVector<Operation *>> readers;
  for (linalg::LinalgOp op : consumers)
    for (Value input : op.getDpsInputs())
      readers[input].push_back(op);
  DenseMap<Value, linalg::GenericOp> fused;
  for (auto &[buffer, ops] : readers) {
    if (!buffer.getDefiningOp<memref::AllocOp>() || ops.size() > 2)
      continue;
    linalg::GenericOp producer;
    bool ok = true;
    for (OpOperand &use : buffer.getUses()) {
      Operation *user = use.getOwner();
      auto generic = dyn_cast<linalg::GenericOp>(user);
      if (isa<memref::DeallocOp>(user) ||
          (llvm::is_contained(ops, user) &&
           cast<linalg::LinalgOp>(user).isDpsInput(&use)))
        continue;
      if (generic && !producer && generic.isDpsInit(&use) &&
          isFusibleProducer(generic) &&
          (canOutline || isLoadingProducer(generic))) {
        producer = generic;
        continue;
      }
      ok = false;
    }
    if (!ok || !producer)
      continue;
    Block *block = producer->getBlock();
    Operation *last = producer;
    for (Operation *op : ops) {
      if (op->getBlock() != block || !producer->isBeforeInBlock(op))
        ok = false;
      else if (last->isBeforeInBlock(op))
        last = op;
    }
    if (ok && llvm::none_of(getReadBuffers(producer), [&](Value read) {
          return isWrittenBetween(read, producer, last);
        }))
      fused[buffer] = producer;
  }
  return fused;
}

/// The last op before `op` in its block that uses the memory of `buffer`
/// (getMemoryUses) with a use that satisfies `filter` (none if that use is
/// in a nested region).
static Operation *
getLastUserBefore(Value buffer, Operation *op,
                  function_ref<bool(OpOperand *)> filter = nullptr) {
  Operation *last = nullptr;
  bool nested = false;
  for (OpOperand *use : getMemoryUses(buffer)) {
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

namespace {
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
} // namespace

/// The initial value of `op`'s accumulator C, if C (or the buffer it is a
/// reshape of) is set just before `op` (nothing uses its memory in between,
/// through any view) by a `linalg.fill`, by a `memref.copy` from a buffer
/// that a fill set (and only reads used in between), or by an elementwise
/// producer that copies could compute (isFusibleProducer; computing ones
/// only if `canOutline`) from what nothing writes until `op` and is not C.
/// The tiled contraction then starts from the value (or the producer's)
/// instead of reading C, and the setter goes.
static std::optional<FoldedInit> findFoldedInit(linalg::LinalgOp op,
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
/// and not read, inputs read through projected permutations, a small body
/// of elementwise (vectorizable) pure ops and constants.
static bool isFusibleConsumer(linalg::GenericOp op) {
  if (!writesWholeOutput(op) ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return false;
  Type out = getElementTypeOrSelf(op.getDpsInits()[0]);
  return out.isIntOrFloat() && out.getIntOrFloatBitWidth() % 8 == 0 &&
         hasSmallBody(op, isConstantOp, isPureElementwise);
}

/// Whether `uses` (of a buffer's memory, all by `at`) overwrite it whole
/// without reading it, or free it.
static bool overwritesOrFrees(Operation *at, ArrayRef<OpOperand *> uses) {
  if (uses.size() != 1 || uses[0]->getOwner() != at)
    return false;
  if (isa<memref::DeallocOp>(at))
    return true;
  if (auto copy = dyn_cast<memref::CopyOp>(at))
    return uses[0]->get() == copy.getTarget();
  if (auto fill = dyn_cast<linalg::FillOp>(at))
    return fill.hasPureBufferSemantics() && fill.isDpsInit(uses[0]);
  auto generic = dyn_cast<linalg::GenericOp>(at);
  return generic && generic.isDpsInit(uses[0]) &&
         generic.getNumDpsInits() == 1 && isFusibleProducer(generic);
}

/// Whether `op` ORs a predicate of each element of its one input (read
/// whole, in order) into a 0-d i1 flag: all loops reductions, the body
/// pure elementwise ops (at most kMaxFusedProducerOps) and constants ending
/// in `arith.ori` of the flag's block argument, used there only.
static bool isFlagReduction(linalg::GenericOp op) {
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
/// `buffer` (getMemoryUses), in order; failure if a use is nested in one.
static FailureOr<SmallVector<Operation *>>
getUsersBetween(Value buffer, Operation *first, Operation *last) {
  SmallVector<Operation *> users;
  for (OpOperand *use : getMemoryUses(buffer)) {
    Operation *at = first->getBlock()->findAncestorOpInBlock(*use->getOwner());
    if (!at || !first->isBeforeInBlock(at) || !at->isBeforeInBlock(last))
      continue;
    if (at != use->getOwner())
      return failure();
    users.push_back(at);
  }
  llvm::sort(users,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  return users;
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
/// that comes after `op`) and then only ORed into by other flag reductions.
static bool canComputeFlag(linalg::LinalgOp op, linalg::GenericOp flag,
                           DominanceInfo &dominance,
                           SmallVectorImpl<Operation *> &hoisted) {
  Value value = flag.getDpsInits()[0];
  FailureOr<SmallVector<Operation *>> between =
      getUsersBetween(value, op, flag);
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
    if (!other || !isFlagReduction(other) || other.getDpsInits()[0] != value)
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
static std::optional<Epilogue> findEpilogue(linalg::LinalgOp op,
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
                     !overwritesOrFrees(after[next], later[after[next]]);
  return epilogue;
}

/// The widest chunk, at most `width` elements of a row of C, on which the
/// copies of C's tiles compute `epilogue`: its output and the inputs it
/// reads along its last loop must be aligned to it (getCopyWidth).
static int64_t getEpilogueWidth(const Epilogue &epilogue, int64_t width) {
  linalg::GenericOp consumer = epilogue.consumer;
  if (!consumer)
    return width;
  unsigned last = consumer.getNumLoops() - 1;
  int64_t inner = consumer.getStaticLoopRanges()[last];
  auto narrow = [&](Value buffer) {
    auto type = cast<MemRefType>(buffer.getType());
    if (type.getElementTypeBitWidth() % 8 != 0)
      width = 1;
    else
      width = std::min(width, getCopyWidth(type, inner));
  };
  narrow(consumer.getDpsInits()[0]);
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    AffineMap map = consumer.getMatchingIndexingMap(input);
    if (input == epilogue.acc || !isa<MemRefType>(input->get().getType()) ||
        !map.isFunctionOfDim(last))
      continue;
    if (map.getResults().back() != getAffineDimExpr(last, map.getContext()))
      width = 1;
    else
      narrow(input->get());
  }
  return width;
}

/// `value`, computed in `loop`'s body from its induction variable, as it
/// is at `iv`: the ops of the body it depends on cloned at `b`.
static Value cloneAt(OpBuilder &b, Value value, scf::ForOp loop, Value iv) {
  BackwardSliceOptions options;
  options.filter = [&](Operation *op) {
    return op->getBlock() == loop.getBody();
  };
  options.inclusive = true;
  SetVector<Operation *> slice;
  if (value.getDefiningOp() &&
      failed(getBackwardSlice(value.getDefiningOp(), &slice, options)))
    return nullptr;
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  for (Operation *op : slice)
    b.clone(*op, mapping);
  return mapping.lookupOrDefault(value);
}

namespace {
struct GPUTileContractionsPass
    : public mp::impl::GPUTileContractionsPassBase<GPUTileContractionsPass> {
  using Base::Base;

  /// Tiles `target` by `sizes` (0: not tiled) with loops of `type`; the
  /// tiled op replaces it. Returns the tiled op and its innermost loop.
  FailureOr<std::pair<Operation *, Operation *>>
  tile(RewriterBase &rewriter, Operation *target, ArrayRef<int64_t> sizes,
       scf::SCFTilingOptions::LoopType type, ArrayRef<Attribute> mapping) {
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes));
    options.setLoopType(type);
    if (!mapping.empty())
      options.setMapping(mapping);
    rewriter.setInsertionPoint(target);
    FailureOr<scf::SCFTilingResult> tiled =
        scf::tileUsingSCF(rewriter, cast<TilingInterface>(target), options);
    if (failed(tiled) || tiled->loops.empty())
      return failure();
    rewriter.eraseOp(target); // on buffers the tiled op writes in place
    return std::make_pair(tiled->tiledOps.front(),
                          tiled->loops.back().getOperation());
  }

  /// How a block copies one operand's tile.
  struct Staging {
    SmallVector<int64_t> shape; // of the tile for one K step
    bool masked;                // whether the tile may extend past the operand
    int64_t width;              // elements per copy
    linalg::GenericOp producer; // fused into the copies, if any
    Value fill;                 // C's folded initial value, if any
    const Epilogue *epilogue;   // computed by the copies of C, if any
    bool doubleBuffered;        // two buffers, the next K step's prefetched
    AffineMap producerMap;      // C's indices to its producer's, if not same
  };

  /// Stages the tile `tile` (of `kLoop`'s K step) of an operand in two
  /// workgroup buffers (one `memref<2x...>`), allocated before `kLoop` and
  /// freed after it: the block's `threads` copy the first K step's tile
  /// into slot 0 before the loop, and on each trip copy the next step's
  /// tile (the last one's again on the last trip) into the other slot
  /// before `step` computes on this trip's. The copies' stores are marked
  /// for mp-gpu-async-copies. Returns this trip's slot.
  Value stageTwice(RewriterBase &rewriter, Value tile, scf::ForOp kLoop,
                   Operation *step, ArrayRef<int64_t> threads,
                   const Staging &staging) {
    MLIRContext *ctx = &getContext();
    Location loc = step->getLoc();
    auto workgroup = gpu::AddressSpaceAttr::get(
        ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
    SmallVector<int64_t> shape = {2};
    llvm::append_range(shape, staging.shape);
    auto slotsType =
        MemRefType::get(shape, getElementTypeOrSelf(tile.getType()),
                        MemRefLayoutAttrInterface(), workgroup);
    rewriter.setInsertionPoint(kLoop);
    Value slots = memref::AllocOp::create(rewriter, loc, slotsType);
    auto slot = [&](OpFoldResult index) -> Value {
      SmallVector<OpFoldResult> offsets(shape.size(), rewriter.getIndexAttr(0));
      offsets[0] = index;
      SmallVector<OpFoldResult> sizes = getAsIndexOpFoldResult(ctx, shape);
      sizes[0] = rewriter.getIndexAttr(1);
      SmallVector<OpFoldResult> strides(shape.size(), rewriter.getIndexAttr(1));
      auto type = memref::SubViewOp::inferRankReducedResultType(
          staging.shape, slotsType, offsets, sizes, strides);
      return memref::SubViewOp::create(rewriter, loc, cast<MemRefType>(type),
                                       slots, offsets, sizes, strides);
    };
    auto copy = [&](Value from, Value to, StringRef how) {
      scf::ForallOp forall =
          buildCopy(rewriter, loc, CopySide{from, false, staging.producer},
                    CopySide{to}, staging.shape, threads, staging.width);
      forall.walk([&](vector::StoreOp store) {
        MPDialect::GpuCopyAttrHelper(ctx).setAttr(store,
                                                  rewriter.getStringAttr(how));
      });
    };
    int64_t lb = *getConstantIntValue(kLoop.getLowerBound());
    int64_t ub = *getConstantIntValue(kLoop.getUpperBound());
    int64_t k = *getConstantIntValue(kLoop.getStep());
    copy(cloneAt(rewriter, tile, kLoop, kLoop.getLowerBound()),
         slot(rewriter.getIndexAttr(0)), "async");
    rewriter.setInsertionPoint(step);
    AffineExpr iv = rewriter.getAffineDimExpr(0);
    Value ivValue = kLoop.getInductionVar();
    Value next = affine::makeComposedAffineMin(
        rewriter, loc,
        AffineMap::get(1, 0, {iv + k, rewriter.getAffineConstantExpr(ub - k)},
                       ctx),
        {ivValue});
    auto slotOf = [&](int64_t ahead) {
      return affine::makeComposedFoldedAffineApply(
          rewriter, loc, ((iv - lb).floorDiv(k) + ahead) % 2, {ivValue});
    };
    copy(cloneAt(rewriter, tile, kLoop, next), slot(slotOf(1)), "prefetch");
    Value current = slot(slotOf(0));
    rewriter.setInsertionPointAfter(kLoop);
    memref::DeallocOp::create(rewriter, loc, slots);
    return current;
  }

  /// Stages the operands of `step` (a block's tile for one trip of `kLoop`)
  /// in workgroup buffers allocated before `kLoop` and freed after it. On
  /// each trip the block's `threads` copy the tiles of A and B into theirs
  /// (zeros past the operands' edges). C is staged only when its tile may
  /// extend past it or its initial value is folded: copied in (or set to
  /// the value) before `kLoop`, out (its part inside C) after; with an
  /// epilogue too, whose result the copy out stores instead. `step` then
  /// reads and writes the buffers.
  void stageOperands(RewriterBase &rewriter, linalg::LinalgOp step,
                     Operation *kLoop, ArrayRef<int64_t> threads,
                     ArrayRef<Staging> stagings) {
    auto workgroup = gpu::AddressSpaceAttr::get(
        &getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    Location loc = step.getLoc();
    for (auto [operand, staging] :
         llvm::zip_equal(step->getOpOperands(), stagings)) {
      bool isInit = step.isDpsInit(&operand);
      if (isInit && !staging.masked && !staging.fill && !staging.epilogue)
        continue;
      Value tile = operand.get();
      if (staging.doubleBuffered) {
        Value slot = stageTwice(rewriter, tile, cast<scf::ForOp>(kLoop), step,
                                threads, staging);
        rewriter.modifyOpInPlace(step, [&] { operand.set(slot); });
        continue;
      }
      auto bufferType =
          MemRefType::get(staging.shape, getElementTypeOrSelf(tile.getType()),
                          MemRefLayoutAttrInterface(), workgroup);
      rewriter.setInsertionPoint(kLoop);
      Value buffer = memref::AllocOp::create(rewriter, loc, bufferType);
      CopySide global{tile,    staging.masked,   staging.producer,
                      nullptr, staging.epilogue, staging.producerMap},
          local{buffer};
      if (isInit) {
        // Setting the whole buffer to the initial value needs no mask.
        if (staging.fill)
          buildCopy(rewriter, loc,
                    CopySide{nullptr, false, nullptr, staging.fill}, local,
                    staging.shape, threads,
                    getCopyWidth(bufferType, staging.shape.back()));
        else
          buildCopy(rewriter, loc, global, local, staging.shape, threads,
                    staging.width);
        rewriter.setInsertionPointAfter(kLoop);
        buildCopy(rewriter, loc, local, global, staging.shape, threads,
                  staging.width);
      } else {
        rewriter.setInsertionPoint(step);
        buildCopy(rewriter, loc, global, local, staging.shape, threads,
                  staging.width);
        rewriter.setInsertionPointAfter(kLoop);
      }
      memref::DeallocOp::create(rewriter, loc, buffer);
      rewriter.modifyOpInPlace(step, [&] { operand.set(buffer); });
    }
  }

  /// Tiles `op` with `tiles` (tile-m, tile-n, warp-m, warp-n).
  LogicalResult tileOne(RewriterBase &rewriter, linalg::LinalgOp op,
                        const MmaContraction &c, ArrayRef<int64_t> tiles,
                        const DenseMap<Value, linalg::GenericOp> &fused,
                        const FoldedInit *init, const Epilogue *epilogue) {
    MLIRContext *ctx = &getContext();
    unsigned numLoops = c.ranges.size();
    // Two mma K steps per trip where they divide K or K is not a multiple
    // of one (its tiles are masked either way), else one.
    int64_t k = c.ranges[c.k];
    int64_t kStep = k % (2 * kMmaK) == 0 || (k % kMmaK != 0 && k > kMmaK)
                        ? 2 * kMmaK
                        : kMmaK;
    SmallVector<int64_t> blockSizes(numLoops, 0), warpSizes(numLoops, 0),
        kSizes(numLoops, 0), stepSizes(numLoops, 1);
    SmallVector<Attribute> blockMapping, warpMapping;
    auto block = [&](gpu::MappingId id) {
      blockMapping.push_back(gpu::GPUBlockMappingAttr::get(ctx, id));
    };
    auto warp = [&](gpu::MappingId id) {
      warpMapping.push_back(gpu::GPUWarpMappingAttr::get(ctx, id));
    };
    for (unsigned d = 0; d < numLoops; ++d) {
      if (c.batch && d == *c.batch) {
        blockSizes[d] = 1;
        block(gpu::MappingId::DimZ);
      } else if (d == c.m) {
        blockSizes[d] = stepSizes[d] = tiles[0];
        warpSizes[d] = tiles[2];
        block(gpu::MappingId::DimY);
        warp(gpu::MappingId::DimY);
      } else if (d == c.n) {
        blockSizes[d] = stepSizes[d] = tiles[1];
        warpSizes[d] = tiles[3];
        block(gpu::MappingId::DimX);
        warp(gpu::MappingId::DimX);
      } else if (d == c.k) {
        kSizes[d] = stepSizes[d] = kStep;
      }
    }
    // How each operand's tile is copied: its shape for one K step, masked
    // where a loop's extent is not a multiple of its tile, and as wide as
    // its buffer's alignment allows.
    SmallVector<Staging> stagings;
    for (OpOperand &operand : op->getOpOperands()) {
      Staging staging{{},      false,   1,     fused.lookup(operand.get()),
                      nullptr, nullptr, false, AffineMap()};
      if (op.isDpsInit(&operand)) {
        staging.epilogue = epilogue;
        if (init) {
          staging.fill = init->value;
          staging.producer = init->producer;
          if (init->producer && !init->toProducer.isIdentity())
            staging.producerMap = init->toProducer;
        }
      }
      for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults()) {
        unsigned d = cast<AffineDimExpr>(e).getPosition();
        staging.shape.push_back(stepSizes[d]);
        staging.masked |= c.ranges[d] % stepSizes[d] != 0;
      }
      // A fused producer's input is read instead, in vectors only where it
      // is read in place and at most converted.
      Value read = operand.get();
      if (staging.producer)
        read = isVectorizableProducer(staging.producer) && !staging.producerMap
                   ? staging.producer.getDpsInputs()[0]
                   : nullptr;
      // Masked tiles go element by element (a vector path for the chunks
      // inside as well made the edge kernels spill).
      if (!staging.masked && read)
        staging.width = getCopyWidth(cast<MemRefType>(read.getType()),
                                     staging.shape.back());
      if (staging.epilogue && staging.width > 1)
        staging.width = getEpilogueWidth(*staging.epilogue, staging.width);
      // An operand's panels copied unchanged in chunks of 4, 8 or 16 bytes
      // (what cp.async moves) are double-buffered where K takes two steps
      // or more.
      Type element = getElementTypeOrSelf(operand.get().getType());
      staging.doubleBuffered =
          doubleBuffer && !op.isDpsInit(&operand) && !staging.masked &&
          k / kStep >= 2 &&
          staging.width * element.getIntOrFloatBitWidth() >= 32 &&
          (!staging.producer ||
           (isVectorizableProducer(staging.producer) &&
            getElementTypeOrSelf(staging.producer.getDpsInputs()[0]) ==
                element));
      stagings.push_back(staging);
    }
    using LoopType = scf::SCFTilingOptions::LoopType;
    auto blockTile =
        tile(rewriter, op, blockSizes, LoopType::ForallOp, blockMapping);
    if (failed(blockTile))
      return failure();
    auto kTile = tile(rewriter, blockTile->first, kSizes, LoopType::ForOp, {});
    if (failed(kTile))
      return failure();
    int64_t threads[] = {tiles[0] / tiles[2], tiles[1] / tiles[3] * 32};
    stageOperands(rewriter, cast<linalg::LinalgOp>(kTile->first), kTile->second,
                  threads, stagings);
    auto warpTile = tile(rewriter, kTile->first, warpSizes, LoopType::ForallOp,
                         warpMapping);
    if (failed(warpTile))
      return failure();
    Operation *step = warpTile->first;
    rewriter.setInsertionPoint(step);
    FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
        rewriter, step, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/true);
    if (failed(vectorized))
      return failure();
    rewriter.replaceOp(step, vectorized->replacements);
    return success();
  }

  void runOnOperation() override {
    if (failed(verifyTileOptions(getOperation()->getLoc(),
                                 "mp-gpu-tile-contractions", tileM, tileN,
                                 warpM, warpN)))
      return signalPassFailure();
    struct Target {
      linalg::LinalgOp op;
      MmaContraction c;
      SmallVector<int64_t> tiles;
    };
    SmallVector<Target> targets;
    getOperation()->walk([&](linalg::LinalgOp op) {
      std::optional<MmaContraction> c;
      if (op.hasPureBufferSemantics())
        c = matchMmaContraction(op);
      if (!c)
        return;
      // mp-gpu-choose-tiles' choice for this op, else the options.
      SmallVector<int64_t> tiles = {tileM, tileN, warpM, warpN};
      if (auto chosen = op->getAttrOfType<DenseI64ArrayAttr>(
              MPDialect::GpuTileAttrHelper::getNameStr()))
        tiles = llvm::to_vector(chosen.asArrayRef());
      targets.push_back({op, *c, tiles});
    });
    if (targets.empty())
      return;
    IRRewriter rewriter(&getContext());
    // A generic vectorizes to a multi-reduction; as linalg.contract it
    // becomes a vector.contract.
    SmallVector<Target> tileable;
    for (Target &target : targets) {
      if (auto generic =
              dyn_cast<linalg::GenericOp>(target.op.getOperation())) {
        FailureOr<linalg::LinalgOp> named =
            rewriteAsNamedContraction(rewriter, generic);
        if (failed(named))
          continue;
        target.op = *named;
      }
      tileable.push_back(target);
    }
    // Producers that compute are outlined into functions next to theirs:
    // only when the pass runs on the symbol table holding them (in
    // mp-lower-to-gpu, the module), not in parallel on each function.
    bool canOutline = getOperation()->hasTrait<OpTrait::SymbolTable>();
    DenseMap<Value, linalg::GenericOp> fused = findFusedProducers(
        llvm::map_to_vector(tileable, [](Target &t) { return t.op; }),
        canOutline);
    for (auto &[buffer, producer] : fused)
      if (!isLoadingProducer(producer))
        outlineProducer(rewriter, producer);
    SmallVector<Operation *> setters, consumers;
    DominanceInfo dominance(getOperation());
    for (auto &[op, c, tiles] : tileable) {
      // C is staged for a folded fill or an epilogue, but not in blocks of
      // fewer than 4 warps whose warps hold 32 accumulators per lane (32x32
      // tiles): ptxas spilled in one such sm_90a kernel, the transformer's
      // 1792x32x96 GEMM with 2 warps of 32x32, when its C was staged.
      int64_t warps = (tiles[0] / tiles[2]) * (tiles[1] / tiles[3]);
      int64_t accumulators = tiles[2] * tiles[3] / kWarpSize;
      std::optional<FoldedInit> init;
      std::optional<Epilogue> epilogue;
      if (warps >= 4 || accumulators < 32) {
        auto taken = [&](Operation *user) {
          return llvm::is_contained(consumers, user) ||
                 llvm::any_of(
                     fused, [&](auto &entry) { return entry.second == user; });
        };
        init = findFoldedInit(op, canOutline);
        if (init && init->producer && taken(init->producer))
          init.reset();
        SmallVector<Value> reads;
        for (Value input : op.getDpsInputs()) {
          linalg::GenericOp producer = fused.lookup(input);
          llvm::append_range(reads, producer ? getReadBuffers(producer)
                                             : SmallVector<Value>{input});
        }
        if (init && init->producer)
          llvm::append_range(reads, getReadBuffers(init->producer));
        epilogue = findEpilogue(op, reads, dominance);
        if (epilogue &&
            (taken(epilogue->consumer) || llvm::any_of(epilogue->flags, taken)))
          epilogue.reset();
      }
      if (init) {
        setters.push_back(init->setter);
        if (init->producer && !isLoadingProducer(init->producer))
          outlineProducer(rewriter, init->producer);
      }
      if (epilogue) {
        if (epilogue->consumer)
          consumers.push_back(epilogue->consumer);
        llvm::append_range(consumers, epilogue->flags);
        for (Operation *hoisted : epilogue->hoisted)
          hoisted->moveBefore(op);
      }
      if (failed(tileOne(rewriter, op, c, tiles, fused, init ? &*init : nullptr,
                         epilogue ? &*epilogue : nullptr))) {
        op->emitError("mp-gpu-tile-contractions: cannot tile this "
                      "contraction for Tensor Cores");
        return signalPassFailure();
      }
      ++numTiled;
    }
    // The copies read the producers' inputs now; their results die with
    // them (canonicalization removes the buffers).
    for (auto &[buffer, producer] : fused) {
      rewriter.eraseOp(producer);
      ++numFused;
    }
    // The contractions start from the fills' values and write all of C.
    for (Operation *setter : setters) {
      rewriter.eraseOp(setter);
      ++numFoldedInits;
    }
    // The copies of C compute the epilogues.
    for (Operation *consumer : consumers) {
      rewriter.eraseOp(consumer);
      ++numEpilogues;
    }
    RewritePatternSet patterns(&getContext());
    vector::populateVectorUnrollPatterns(
        patterns,
        vector::UnrollVectorOptions().setNativeShapeFn(getMmaNativeShape));
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
