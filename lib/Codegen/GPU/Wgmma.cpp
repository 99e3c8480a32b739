//===- Wgmma.cpp - mma.sync chains as warpgroup MMAs (sm_90a) -------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// After the vector-to-nvgpu conversion a K step of a block's tile is, per
// warp, a chain of mma.sync per 8 columns of C and 16 of K, each reading
// its A and B fragments with ldmatrix from the staged panels. When the
// block is one warpgroup whose warps own consecutive 16-row slices of a
// 64-row tile and all its columns, those chains are what one wgmma.mma_async
// m64nNk16 per 16 of K computes: warp w's accumulator registers of
// wgmma (PTX ISA, "wgmma register fragments": rows 16w + lane/4 and + 8,
// columns 8j + 2 (lane mod 4) and + 1) are the m16n8 C fragments of its
// mma.sync tiles, j by j. wgmma reads A and B from shared memory through
// descriptors (start address, leading and stride byte offsets, swizzle
// mode) of the panels as mp-gpu-swizzle-panels leaves them: a panel of
// 32-, 64- or 128-byte rows swizzled by chunk XOR ((row / rows per line) mod
// chunks) is the canonical layout of the 32-, 64- or 128-byte swizzle mode,
// K-major when K is the panel's contiguous dimension, else M- or N-major.
//
//===----------------------------------------------------------------------===//

#include "Wgmma.h"
#include "MmaContraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <array>
#include <map>

using namespace mlir;
using namespace mlir::mp;

namespace {
/// The thread ids (x, y, z) of a lane, or a block's size.
using ThreadIds = std::array<int64_t, 3>;

/// A kernel as the rewrite sees it: a gpu.launch (the kernel stage) or an
/// outlined gpu.func.
struct WarpgroupKernel {
  Operation *op;
  ArrayRef<BlockArgument> workgroupBuffers;
  ThreadIds blockSize;
  /// A launch's thread id block arguments (gpu.thread_id ops are read
  /// anywhere).
  std::array<Value, 3> threadIds;
};

/// The value of index computations for one lane of a kernel: gpu.lane_id,
/// the thread ids and constants, folded through pure ops.
class LaneEvaluator {
public:
  LaneEvaluator(const WarpgroupKernel &kernel, ThreadIds ids, int64_t lane)
      : kernel(kernel), ids(ids), lane(lane) {}

  std::optional<int64_t> operator()(Value value, int depth = 0) {
    if (depth > 64)
      return std::nullopt;
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return constant.getSExtValue();
    for (auto [arg, id] : llvm::zip(kernel.threadIds, ids))
      if (arg && value == arg)
        return id;
    Operation *def = value.getDefiningOp();
    if (isa_and_present<gpu::LaneIdOp>(def))
      return lane;
    if (auto thread = dyn_cast_or_null<gpu::ThreadIdOp>(def))
      return ids[static_cast<unsigned>(thread.getDimension())];
    if (!def || def->getNumResults() != 1 || def->getNumRegions() != 0 ||
        !isPure(def))
      return std::nullopt;
    SmallVector<Attribute> operands;
    for (Value operand : def->getOperands()) {
      std::optional<int64_t> v = (*this)(operand, depth + 1);
      if (!v || !operand.getType().isIntOrIndex())
        return std::nullopt;
      operands.push_back(IntegerAttr::get(operand.getType(), *v));
    }
    SmallVector<OpFoldResult> results;
    if (failed(def->fold(operands, results)) || results.size() != 1)
      return std::nullopt;
    if (auto folded = dyn_cast<Value>(results[0]))
      return (*this)(folded, depth + 1);
    if (auto attr = dyn_cast<IntegerAttr>(cast<Attribute>(results[0])))
      return attr.getInt();
    return std::nullopt;
  }

private:
  const WarpgroupKernel &kernel;
  ThreadIds ids;
  int64_t lane;
};

/// One m16n8k16 mma.sync of a chain with f32 accumulators: upstream's
/// nvgpu.mma.sync (f16) or the bf16 nvvm.mma.sync that mp-gpu-vector-to-mma
/// builds on the same registers, and the ldmatrix ops that load its A and B
/// fragments.
struct MmaTile {
  Operation *op;
  nvgpu::LdMatrixOp a, b;
};

/// An operand of an mma.sync as wgmma reads it: the staged panel an ldmatrix
/// loads it from (its f16 view's source for bf16), the slot of a
/// double-buffered panel, whether K is the panel's contiguous dimension,
/// and the tile's origin (row and column indices of its first element).
struct PanelRead {
  Value panel, slot;
  bool kMajor;
  Value row, column;
};

/// One side of a warpgroup MMA: the panel read, and its descriptor's
/// layout.
struct Side {
  PanelRead read;
  MemRefType type;
  /// Bytes per panel row.
  int64_t rowBytes;
  /// The swizzle mode's width: the row, or for an M/N-major panel of wider
  /// rows (128 or 256 columns) the 128 bytes of each of the column blocks
  /// that mp-gpu-swizzle-panels lays out one after the other.
  int64_t lineBytes;
  /// The distance between those blocks (0: one block).
  int64_t blockBytes;
};

/// A K step that one wgmma per 16 of K computes: its two sides, its tiles
/// by the first column of C they compute and then by K, the K offsets, and
/// the last tile in program order (where the wgmmas go).
struct WgmmaStep {
  Side a, b;
  int64_t m, n;
  std::map<int64_t, std::map<int64_t, MmaTile>> byN;
  SmallVector<int64_t> steps;
  Operation *last;
};
} // namespace

