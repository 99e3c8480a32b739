//===- DynamicSharedMemory.cpp - Big kernels' buffers as dynamic shared ---===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// CUDA limits a kernel's static shared memory to 48 KiB; a block may use
// more (per chip, up to the device's opt-in maximum) only as dynamic shared
// memory, whose size the launch gives. A GEMM block of 128 x 128 stages a
// 64 KiB C tile, so its workgroup buffers become views into the kernel's
// dynamic shared memory, and its launches ask for their bytes. There,
// buffers used over different ops share bytes: the C tile, once the fill
// it was staged for starts the accumulators instead, is used only after
// the K loop, in the panels' bytes.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "Chips.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUDYNAMICSHAREDMEMORYPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The alignment of the buffer gpu.dynamic_shared_memory lowers to on NVVM.
static constexpr int64_t kDynamicBaseAlignment = 16;

/// The shared-memory array that gpu.dynamic_shared_memory lowers to. The
/// NVVM lowering takes an array of its type and alignment that the module
/// declares; declared external, it is PTX's `.extern .shared .b8 x[]`,
/// CUDA's dynamic shared memory (the lowering's own internal array becomes
/// a one-byte static array that the kernel addresses past its end).
static constexpr llvm::StringLiteral kDynamicSharedName = "__mp_dynamic_shared";

namespace {
/// Where a kernel's workgroup buffers lie in one block of shared memory.
struct SharedLayout {
  SmallVector<int64_t> offsets;
  SmallVector<int64_t> sizes;
  int64_t bytes = 0;
  int64_t alignment = 1;
  /// The first buffer memref.view cannot make (a layout), if any.
  std::optional<unsigned> unviewable;
  /// Per buffer, the ops of the kernel's body from its first use to its last
  /// (the ops that use it or its views, or hold such uses), by position.
  SmallVector<std::pair<unsigned, unsigned>> lifetimes;
  /// The buffers that share bytes with one used before them (which the
  /// threads must be done with first).
  llvm::SmallSetVector<unsigned, 2> reusing;
};
} // namespace

/// The bytes of an element of `type` in shared memory (index as the NVVM
/// lowering's 64 bits), or std::nullopt if unknown.
static std::optional<int64_t> getElementBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (auto vector = dyn_cast<VectorType>(type)) {
    std::optional<int64_t> bytes = getElementBytes(vector.getElementType());
    if (!bytes || vector.isScalable())
      return std::nullopt;
    return *bytes * vector.getNumElements();
  }
  if (!type.isIntOrFloat())
    return std::nullopt;
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8u);
}

/// The first and last op of `body` that use `buffer` or hold a use of it,
/// following what its users compute from it (views, addresses), by position
/// in `body`.
static std::pair<unsigned, unsigned>
getLifetime(Value buffer, Block &body,
            const DenseMap<Operation *, unsigned> &positions) {
  std::pair<unsigned, unsigned> lifetime = {positions.size(), 0};
  SmallVector<Value> worklist = {buffer};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      Operation *top = body.findAncestorOpInBlock(*user);
      unsigned position = top ? positions.lookup(top) : 0;
      lifetime.first = std::min(lifetime.first, position);
      lifetime.second = std::max(lifetime.second, position);
      llvm::append_range(worklist, user->getResults());
    }
  }
  return lifetime;
}

