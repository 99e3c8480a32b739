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

#include "GemmFusion.h"
#include "MmaContraction.h"
#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Utils/TensorMath.h"

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
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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
/// slices the unrolled contractions take of them. A CUDA-core GEMM's
/// contractions (f32) and the C tiles of its threads stay whole.
static std::optional<SmallVector<int64_t>> getMmaNativeShape(Operation *op) {
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    if (isSimtContraction(contract))
      return std::nullopt;
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
    VectorType type = write.getVectorType();
    int64_t rank = type.getRank();
    if (rank < 2 || type.getDimSize(rank - 2) % kMmaM ||
        type.getDimSize(rank - 1) % kMmaN)
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

/// The attribute of a fused producer that names the function computing one
/// element of it (outlineProducer).
constexpr llvm::StringLiteral kComputeAttr = "mp.gpu_compute";

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
  buildEpilogue(b, loc, *to.epilogue, value, at);
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
/// load and store, with a masked side only if the chunk is inside (its
/// chunks are wholly inside or wholly outside the buffer: its first element
/// tells): a read outside gives zeros, a write outside is skipped. A chunk
/// of one element is copied as a scalar where a side is masked.
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
  Type chunkType = type.getNumElements() == 1 ? toElement : Type(type);
  Value in = buildInBounds(b, loc, (from.masked ? from : to).buffer, indices);
  if (to.masked) {
    auto guarded = scf::IfOp::create(b, loc, in);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(guarded.thenBlock()->getTerminator());
    buildStore(b, loc, to, read(b, loc, chunkType), indices);
    return;
  }
  auto chunk = scf::IfOp::create(
      b, loc, in,
      [&](OpBuilder &then, Location thenLoc) {
        scf::YieldOp::create(then, thenLoc, read(then, thenLoc, chunkType));
      },
      [&](OpBuilder &otherwise, Location otherwiseLoc) {
        Value zero = arith::ConstantOp::create(
            otherwise, otherwiseLoc,
            cast<TypedAttr>(otherwise.getZeroAttr(chunkType)));
        scf::YieldOp::create(otherwise, otherwiseLoc, zero);
      });
  buildStore(b, loc, to, chunk.getResult(0), indices);
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
    int64_t slots;              // K steps staged at once (1: copied in place)
    AffineMap producerMap;      // C's indices to its producer's, if not same
  };

  /// Stages the tile `tile` (of `kLoop`'s K step) of an operand in
  /// `slots` workgroup buffers (one `memref<slots x ...>`), allocated before
  /// `kLoop` and freed after it, so that the copies of the next `slots` - 1
  /// K steps are in flight while the warps compute on this one's: the
  /// block's `threads` copy the first `slots` - 1 steps' tiles into slots 0,
  /// 1, ... before the loop ("ahead"; after the copies of the other operands
  /// for the same step, `stepCopies`' last one per step, so that the loads
  /// are issued step by step), and on each trip the tile `slots` - 1 steps
  /// on (the last step's again on the last trips, so that every trip copies
  /// as much) into the slot the previous trip computed on ("prefetch"),
  /// before `step` computes on this trip's. With `reserve-slot` and 3 slots
  /// or more, `slots` - 2 steps ahead: into the slot of the trip before
  /// the previous one. The markers tell
  /// mp-gpu-async-copies what to wait for. Returns this trip's slot.
  Value stageInSlots(RewriterBase &rewriter, Value tile, scf::ForOp kLoop,
                     Operation *step, ArrayRef<int64_t> threads,
                     const Staging &staging,
                     SmallVectorImpl<Operation *> &stepCopies) {
    MLIRContext *ctx = &getContext();
    Location loc = step->getLoc();
    auto workgroup = gpu::AddressSpaceAttr::get(
        ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
    SmallVector<int64_t> shape = {staging.slots};
    llvm::append_range(shape, staging.shape);
    auto slotsType =
        MemRefType::get(shape, getElementTypeOrSelf(tile.getType()),
                        MemRefLayoutAttrInterface(), workgroup);
    rewriter.setInsertionPoint(stepCopies.empty() ? kLoop.getOperation()
                                                  : stepCopies.front());
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
      return forall;
    };
    int64_t lb = *getConstantIntValue(kLoop.getLowerBound());
    int64_t ub = *getConstantIntValue(kLoop.getUpperBound());
    int64_t k = *getConstantIntValue(kLoop.getStep());
    // How many steps ahead the trips copy (one slot reserved for a step
    // still being read after its trip, with 3 slots or more).
    int64_t ahead = staging.slots -
                    (reserveSlot && staging.slots >= kMinSlotsInFlight ? 2 : 1);
    for (int64_t s = 0; s < ahead; ++s) {
      bool first = s >= static_cast<int64_t>(stepCopies.size());
      if (first)
        rewriter.setInsertionPoint(kLoop);
      else
        rewriter.setInsertionPointAfter(stepCopies[s]);
      Value from =
          cloneAt(rewriter, tile, kLoop,
                  arith::ConstantIndexOp::create(rewriter, loc, lb + s * k));
      scf::ForallOp forall =
          copy(from, slot(rewriter.getIndexAttr(s)), "ahead");
      if (first)
        stepCopies.push_back(forall);
      else
        stepCopies[s] = forall;
    }
    rewriter.setInsertionPoint(step);
    AffineExpr iv = rewriter.getAffineDimExpr(0);
    Value ivValue = kLoop.getInductionVar();
    Value next = affine::makeComposedAffineMin(
        rewriter, loc,
        AffineMap::get(1, 0,
                       {iv + ahead * k, rewriter.getAffineConstantExpr(ub - k)},
                       ctx),
        {ivValue});
    auto slotOf = [&](int64_t stepsOn) {
      return affine::makeComposedFoldedAffineApply(
          rewriter, loc, ((iv - lb).floorDiv(k) + stepsOn) % staging.slots,
          {ivValue});
    };
    copy(cloneAt(rewriter, tile, kLoop, next), slot(slotOf(ahead)), "prefetch");
    Value current = slot(slotOf(0));
    rewriter.setInsertionPointAfter(kLoop);
    memref::DeallocOp::create(rewriter, loc, slots);
    return current;
  }

  /// Stages the operands of `step` (a block's tile for one trip of `kLoop`)
  /// in workgroup buffers allocated before `kLoop` and freed after it. On
  /// each trip the block's `threads` copy the tiles of A and B into theirs
  /// (zeros past the operands' edges). C is staged only when its tile may
  /// extend past it or its initial value is folded (a fill's value, or a
  /// producer the copy computes): copied in (or set to the value) before
  /// `kLoop`, out (its part inside C) after; with an epilogue too, whose
  /// result the copy out stores instead. `step` then
  /// reads and writes the buffers.
  void stageOperands(RewriterBase &rewriter, linalg::LinalgOp step,
                     Operation *kLoop, ArrayRef<int64_t> threads,
                     ArrayRef<Staging> stagings) {
    auto workgroup = gpu::AddressSpaceAttr::get(
        &getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    Location loc = step.getLoc();
    SmallVector<Operation *> stepCopies;
    for (auto [index, staging] : llvm::enumerate(stagings)) {
      OpOperand &operand = step->getOpOperand(index);
      bool isInit = step.isDpsInit(&operand);
      if (isInit && !staging.masked && !staging.fill && !staging.producer &&
          !staging.epilogue)
        continue;
      Value tile = operand.get();
      if (staging.slots > 1) {
        Value slot = stageInSlots(rewriter, tile, cast<scf::ForOp>(kLoop), step,
                                  threads, staging, stepCopies);
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
                        const DenseMap<Value, FusedProducer> &fused,
                        const FoldedInit *init, const Epilogue *epilogue) {
    MLIRContext *ctx = &getContext();
    unsigned numLoops = c.ranges.size();
    // Up to tile-k of K per trip (getMmaKStep). On CUDA cores, 8 (each
    // thread then holds 4 x 8 elements of A and 8 x 4 of B per trip).
    int64_t k = c.ranges[c.k];
    int64_t kStep = c.simt ? kSimtK : getMmaKStep(k, tileK);
    SmallVector<int64_t> blockSizes(numLoops, 0), warpSizes(numLoops, 0),
        kSizes(numLoops, 0), stepSizes(numLoops, 1);
    SmallVector<Attribute> blockMapping, warpMapping;
    auto block = [&](gpu::MappingId id) {
      blockMapping.push_back(gpu::GPUBlockMappingAttr::get(ctx, id));
    };
    // Tensor Cores compute a warp's tile, CUDA cores a thread's.
    auto warp = [&](gpu::MappingId id) {
      warpMapping.push_back(
          c.simt ? Attribute(gpu::GPUThreadMappingAttr::get(ctx, id))
                 : Attribute(gpu::GPUWarpMappingAttr::get(ctx, id)));
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
      FusedProducer producer = fused.lookup(operand.get());
      Staging staging{{},      false,   1, producer.producer,
                      nullptr, nullptr, 1, producer.toProducer};
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
        // A dynamic size may end anywhere in a tile (but a batch, whose
        // tiles are 1).
        staging.masked |= ShapedType::isDynamic(c.ranges[d])
                              ? stepSizes[d] != 1
                              : c.ranges[d] % stepSizes[d] != 0;
      }
      // A fused producer's input is read instead, in vectors only where it
      // is read in place and at most converted.
      Value read = operand.get();
      if (staging.producer)
        read = isVectorizableProducer(staging.producer) && !staging.producerMap
                   ? staging.producer.getDpsInputs()[0]
                   : nullptr;
      // A masked tile is copied in chunks that are wholly inside the operand
      // or wholly outside it, as wide as the extent of the operand's
      // innermost dimension allows (element by element where it is
      // dynamic); a copy in vectors inside and element by element at the
      // edges made the edge kernels spill.
      if (read) {
        staging.width = getCopyWidth(cast<MemRefType>(read.getType()),
                                     staging.shape.back());
        AffineMap map = op.getMatchingIndexingMap(&operand);
        int64_t inner = c.ranges[cast<AffineDimExpr>(map.getResults().back())
                                     .getPosition()];
        while (staging.masked && staging.width > 1 &&
               (ShapedType::isDynamic(inner) || inner % staging.width != 0))
          staging.width /= 2;
      }
      if (staging.epilogue && staging.width > 1)
        staging.width = getEpilogueWidth(*staging.epilogue, staging.width);
      // An operand's panels copied unchanged in chunks of 4, 8 or 16 bytes
      // (what cp.async moves) are staged in `stages` slots (at most one per
      // K step) where K takes two steps or more.
      Type element = getElementTypeOrSelf(operand.get().getType());
      if (stages > 1 && !op.isDpsInit(&operand) && !staging.masked &&
          !ShapedType::isDynamic(k) && k / kStep >= 2 &&
          staging.width * element.getIntOrFloatBitWidth() >= 32 &&
          (!staging.producer ||
           (isVectorizableProducer(staging.producer) &&
            getElementTypeOrSelf(staging.producer.getDpsInputs()[0]) ==
                element)))
        staging.slots = std::min<int64_t>(stages, k / kStep);
      stagings.push_back(staging);
    }
    using LoopType = scf::SCFTilingOptions::LoopType;
    auto blockTile =
        tile(rewriter, op, blockSizes, LoopType::ForallOp, blockMapping);
    if (failed(blockTile))
      return failure();
    // The blocks' loop keeps the tiles, for the kernel report.
    MPDialect::GpuTileAttrHelper(ctx).setAttr(
        blockTile->second, rewriter.getDenseI64ArrayAttr(tiles));
    auto kTile = tile(rewriter, blockTile->first, kSizes, LoopType::ForOp, {});
    if (failed(kTile))
      return failure();
    int64_t threads[] = {tiles[0] / tiles[2],
                         tiles[1] / tiles[3] * (c.simt ? 1 : mp::kWarpSize)};
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
    for (std::optional<std::string> problem :
         {checkStages(stages), checkTileK(tileK)})
      if (problem) {
        emitError(getOperation()->getLoc())
            << "mp-gpu-tile-contractions: " << *problem;
        return signalPassFailure();
      }
    struct Target {
      linalg::LinalgOp op;
      MmaContraction c;
      SmallVector<int64_t> tiles;
    };
    SmallVector<Target> targets;
    bool invalid = false;
    getOperation()->walk([&](linalg::LinalgOp op) {
      std::optional<MmaContraction> c;
      if (op.hasPureBufferSemantics())
        c = matchTiledContraction(op, /*dynamicSizes=*/true);
      if (!c)
        return;
      // mp-gpu-choose-tiles' choice for this op, else the options (for
      // Tensor Cores).
      SmallVector<int64_t> tiles = {tileM, tileN, warpM, warpN};
      if (c->simt)
        tiles = chooseSimtTiles(*c, GPUChooseTilesPassOptions().simtBlock,
                                GPUChooseTilesPassOptions().simtThread);
      if (auto chosen = op->getAttrOfType<DenseI64ArrayAttr>(
              MPDialect::GpuTileAttrHelper::getNameStr()))
        tiles = llvm::to_vector(chosen.asArrayRef());
      if (std::optional<std::string> problem =
              c->simt
                  ? checkSimtTiles(tiles)
                  : checkTileOptions(tiles[0], tiles[1], tiles[2], tiles[3])) {
        op->emitError("mp-gpu-tile-contractions: ") << *problem;
        invalid = true;
        return;
      }
      targets.push_back({op, *c, tiles});
    });
    if (invalid)
      return signalPassFailure();
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
    DenseMap<Value, FusedProducer> fused = findFusedProducers(
        llvm::map_to_vector(tileable, [](Target &t) { return t.op; }),
        canOutline);
    // Each once (two operands may be reshapes of one producer's result).
    llvm::SetVector<linalg::GenericOp> producers;
    for (auto &[operand, found] : fused)
      producers.insert(found.producer);
    for (linalg::GenericOp producer : producers)
      if (!isLoadingProducer(producer))
        outlineProducer(rewriter, producer);
    SmallVector<Operation *> setters, consumers;
    DominanceInfo dominance(getOperation());
    for (auto &[op, c, tiles] : tileable) {
      // C is staged for a folded fill or an epilogue, but not in blocks of
      // fewer than 4 warps whose warps hold 32 accumulators per lane (32x32
      // tiles): ptxas spilled in one such sm_90a kernel, the transformer's
      // 1792x32x96 GEMM with 2 warps of 32x32, when its C was staged. A
      // CUDA-core GEMM's threads hold 16 each.
      int64_t warps = (tiles[0] / tiles[2]) * (tiles[1] / tiles[3]);
      int64_t accumulators = tiles[2] * tiles[3] / mp::kWarpSize;
      std::optional<FoldedInit> init;
      std::optional<Epilogue> epilogue;
      if (c.simt || warps >= 4 || accumulators < 32) {
        // Whether another contraction's copies compute `user` (none: an
        // epilogue of flags alone has no consumer).
        auto taken = [&](Operation *user) {
          auto generic = dyn_cast_if_present<linalg::GenericOp>(user);
          return user && (llvm::is_contained(consumers, user) ||
                          (generic && producers.contains(generic)));
        };
        init = findFoldedInit(op, canOutline);
        if (init && init->producer && taken(init->producer))
          init.reset();
        SmallVector<Value> reads;
        for (Value input : op.getDpsInputs()) {
          linalg::GenericOp producer = fused.lookup(input).producer;
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
    for (linalg::GenericOp producer : producers) {
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