/// The ldmatrix that `registers` (the 32-bit registers of a bf16
/// nvvm.mma.sync operand, row by row of the fragment) come from, as
/// mp-gpu-vector-to-mma extracts them: register i is the bits of row i.
static nvgpu::LdMatrixOp getRegistersLoad(ValueRange registers) {
  nvgpu::LdMatrixOp load;
  for (auto [row, reg] : llvm::enumerate(registers)) {
    auto word = reg.getDefiningOp<vector::ExtractOp>();
    auto bits = word ? word.getSource().getDefiningOp<vector::BitCastOp>()
                     : vector::BitCastOp();
    auto pair = bits ? bits.getSource().getDefiningOp<vector::ExtractOp>()
                     : vector::ExtractOp();
    if (!pair || word.getStaticPosition() != ArrayRef<int64_t>{0} ||
        pair.getStaticPosition() != ArrayRef<int64_t>{int64_t(row)})
      return {};
    auto from = pair.getSource().getDefiningOp<nvgpu::LdMatrixOp>();
    if (!from || (load && from != load))
      return {};
    load = from;
  }
  return load;
}

/// `op` as a tile of a chain, if it is one.
static std::optional<MmaTile> getMmaTile(Operation *op) {
  constexpr std::array<int64_t, 3> shape{kMmaM, kMmaN, kMmaK};
  auto isF32 = [](Type t) { return t.isF32(); };
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
    auto accType = dyn_cast<VectorType>(mma.getMatrixC().getType());
    auto a = mma.getMatrixA().getDefiningOp<nvgpu::LdMatrixOp>();
    auto b = mma.getMatrixB().getDefiningOp<nvgpu::LdMatrixOp>();
    if (!accType || accType.getShape() != ArrayRef<int64_t>{2, 2} ||
        !accType.getElementType().isF32() ||
        mma.getMmaShapeAsArray() != shape || !a || !b)
      return std::nullopt;
    return MmaTile{op, a, b};
  }
  auto mma = dyn_cast<NVVM::MmaOp>(op);
  if (!mma || mma.getMultiplicandAPtxType() != NVVM::MMATypes::bf16 ||
      mma.getMultiplicandBPtxType() != NVVM::MMATypes::bf16 ||
      mma.getLayoutA() != NVVM::MMALayout::row ||
      mma.getLayoutB() != NVVM::MMALayout::col)
    return std::nullopt;
  NVVM::MMAShapeAttr mmaShape = mma.getShapeAttr();
  auto result = dyn_cast<LLVM::LLVMStructType>(mma.getRes().getType());
  if (std::array<int64_t, 3>{mmaShape.getM(), mmaShape.getN(),
                             mmaShape.getK()} != shape ||
      mma.getOperandC().size() != 4 ||
      !llvm::all_of(mma.getOperandC().getTypes(), isF32) || !result ||
      result.getBody().size() != 4 || !llvm::all_of(result.getBody(), isF32))
    return std::nullopt;
  nvgpu::LdMatrixOp a = getRegistersLoad(mma.getOperandA());
  nvgpu::LdMatrixOp b = getRegistersLoad(mma.getOperandB());
  if (!a || !b)
    return std::nullopt;
  return MmaTile{op, a, b};
}

