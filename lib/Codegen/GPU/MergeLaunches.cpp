//===- MergeLaunches.cpp - Independent kernels side by side in one launch -===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// gpu.launch ops of a block that touch different buffers and have the same
// threads per block become one launch over the sum of their grids: each
// thread block runs the part whose range of blocks holds it, as the block it
// was in that part's grid. Launches of one thread block each may also run one
// after the other in one block, a barrier between them, when one reads what
// another writes. A launch moves up to the first of its group over the
// launches between that it does not depend on. Every buffer is read and
// written as often as before; only launches go.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "KernelMemory.h"
#include "MmaContraction.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
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
/// A buffer from outside a launch that it reads or writes; `isFlagSet` if
/// the write stores `true` in a 0-d i1 buffer (a finite check's flag),
/// which commutes with every other such store.
struct Access {
  Value buffer;
  bool read, written;
  bool isFlagSet = false;
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

/// The buffer from outside `body` that `value` is or views, or null if it is
/// the kernel's own (workgroup or private memory, an allocation inside).
static Value getOutsideBuffer(Region &body, Value value) {
  while (body.isAncestor(value.getParentRegion())) {
    auto view = value.getDefiningOp<ViewLikeOpInterface>();
    if (!view)
      return Value();
    value = view.getViewSource();
  }
  return value;
}

/// The buffers from outside `launch` that it reads and writes, or nothing if
/// it may touch memory in ways its ops do not name. An op whose effects name
/// no buffer but whose buffer operands are all the kernel's own
/// (`nvgpu.ldmatrix` of a GEMM's panels) touches those alone.
static std::optional<SmallVector<Access>> getAccesses(gpu::LaunchOp launch) {
  SmallVector<Access> accesses;
  Region &body = launch.getBody();
  WalkResult result = body.walk([&](Operation *op) {
    bool known = forEachAccess(op, [&](Value value, bool read, bool written) {
      if (Value buffer = getOutsideBuffer(body, value))
        accesses.push_back({buffer, read, written, setsFlag(op)});
    });
    known = known ||
            (!getCalledBody(op) &&
             llvm::any_of(op->getOperandTypes(), llvm::IsaPred<MemRefType>) &&
             llvm::all_of(op->getOperands(), [&](Value operand) {
               return !isa<MemRefType>(operand.getType()) ||
                      !getOutsideBuffer(body, operand);
             }));
    return known ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return std::nullopt;
  return accesses;
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
  if (launch.getBody()
          .walk([&](Operation *op) {
            return isa<gpu::GlobalIdOp, gpu::ClusterIdOp, gpu::ClusterDimOp,
                       gpu::ClusterDimBlocksOp, gpu::ClusterBlockIdOp,
                       gpu::LaunchOp>(op)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted())
    return std::nullopt;
  std::optional<SmallVector<Access>> accesses = getAccesses(launch);
  if (!accesses)
    return std::nullopt;
  part.accesses = std::move(*accesses);
  return part;
}

/// Whether one of `a` and `b` writes memory that the other may touch, so that
/// running them in the other order, or at once, may change what they do.
/// Stores of `true` in one flag do not conflict with each other.
static bool mayConflict(ArrayRef<Access> a, ArrayRef<Access> b,
                        AliasAnalysis &aliases) {
  for (const Access &x : a)
    for (const Access &y : b)
      if ((x.written || y.written) && !(x.isFlagSet && y.isFlagSet) &&
          (getRootBuffer(x.buffer) == getRootBuffer(y.buffer) ||
           mayAlias(x.buffer, y.buffer, aliases)))
        return true;
  return false;
}

/// Whether `a` and `b` touch views of one buffer (but a 0-d one): as one
/// kernel, the kernel report would count it once where it is read or
/// written twice.
static bool shareBuffers(const Part &a, const Part &b) {
  for (const Access &x : a.accesses)
    for (const Access &y : b.accesses)
      if (getRootBuffer(x.buffer) == getRootBuffer(y.buffer) &&
          (cast<MemRefType>(x.buffer.getType()).getRank() != 0 ||
           cast<MemRefType>(y.buffer.getType()).getRank() != 0))
        return true;
  return false;
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

namespace {
/// Launches that become one, in order in one block.
struct Group {
  SmallVector<Part> parts;
  /// Whether the parts, each one thread block, run one after the other in
  /// one block with a barrier between them (they may depend on each other),
  /// rather than side by side in a grid of the sum of theirs.
  bool sequential = false;
  /// What the launches and deallocations between the parts that stay where
  /// they are touch: the parts after the first move up over them.
  SmallVector<Access> hopped;
};
} // namespace

/// Whether the values that `launch` uses (its sizes, and what its body uses
/// from above) that are defined after `first` in its block are results of
/// ops without regions that may move before `first` (canMoveBefore), along
/// with the ops their operands come from; these ops go into `hoisted`.
static bool collectHoisted(gpu::LaunchOp launch, Operation *first,
                           llvm::SetVector<Operation *> &hoisted) {
  SetVector<Value> used;
  getUsedValuesDefinedAbove(launch.getBody(), used);
  used.insert_range(launch->getOperands());
  SmallVector<Value> worklist(used.begin(), used.end());
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != first->getBlock() ||
        !first->isBeforeInBlock(def) || hoisted.contains(def))
      continue;
    if (def->getNumRegions() || !canMoveBefore(def))
      return false;
    hoisted.insert(def);
    llvm::append_range(worklist, def->getOperands());
  }
  return true;
}

/// Moves `part` into `then`, before its terminator: `ids` and `grid` replace
/// its block ids and grid sizes, `merged`'s thread ids, block sizes and
/// attributions (from `workgroupOffset`, `privateOffset` on) its own.
static void inlinePart(const Part &part, gpu::LaunchOp merged, Block *then,
                       ArrayRef<Value> ids, ArrayRef<Value> grid,
                       unsigned &workgroupOffset, unsigned &privateOffset) {
  gpu::LaunchOp launch = part.launch;
  Block &old = launch.getBody().front();
  // gpu.block_id and gpu.grid_dim name this part's grid now.
  launch.getBody().walk([&](Operation *op) {
    if (auto id = dyn_cast<gpu::BlockIdOp>(op))
      id.replaceAllUsesWith(ids[static_cast<unsigned>(id.getDimension())]);
    else if (auto dim = dyn_cast<gpu::GridDimOp>(op))
      dim.replaceAllUsesWith(grid[static_cast<unsigned>(dim.getDimension())]);
  });
  gpu::KernelDim3 oldIds = launch.getBlockIds(), oldGrid = launch.getGridSize();
  for (auto [from, to] :
       llvm::zip(std::array<Value, 3>{oldIds.x, oldIds.y, oldIds.z}, ids))
    from.replaceAllUsesWith(to);
  for (auto [from, to] :
       llvm::zip(std::array<Value, 3>{oldGrid.x, oldGrid.y, oldGrid.z}, grid))
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
    buffer.replaceAllUsesWith(merged.getPrivateAttributions()[privateOffset++]);
  old.getTerminator()->erase();
  then->getOperations().splice(then->getTerminator()->getIterator(),
                               old.getOperations());
  launch.erase();
}

/// Replaces the parts of `group` with one launch where the first one is (the
/// ops that the others use from between them move before it, collectHoisted):
/// side by side, its grid the sum of theirs in x, or one after the other in
/// one block.
static void merge(const Group &group) {
  ArrayRef<Part> parts = group.parts;
  gpu::LaunchOp first = parts.front().launch;
  // join checked that these ops may move; they are collected again here,
  // after the merges of earlier groups, which may have moved some of them
  // up already.
  llvm::SetVector<Operation *> hoisted;
  for (const Part &part : parts.drop_front())
    (void)collectHoisted(part.launch, first, hoisted);
  SmallVector<Operation *> moved = hoisted.takeVector();
  llvm::sort(moved,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : moved)
    op->moveBefore(first);

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
      builder, loc, index(group.sequential ? 1 : total), index(1), index(1),
      index(block[0]), index(block[1]), index(block[2]),
      /*dynamicSharedMemorySize=*/nullptr,
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
  if (group.sequential) {
    // Each part in the one block, after the barrier that makes what the
    // parts before it wrote visible to all its threads.
    builder.setInsertionPointToStart(&body);
    std::array<Value, 3> ids = {index(0), index(0), index(0)};
    std::array<Value, 3> grid = {index(1), index(1), index(1)};
    builder.setInsertionPoint(terminator);
    for (const Part &part : parts) {
      if (&part != &parts.front())
        gpu::BarrierOp::create(builder, loc);
      inlinePart(part, merged, &body, ids, grid, workgroupOffset,
                 privateOffset);
    }
    return;
  }
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
    inlinePart(part, merged, branch.thenBlock(), ids, gridSizes,
               workgroupOffset, privateOffset);
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
      SmallVector<Group> groups;
      std::optional<Group> open;
      auto close = [&] {
        if (open && open->parts.size() > 1)
          groups.push_back(std::move(*open));
        open.reset();
      };
      for (Operation &op : *block) {
        auto launch = dyn_cast<gpu::LaunchOp>(op);
        if (!launch) {
          if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
            if (open)
              open->hopped.push_back({dealloc.getMemref(), false, true});
          } else if (!canMoveBefore(&op)) {
            close();
          }
          continue;
        }
        if (std::optional<Part> part = getPart(launch)) {
          if (!open || !join(*open, *part, aliases)) {
            close();
            open = Group{{std::move(*part)}, false, {}};
          }
          continue;
        }
        // A launch this pass leaves whole: the parts after it may move up
        // over it if they do not depend on it.
        std::optional<SmallVector<Access>> accesses = getAccesses(launch);
        if (!accesses)
          close();
        else if (open)
          llvm::append_range(open->hopped, *accesses);
      }
      close();
      for (const Group &group : groups) {
        merge(group);
        numMerged += group.parts.size() - 1;
      }
    }
  }

  /// Whether `part` may join `group` (and then adds it): it may move up to
  /// the group's first part (nothing between writes what it touches or
  /// touches what it writes, and the ops it uses from there may move,
  /// collectHoisted), it shares no buffer but 0-d ones with the parts
  /// (shareBuffers), has the same threads per block, there is at most one
  /// kind of reduction among them (for the kernel report), the merged kernel
  /// stays within CUDA's limits (grid, static shared memory, parameters),
  /// and either no part writes memory that another touches (side by side,
  /// in any order of their blocks) or all are one thread block each (one
  /// after the other).
  static bool join(Group &group, Part &part, AliasAnalysis &aliases) {
    llvm::SetVector<Operation *> hoisted;
    if (mayConflict(group.hopped, part.accesses, aliases) ||
        !collectHoisted(part.launch, group.parts.front().launch, hoisted))
      return false;
    MPDialect::GpuReductionAttrHelper reduction(part.launch.getContext());
    StringAttr how = reduction.getAttr(part.launch);
    int64_t blocks = part.blocks, shared = part.sharedBytes;
    bool independent = !group.sequential, single = part.blocks == 1;
    SmallVector<Region *> regions = {&part.launch.getBody()};
    for (const Part &other : group.parts) {
      StringAttr otherHow = reduction.getAttr(other.launch);
      if (other.block != part.block || (how && otherHow && how != otherHow))
        return false;
      if (shareBuffers(other, part))
        return false;
      independent =
          independent && !mayConflict(other.accesses, part.accesses, aliases);
      single = single && other.blocks == 1;
      blocks += other.blocks;
      shared += other.sharedBytes;
      regions.push_back(&other.launch.getBody());
    }
    if ((!independent && !single) ||
        blocks > std::numeric_limits<int32_t>::max() ||
        shared > kMaxStaticSharedBytes ||
        getParameterBytes(regions) > kMaxParameterBytes)
      return false;
    group.sequential = !independent;
    group.parts.push_back(std::move(part));
    return true;
  }
};
} // namespace