/// The buffers of `func` in shared memory, each at its `llvm.align` (at
/// least its element's size): one after the other, or with `reuse` where
/// the kernel is one block of ops, at the lowest offset whose bytes no
/// buffer used over the same ops of it takes; std::nullopt if a buffer's
/// size is unknown (a dynamic shape or an element type of unknown size:
/// such a kernel does not lower anyway).
static std::optional<SharedLayout> getSharedLayout(gpu::GPUFuncOp func,
                                                   bool reuse) {
  SharedLayout layout;
  Block &body = func.getBody().front();
  reuse &= func.getBody().hasOneBlock();
  DenseMap<Operation *, unsigned> positions;
  if (reuse)
    for (auto [i, op] : llvm::enumerate(body))
      positions[&op] = i;
  StringRef alignName = LLVM::LLVMDialect::getAlignAttrName();
  for (auto [i, buffer] : llvm::enumerate(func.getWorkgroupAttributions())) {
    auto type = cast<MemRefType>(buffer.getType());
    std::optional<int64_t> elementBytes =
        getElementBytes(type.getElementType());
    if (!type.hasStaticShape() || !elementBytes)
      return std::nullopt;
    if (!type.getLayout().isIdentity() && !layout.unviewable)
      layout.unviewable = i;
    int64_t alignment = llvm::PowerOf2Ceil(*elementBytes);
    if (auto align = dyn_cast_or_null<IntegerAttr>(
            func.getWorkgroupAttributionAttr(i, alignName));
        align && align.getInt() > 0 && llvm::isPowerOf2_64(align.getInt()))
      alignment = std::max(alignment, align.getInt());
    int64_t size = type.getNumElements() * *elementBytes;
    std::pair<unsigned, unsigned> lifetime = {0, body.getOperations().size()};
    if (reuse)
      lifetime = getLifetime(buffer, body, positions);
    // The lowest aligned offset clear of the buffers placed so far that
    // are in use over some of the same ops (by offset, as they are tried).
    SmallVector<unsigned> busy;
    for (unsigned j = 0; j < i; ++j)
      if (!reuse || (layout.lifetimes[j].first <= lifetime.second &&
                     lifetime.first <= layout.lifetimes[j].second))
        busy.push_back(j);
    llvm::sort(busy, [&](unsigned a, unsigned b) {
      return layout.offsets[a] < layout.offsets[b];
    });
    int64_t offset = 0;
    for (unsigned j : busy)
      if (static_cast<int64_t>(llvm::alignTo(offset, alignment)) + size >
          layout.offsets[j])
        offset = std::max(offset, layout.offsets[j] + layout.sizes[j]);
    offset = llvm::alignTo(offset, alignment);
    // Of two buffers in the same bytes, the one used later reuses them (a
    // buffer never used takes no bytes).
    auto used = [](std::pair<unsigned, unsigned> ops) {
      return ops.first <= ops.second;
    };
    for (unsigned j = 0; j < i; ++j)
      if (!llvm::is_contained(busy, j) && used(lifetime) &&
          used(layout.lifetimes[j]) &&
          offset < layout.offsets[j] + layout.sizes[j] &&
          layout.offsets[j] < offset + size)
        layout.reusing.insert(lifetime.first > layout.lifetimes[j].first ? i
                                                                         : j);
    layout.offsets.push_back(offset);
    layout.sizes.push_back(size);
    layout.lifetimes.push_back(lifetime);
    layout.bytes = std::max(layout.bytes, offset + size);
    layout.alignment = std::max(layout.alignment, alignment);
  }
  return layout;
}

/// The value and the memref of `op`, if it is a store.
static std::pair<Value, Value> getStore(Operation *op) {
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return {store.getValueToStore(), store.getBase()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return {store.getValueToStore(), store.getMemRef()};
  return {};
}

/// The constant `op` sets every element it writes to, if it is a store of
/// one (a splat or a scalar).
static Attribute getStoredConstant(Operation *op) {
  Attribute constant;
  Value stored = getStore(op).first;
  if (!stored || !matchPattern(stored, m_Constant(&constant)))
    return nullptr;
  if (auto splat = dyn_cast<SplatElementsAttr>(constant))
    return splat.getSplatValue<Attribute>();
  return isa<ElementsAttr>(constant) ? nullptr : constant;
}

/// Whether `op` is or holds a user of `value`.
static bool touches(Operation *op, Value value) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    return op == user || op->isProperAncestor(user);
  });
}