/// The struct and position that the f32 accumulator `c` of a bf16
/// nvvm.mma.sync is extracted from: directly, or through the vector<2x2xf32>
/// that mp-gpu-vector-to-mma rebuilds from them (before canonicalization).
static std::pair<Value, int64_t> getAccumulatorSource(Value c) {
  if (auto element = c.getDefiningOp<vector::ExtractOp>()) {
    auto vector = element.getSource().getDefiningOp<vector::FromElementsOp>();
    ArrayRef<int64_t> position = element.getStaticPosition();
    if (!vector || position.size() != 2 ||
        llvm::is_contained(position, ShapedType::kDynamic))
      return {};
    return getAccumulatorSource(
        vector.getElements()[position[0] * 2 + position[1]]);
  }
  auto element = c.getDefiningOp<LLVM::ExtractValueOp>();
  if (!element || element.getPosition().size() != 1)
    return {};
  return {element.getContainer(), element.getPosition()[0]};
}

/// Whether `next` accumulates onto `previous`'s result, which nothing else
/// reads.
static bool accumulatesOnto(const MmaTile &next, const MmaTile &previous) {
  Value result = previous.op->getResult(0);
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(next.op))
    return mma.getMatrixC() == result && result.hasOneUse();
  for (auto [i, c] : llvm::enumerate(cast<NVVM::MmaOp>(next.op).getOperandC()))
    if (getAccumulatorSource(c) != std::pair<Value, int64_t>(result, i))
      return false;
  // Only extractions and the rebuilt vector lie between them.
  SmallVector<Value> values{result};
  while (!values.empty()) {
    for (Operation *user : values.pop_back_val().getUsers()) {
      if (user == next.op)
        continue;
      if (!isa<LLVM::ExtractValueOp, vector::FromElementsOp, vector::ExtractOp>(
              user))
        return false;
      llvm::append_range(values, user->getResults());
    }
  }
  return true;
}

/// The accumulator operands of `tile`: the vector<2x2xf32> of
/// nvgpu.mma.sync, the 4 f32 of the bf16 nvvm.mma.sync.
static SmallVector<Value> getAccumulatorOperands(const MmaTile &tile) {
  if (auto mma = dyn_cast<NVVM::MmaOp>(tile.op))
    return llvm::to_vector(mma.getOperandC());
  return {cast<nvgpu::MmaSyncOp>(tile.op).getMatrixC()};
}

/// The 4 accumulators (f32; rows lane/4 and + 8, two columns each) that
/// `tile` starts from, as values available at the builder's point.
static SmallVector<Value> getAccumulators(OpBuilder &b, const MmaTile &tile) {
  SmallVector<Value> operands = getAccumulatorOperands(tile);
  if (isa<NVVM::MmaOp>(tile.op))
    return operands;
  Value c = operands.front();
  SmallVector<Value> elements;
  for (int64_t row = 0; row < 2; ++row)
    for (int64_t col = 0; col < 2; ++col)
      elements.push_back(vector::ExtractOp::create(
          b, tile.op->getLoc(), c, ArrayRef<int64_t>{row, col}));
  return elements;
}

