//===- MergeLaunches.cpp - Independent kernels side by side in one launch -===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Consecutive gpu.launch ops of a block that touch different buffers and
// have the same threads per block become one launch over the sum of their
// grids: each thread block runs the part whose range of blocks holds it, as
// the block it was in that part's grid. Every buffer is read and written as
// often as before; only launches go.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "KernelMemory.h"
#include "MmaContraction.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUMERGELAUNCHESPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The static shared memory a thread block may have.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

namespace {
/// A buffer from outside a launch that it reads or writes.
struct Access {
  Value buffer;
  bool read, written;
};

/// A launch this pass may merge: constant grid and block sizes, and the
/// buffers from outside that it touches.
struct Part {
  /// Mutable: an op handle's accessors are not const.
  mutable gpu::LaunchOp launch;
  std::array<int64_t, 3> grid, block;
  int64_t blocks, sharedBytes;
  SmallVector<Access> accesses;
};
} // namespace

/// The three constant sizes of `dims`, if they are constants.
static std::optional<std::array<int64_t, 3>> getSizes(gpu::KernelDim3 dims) {
  std::array<int64_t, 3> sizes;
  for (auto [size, value] :
       llvm::zip(sizes, std::array<Value, 3>{dims.x, dims.y, dims.z})) {
    std::optional<int64_t> constant = getConstantIntValue(value);
    if (!constant || *constant <= 0)
      return std::nullopt;
    size = *constant;
  }
  return sizes;
}