/// In a kernel whose body is one block, a workgroup buffer that only
/// stores of one constant write before the threads read it (a GEMM's C tile
/// that mp-gpu-tile-contractions stages for a fill folded into the
/// contraction: the accumulators are read from it before the K loop) is
/// read as that constant instead. Then, if its next uses are stores that
/// cover it (each of the block's threads storing its own elements: the
/// accumulators after the loop), nothing reads what the constant's stores
/// stored: they go, and the buffer is first used after the loop, where it
/// may share bytes with the panels.
static void startFromFills(gpu::GPUFuncOp func) {
  std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
  if (!known || !func.getBody().hasOneBlock())
    return;
  int64_t threads = 1;
  for (int32_t size : *known)
    threads *= size;
  Block &body = func.getBody().front();
  IRRewriter rewriter(func.getContext());
  for (BlockArgument buffer : func.getWorkgroupAttributions()) {
    Attribute value;
    SmallVector<Operation *> fills, reads;
    for (Operation &op : body) {
      if (!touches(&op, buffer))
        continue;
      if (!llvm::is_contained(op.getOperands(), buffer))
        break; // a use inside a loop or a branch
      if (isa<vector::LoadOp, memref::LoadOp>(op)) {
        if (!value)
          break;
        reads.push_back(&op);
        continue;
      }
      Attribute stored = getStoredConstant(&op);
      if (!stored || getStore(&op).second != buffer ||
          (value && value != stored))
        break;
      value = stored;
      fills.push_back(&op);
    }
    if (reads.empty())
      continue;
    for (Operation *read : reads) {
      rewriter.setInsertionPoint(read);
      Type type = read->getResult(0).getType();
      auto vector = dyn_cast<VectorType>(type);
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          read, vector ? DenseElementsAttr::get(vector, value)
                       : cast<TypedAttr>(value));
    }
    int64_t covered = 0;
    for (Operation &op : body) {
      if (llvm::is_contained(fills, &op) || !touches(&op, buffer))
        continue;
      if (getStore(&op).second != buffer)
        break;
      auto vector = dyn_cast<VectorType>(op.getOperand(0).getType());
      covered += vector ? vector.getNumElements() : 1;
    }
    if (covered * threads ==
        cast<MemRefType>(buffer.getType()).getNumElements())
      for (Operation *fill : fills)
        rewriter.eraseOp(fill);
  }
}

/// Makes the threads of `func` done with the buffers that `layout` puts
/// under one of its buffers used after them, before that buffer's first
/// use: in a kernel that issues `cp.async` copies, every thread waits for
/// its own (the last K steps' may still be in flight after the loop that
/// issued them), then a barrier. Reads of the buffers before (ldmatrix,
/// wgmma waited for) are done at the barrier.
static void fenceReuse(gpu::GPUFuncOp func, const SharedLayout &layout) {
  Block &body = func.getBody().front();
  SmallVector<Operation *> firstUses;
  for (unsigned i : layout.reusing) {
    Operation *first = &*std::next(body.begin(), layout.lifetimes[i].first);
    if (!llvm::is_contained(firstUses, first))
      firstUses.push_back(first);
  }
  bool copies = func.walk([](nvgpu::DeviceAsyncCopyOp) {
                      return WalkResult::interrupt();
                    })
                    .wasInterrupted();
  for (Operation *first : firstUses) {
    OpBuilder b(first);
    if (copies)
      NVVM::CpAsyncWaitGroupOp::create(b, first->getLoc(), 0);
    gpu::BarrierOp::create(b, first->getLoc());
  }
}

/// Declares the module's dynamic shared memory (kDynamicSharedName) once.
static void declareDynamicSharedMemory(gpu::GPUModuleOp module) {
  if (SymbolTable::lookupSymbolIn(module, kDynamicSharedName))
    return;
  auto b = OpBuilder::atBlockBegin(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                         LLVM::Linkage::External, kDynamicSharedName,
                         Attribute(), kDynamicBaseAlignment,
                         static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
}

/// Replaces the workgroup attributions of `func` by views into its dynamic
/// shared memory at `layout`'s offsets (from its first address aligned to
/// the layout's alignment), and drops them.
static void moveToDynamicSharedMemory(gpu::GPUFuncOp func,
                                      const SharedLayout &layout) {
  declareDynamicSharedMemory(func->getParentOfType<gpu::GPUModuleOp>());
  Block &entry = func.getBody().front();
  auto b = OpBuilder::atBlockBegin(&entry);
  Location loc = func.getLoc();
  auto workgroup = gpu::AddressSpaceAttr::get(func.getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), workgroup);
  Value shared = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  // The bytes up to the first aligned address: -address mod alignment.
  Value start;
  if (layout.alignment > kDynamicBaseAlignment) {
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, shared);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value negated = arith::SubIOp::create(b, loc, zero, address);
    Value mask = arith::ConstantIndexOp::create(b, loc, layout.alignment - 1);
    start = arith::AndIOp::create(b, loc, negated, mask);
  }
  SmallVector<BlockArgument> buffers(func.getWorkgroupAttributions());
  for (auto [buffer, offset] : llvm::zip(buffers, layout.offsets)) {
    Value shift = start;
    if (!start || offset != 0) {
      shift = arith::ConstantIndexOp::create(b, loc, offset);
      if (start)
        shift = arith::AddIOp::create(b, loc, start, shift);
    }
    Value view = memref::ViewOp::create(b, loc, buffer.getType(), shared, shift,
                                        ValueRange());
    buffer.replaceAllUsesWith(view);
  }
  entry.eraseArguments(func.getFirstWorkgroupAttributionIndex(),
                       buffers.size());
  func->removeAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName());
  func.removeWorkgroupAttribAttrsAttr();
}