/// Replaces what `tile` computes by the 4 accumulators `elements`, built
/// before `end`, the last tile of its step. What reads the result between
/// the tile and `end` (the bf16 form's extractions) moves after them.
static void replaceResult(RewriterBase &rewriter, const MmaTile &tile,
                          ValueRange elements, Operation *end) {
  Location loc = tile.op->getLoc();
  Value result = tile.op->getResult(0);
  SmallVector<Operation *> readers;
  SmallVector<Value> values{result};
  while (!values.empty())
    for (Operation *user : values.pop_back_val().getUsers())
      if (user->getBlock() == end->getBlock() && user->isBeforeInBlock(end) &&
          !llvm::is_contained(readers, user)) {
        readers.push_back(user);
        llvm::append_range(values, user->getResults());
      }
  llvm::sort(readers,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  Value replacement;
  if (isa<nvgpu::MmaSyncOp>(tile.op)) {
    replacement = vector::FromElementsOp::create(
        rewriter, loc, cast<VectorType>(result.getType()), elements);
  } else {
    replacement = LLVM::PoisonOp::create(rewriter, loc, result.getType());
    for (auto [i, element] : llvm::enumerate(elements))
      replacement =
          LLVM::InsertValueOp::create(rewriter, loc, replacement, element, i);
  }
  rewriter.replaceAllUsesWith(result, replacement);
  for (Operation *reader : readers)
    rewriter.moveOpBefore(reader, end);
}

/// The panel read of `load` from one of `kernel`'s workgroup buffers that
/// loads `tiles` 8x8 matrices.
static std::optional<PanelRead> getPanelRead(const WarpgroupKernel &kernel,
                                             nvgpu::LdMatrixOp load,
                                             int64_t tiles) {
  if (load.getNumTiles() != tiles)
    return std::nullopt;
  Value panel = load.getSrcMemref();
  if (auto view = panel.getDefiningOp<UnrealizedConversionCastOp>())
    panel = view.getInputs().front();
  if (!llvm::is_contained(kernel.workgroupBuffers, panel))
    return std::nullopt;
  ValueRange indices = load.getIndices();
  int64_t rank = indices.size();
  // A batched GEMM's panels have a unit batch dimension (its index can only
  // be 0) after the slot, if any: 1 x rows x columns (read as slot 0), or
  // 2 x 1 x rows x columns double-buffered.
  if (rank == 4 && cast<MemRefType>(panel.getType()).getDimSize(1) != 1)
    return std::nullopt;
  if (rank < 2 || rank > 4)
    return std::nullopt;
  PanelRead read;
  read.panel = panel;
  read.slot = rank >= 3 ? indices[0] : Value();
  // ldmatrix transposes exactly when K is not contiguous in the panel: for
  // A (row fragment) a K x M panel, for B (column fragment) a K x N one.
  read.kMajor = !load.getTranspose();
  read.row = indices[rank - 2];
  read.column = indices[rank - 1];
  return read;
}

/// The i64 shared memory descriptor of the 16-deep K slice at `k` of
/// `side`'s panel (PTX ISA, "matrix descriptor"): start address >> 4 in bits
/// 0-13, leading byte offset >> 4 in 16-29, stride byte offset >> 4 in
/// 32-45, base offset 0 (the panels start at 1024-byte boundaries and
/// slices move within a pattern's rows or by whole patterns), swizzle mode
/// in 62-63 (1: 128-byte, 2: 64-byte, 3: 32-byte rows). The stride byte
/// offset is the distance between groups of 8 rows (8 lines of the swizzle
/// width). The leading byte offset is, for an M/N-major panel of several
/// 64-column blocks, the distance between the blocks (the canonical layout
/// ((8,8,m),(8,k)) : ((1,8,LBO),(64,SBO)) of 16-bit elements, as CUTLASS
/// writes it); otherwise the layouts do not use it (K-major: within the
/// swizzle width; M/N-major: the tile is one block wide) and it is 16 bytes
/// for K-major, as CUTLASS sets it, and the stride for M/N-major.
static Value buildDescriptor(OpBuilder &b, Location loc, const Side &side,
                             Value panelAddress, int64_t k) {
  int64_t elementBytes = side.type.getElementTypeBitWidth() / 8;
  int64_t offset = side.read.kMajor ? k * elementBytes : k * side.lineBytes;
  uint64_t mode = side.lineBytes == 128 ? 1 : side.lineBytes == 64 ? 2 : 3;
  uint64_t stride = 8 * side.lineBytes;
  uint64_t leading = side.read.kMajor  ? 16
                     : side.blockBytes ? side.blockBytes
                                       : stride;
  uint64_t fields = ((leading >> 4) << 16) | ((stride >> 4) << 32) | mode << 62;
  Type i64 = b.getI64Type();
  auto constant = [&](uint64_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(i64, static_cast<int64_t>(v)));
  };
  Value start = arith::AddIOp::create(b, loc, panelAddress, constant(offset));
  start = arith::ShRUIOp::create(b, loc, start, constant(4));
  start = arith::AndIOp::create(b, loc, start, constant(0x3FFF));
  return arith::OrIOp::create(b, loc, start, constant(fields));
}

