//===- MapForallToLaunch.cpp - scf.forall nests to gpu.launch -------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUMAPFORALLTOLAUNCHPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Whether `forall` writes memory only by cp.async
/// (mp-gpu-async-copies' panel copies).
static bool issuesOnlyAsyncCopies(scf::ForallOp forall) {
  bool async = false, other = false;
  forall.getBody()->walk([&](Operation *op) {
    if (isa<nvgpu::DeviceAsyncCopyOp>(op)) {
      async = true;
      return;
    }
    if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op))
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects ? !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                 : effects.hasEffect<MemoryEffects::Write>() ||
                       effects.hasEffect<MemoryEffects::Free>() ||
                       effects.hasEffect<MemoryEffects::Allocate>())
      other = true;
  });
  return async && !other;
}

/// The dimension (0 for x...) of each mapping attribute of `forall` if all
/// are `Mapping`s on x, y or z.
template <typename Mapping>
static std::optional<SmallVector<unsigned>> getDims(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  if (!mapping || mapping->empty())
    return std::nullopt;
  SmallVector<unsigned> dims;
  for (Attribute attr : *mapping) {
    auto m = dyn_cast<Mapping>(attr);
    if (!m || static_cast<unsigned>(m.getMappingId()) > 2)
      return std::nullopt;
    dims.push_back(static_cast<unsigned>(m.getMappingId()));
  }
  return dims;
}

/// Trip counts of `forall` if static.
static std::optional<SmallVector<int64_t>> getTripCounts(scf::ForallOp forall) {
  SmallVector<int64_t> counts;
  for (auto [lb, ub, step] :
       llvm::zip(forall.getMixedLowerBound(), forall.getMixedUpperBound(),
                 forall.getMixedStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb),
                           u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return std::nullopt;
    counts.push_back(std::max<int64_t>(0, (*u - *l + *s - 1) / *s));
  }
  return counts;
}

