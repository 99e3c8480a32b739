//===- AsyncLaunches.cpp - Kernels launched without waiting each ---------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The host code's launches become chains of asynchronous launches on the
// backend's stream, waited for only where the host reads what the kernels
// wrote (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUASYNCLAUNCHESPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Host buffers larger than this stay where they are.
constexpr int64_t kMaxStackBytes = 4096;

/// Whether kernels cannot use `value`'s memory: a view of a stack buffer or
/// of a host global (kernels read constants from their own copies).
static bool isHostMemory(Value value) {
  Operation *def = getRootBuffer(value).getDefiningOp();
  return isa_and_present<memref::AllocaOp, memref::GetGlobalOp>(def);
}

namespace {
/// The pass's work on one module.
class LaunchChainer {
public:
  LaunchChainer(ModuleOp module, bool waitAtReturn)
      : ctx(module.getContext()), module(module), waitAtReturn(waitAtReturn) {}

  int64_t numAsync = 0, numWaits = 0, numOnStack = 0;

  void run() {
    findGpuFunctions();
    inlineLaunchingCalls();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isDeclaration())
        continue;
      moveHostBuffersToStack(func);
      // An entry that leaves its kernels queued at its return may find an
      // earlier call's kernels queued at its start.
      bool returnsQueued = !waitAtReturn && isEntry(func);
      for (Block &block : func.getBody())
        chainBlock(block,
                   /*queuedAtStart=*/returnsQueued && block.isEntryBlock(),
                   /*waitAtReturn=*/!returnsQueued);
    }
  }