/// The shared memory address (i64) where `side`'s slot starts.
static Value buildPanelAddress(OpBuilder &b, Location loc, const Side &side) {
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, side.read.panel);
  if (side.read.slot) {
    int64_t slotBytes = side.type.getNumElements() / side.type.getDimSize(0) *
                        (side.type.getElementTypeBitWidth() / 8);
    Value bytes = arith::ConstantIndexOp::create(b, loc, slotBytes);
    Value offset = arith::MulIOp::create(b, loc, side.read.slot, bytes);
    base = arith::AddIOp::create(b, loc, base, offset);
  }
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), base);
}

/// (thread id / kWarpgroupSize) x `bytes`, as i64: the offset of the calling
/// thread's warpgroup in a block of several.
static Value buildWarpgroupOffset(OpBuilder &b, Location loc,
                                  const WarpgroupKernel &kernel,
                                  int64_t bytes) {
  // One op per statement: C++ leaves the order of arguments open.
  const ThreadIds &dims = kernel.blockSize;
  Value x = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value y = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value z = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z);
  Value dimX = arith::ConstantIndexOp::create(b, loc, dims[0]);
  Value dimY = arith::ConstantIndexOp::create(b, loc, dims[1]);
  Value size = arith::ConstantIndexOp::create(b, loc, kWarpgroupSize);
  Value scale = arith::ConstantIndexOp::create(b, loc, bytes);
  Value linear = arith::MulIOp::create(b, loc, z, dimY);
  linear = arith::AddIOp::create(b, loc, linear, y);
  linear = arith::MulIOp::create(b, loc, linear, dimX);
  linear = arith::AddIOp::create(b, loc, linear, x);
  Value group = arith::DivUIOp::create(b, loc, linear, size);
  Value offset = arith::MulIOp::create(b, loc, group, scale);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), offset);
}

/// Whether `a` and `b` read the same panel slot the same way.
static bool sameSource(const PanelRead &a, const PanelRead &b) {
  return a.panel == b.panel && a.slot == b.slot && a.kMajor == b.kMajor;
}