/// `launch` as a Part, or nothing if the pass leaves it alone: a GEMM's
/// kernel (its tiles, later passes and shared memory are its own), a launch
/// that is asynchronous, in clusters or with dynamic shared memory, whose
/// sizes are not constants or whose body is more than one block, that asks
/// for ids this pass would have to remap but does not (global ids,
/// clusters), or that touches memory in ways its ops do not name.
static std::optional<Part> getPart(gpu::LaunchOp launch) {
  if (MPDialect::GpuTileAttrHelper(launch.getContext()).getAttr(launch) ||
      launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.getDynamicSharedMemorySize() || launch.hasClusterSize() ||
      !launch.getBody().hasOneBlock())
    return std::nullopt;
  std::optional<std::array<int64_t, 3>> grid =
      getSizes(launch.getGridSizeOperandValues());
  std::optional<std::array<int64_t, 3>> block =
      getSizes(launch.getBlockSizeOperandValues());
  if (!grid || !block)
    return std::nullopt;
  Part part{launch, *grid, *block, (*grid)[0] * (*grid)[1] * (*grid)[2], 0, {}};
  for (BlockArgument buffer : launch.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape())
      return std::nullopt;
    part.sharedBytes += type.getNumElements() *
                        llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  Region &body = launch.getBody();
  WalkResult result = body.walk([&](Operation *op) {
    if (isa<gpu::GlobalIdOp, gpu::ClusterIdOp, gpu::ClusterDimOp,
            gpu::ClusterDimBlocksOp, gpu::ClusterBlockIdOp, gpu::LaunchOp>(op))
      return WalkResult::interrupt();
    bool known = forEachAccess(op, [&](Value value, bool read, bool written) {
      // A view made inside counts as the buffer it views; the kernel's own
      // buffers (workgroup and private memory, allocations) do not count.
      while (body.isAncestor(value.getParentRegion())) {
        auto view = value.getDefiningOp<ViewLikeOpInterface>();
        if (!view)
          return;
        value = view.getViewSource();
      }
      part.accesses.push_back({value, read, written});
    });
    return known ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return std::nullopt;
  return part;
}

/// Whether `a` and `b`, one run after the other, may run as one kernel in
/// any order of their blocks: they touch views of different buffers (but
/// 0-d ones that both only read), so that each buffer is read and written
/// as often as before, and what one writes may not be memory the other
/// touches.
static bool areIndependent(const Part &a, const Part &b,
                           AliasAnalysis &aliases) {
  for (const Access &x : a.accesses)
    for (const Access &y : b.accesses) {
      bool written = x.written || y.written;
      bool scalars = cast<MemRefType>(x.buffer.getType()).getRank() == 0 &&
                     cast<MemRefType>(y.buffer.getType()).getRank() == 0;
      if ((getRootBuffer(x.buffer) == getRootBuffer(y.buffer) &&
           (written || !scalars)) ||
          (written && mayAlias(x.buffer, y.buffer, aliases)))
        return false;
    }
  return true;
}

/// Whether `op`, between two launches, may move before the first one: it
/// has no effect on memory but allocating its results.
static bool canMoveBefore(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return effects && op->getNumRegions() == 0 &&
         effects.hasEffect<MemoryEffects::Allocate>() &&
         !effects.hasEffect<MemoryEffects::Read>() &&
         !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Free>();
}

/// Replaces `parts` (in order in one block, with only ops that
/// canMoveBefore between them, which move before the first) with one launch
/// whose grid is the sum of theirs, in x.
static void merge(ArrayRef<Part> parts) {
  gpu::LaunchOp first = parts.front().launch;
  for (Operation *op = first->getNextNode(); op != parts.back().launch;) {
    Operation *next = op->getNextNode();
    if (!isa<gpu::LaunchOp>(op))
      op->moveBefore(first);
    op = next;
  }
  SmallVector<Type> workgroup, privates;
  SmallVector<Location> locations;
  int64_t total = 0;
  for (const Part &part : parts) {
    for (BlockArgument buffer : part.launch.getWorkgroupAttributions())
      workgroup.push_back(buffer.getType());
    for (BlockArgument buffer : part.launch.getPrivateAttributions())
      privates.push_back(buffer.getType());
    locations.push_back(part.launch.getLoc());
    total += part.blocks;
  }
  OpBuilder builder(first);
  Location loc = builder.getFusedLoc(locations);
  // Index constants, once each where the builder is first asked for them.
  DenseMap<int64_t, Value> constants;
  auto index = [&](int64_t value) -> Value {
    Value &constant = constants[value];
    if (!constant)
      constant = arith::ConstantIndexOp::create(builder, loc, value);
    return constant;
  };
  const std::array<int64_t, 3> &block = parts.front().block;
  auto merged = gpu::LaunchOp::create(
      builder, loc, index(total), index(1), index(1), index(block[0]),
      index(block[1]), index(block[2]), /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, workgroup,
      privates);
  // The kernel's own constants, at the start of its body.
  constants.clear();
  MPDialect::GpuReductionAttrHelper reduction(builder.getContext());
  for (const Part &part : parts)
    if (StringAttr how = reduction.getAttr(part.launch))
      reduction.setAttr(merged, how);

  Block &body = merged.getBody().front();
  builder.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(builder, loc);
  Value blockId = merged.getBlockIds().x;
  unsigned workgroupOffset = 0, privateOffset = 0;
  int64_t offset = 0;
  for (const Part &part : parts) {
    // Blocks [offset, offset + blocks) run this part.
    auto [gx, gy, gz] = part.grid;
    builder.setInsertionPointToStart(&body);
    std::array<Value, 3> gridSizes = {index(gx), index(gy), index(gz)};
    Value start = index(offset), end = index(offset + part.blocks);
    builder.setInsertionPoint(terminator);
    Value inside = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, blockId, end);
    if (offset > 0)
      inside = arith::AndIOp::create(
          builder, loc,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::uge,
                                blockId, start),
          inside);
    auto branch = scf::IfOp::create(builder, loc, inside);
    // The block's id in the part's grid, x fastest (folded where the grid
    // is one block wide or high).
    builder.setInsertionPointToStart(&body);
    Value gridX = index(gx), gridXY = index(gx * gy);
    builder.setInsertionPoint(branch.thenBlock()->getTerminator());
    Value local = builder.createOrFold<arith::SubIOp>(loc, blockId, start);
    std::array<Value, 3> ids = {
        builder.createOrFold<arith::RemUIOp>(loc, local, gridX),
        builder.createOrFold<arith::RemUIOp>(
            loc, builder.createOrFold<arith::DivUIOp>(loc, local, gridX),
            gridSizes[1]),
        builder.createOrFold<arith::DivUIOp>(loc, local, gridXY)};

    gpu::LaunchOp launch = part.launch;
    Block &old = launch.getBody().front();
    // gpu.block_id and gpu.grid_dim name this part's grid now.
    launch.getBody().walk([&](Operation *op) {
      if (auto id = dyn_cast<gpu::BlockIdOp>(op))
        id.replaceAllUsesWith(ids[static_cast<unsigned>(id.getDimension())]);
      else if (auto dim = dyn_cast<gpu::GridDimOp>(op))
        dim.replaceAllUsesWith(
            gridSizes[static_cast<unsigned>(dim.getDimension())]);
    });
    gpu::KernelDim3 oldIds = launch.getBlockIds(),
                    oldGrid = launch.getGridSize();
    for (auto [from, to] :
         llvm::zip(std::array<Value, 3>{oldIds.x, oldIds.y, oldIds.z}, ids))
      from.replaceAllUsesWith(to);
    for (auto [from, to] : llvm::zip(
             std::array<Value, 3>{oldGrid.x, oldGrid.y, oldGrid.z}, gridSizes))
      from.replaceAllUsesWith(to);
    gpu::KernelDim3 oldThreads = launch.getThreadIds(),
                    threads = merged.getThreadIds();
    gpu::KernelDim3 oldBlock = launch.getBlockSize(),
                    blockSizes = merged.getBlockSize();
    for (auto [from, to] : llvm::zip(
             std::array<Value, 6>{oldThreads.x, oldThreads.y, oldThreads.z,
                                  oldBlock.x, oldBlock.y, oldBlock.z},
             std::array<Value, 6>{threads.x, threads.y, threads.z, blockSizes.x,
                                  blockSizes.y, blockSizes.z}))
      from.replaceAllUsesWith(to);
    for (BlockArgument buffer : launch.getWorkgroupAttributions())
      buffer.replaceAllUsesWith(
          merged.getWorkgroupAttributions()[workgroupOffset++]);
    for (BlockArgument buffer : launch.getPrivateAttributions())
      buffer.replaceAllUsesWith(
          merged.getPrivateAttributions()[privateOffset++]);
    old.getTerminator()->erase();
    Block *then = branch.thenBlock();
    then->getOperations().splice(then->getTerminator()->getIterator(),
                                 old.getOperations());
    launch.erase();
    offset += part.blocks;
  }
}