private:
  MLIRContext *ctx;
  ModuleOp module;
  /// The functions that launch kernels or call stream-ordered functions,
  /// directly or through calls.
  DenseSet<Operation *> gpuFunctions;
  SymbolTableCollection symbols;
  bool waitAtReturn;

  /// Whether `func` launches kernels and only the module's user calls it.
  bool isEntry(func::FuncOp func) {
    return func.isPublic() && gpuFunctions.contains(func) &&
           SymbolTable::symbolKnownUseEmpty(func, module);
  }

  func::FuncOp getCallee(func::CallOp call) {
    return symbols.lookupNearestSymbolFrom<func::FuncOp>(call,
                                                         call.getCalleeAttr());
  }

  bool isStreamOrdered(func::CallOp call) {
    func::FuncOp callee = getCallee(call);
    return callee &&
           MPDialect::GpuStreamOrderedAttrHelper(ctx).isAttrPresent(callee);
  }

  /// Whether `op` or an op nested in it puts work on the stream.
  bool usesStream(Operation *op) {
    WalkResult result = op->walk([&](Operation *inner) {
      if (isa<gpu::LaunchFuncOp>(inner))
        return WalkResult::interrupt();
      if (auto call = dyn_cast<func::CallOp>(inner)) {
        func::FuncOp callee = getCallee(call);
        if (isStreamOrdered(call) || gpuFunctions.contains(callee))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return result.wasInterrupted();
  }

  void findGpuFunctions() {
    bool changed = true;
    while (changed) {
      changed = false;
      for (auto func : module.getOps<func::FuncOp>())
        if (!func.isDeclaration() && !gpuFunctions.contains(func) &&
            usesStream(func))
          changed = gpuFunctions.insert(func).second;
    }
  }

  /// Inlines each call of a function of this module that launches kernels
  /// and calls no other such function (a training step's call of its
  /// gradient function), so that the caller's launches and the callee's
  /// form one chain: the callee would wait at its return.
  void inlineLaunchingCalls() {
    SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
    for (auto func : module.getOps<func::FuncOp>())
      func.walk([&](func::CallOp call) {
        func::FuncOp callee = getCallee(call);
        if (callee && callee != func && gpuFunctions.contains(callee) &&
            !callee.isDeclaration() && !callsGpuFunction(callee))
          calls.emplace_back(call, callee);
      });
    InlinerInterface interface(ctx);
    InlinerConfig config;
    for (auto [call, callee] : calls)
      if (succeeded(inlineCall(interface, config.getCloneCallback(), call,
                               callee, &callee.getBody())))
        call.erase();
  }

  bool callsGpuFunction(func::FuncOp func) {
    return func
        .walk([&](func::CallOp call) {
          return gpuFunctions.contains(getCallee(call))
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  }

  /// Whether `callee` is host code that only touches its arguments: a
  /// function of this module that uses no GPU op, no global and calls
  /// nothing (the deallocation helper).
  bool isHostOnlyFunction(func::FuncOp callee) {
    if (!callee || callee.isDeclaration())
      return false;
    return !callee
                .walk([](Operation *op) {
                  return isa<func::CallOp, memref::GetGlobalOp>(op) ||
                                 isa_and_present<gpu::GPUDialect>(
                                     op->getDialect())
                             ? WalkResult::interrupt()
                             : WalkResult::advance();
                })
                .wasInterrupted();
  }

  /// Whether `call` runs host code on host memory only.
  bool isHostOnlyCall(func::CallOp call) {
    auto hostValue = [](Value v) {
      return !isa<MemRefType>(v.getType()) || isHostMemory(v);
    };
    return isHostOnlyFunction(getCallee(call)) &&
           llvm::all_of(call.getOperands(), hostValue) &&
           llvm::all_of(call.getResults(), hostValue);
  }

  /// Whether the stream must be idle before `op` runs on the host.
  bool needsIdleStream(Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op))
      return !isHostOnlyCall(call);
    if (op->getNumRegions() != 0) {
      if (usesStream(op))
        return true;
      bool nested = false;
      for (Region &region : op->getRegions())
        for (Operation &inner : region.getOps())
          nested |= needsIdleStream(&inner);
      return nested;
    }
    if (isa_and_present<gpu::GPUDialect>(op->getDialect()))
      return true;
    if (isMemoryEffectFree(op))
      return false;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return true;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
      if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(e.getEffect()))
        return false;
      Value value = e.getValue();
      return !value || !isHostMemory(value);
    });
  }

  /// Chains the launches of `block` (and of the blocks nested in its ops
  /// that launch kernels) as described in Passes.td: from its start if
  /// `queuedAtStart`, and without a wait before a `return` unless
  /// `waitAtReturn`.
  void chainBlock(Block &block, bool queuedAtStart = false,
                  bool waitAtReturn = true) {
    OpBuilder b(ctx);
    Value token;
    auto startChain = [&](Operation *before) {
      if (token)
        return;
      b.setInsertionPoint(before);
      token =
          gpu::WaitOp::create(b, before->getLoc(),
                              b.getType<gpu::AsyncTokenType>(), ValueRange())
              .getAsyncToken();
    };
    auto waitBefore = [&](Operation *before) {
      if (!token)
        return;
      b.setInsertionPoint(before);
      gpu::WaitOp::create(b, before->getLoc(), Type(), token);
      token = nullptr;
      ++numWaits;
    };

    Operation *first = block.empty() ? nullptr : &block.front();
    if (queuedAtStart && first)
      startChain(first);
    for (Operation &op : llvm::make_early_inc_range(
             llvm::make_range(Block::iterator(first), block.end()))) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        if (waitAtReturn || !isa<func::ReturnOp>(op)) {
          waitBefore(&op);
        } else if (token && isa<gpu::WaitOp>(token.getDefiningOp())) {
          // A chain that nothing joined.
          token.getDefiningOp()->erase();
        }
        break;
      }
      auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
      if (launch && !launch.getAsyncToken() &&
          launch.getAsyncDependencies().empty()) {
        startChain(launch);
        b.setInsertionPoint(launch);
        auto async = gpu::LaunchFuncOp::create(
            b, launch.getLoc(), launch.getKernel(),
            launch.getGridSizeOperandValues(),
            launch.getBlockSizeOperandValues(),
            launch.getDynamicSharedMemorySize(), launch.getKernelOperands(),
            b.getType<gpu::AsyncTokenType>(), token,
            launch.hasClusterSize()
                ? std::optional(launch.getClusterSizeOperandValues())
                : std::nullopt);
        async->setDiscardableAttrs(launch->getDiscardableAttrDictionary());
        token = async.getAsyncToken();
        launch.erase();
        ++numAsync;
        continue;
      }
      auto call = dyn_cast<func::CallOp>(op);
      if (call && isStreamOrdered(call)) {
        // Its work joins the stream: the next wait covers it.
        startChain(call);
        continue;
      }
      if (!needsIdleStream(&op))
        continue;
      waitBefore(&op);
      if (op.getNumRegions() != 0 && usesStream(&op))
        for (Region &region : op.getRegions())
          for (Block &nested : region)
            chainBlock(nested);
    }
  }

  /// Small static buffers of the entry block that only host code uses
  /// become stack buffers (their deallocations go).
  void moveHostBuffersToStack(func::FuncOp func) {
    for (auto alloc : llvm::make_early_inc_range(
             func.getBody().front().getOps<memref::AllocOp>())) {
      MemRefType type = alloc.getType();
      Type element = type.getElementType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace() ||
          !(element.isIntOrFloat() || element.isIndex()))
        continue;
      int64_t bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
      if (type.getNumElements() * ((bits + 7) / 8) > kMaxStackBytes)
        continue;
      SmallVector<Operation *> deallocs;
      if (!isUsedOnHostOnly(alloc, deallocs))
        continue;
      OpBuilder b(alloc);
      auto alloca = memref::AllocaOp::create(b, alloc.getLoc(), type,
                                             alloc.getAlignmentAttr());
      alloc.replaceAllUsesWith(alloca.getResult());
      for (Operation *dealloc : deallocs)
        dealloc->erase();
      alloc.erase();
      ++numOnStack;
    }
  }

  /// Whether every use of `alloc` (through views) is a host load, store,
  /// query, deallocation (collected in `deallocs`) or a host-only call.
  bool isUsedOnHostOnly(memref::AllocOp alloc,
                        SmallVectorImpl<Operation *> &deallocs) {
    SmallVector<Value> worklist{alloc.getResult()};
    SmallVector<func::CallOp> calls;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (isa<memref::DeallocOp>(user)) {
          deallocs.push_back(user);
        } else if (isa<memref::LoadOp, memref::DimOp,
                       memref::ExtractAlignedPointerAsIndexOp>(user) ||
                   (isa<memref::StoreOp>(user) &&
                    use.getOperandNumber() == 1)) {
          continue;
        } else if (auto view = dyn_cast<ViewLikeOpInterface>(user);
                   view && view.getViewSource() == value) {
          for (Value result : user->getResults())
            if (isa<MemRefType>(result.getType()))
              worklist.push_back(result);
        } else if (auto call = dyn_cast<func::CallOp>(user)) {
          calls.push_back(call);
        } else {
          return false;
        }
      }
    }
    return llvm::all_of(calls, [&](func::CallOp call) {
      return isHostOnlyFunction(getCallee(call));
    });
  }
};

struct GPUAsyncLaunchesPass
    : public mp::impl::GPUAsyncLaunchesPassBase<GPUAsyncLaunchesPass> {
  using Base::Base;

  void runOnOperation() override {
    LaunchChainer chainer(getOperation(), waitAtReturn);
    chainer.run();
    numAsync += chainer.numAsync;
    numWaits += chainer.numWaits;
    numOnStack += chainer.numOnStack;
  }
};
} // namespace