/// What one wgmma per 16 of K computes of `tiles` (the mma.syncs of one
/// block of `kernel`, in program order), if it can.
static std::optional<WgmmaStep> analyzeStep(const WarpgroupKernel &kernel,
                                            ArrayRef<MmaTile> tiles) {
  // The operands' panels, the same for every tile.
  std::optional<PanelRead> firstA =
      getPanelRead(kernel, tiles.front().a, /*tiles=*/4);
  std::optional<PanelRead> firstB =
      getPanelRead(kernel, tiles.front().b, /*tiles=*/2);
  if (!firstA || !firstB)
    return std::nullopt;
  auto sideOf = [](const PanelRead &read) -> std::optional<Side> {
    auto type = cast<MemRefType>(read.panel.getType());
    if (!type.hasStaticShape() || type.getElementTypeBitWidth() != 16)
      return std::nullopt;
    int64_t rowBytes = type.getShape().back() * 2;
    if (rowBytes == 32 || rowBytes == 64 || rowBytes == 128)
      return Side{read, type, rowBytes, rowBytes, 0};
    // M/N-major rows of 128 or 256 columns: 64-column blocks of whole
    // 8-row patterns (kSplitPanelRows).
    int64_t rows = type.getDimSize(type.getRank() - 2);
    if (read.kMajor || (rowBytes != 256 && rowBytes != 512) ||
        rows % kSplitPanelRows != 0)
      return std::nullopt;
    return Side{read, type, rowBytes, kSplitPanelBlockBytes,
                rows * kSplitPanelBlockBytes};
  };
  std::optional<Side> a = sideOf(*firstA), b = sideOf(*firstB);
  if (!a || !b)
    return std::nullopt;
  // A's M and B's N extents, and the K extents of both.
  auto extent = [](const Side &side, bool contiguous) {
    int64_t rank = side.type.getRank();
    return side.type.getDimSize(contiguous ? rank - 1 : rank - 2);
  };
  int64_t m = extent(*a, /*contiguous=*/!a->read.kMajor);
  int64_t n = extent(*b, /*contiguous=*/!b->read.kMajor);
  int64_t kA = extent(*a, a->read.kMajor), kB = extent(*b, b->read.kMajor);
  const ThreadIds &dims = kernel.blockSize;
  int64_t warps = dims[0] * dims[1] * dims[2] / mp::kWarpSize;
  if (m != kWgmmaM * (warps * mp::kWarpSize / kWarpgroupSize) ||
      n % kMmaN != 0 || n > 256)
    return std::nullopt;

  // Each tile's N and K from its reads by lane 0 of each warp: A's rows must
  // be the warp's 16-row slice, B's origin the same for every warp. The
  // tiles by 8 columns of C, then by K step, each once.
  WgmmaStep step{*a, *b, m, n, {}, {}, tiles.back().op};
  for (const MmaTile &tile : tiles) {
    std::optional<PanelRead> readA = getPanelRead(kernel, tile.a, 4);
    std::optional<PanelRead> readB = getPanelRead(kernel, tile.b, 2);
    if (!readA || !readB || !sameSource(*readA, a->read) ||
        !sameSource(*readB, b->read))
      return std::nullopt;
    std::optional<int64_t> tileN, tileK;
    for (int64_t warp = 0; warp < warps; ++warp) {
      int64_t linear = warp * mp::kWarpSize;
      LaneEvaluator at(kernel,
                       {linear % dims[0], linear / dims[0] % dims[1],
                        linear / (dims[0] * dims[1])},
                       /*lane=*/0);
      std::optional<int64_t> aM =
          at(readA->kMajor ? readA->row : readA->column);
      std::optional<int64_t> aK =
          at(readA->kMajor ? readA->column : readA->row);
      std::optional<int64_t> bN =
          at(readB->kMajor ? readB->row : readB->column);
      std::optional<int64_t> bK =
          at(readB->kMajor ? readB->column : readB->row);
      if (!aM || !aK || !bN || !bK || *aM != warp * kMmaM || *aK != *bK ||
          (tileN && (*tileN != *bN || *tileK != *bK)))
        return std::nullopt;
      tileN = bN;
      tileK = bK;
    }
    if (*tileN % kMmaN != 0 || *tileN < 0 || *tileN >= n ||
        *tileK % kMmaK != 0 || *tileK < 0 || *tileK + kMmaK > std::min(kA, kB))
      return std::nullopt;
    if (!step.byN[*tileN].emplace(*tileK, tile).second)
      return std::nullopt;
  }

  // Every 8 columns of C, the same K steps, chained in order of K.
  if (static_cast<int64_t>(step.byN.size()) != n / kMmaN)
    return std::nullopt;
  for (auto &entry : step.byN.begin()->second)
    step.steps.push_back(entry.first);
  for (auto &[column, chain] : step.byN) {
    if (chain.size() != step.steps.size())
      return std::nullopt;
    const MmaTile *previous = nullptr;
    for (auto [k, entry] : llvm::zip(step.steps, chain)) {
      if (entry.first != k ||
          (previous && !accumulatesOnto(entry.second, *previous)))
        return std::nullopt;
      previous = &entry.second;
    }
  }

  // The wgmmas replace the last tile: nothing from the first one on may
  // write memory or synchronize (nvvm.mma.sync declares no effects but has
  // none) (wgmma reads the panels as the first
  // mma.sync finds them), and what they start from must be there.
  for (Operation *op = tiles.front().op; op != step.last;
       op = op->getNextNode())
    if (isa<gpu::BarrierOp, nvgpu::DeviceAsyncWaitOp>(op) ||
        (!isa<NVVM::MmaOp>(op) && !isMemoryEffectFree(op) &&
         !hasSingleEffect<MemoryEffects::Read>(op)))
      return std::nullopt;
  DominanceInfo dominance(kernel.op);
  for (Value value : {a->read.slot, b->read.slot})
    if (value && !dominance.properlyDominates(value, tiles.front().op))
      return std::nullopt;
  // Each chain starts from accumulators computed before the step (the bf16
  // form extracts them from the carried vector next to each tile).
  for (auto &[column, chain] : step.byN) {
    for (Value c : getAccumulatorOperands(chain.begin()->second)) {
      if (auto element = c.getDefiningOp<vector::ExtractOp>())
        c = element.getSource();
      if (!dominance.properlyDominates(c, tiles.front().op))
        return std::nullopt;
    }
  }
  return step;
}