namespace {
struct GPUMapForallToLaunchPass
    : public mp::impl::GPUMapForallToLaunchPassBase<GPUMapForallToLaunchPass> {
  using Base::Base;

  /// Threads per block the foralls nested in `root` need: 32 per warp along
  /// x, warps along y and z, threads as mapped.
  std::optional<SmallVector<int64_t>> getBlockDims(scf::ForallOp root) {
    SmallVector<int64_t> dims = {1, 1, 1};
    bool ok = true;
    root.getBody()->walk([&](scf::ForallOp nested) {
      std::optional<SmallVector<int64_t>> counts = getTripCounts(nested);
      auto warps = getDims<gpu::GPUWarpMappingAttr>(nested);
      auto threads = getDims<gpu::GPUThreadMappingAttr>(nested);
      if (!counts || (!warps && !threads)) {
        ok = false;
        return;
      }
      for (auto [i, dim] : llvm::enumerate(warps ? *warps : *threads)) {
        int64_t n = (*counts)[i] * (warps && dim == 0 ? mp::kWarpSize : 1);
        dims[dim] = std::max(dims[dim], n);
      }
    });
    if (!ok)
      return std::nullopt;
    return dims;
  }

  LogicalResult mapOne(RewriterBase &rewriter, scf::ForallOp forall) {
    std::optional<SmallVector<unsigned>> blockDimsOfIvs =
        getDims<gpu::GPUBlockMappingAttr>(forall);
    std::optional<SmallVector<int64_t>> blockDims = getBlockDims(forall);
    // The blocks' steps must be static (their bounds may be dynamic: a
    // GEMM of a dynamic size), the nested foralls' trip counts too.
    bool staticSteps = llvm::all_of(forall.getMixedStep(), [](OpFoldResult s) {
      std::optional<int64_t> step = getConstantIntValue(s);
      return step && *step > 0;
    });
    if (!blockDimsOfIvs || !staticSteps || !blockDims)
      return forall.emitError(
          "mp-gpu-map-forall-to-launch: expected static steps, and nested "
          "foralls of static trip counts mapped to warps or threads");
    if ((*blockDims)[0] * (*blockDims)[1] * (*blockDims)[2] > 1024)
      return forall.emitError("mp-gpu-map-forall-to-launch: ")
             << "a block of " << (*blockDims)[0] << "x" << (*blockDims)[1]
             << "x" << (*blockDims)[2] << " threads exceeds 1024";

    Location loc = forall.getLoc();
    rewriter.setInsertionPoint(forall);
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    // Each dimension's blocks: ceil((ub - lb) / step), at least 0 (the
    // runtime launches nothing for a grid of no blocks).
    SmallVector<Value> grid = {index(1), index(1), index(1)};
    AffineExpr lb, ub;
    bindSymbols(rewriter.getContext(), lb, ub);
    for (auto [i, dim] : llvm::enumerate(*blockDimsOfIvs)) {
      int64_t step = *getConstantIntValue(forall.getMixedStep()[i]);
      AffineMap count =
          AffineMap::get(0, 2,
                         {(ub - lb).ceilDiv(step),
                          getAffineConstantExpr(0, rewriter.getContext())},
                         rewriter.getContext());
      grid[dim] = getValueOrCreateConstantIndexOp(
          rewriter, loc,
          affine::makeComposedFoldedAffineMax(
              rewriter, loc, count,
              {forall.getMixedLowerBound()[i],
               forall.getMixedUpperBound()[i]}));
    }
    auto launch = gpu::LaunchOp::create(
        rewriter, loc, grid[0], grid[1], grid[2], index((*blockDims)[0]),
        index((*blockDims)[1]), index((*blockDims)[2]));
    // A GEMM's tiles (mp-gpu-tile-contractions) and how a reduction is
    // distributed (mp-gpu-tile-reductions), for the kernel report.
    MPDialect::GpuTileAttrHelper tileHelper(rewriter.getContext());
    if (DenseI64ArrayAttr tiles = tileHelper.getAttr(forall))
      tileHelper.setAttr(launch, tiles);
    MPDialect::GpuReductionAttrHelper reductionHelper(rewriter.getContext());
    if (StringAttr how = reductionHelper.getAttr(forall))
      reductionHelper.setAttr(launch, how);
    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToEnd(&body);
    auto terminator = gpu::TerminatorOp::create(rewriter, loc);
    rewriter.setInsertionPoint(terminator);
    // Each induction variable is lb + block_id * step.
    SmallVector<Value> ivs;
    for (auto [i, dim] : llvm::enumerate(*blockDimsOfIvs)) {
      Value id = gpu::BlockIdOp::create(rewriter, loc,
                                        static_cast<gpu::Dimension>(dim));
      AffineExpr s0, s1, s2;
      bindSymbols(rewriter.getContext(), s0, s1, s2);
      ivs.push_back(
          affine::makeComposedAffineApply(
              rewriter, loc, s0 + s1 * s2,
              {forall.getMixedLowerBound()[i], id, forall.getMixedStep()[i]})
              .getResult());
    }
    rewriter.eraseOp(forall.getBody()->getTerminator());
    rewriter.inlineBlockBefore(forall.getBody(), terminator, ivs);
    rewriter.eraseOp(forall);

    // The block's workgroup buffers become workgroup attributions of the
    // launch (freed with the block).
    SmallVector<memref::AllocOp> buffers;
    launch.getBody().walk([&](memref::AllocOp alloc) {
      if (isa_and_nonnull<gpu::AddressSpaceAttr>(
              alloc.getType().getMemorySpace()))
        buffers.push_back(alloc);
    });
    for (memref::AllocOp alloc : buffers) {
      if (alloc->getBlock() != &body || !alloc.getType().hasStaticShape())
        return alloc.emitError("mp-gpu-map-forall-to-launch: expected a "
                               "workgroup buffer of static shape allocated "
                               "once per thread block");
      BlockArgument buffer =
          launch.addWorkgroupAttribution(alloc.getType(), alloc.getLoc());
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          rewriter.eraseOp(user);
      rewriter.replaceOp(alloc, buffer);
    }

    // Thread distribution expects foralls from 0 in steps of 1.
    SmallVector<scf::ForallOp> nested;
    launch.getBody().walk([&](scf::ForallOp op) { nested.push_back(op); });
    for (scf::ForallOp op : nested)
      if (failed(normalizeForallOp(rewriter, op)))
        return op.emitError("mp-gpu-map-forall-to-launch: cannot normalize "
                            "this forall");
    // Dimensions of one iteration go (upstream's distribution builds
    // invalid IR for them).
    RewritePatternSet patterns(rewriter.getContext());
    scf::ForallOp::getCanonicalizationPatterns(patterns, rewriter.getContext());
    if (failed(applyPatternsGreedily(launch, std::move(patterns))))
      return launch.emitError("mp-gpu-map-forall-to-launch: cannot simplify "
                              "the nested foralls");
    // A barrier after each distributed forall (what the threads wrote is
    // read by others after it; what they read is written again only after
    // it), but after those that only issue cp.async when all thread foralls
    // next to them do: their copies are read only after a wait for them,
    // which a barrier follows. (Next to copies that store, ptxas 13 for
    // sm_90a spilled in the MLP's first GEMM without the barrier.)
    launch.getBody().walk([&](scf::ForallOp forall) {
      auto onlyAsync = [](Operation &op) {
        auto sibling = dyn_cast<scf::ForallOp>(op);
        return !sibling || !getDims<gpu::GPUThreadMappingAttr>(sibling) ||
               issuesOnlyAsyncCopies(sibling);
      };
      if (issuesOnlyAsyncCopies(forall) &&
          llvm::all_of(*forall->getBlock(), onlyAsync))
        return;
      rewriter.setInsertionPointAfter(forall);
      gpu::BarrierOp::create(rewriter, forall.getLoc());
    });
    DiagnosedSilenceableFailure mapped =
        transform::gpu::mapNestedForallToThreadsImpl(
            rewriter, std::nullopt, launch, *blockDims, mp::kWarpSize,
            /*syncAfterDistribute=*/false);
    if (!mapped.succeeded()) {
      (void)mapped.silence();
      return launch.emitError(
          "mp-gpu-map-forall-to-launch: cannot distribute the nested "
          "foralls over the threads of a block");
    }
    ++numLaunches;
    return success();
  }

  void runOnOperation() override {
    SmallVector<scf::ForallOp> roots;
    getOperation()->walk([&](scf::ForallOp forall) {
      if (getDims<gpu::GPUBlockMappingAttr>(forall) &&
          !forall->getParentOfType<gpu::LaunchOp>())
        roots.push_back(forall);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : roots)
      if (failed(mapOne(rewriter, forall)))
        return signalPassFailure();
  }
};
} // namespace
