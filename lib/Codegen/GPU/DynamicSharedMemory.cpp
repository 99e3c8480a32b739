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
// dynamic shared memory, and its launches ask for their bytes.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

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

/// The most shared memory a block gets on `chip` (sm_XY, with or without
/// a feature suffix), in bytes: the CUDA programming guide's table of
/// compute capabilities. std::nullopt for a chip it does not list.
static std::optional<int64_t> getMaxSharedMemoryPerBlock(StringRef chip) {
  unsigned version;
  if (!chip.consume_front("sm_") ||
      chip.take_while(llvm::isDigit).getAsInteger(10, version))
    return std::nullopt;
  switch (version) {
  case 70:
    return 96 * 1024;
  case 72:
    return 48 * 1024;
  case 75:
    return 64 * 1024;
  case 80:
  case 87:
    return 163 * 1024;
  case 86:
  case 89:
  case 120:
  case 121:
    return 99 * 1024;
  case 90:
  case 100:
  case 101:
  case 103:
  case 110:
    return 227 * 1024;
  default:
    return std::nullopt;
  }
}

namespace {
/// Where a kernel's workgroup buffers lie in one block of shared memory.
struct SharedLayout {
  SmallVector<int64_t> offsets;
  int64_t bytes = 0;
  int64_t alignment = 1;
  /// The first buffer memref.view cannot make (a layout), if any.
  std::optional<unsigned> unviewable;
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

/// The buffers of `func` one after the other, each at its `llvm.align` (at
/// least its element's size); std::nullopt if a buffer's size is unknown (a
/// dynamic shape or an element type of unknown size: such a kernel does not
/// lower anyway).
static std::optional<SharedLayout> getSharedLayout(gpu::GPUFuncOp func) {
  SharedLayout layout;
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
    layout.bytes = llvm::alignTo(layout.bytes, alignment);
    layout.offsets.push_back(layout.bytes);
    layout.bytes += type.getNumElements() * *elementBytes;
    layout.alignment = std::max(layout.alignment, alignment);
  }
  return layout;
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
        std::optional<SharedLayout> found = getSharedLayout(func);
        if (!found || found->bytes <= staticLimit)
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
          std::optional<int64_t> limit =
              nvvm ? getMaxSharedMemoryPerBlock(nvvm.getChip()) : std::nullopt;
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
