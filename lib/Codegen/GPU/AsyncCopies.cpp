//===- AsyncCopies.cpp - Staged panel copies as cp.async ------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The copies mp-gpu-tile-contractions marks on double-buffered panels become
// cp.async (nvgpu.device_async_copy): the first K step's copies are waited
// for at once; the next step's, issued before this step computes, are
// waited for at the end of this step, so global loads and Tensor Cores
// overlap.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUASYNCCOPIESPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct GPUAsyncCopiesPass
    : public mp::impl::GPUAsyncCopiesPassBase<GPUAsyncCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    MPDialect::GpuCopyAttrHelper marker(&getContext());
    // The copy foralls holding marked stores, and whether they prefetch.
    llvm::MapVector<scf::ForallOp, bool> copies;
    getOperation()->walk([&](vector::StoreOp store) {
      StringAttr how = marker.getAttr(store);
      if (!how)
        return;
      marker.removeAttr(store);
      if (auto forall = store->getParentOfType<scf::ForallOp>())
        copies[forall] |= how.getValue() == "prefetch";
    });
    IRRewriter rewriter(&getContext());
    llvm::SetVector<scf::ForOp> stepsToWait;
    for (auto [forall, prefetch] : copies) {
      nvgpu::createAsyncGroups(rewriter, forall, /*bypassL1=*/true);
      numAsync += llvm::range_size(
          forall.getBody()->getOps<nvgpu::DeviceAsyncCopyOp>());
      auto step = forall->getParentOfType<scf::ForOp>();
      if (!prefetch || !step)
        continue;
      // Not waited for here: at the end of the K step.
      forall.walk(
          [&](nvgpu::DeviceAsyncWaitOp wait) { rewriter.eraseOp(wait); });
      stepsToWait.insert(step);
    }
    // Each thread waits for its copies at the end of the step's last
    // forall (the warps' Tensor Core work; the barrier after it then makes
    // all copies visible to the next step), or of the step.
    for (scf::ForOp step : stepsToWait) {
      Operation *last = step.getBody()->getTerminator();
      if (auto warps = dyn_cast_or_null<scf::ForallOp>(last->getPrevNode()))
        last = warps.getBody()->getTerminator();
      rewriter.setInsertionPoint(last);
      NVVM::CpAsyncWaitGroupOp::create(rewriter, step.getLoc(),
                                       rewriter.getI32IntegerAttr(0));
    }
  }
};
} // namespace