/// The K steps of `kernel` that wgmma can compute.
static SmallVector<WgmmaStep, 2> analyzeKernel(const WarpgroupKernel &kernel) {
  int64_t threads =
      kernel.blockSize[0] * kernel.blockSize[1] * kernel.blockSize[2];
  if (threads <= 0 || threads % kWarpgroupSize != 0)
    return {};
  llvm::MapVector<Block *, SmallVector<MmaTile>> blocks;
  kernel.op->walk([&](Operation *op) {
    if (isa<nvgpu::MmaSyncOp, NVVM::MmaOp>(op))
      blocks[op->getBlock()].push_back(
          getMmaTile(op).value_or(MmaTile{op, {}, {}}));
  });
  SmallVector<WgmmaStep, 2> steps;
  for (auto &[block, tiles] : blocks) {
    if (llvm::any_of(tiles, [](const MmaTile &t) { return !t.a; }))
      continue;
    if (std::optional<WgmmaStep> step = analyzeStep(kernel, tiles))
      steps.push_back(std::move(*step));
  }
  return steps;
}

/// Erases `tiles` once nothing reads them, and what computed their
/// operands for them alone.
static void eraseWithDeadOperands(RewriterBase &rewriter,
                                  ArrayRef<Operation *> tiles) {
  llvm::SetVector<Operation *> pending(llvm::from_range, tiles);
  while (!pending.empty()) {
    Operation *op = pending.pop_back_val();
    if (!op->use_empty() ||
        (!llvm::is_contained(tiles, op) && !wouldOpBeTriviallyDead(op)))
      continue; // again when its last user goes
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        pending.insert(def);
    rewriter.eraseOp(op);
  }
}

/// The K loop whose trips `step` is, if the step's wgmmas may stay in
/// flight into the next trip: with `inFlight`, where both panels have
/// kMinSlotsInFlight slots or more, of which the trips' copies
/// (mp-gpu-tile-contractions' reserve-slot) leave the one the previous trip
/// read alone.
static scf::ForOp getInFlightLoop(const WgmmaStep &step, bool inFlight) {
  auto slots = [](const Side &side) {
    return side.read.slot ? side.type.getDimSize(0) : 1;
  };
  if (!inFlight || slots(step.a) < kMinSlotsInFlight ||
      slots(step.b) < kMinSlotsInFlight)
    return {};
  return step.last->getParentOfType<scf::ForOp>();
}