namespace {
struct GPUMergeLaunchesPass
    : public mp::impl::GPUMergeLaunchesPassBase<GPUMergeLaunchesPass> {
  using Base::Base;

  void runOnOperation() override {
    auto &aliases = getAnalysis<AliasAnalysis>();
    // Each block with launches once (a walk may come back to a block
    // after the launches nested in an op of it).
    llvm::SetVector<Block *> blocks;
    getOperation()->walk(
        [&](gpu::LaunchOp launch) { blocks.insert(launch->getBlock()); });
    for (Block *block : blocks) {
      SmallVector<SmallVector<Part>> groups;
      SmallVector<Part> group;
      auto flush = [&] {
        if (group.size() > 1)
          groups.push_back(std::move(group));
        group.clear();
      };
      for (Operation &op : *block) {
        auto launch = dyn_cast<gpu::LaunchOp>(op);
        if (!launch) {
          if (!canMoveBefore(&op))
            flush();
          continue;
        }
        std::optional<Part> part = getPart(launch);
        if (!part) {
          flush();
          continue;
        }
        if (!group.empty() && !fits(group, *part, aliases))
          flush();
        group.push_back(std::move(*part));
      }
      flush();
      for (ArrayRef<Part> parts : groups) {
        merge(parts);
        numMerged += parts.size() - 1;
      }
    }
  }

  /// Whether `part` may join `group`: the same threads per block, at most
  /// one kind of reduction among them (for the kernel report), independent
  /// of every part of it, and the merged kernel within CUDA's limits (grid,
  /// static shared memory, parameters).
  static bool fits(ArrayRef<Part> group, const Part &part,
                   AliasAnalysis &aliases) {
    MPDialect::GpuReductionAttrHelper reduction(part.launch.getContext());
    StringAttr how = reduction.getAttr(part.launch);
    int64_t blocks = part.blocks, shared = part.sharedBytes;
    SmallVector<Region *> regions = {&part.launch.getBody()};
    for (const Part &other : group) {
      StringAttr otherHow = reduction.getAttr(other.launch);
      if (other.block != part.block || (how && otherHow && how != otherHow) ||
          !areIndependent(other, part, aliases))
        return false;
      blocks += other.blocks;
      shared += other.sharedBytes;
      regions.push_back(&other.launch.getBody());
    }
    return blocks <= std::numeric_limits<int32_t>::max() &&
           shared <= kMaxStaticSharedBytes &&
           getParameterBytes(regions) <= kMaxParameterBytes;
  }
};
} // namespace
