//===- SwizzlePanels.cpp - Bank-conflict-free GEMM panels -----------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The staged GEMM panels have rows of 64 or 128 bytes, so the 8 row
// addresses of an ldmatrix phase (one 16-byte chunk each, the same chunk of
// 8 consecutive rows) fall on the same banks: 4-way and 8-way conflicts. The
// chunks of each row are permuted here by its row index, in every access of
// the buffer alike (writes and reads, also through the f16 view of a bf16
// panel), so that those 8 chunks land in 8 different 16-byte slots of a
// 128-byte line of banks. Upstream's nvgpu::optimizeSharedMemoryReadsAndWrites
// does the same but cannot follow the bf16 panels' view.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "Wgmma.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUSWIZZLEPANELSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Bytes of a chunk that ldmatrix reads per row, and of a line of the 32
/// four-byte banks.
static constexpr int64_t kChunkBytes = 16, kLineBytes = 128;
static_assert(kSplitPanelBlockBytes == kLineBytes,
              "wgmma's descriptors step over blocks of the swizzle's lines");

/// The indices of `op`'s access to `view`, if it is one of the accesses the
/// swizzle rewrites (ldmatrix, a cp.async into it, vector and scalar loads
/// and stores).
static std::optional<MutableOperandRange> getAccessIndices(Operation *op,
                                                           Value view) {
  if (auto load = dyn_cast<nvgpu::LdMatrixOp>(op))
    return load.getIndicesMutable();
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op))
    return copy.getDst() == view && copy.getSrc() != view
               ? std::optional(copy.getDstIndicesMutable())
               : std::nullopt;
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return store.getIndicesMutable();
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return load.getIndicesMutable();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getIndicesMutable();
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getIndicesMutable();
  return std::nullopt;
}

/// `buffer` and its views of another element type of the same size (the
/// f16 view that bf16 operands are read through).
static SmallVector<Value> getViews(BlockArgument buffer) {
  SmallVector<Value> views{buffer};
  for (Operation *user : buffer.getUsers())
    if (auto cast = dyn_cast<UnrealizedConversionCastOp>(user))
      llvm::append_range(views, cast->getResults());
  return views;
}

/// Swizzles `panel` (a workgroup buffer of 16-bit elements) with its
/// `views`; false, changing nothing, if one of their uses is not
/// an access this understands or its rows are not whole chunks. With
/// `split` (a panel that wgmma reads), rows wider than a line are laid out
/// as their blocks of a line's width one after the other (kSplitPanelRows).
static bool swizzle(BlockArgument panel, ArrayRef<Value> views, bool split) {
  auto type = cast<MemRefType>(panel.getType());
  int64_t rowBytes = type.getShape().back() * type.getElementTypeBitWidth() / 8;
  int64_t chunks = rowBytes / kChunkBytes;
  if (type.getRank() < 2 || rowBytes % kChunkBytes != 0 || chunks < 2 ||
      !llvm::isPowerOf2_64(chunks))
    return false;
  split = split && rowBytes > kLineBytes;
  int64_t rows = type.getShape()[type.getRank() - 2];
  if (split && rows % kSplitPanelRows != 0)
    return false;
  SmallVector<MutableOperandRange> accesses;
  for (Value view : views) {
    for (Operation *user : view.getUsers()) {
      // Views, and the address a wgmma descriptor starts from (its swizzle
      // mode says how the rows are permuted; the buffer's start is not).
      if ((isa<UnrealizedConversionCastOp>(user) && view == panel) ||
          isa<memref::ExtractAlignedPointerAsIndexOp>(user))
        continue;
      std::optional<MutableOperandRange> indices = getAccessIndices(user, view);
      if (!indices || indices->size() != static_cast<size_t>(type.getRank()))
        return false;
      accesses.push_back(*indices);
    }
  }
  // Rows that share a line, and the chunk permutation: chunk ^ ((row /
  // rowsPerLine) mod period), so that 8 consecutive rows at one chunk take
  // 8 different slots of a line.
  int64_t rowsPerLine = std::max<int64_t>(1, kLineBytes / rowBytes);
  int64_t period = std::min<int64_t>(chunks, kLineBytes / kChunkBytes);
  int64_t elementsPerChunk = type.getShape().back() / chunks;
  MLIRContext *context = panel.getContext();
  AffineExpr row = getAffineDimExpr(0, context);
  AffineExpr column = getAffineDimExpr(1, context);
  // The line of (row, column): with `split`, line-wide block b of row r is
  // line b * rows + r, and the panel's rows (of `blocks` lines) hold the
  // lines in order.
  AffineExpr line = row;
  AffineMap rowMap, columnMap;
  if (split) {
    int64_t lineElements = type.getShape().back() * kLineBytes / rowBytes;
    int64_t blocks = rowBytes / kLineBytes;
    line = column.floorDiv(lineElements) * rows + row;
    rowMap = AffineMap::get(2, 0, line.floorDiv(blocks));
    columnMap = AffineMap::get(
        2, 0, (line % blocks) * lineElements + column % lineElements);
  }
  AffineMap bitsMap =
      AffineMap::get(split ? 2 : 1, 0,
                     (line.floorDiv(rowsPerLine) % period) * elementsPerChunk);
  OpBuilder builder(context);
  for (MutableOperandRange &range : accesses) {
    Operation *access = range.getOwner();
    SmallVector<Value> indices = llvm::to_vector(
        llvm::map_range(range, [](OpOperand &o) { return o.get(); }));
    builder.setInsertionPoint(access);
    Location loc = access->getLoc();
    SmallVector<Value, 2> rowColumn{indices[indices.size() - 2],
                                    indices.back()};
    Value bits = affine::AffineApplyOp::create(
        builder, loc, bitsMap,
        ArrayRef<Value>(rowColumn).take_front(bitsMap.getNumDims()));
    if (split) {
      indices[indices.size() - 2] =
          affine::AffineApplyOp::create(builder, loc, rowMap, rowColumn);
      indices.back() =
          affine::AffineApplyOp::create(builder, loc, columnMap, rowColumn);
    }
    indices.back() = arith::XOrIOp::create(builder, loc, indices.back(), bits);
    range.assign(ValueRange(indices));
  }
  return true;
}

namespace {
struct GPUSwizzlePanelsPass
    : public mp::impl::GPUSwizzlePanelsPassBase<GPUSwizzlePanelsPass> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](gpu::GPUFuncOp func) {
      for (BlockArgument buffer : func.getWorkgroupAttributions()) {
        // The panels: buffers that ldmatrix reads (directly or through a
        // view), or wgmma through a descriptor of their address.
        SmallVector<Value> views = getViews(buffer);
        bool wgmma =
            llvm::any_of(buffer.getUsers(),
                         llvm::IsaPred<memref::ExtractAlignedPointerAsIndexOp>);
        if (!wgmma && !llvm::any_of(views, [](Value view) {
              return llvm::any_of(view.getUsers(),
                                  llvm::IsaPred<nvgpu::LdMatrixOp>);
            }))
          continue;
        if (swizzle(buffer, views, /*split=*/wgmma)) {
          ++numSwizzled;
          continue;
        }
        // wgmma's descriptors describe the swizzled layout: without it,
        // it would read the wrong elements.
        if (wgmma) {
          func.emitError("mp-gpu-swizzle-panels: a panel that wgmma reads "
                         "cannot be swizzled (an access of another kind)");
          return WalkResult::interrupt();
        }
        ++numLeft;
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
