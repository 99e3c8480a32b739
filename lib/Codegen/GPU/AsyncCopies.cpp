//===- AsyncCopies.cpp - Staged panel copies as cp.async ------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The copies mp-gpu-tile-contractions marks on the panels it stages in
// several slots become cp.async (nvgpu.device_async_copy), issued before
// the K loop for its first steps ("ahead") and on each trip for a later one
// ("prefetch"). Each thread waits for its copies of the first step before
// the loop and for those of the next step at the end of each trip, leaving
// the later steps' copies in flight, so global loads and Tensor Cores
// overlap.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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
    // The copy foralls holding marked stores, and their markers.
    llvm::MapVector<scf::ForallOp, StringRef> copies;
    getOperation()->walk([&](vector::StoreOp store) {
      StringAttr how = marker.getAttr(store);
      if (!how)
        return;
      marker.removeAttr(store);
      if (auto forall = store->getParentOfType<scf::ForallOp>())
        copies[forall] = how.getValue();
    });
    IRRewriter rewriter(&getContext());
    // Per K loop, the groups of copies issued before it and on each trip.
    struct Groups {
      int64_t ahead = 0, perTrip = 0;
    };
    llvm::MapVector<scf::ForOp, Groups> loops;
    for (auto [forall, how] : copies) {
      nvgpu::createAsyncGroups(rewriter, forall, /*bypassL1=*/true);
      numAsync += llvm::range_size(
          forall.getBody()->getOps<nvgpu::DeviceAsyncCopyOp>());
      // The K loop the copies are for: the one they are in, or the next one
      // after them.
      scf::ForOp loop = forall->getParentOfType<scf::ForOp>();
      if (how == "ahead")
        for (Operation *op = forall->getNextNode(); op; op = op->getNextNode())
          if ((loop = dyn_cast<scf::ForOp>(op)))
            break;
      if (!loop)
        continue; // waited for where they are issued
      int64_t groups = 0;
      forall.walk([&](Operation *op) {
        if (isa<nvgpu::DeviceAsyncWaitOp>(op))
          rewriter.eraseOp(op);
        else if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op))
          ++groups;
      });
      (how == "ahead" ? loops[loop].ahead : loops[loop].perTrip) += groups;
    }
    // The copies of each step are issued in one run of groups, those of the
    // steps before it first: when the copies of step s must have landed,
    // those of the later steps issued so far may still be in flight, the
    // groups issued ahead but one step's. Each thread waits for the first
    // step's copies before the loop, and for the next step's at the end of
    // each trip's last forall (the warps' Tensor Core work; the barrier
    // after it makes all threads' copies visible to the next trip), or of
    // the trip.
    for (auto [loop, groups] : loops) {
      auto pending = rewriter.getI32IntegerAttr(
          std::max<int64_t>(groups.ahead - groups.perTrip, 0));
      rewriter.setInsertionPoint(loop);
      NVVM::CpAsyncWaitGroupOp::create(rewriter, loop.getLoc(), pending);
      // The copies into the panels issued on trips are not followed by a
      // barrier (mp-gpu-map-forall-to-launch): this one makes the first
      // step's visible to all threads.
      gpu::BarrierOp::create(rewriter, loop.getLoc());
      // No copy may still land after the loop (in another block's shared
      // memory once this one exits).
      if (pending.getInt() > 0) {
        rewriter.setInsertionPointAfter(loop);
        NVVM::CpAsyncWaitGroupOp::create(rewriter, loop.getLoc(),
                                         rewriter.getI32IntegerAttr(0));
      }
      Operation *last = loop.getBody()->getTerminator();
      if (auto warps = dyn_cast_or_null<scf::ForallOp>(last->getPrevNode()))
        last = warps.getBody()->getTerminator();
      rewriter.setInsertionPoint(last);
      NVVM::CpAsyncWaitGroupOp::create(rewriter, loop.getLoc(), pending);
    }
  }
};
} // namespace
