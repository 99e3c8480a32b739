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
/// The thread ids (x, y, z) of a lane.
using ThreadIds = std::array<int64_t, 3>;

/// The value of index computations for one lane of a launch: gpu.lane_id,
/// the thread ids (ops or the launch's block arguments) and constants, folded
/// through pure ops.
class LaneEvaluator {
public:
  LaneEvaluator(gpu::LaunchOp launch, ThreadIds ids, int64_t lane)
      : launch(launch), ids(ids), lane(lane) {}

  std::optional<int64_t> operator()(Value value, int depth = 0) {
    if (depth > 64)
      return std::nullopt;
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return constant.getSExtValue();
    gpu::KernelDim3 threads = launch.getThreadIds();
    for (auto [arg, id] :
         llvm::zip(std::array<Value, 3>{threads.x, threads.y, threads.z}, ids))
      if (value == arg)
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
  gpu::LaunchOp launch;
  ThreadIds ids;
  int64_t lane;
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
  /// Bytes per panel row (the swizzle mode's width).
  int64_t rowBytes;
};
} // namespace

/// The panel read that feeds `operand` from `launch`'s workgroup memory with
/// `tiles` 8x8 matrices.
static std::optional<PanelRead> getPanelRead(gpu::LaunchOp launch,
                                             Value operand, int64_t tiles) {
  auto load = operand.getDefiningOp<nvgpu::LdMatrixOp>();
  if (!load || load.getNumTiles() != tiles)
    return std::nullopt;
  Value panel = load.getSrcMemref();
  if (auto view = panel.getDefiningOp<UnrealizedConversionCastOp>())
    panel = view.getInputs().front();
  if (!llvm::is_contained(launch.getWorkgroupAttributions(), panel))
    return std::nullopt;
  ValueRange indices = load.getIndices();
  int64_t rank = indices.size();
  if (rank != 2 && rank != 3)
    return std::nullopt;
  PanelRead read;
  read.panel = panel;
  read.slot = rank == 3 ? indices[0] : Value();
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
/// offset is the distance between groups of 8 rows (8 panel rows); the
/// leading byte offset is unused by these layouts (K-major: within the
/// swizzle width; M/N-major: the tile is one swizzle width wide) and set
/// to 16 bytes for K-major, as CUTLASS does, and to the stride for M/N-major.
static Value buildDescriptor(OpBuilder &b, Location loc, const Side &side,
                             Value panelAddress, int64_t k) {
  int64_t elementBytes = side.type.getElementTypeBitWidth() / 8;
  int64_t offset = side.read.kMajor ? k * elementBytes : k * side.rowBytes;
  uint64_t mode = side.rowBytes == 128 ? 1 : side.rowBytes == 64 ? 2 : 3;
  uint64_t stride = 8 * side.rowBytes;
  uint64_t leading = side.read.kMajor ? 16 : stride;
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

/// Whether `a` and `b` read the same panel slot the same way.
static bool sameSource(const PanelRead &a, const PanelRead &b) {
  return a.panel == b.panel && a.slot == b.slot && a.kMajor == b.kMajor;
}

/// Rewrites the chain of `mmas` (the mma.syncs of one block of `launch`, a
/// block of 128 threads of `dims`), or returns failure leaving it as it is.
static LogicalResult convertChain(RewriterBase &rewriter, gpu::LaunchOp launch,
                                  ThreadIds dims,
                                  MutableArrayRef<nvgpu::MmaSyncOp> mmas) {
  // The operands' panels, the same for every tile.
  std::optional<PanelRead> firstA =
      getPanelRead(launch, mmas.front().getMatrixA(), 4);
  std::optional<PanelRead> firstB =
      getPanelRead(launch, mmas.front().getMatrixB(), 2);
  if (!firstA || !firstB)
    return failure();
  auto sideOf = [](const PanelRead &read) -> std::optional<Side> {
    auto type = cast<MemRefType>(read.panel.getType());
    if (!type.hasStaticShape() || type.getElementTypeBitWidth() != 16)
      return std::nullopt;
    int64_t rowBytes = type.getShape().back() * 2;
    if (rowBytes != 32 && rowBytes != 64 && rowBytes != 128)
      return std::nullopt;
    return Side{read, type, rowBytes};
  };
  std::optional<Side> a = sideOf(*firstA), b = sideOf(*firstB);
  if (!a || !b)
    return failure();
  // A's M and B's N extents, and the K extents of both.
  auto extent = [](const Side &side, bool contiguous) {
    int64_t rank = side.type.getRank();
    return side.type.getDimSize(contiguous ? rank - 1 : rank - 2);
  };
  int64_t m = extent(*a, /*contiguous=*/!a->read.kMajor);
  int64_t n = extent(*b, /*contiguous=*/!b->read.kMajor);
  int64_t kA = extent(*a, a->read.kMajor), kB = extent(*b, b->read.kMajor);
  if (m != kWgmmaM || n % kMmaN != 0 || n > 256)
    return failure();

  // Each tile's N and K from its reads by lane 0 of each warp: A's rows must
  // be the warp's 16-row slice, B's origin the same for every warp. The
  // tiles by 8 columns of C, then by K step, each once.
  std::map<int64_t, std::map<int64_t, nvgpu::MmaSyncOp>> byN;
  for (nvgpu::MmaSyncOp mma : mmas) {
    std::optional<PanelRead> readA = getPanelRead(launch, mma.getMatrixA(), 4);
    std::optional<PanelRead> readB = getPanelRead(launch, mma.getMatrixB(), 2);
    auto accType = dyn_cast<VectorType>(mma.getMatrixC().getType());
    if (!readA || !readB || !sameSource(*readA, a->read) ||
        !sameSource(*readB, b->read) || !accType ||
        accType.getShape() != ArrayRef<int64_t>{2, 2} ||
        !accType.getElementType().isF32() ||
        mma.getMmaShapeAsArray() != std::array<int64_t, 3>{kMmaM, kMmaN, kMmaK})
      return failure();
    std::optional<int64_t> tileN, tileK;
    for (int64_t warp = 0; warp < kWarpgroupSize / mp::kWarpSize; ++warp) {
      int64_t linear = warp * mp::kWarpSize;
      LaneEvaluator at(launch,
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
        return failure();
      tileN = bN;
      tileK = bK;
    }
    if (*tileN % kMmaN != 0 || *tileN < 0 || *tileN >= n ||
        *tileK % kMmaK != 0 || *tileK < 0 || *tileK + kMmaK > std::min(kA, kB))
      return failure();
    if (!byN[*tileN].emplace(*tileK, mma).second)
      return failure();
  }

  // Every 8 columns of C, the same K steps, chained in order of K.
  if (static_cast<int64_t>(byN.size()) != n / kMmaN)
    return failure();
  SmallVector<int64_t> steps;
  for (auto &entry : byN.begin()->second)
    steps.push_back(entry.first);
  for (auto &[column, chain] : byN) {
    if (chain.size() != steps.size())
      return failure();
    nvgpu::MmaSyncOp previous;
    for (auto [step, entry] : llvm::zip(steps, chain)) {
      if (entry.first != step)
        return failure();
      if (previous && (entry.second.getMatrixC() != previous.getRes() ||
                       !previous.getRes().hasOneUse()))
        return failure();
      previous = entry.second;
    }
  }

  // Nothing between the tiles may synchronize: wgmma reads the panels as
  // the first mma.sync finds them.
  Operation *first = mmas.front();
  for (Operation *op = first; op != mmas.back().getOperation();
       op = op->getNextNode())
    if (isa<gpu::BarrierOp, nvgpu::DeviceAsyncWaitOp, NVVM::CpAsyncWaitGroupOp>(
            op))
      return failure();
  DominanceInfo dominance(launch);
  for (Value value : {a->read.slot, b->read.slot})
    if (value && !dominance.properlyDominates(value, first))
      return failure();
  for (auto &[column, chain] : byN)
    if (!dominance.properlyDominates(chain.begin()->second.getMatrixC(), first))
      return failure();

  // The accumulators (f32, N/2 per lane) in wgmma's order: 4 per 8
  // columns, rows lane/4 and lane/4 + 8, two columns each.
  rewriter.setInsertionPoint(first);
  Location loc = first->getLoc();
  MLIRContext *context = rewriter.getContext();
  Type f32 = rewriter.getF32Type();
  auto structType =
      LLVM::LLVMStructType::getLiteral(context, SmallVector<Type>(n / 2, f32));
  Value acc = LLVM::PoisonOp::create(rewriter, loc, structType);
  int64_t position = 0;
  for (auto &[column, chain] : byN)
    for (int64_t row = 0; row < 2; ++row)
      for (int64_t col = 0; col < 2; ++col) {
        Value element = vector::ExtractOp::create(
            rewriter, loc, chain.begin()->second.getMatrixC(),
            ArrayRef<int64_t>{row, col});
        acc = LLVM::InsertValueOp::create(rewriter, loc, acc, element,
                                          position++);
      }

  Value addressA = buildPanelAddress(rewriter, loc, *a);
  Value addressB = buildPanelAddress(rewriter, loc, *b);
  // The panels' own type: a bf16 panel is read through an f16 view by the
  // mma.syncs, not by wgmma.
  NVVM::WGMMATypes type = a->type.getElementType().isBF16()
                              ? NVVM::WGMMATypes::bf16
                              : NVVM::WGMMATypes::f16;
  auto shape = NVVM::MMAShapeAttr::get(context, kWgmmaM, n, kMmaK);
  NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
  for (int64_t k : steps) {
    // In this order (not as arguments, whose order C++ leaves open).
    Value descriptorA = buildDescriptor(rewriter, loc, *a, addressA, k);
    Value descriptorB = buildDescriptor(rewriter, loc, *b, addressB, k);
    acc = NVVM::WgmmaMmaAsyncOp::create(
        rewriter, loc, structType, acc, descriptorA, descriptorB, shape, type,
        type, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
        a->read.kMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col,
        b->read.kMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        /*satfinite=*/nullptr);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);

  // The chains' results from the accumulators; the mma.syncs and the
  // ldmatrix that fed them go.
  position = 0;
  // One ldmatrix may feed several tiles (A's, for every 8 columns).
  llvm::SetVector<Operation *> loads;
  for (auto &[column, chain] : byN) {
    SmallVector<Value> elements;
    for (int64_t i = 0; i < 4; ++i)
      elements.push_back(
          LLVM::ExtractValueOp::create(rewriter, loc, acc, position++));
    nvgpu::MmaSyncOp last = chain.rbegin()->second;
    Value result = vector::FromElementsOp::create(
        rewriter, loc, cast<VectorType>(last.getRes().getType()), elements);
    rewriter.replaceAllUsesWith(last.getRes(), result);
  }
  for (nvgpu::MmaSyncOp mma : llvm::reverse(mmas)) {
    loads.insert(mma.getMatrixA().getDefiningOp());
    loads.insert(mma.getMatrixB().getDefiningOp());
    rewriter.eraseOp(mma);
  }
  for (Operation *load : loads)
    if (load->use_empty())
      rewriter.eraseOp(load);
  return success();
}

int64_t mlir::mp::convertChainsToWgmma(RewriterBase &rewriter,
                                       gpu::LaunchOp launch) {
  ThreadIds dims;
  gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
  for (auto [dim, size] :
       llvm::zip(dims, std::array<Value, 3>{sizes.x, sizes.y, sizes.z})) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant)
      return 0;
    dim = *constant;
  }
  if (dims[0] * dims[1] * dims[2] != kWarpgroupSize)
    return 0;
  llvm::MapVector<Block *, SmallVector<nvgpu::MmaSyncOp>> chains;
  launch.walk(
      [&](nvgpu::MmaSyncOp mma) { chains[mma->getBlock()].push_back(mma); });
  int64_t converted = 0;
  for (auto &[block, mmas] : chains)
    if (succeeded(convertChain(rewriter, launch, dims, mmas)))
      ++converted;
  if (!converted)
    return 0;
  // wgmma reads shared memory through the async proxy: what the threads
  // wrote there (stores, cp.async) is made visible to it before each
  // barrier that orders those writes before the reads.
  MLIRContext *context = launch.getContext();
  launch.walk([&](gpu::BarrierOp barrier) {
    rewriter.setInsertionPoint(barrier);
    NVVM::FenceProxyOp::create(
        rewriter, barrier.getLoc(),
        NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
  });
  return converted;
}