/// Replaces `step`'s tiles by wgmmas.
static void rewriteStep(RewriterBase &rewriter, const WarpgroupKernel &kernel,
                        const WgmmaStep &step, bool inFlight) {
  const Side &a = step.a, &b = step.b;
  // The accumulators (f32, N/2 per lane) in wgmma's order: 4 per 8
  // columns, rows lane/4 and lane/4 + 8, two columns each.
  rewriter.setInsertionPoint(step.last);
  Location loc = step.last->getLoc();
  MLIRContext *context = rewriter.getContext();
  Type f32 = rewriter.getF32Type();
  auto structType = LLVM::LLVMStructType::getLiteral(
      context, SmallVector<Type>(step.n / 2, f32));
  Value acc = LLVM::PoisonOp::create(rewriter, loc, structType);
  int64_t position = 0;
  for (auto &[column, chain] : step.byN)
    for (Value element : getAccumulators(rewriter, chain.begin()->second))
      acc =
          LLVM::InsertValueOp::create(rewriter, loc, acc, element, position++);

  Value addressA = buildPanelAddress(rewriter, loc, a);
  Value addressB = buildPanelAddress(rewriter, loc, b);
  // With several warpgroups in the block, each computes its own 64 rows of
  // C: its A tile starts 64 rows down a K-major panel, or at the next
  // 64-column block of an M-major one.
  if (step.m > kWgmmaM)
    addressA = arith::AddIOp::create(
        rewriter, loc, addressA,
        buildWarpgroupOffset(rewriter, loc, kernel,
                             a.read.kMajor ? kWgmmaM * a.rowBytes
                                           : a.blockBytes));
  // The panels' own type: a bf16 panel is read through an f16 view by the
  // mma.syncs, not by wgmma.
  NVVM::WGMMATypes type = a.type.getElementType().isBF16()
                              ? NVVM::WGMMATypes::bf16
                              : NVVM::WGMMATypes::f16;
  auto shape = NVVM::MMAShapeAttr::get(context, kWgmmaM, step.n, kMmaK);
  NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
  for (int64_t k : step.steps) {
    // In this order (not as arguments, whose order C++ leaves open).
    Value descriptorA = buildDescriptor(rewriter, loc, a, addressA, k);
    Value descriptorB = buildDescriptor(rewriter, loc, b, addressB, k);
    acc = NVVM::WgmmaMmaAsyncOp::create(
        rewriter, loc, structType, acc, descriptorA, descriptorB, shape, type,
        type, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
        a.read.kMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col,
        b.read.kMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        /*satfinite=*/nullptr);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
  // The accumulators are read (and the panels overwritten) only after the
  // wait: this step's, or the previous trip's, whose slot the trips' copies
  // leave alone, and after the loop the last one.
  scf::ForOp loop = getInFlightLoop(step, inFlight);
  NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, loop ? 1 : 0);
  if (loop) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(loop);
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
  }

  // The chains' results from the accumulators; the mma.syncs and what only
  // fed them (ldmatrix, register extractions) go, last ones first.
  position = 0;
  SmallVector<Operation *> tiles;
  for (auto &[column, chain] : step.byN) {
    SmallVector<Value> elements;
    for (int64_t i = 0; i < 4; ++i)
      elements.push_back(
          LLVM::ExtractValueOp::create(rewriter, loc, acc, position++));
    replaceResult(rewriter, chain.rbegin()->second, elements, step.last);
    for (auto &entry : chain)
      tiles.push_back(entry.second.op);
  }
  eraseWithDeadOperands(rewriter, tiles);
}

/// The kernel of a gpu.launch, if its block size is constant.
static std::optional<WarpgroupKernel> getKernel(gpu::LaunchOp launch) {
  WarpgroupKernel kernel{launch, launch.getWorkgroupAttributions(), {}, {}};
  gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
  gpu::KernelDim3 ids = launch.getThreadIds();
  kernel.threadIds = {ids.x, ids.y, ids.z};
  for (auto [dim, size] : llvm::zip(
           kernel.blockSize, std::array<Value, 3>{sizes.x, sizes.y, sizes.z})) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant)
      return std::nullopt;
    dim = *constant;
  }
  return kernel;
}

int64_t mlir::mp::countWgmmaChains(gpu::LaunchOp launch) {
  std::optional<WarpgroupKernel> kernel = getKernel(launch);
  return kernel ? analyzeKernel(*kernel).size() : 0;
}

int64_t mlir::mp::convertChainsToWgmma(RewriterBase &rewriter,
                                       gpu::GPUFuncOp func, bool inFlight) {
  std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
  if (!known || known->size() != 3)
    return 0;
  WarpgroupKernel kernel{func, func.getWorkgroupAttributions(), {}, {}};
  llvm::copy(*known, kernel.blockSize.begin());
  SmallVector<WgmmaStep, 2> steps = analyzeKernel(kernel);
  if (steps.empty())
    return 0;
  for (const WgmmaStep &step : steps)
    rewriteStep(rewriter, kernel, step, inFlight);
  // wgmma reads shared memory through the async proxy: what the threads
  // wrote there (stores, cp.async) is made visible to it before each
  // barrier that orders those writes before the reads.
  MLIRContext *context = func.getContext();
  func.walk([&](gpu::BarrierOp barrier) {
    rewriter.setInsertionPoint(barrier);
    NVVM::FenceProxyOp::create(
        rewriter, barrier.getLoc(),
        NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
  });
  return steps.size();
}