namespace {
struct GPUDynamicSharedMemoryPass
    : public mp::impl::GPUDynamicSharedMemoryPassBase<
          GPUDynamicSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A chip variant's kernels run for the launches of its module.
    llvm::StringMap<StringRef> launchedAs;
    if (DictionaryAttr variants =
            MPDialect::GpuChipVariantsAttrHelper(&getContext()).getAttr(module))
      for (NamedAttribute entry : variants)
        if (auto original = dyn_cast<FlatSymbolRefAttr>(entry.getValue()))
          launchedAs[entry.getName()] = original.getValue();

    // Bytes per launched module and kernel.
    llvm::StringMap<llvm::StringMap<int64_t>> launchBytes;
    bool anyError = false;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      StringRef launched = launchedAs.lookup(gpuModule.getName());
      if (launched.empty())
        launched = gpuModule.getName();
      for (auto func : gpuModule.getOps<gpu::GPUFuncOp>()) {
        if (!func.isKernel() || func.getNumWorkgroupAttributions() == 0)
          continue;
        // Static shared memory keeps the buffers apart; the dynamic block
        // puts buffers used over different ops in the same bytes.
        std::optional<SharedLayout> apart =
            getSharedLayout(func, /*reuse=*/false);
        if (!apart || apart->bytes <= staticLimit)
          continue;
        startFromFills(func);
        std::optional<SharedLayout> found =
            getSharedLayout(func, /*reuse=*/true);
        if (!found)
          continue;
        const SharedLayout &layout = *found;
        if (layout.unviewable) {
          func.emitError() << "kernel '" << func.getName() << "' needs "
                           << layout.bytes << " bytes of shared memory, more "
                           << "than " << static_cast<int64_t>(staticLimit)
                           << " static, but its "
                           << "workgroup buffer #" << *layout.unviewable
                           << " has a layout, which dynamic shared memory "
                              "cannot view";
          anyError = true;
          continue;
        }
        int64_t bytes = layout.bytes;
        if (layout.alignment > kDynamicBaseAlignment)
          bytes += layout.alignment - kDynamicBaseAlignment;
        for (Attribute target : gpuModule.getTargetsAttr()
                                    ? gpuModule.getTargetsAttr().getValue()
                                    : ArrayRef<Attribute>()) {
          auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target);
          std::optional<GpuChip> chip =
              nvvm ? lookupGpuChip(nvvm.getChip()) : std::nullopt;
          std::optional<int64_t> limit =
              chip ? std::optional(chip->maxSharedPerBlock) : std::nullopt;
          if (limit && bytes > *limit) {
            func.emitError() << "kernel '" << func.getName() << "' needs "
                             << bytes << " bytes of shared memory, more than "
                             << "a block gets on " << nvvm.getChip() << " ("
                             << *limit << "): choose smaller tiles "
                             << "(mp-lower-to-gpu tile-m, tile-n) or fewer "
                             << "stages (stages=1 single-buffers)";
            anyError = true;
          }
        }
        if (anyError)
          continue;
        fenceReuse(func, layout);
        moveToDynamicSharedMemory(func, layout);
        int64_t &launchSize = launchBytes[launched][func.getName()];
        launchSize = std::max(launchSize, bytes);
        ++numDynamic;
      }
    }
    if (anyError)
      return signalPassFailure();

    module.walk([&](gpu::LaunchFuncOp launch) {
      auto found = launchBytes.find(launch.getKernelModuleName().getValue());
      if (found == launchBytes.end())
        return;
      int64_t bytes = found->second.lookup(launch.getKernelName().getValue());
      if (bytes == 0)
        return;
      if (launch.getDynamicSharedMemorySize()) {
        launch.emitError() << "cannot move the workgroup buffers of '"
                           << launch.getKernelName().getValue()
                           << "' to dynamic shared memory: the launch has "
                              "dynamic shared memory already";
        anyError = true;
        return;
      }
      OpBuilder b(launch);
      Value size = arith::ConstantIntOp::create(b, launch.getLoc(),
                                                b.getI32Type(), bytes);
      launch.getDynamicSharedMemorySizeMutable().assign(size);
    });
    if (anyError)
      signalPassFailure();
  }
};
} // namespace
