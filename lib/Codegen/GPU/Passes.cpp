//===- Passes.cpp - mp-lower-to-gpu -----------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"
#include "Chips.h"
#include "MmaContraction.h"
#include "Wgmma.h"
#include "mp/Codegen/CPU/Passes.h"
#include "mp/Conversion/Passes.h"
#include "mp/Utils/Bufferization.h"
#include "mp/Utils/PipelineRegistration.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/Regex.h"

namespace mlir {
namespace mp {
#define GEN_PASS_REGISTRATION
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The block and warp tiles of `options` as the options of a pass that
/// takes them. With wgmma a block's 4 warps own 16 rows and all columns
/// each, the shape of wgmma's accumulators.
template <typename PassOptions>
static PassOptions getTileOptions(const GpuPipelineOptions &options) {
  PassOptions tiles;
  tiles.tileM = options.tileM;
  tiles.tileN = options.tileN;
  tiles.warpM = options.wgmma ? kMmaM : options.warpM;
  tiles.warpN = options.wgmma ? options.tileN : options.warpN;
  return tiles;
}

/// The block of two warpgroups of 64 x 128 that large GEMMs take with
/// wgmma (wgmma-large-min-blocks): on an H200 (2026-11-27) 1.4x faster than
/// one warpgroup's 64 x 64 from 2048^3 (256 blocks) to 8192^3, slower at
/// 1024^3 (64 blocks).
static constexpr int64_t kLargeWgmmaTile[] = {2 * kWgmmaM, 128, kMmaM, 128};

/// mp-gpu-choose-tiles' options: `options`' tiles, and with wgmma in
/// blocks smaller than kLargeWgmmaTile, that block for large GEMMs.
static GPUChooseTilesPassOptions
getChooseTilesOptions(const GpuPipelineOptions &options) {
  auto tiles = getTileOptions<GPUChooseTilesPassOptions>(options);
  tiles.simtBlock = options.simtBlock;
  tiles.simtThread = options.simtThread;
  if (options.wgmma && options.wgmmaLargeMinBlocks > 0 &&
      options.tileM * options.tileN < kLargeWgmmaTile[0] * kLargeWgmmaTile[1]) {
    tiles.largeTiles.assign(std::begin(kLargeWgmmaTile),
                            std::end(kLargeWgmmaTile));
    tiles.largeMinBlocks = options.wgmmaLargeMinBlocks;
  }
  return tiles;
}

/// The chips of `options`, or the default ones.
static SmallVector<std::string> getChips(const GpuPipelineOptions &options) {
  if (!options.chips.empty())
    return SmallVector<std::string>(options.chips.begin(), options.chips.end());
  SmallVector<StringRef> chips;
  StringRef(kDefaultGpuChips).split(chips, ',');
  return llvm::map_to_vector(chips, [](StringRef c) { return c.str(); });
}

LogicalResult mlir::mp::verifyGpuPipelineOptions(
    const GpuPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  for (const std::string &c : options.chips) {
    if (lookupGpuChip(c))
      continue;
    std::optional<unsigned> version = parseGpuChipVersion(c);
    if (version && *version < kMinGpuChip)
      return errorHandler("mp-lower-to-gpu: chips=" + c +
                          " is invalid: the Tensor Core kernels need sm_" +
                          Twine(kMinGpuChip) +
                          " or later (mma.sync m16n8k16 of f16 and bf16, "
                          "cp.async)");
    return errorHandler("mp-lower-to-gpu: chips=" + c +
                        " is invalid: expected an NVIDIA architecture such "
                        "as sm_80 or sm_90a (one of " +
                        listGpuChips() + ")");
  }
  if (options.wgmma) {
    if (!llvm::is_contained(getChips(options), kWgmmaChip))
      return errorHandler("mp-lower-to-gpu: wgmma runs on " +
                          Twine(kWgmmaChip) +
                          ", which chips=" + llvm::join(options.chips, ",") +
                          " leaves out: add it or compile without wgmma");
    if ((options.tileM != kWgmmaM && options.tileM != 2 * kWgmmaM) ||
        !llvm::is_contained({16, 32, 64, 128, 256}, options.tileN))
      return errorHandler(
          "mp-lower-to-gpu: with wgmma, a block is one or "
          "two warpgroups computing 64 rows each (tile-m=64 "
          "or 128) and 16, 32, 64, 128 or 256 columns (tile-n), not " +
          Twine(options.tileM) + "x" + Twine(options.tileN));
  }
  auto tiles = getTileOptions<GPUChooseTilesPassOptions>(options);
  if (std::optional<std::string> problem =
          checkTileOptions(tiles.tileM, tiles.tileN, tiles.warpM, tiles.warpN))
    return errorHandler("mp-lower-to-gpu: " + *problem);
  if (std::optional<std::string> problem = checkStages(options.stages))
    return errorHandler("mp-lower-to-gpu: " + *problem);
  if (std::optional<std::string> problem = checkTileK(options.tileK))
    return errorHandler("mp-lower-to-gpu: " + *problem);
  if (std::optional<std::string> problem =
          checkSimtOptions(options.simtBlock, options.simtThread))
    return errorHandler("mp-lower-to-gpu: " + *problem);
  if (options.wgmmaLargeMinBlocks < 0)
    return errorHandler("mp-lower-to-gpu: wgmma-large-min-blocks=" +
                        Twine(options.wgmmaLargeMinBlocks) +
                        " is invalid: expected 0 (off) or more");
  if (options.warpMinExtent < 0)
    return errorHandler(
        "mp-lower-to-gpu: warp-min-extent=" + Twine(options.warpMinExtent) +
        " is invalid: expected 0 (no warp reductions) or more");
  if (!parsePtxFeatures(options.ptxFeatures))
    return errorHandler("mp-lower-to-gpu: ptx-features=" + options.ptxFeatures +
                        " is invalid: expected a PTX ISA version such as "
                        "+ptx80 (+ptx70 to +ptx90)");
  if (!options.ptxDir.empty() && options.format != GpuBinaryFormat::fatbin)
    return errorHandler("mp-lower-to-gpu: ptx-dir keeps the PTX that "
                        "format=fatbin assembles; with format=isa the "
                        "binaries are the PTX, with format=bin cubins of "
                        "it");
  return success();
}

/// Tensors on the way in: mp ops and aggregates as linalg, Tensor Core
/// contractions and convolutions given to libraries or their tiles chosen,
/// then buffers. `onCuda`: for the CUDA backend (collectives on its stream)
/// rather than the emulation.
static void addTensorStage(OpPassManager &pm, const GpuPipelineOptions &options,
                           bool onCuda) {
  pm.addPass(createVerifyCpuInputPass(
      {onCuda ? "mp-lower-to-gpu" : "mp-lower-to-gpu-emulation"}));
  pm.addNestedPass<func::FuncOp>(createConvertMPToStandardPass());
  pm.addNestedPass<func::FuncOp>(createDecomposeAggregatesPass());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createGPUDeviceScalarsPass());
  pm.addNestedPass<func::FuncOp>(createGPUFoldTransposesPass());
  // Library calls first: a convolution given to cuDNN stays one. Fusion
  // never changes a contraction, so the choice holds.
  GPUSelectGemmPassOptions select;
  select.gemm = options.gemm;
  select.libraryMinMacs = options.libraryMinMacs;
  pm.addNestedPass<func::FuncOp>(createGPUSelectGemmPass(select));
  pm.addNestedPass<func::FuncOp>(createGPUConvToGemmPass());
  pm.addNestedPass<func::FuncOp>(createGPUExpandElementwisePass());
  pm.addNestedPass<func::FuncOp>(
      createFuseElementwisePass({/*recompute=*/true}));
  pm.addNestedPass<func::FuncOp>(createGPUCollapseElementwisePass());
  pm.addNestedPass<func::FuncOp>(
      createGPUChooseTilesPass(getChooseTilesOptions(options)));
  if (options.splitK)
    pm.addNestedPass<func::FuncOp>(createGPUSplitKPass());
  pm.addNestedPass<func::FuncOp>(createGPUGeneratePadsPass());
  pm.addNestedPass<func::FuncOp>(createGPUMaterializeConstantsPass());
  pm.addPass(createProtectArgumentsPass());
  pm.addPass(createUnaliasLoopResultsPass());
  addBufferizationPasses(pm, [](OpPassManager &pm) {
    pm.addNestedPass<func::FuncOp>(createWriteIntoSlicesPass());
  });
  // Collectives of data-parallel steps: calls on the buffers.
  pm.addPass(createConvertMPToRuntimePass({/*cudaStream=*/onCuda}));
}

/// Tensor Core contractions and long reductions as the target-independent
/// tiled stage.
static void addTiledStage(OpPassManager &pm,
                          const GpuPipelineOptions &options) {
  // On the module: fused producers are outlined into functions.
  auto tiles = getTileOptions<GPUTileContractionsPassOptions>(options);
  tiles.stages = options.stages;
  tiles.tileK = options.tileK;
  // With wgmma and 3 stages or more, each K step's wgmma stays in flight
  // into the next trip (mp-gpu-wgmma-variants in-flight), whose copies
  // leave its slot alone.
  tiles.reserveSlot = options.wgmma && options.stages >= kMinSlotsInFlight;
  pm.addPass(createGPUTileContractionsPass(tiles));
  GPUTileReductionsPassOptions reductions;
  reductions.warpMinExtent = options.warpMinExtent;
  pm.addNestedPass<func::FuncOp>(createGPUTileReductionsPass(reductions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// The contractions and convolutions given to libraries as calls of the
/// runtime: its CUDA libraries, or with `emulate` its CPU implementations.
static void addLibraryCalls(OpPassManager &pm, bool emulate) {
  pm.addPass(createGPULibraryGemmPass({emulate}));
  pm.addPass(createGPULibraryConvPass({emulate}));
}

/// Buffers to kernels: the tiled stage's contractions to mma.sync, the rest
/// as tiled parallel loops, all in gpu.launch.
static void addKernelStage(OpPassManager &pm,
                           const GpuPipelineOptions &options) {
  addLibraryCalls(pm, /*emulate=*/false);
  addTiledStage(pm, options);
  pm.addNestedPass<func::FuncOp>(createGPUAsyncCopiesPass());
  pm.addNestedPass<func::FuncOp>(createGPUMapForallToLaunchPass());
  pm.addNestedPass<func::FuncOp>(createGPUSubgroupReduceToShufflesPass());
  pm.addNestedPass<func::FuncOp>(createGPUVectorToMMAPass());
  pm.addNestedPass<func::FuncOp>(createGPUVectorToFMAPass());
  pm.addNestedPass<func::FuncOp>(createGPUCopiesToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createGPUParallelDimsOutermostPass());
  pm.addNestedPass<func::FuncOp>(createGPUScalarOpsToParallelPass());
  // Contractions left to loops (dynamic sizes) accumulate with fused
  // multiply-adds, as the tiled ones and the CPU backend do.
  pm.addNestedPass<func::FuncOp>(createMultiplyAddToFmaPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createGPUFuseParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createGPUPromoteAccumulatorsPass());
  GPUMapParallelLoopsPassOptions parallel;
  parallel.blockSize = options.blockSize;
  pm.addNestedPass<func::FuncOp>(createGPUMapParallelLoopsPass(parallel));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // After the canonicalizer: the grids' sizes are constants.
  if (options.mergeLaunches)
    pm.addNestedPass<func::FuncOp>(createGPUMergeLaunchesPass());
  pm.addNestedPass<func::FuncOp>(createGPUNameKernelsPass());
  if (!options.kernelReport.empty() || options.kernelSummary ||
      !options.kernelDot.empty()) {
    GPUKernelReportPassOptions report;
    report.report = options.kernelReport;
    report.summary = options.kernelSummary;
    report.dot = options.kernelDot;
    report.wgmma = options.wgmma;
    pm.addPass(createGPUKernelReportPass(report));
  }
}

/// Kernels outlined into gpu.modules and lowered to NVVM, one target per
/// chip; host code to the LLVM dialect (mgpu* calls); binaries.
static void addTargetStage(OpPassManager &pm,
                           const GpuPipelineOptions &options) {
  // Constants and index computations go into the kernels (loop bounds,
  // sizes) rather than being passed as parameters.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // mp's runtime waits after each call, or lets the next training step
  // queue behind it.
  GPUAsyncLaunchesPassOptions launches;
  launches.waitAtReturn = false;
  pm.addPass(createGPUAsyncLaunchesPass(launches));
  for (const std::string &chip : getChips(options)) {
    GpuNVVMAttachTargetOptions target;
    target.chip = chip;
    std::optional<GpuChip> info = lookupGpuChip(chip);
    std::optional<unsigned> ptx = parsePtxFeatures(options.ptxFeatures);
    target.features = info && ptx ? getChipPtxFeatures(*info, *ptx)
                                  : std::string(options.ptxFeatures);
    pm.addPass(createGpuNVVMAttachTarget(target));
  }
  // Hopper's variants of the GEMM kernels, then (on mma.sync) two B
  // fragments per ldmatrix, and the panels of both laid out alike.
  if (options.wgmma)
    pm.addPass(createGPUWgmmaVariantsPass(
        {/*inFlight=*/options.stages >= kMinSlotsInFlight}));
  pm.addNestedPass<gpu::GPUModuleOp>(createGPUPairLdMatrixPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createGPUSwizzlePanelsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createGPUAlignWorkgroupBuffersPass());
  // Kernels of a few blocks take the registers they need.
  pm.addNestedPass<gpu::GPUModuleOp>(createGPULaunchBoundsPass());
  // Over 48 KiB (a 128 x 128 GEMM block) a kernel's buffers must be dynamic
  // shared memory.
  pm.addPass(createGPUDynamicSharedMemoryPass());
  pm.addPass(createConvertNVGPUToNVVMPass());
  // Masked transfers (the tile copies at a GEMM's edges) as checked loads
  // and stores.
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll();
  pm.addPass(createConvertVectorToSCFPass(transfers));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createStripDebugInfoPass());
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(LLVM::createNVVMOptimizeForTargetPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());

  // Host buffers go through the runtime's allocation functions, which the
  // CUDA backend serves from managed memory that kernels can address.
  FinalizeMemRefToLLVMConversionPassOptions memrefs;
  memrefs.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefs));
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.cudaToolkit;
  // A fatbin for all chips is assembled from their PTX by mp-gpu-fatbin.
  binary.compilationTarget =
      options.format == GpuBinaryFormat::bin ? "bin" : "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  if (options.wgmma)
    pm.addPass(createGPUMergeChipVariantsPass());
  if (options.format == GpuBinaryFormat::fatbin) {
    // ptxas's registers and spills go into the kernel report's file.
    std::string report =
        options.kernelReport == "-" ? "" : options.kernelReport.getValue();
    pm.addPass(
        createGPUFatbinPass({options.cudaToolkit, report, options.ptxDir}));
  }
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::mp::buildLowerToGpuPipeline(OpPassManager &pm,
                                       const GpuPipelineOptions &options) {
  addTensorStage(pm, options, /*onCuda=*/true);
  addKernelStage(pm, options);
  addTargetStage(pm, options);
}

void mlir::mp::buildLowerToGpuEmulationPipeline(
    OpPassManager &pm, const GpuPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  addTensorStage(pm, options, /*onCuda=*/false);
  addLibraryCalls(pm, /*emulate=*/true);
  addTiledStage(pm, options);
  pm.addPass(createGPUEmulateWorkgroupMemoryPass());
  pm.addNestedPass<func::FuncOp>(createGPUEmulateSubgroupReducePass());
  // The kernel stage's loop order for reductions (same summation order).
  pm.addNestedPass<func::FuncOp>(createGPUParallelDimsOutermostPass());
  pm.addNestedPass<func::FuncOp>(createForallToForLoopPass());
  // The kernel stage's loops, fused as into kernels (each loop in sequence).
  pm.addNestedPass<func::FuncOp>(createMultiplyAddToFmaPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createGPUFuseParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createGPUPromoteAccumulatorsPass());
  pm.addNestedPass<func::FuncOp>(createGPUEmulateMmaPass());
  addLowerBuffersToLLVMPasses(pm);
}

void mlir::mp::registerGPUCodegenPassesAndPipelines() {
  registerMPGPUCodegenPasses();
  registerModulePipeline<GpuPipelineOptions>(
      "mp-lower-to-gpu",
      "Lower linalg on tensors (fp32 or mixed) to NVIDIA GPU kernels (mma.sync "
      "for f16/bf16 contractions) and host code",
      verifyGpuPipelineOptions, buildLowerToGpuPipeline);
  registerModulePipeline<GpuPipelineOptions>(
      "mp-lower-to-gpu-emulation",
      "Run mp-lower-to-gpu up to its target-independent tiled stage and lower "
      "that to the LLVM dialect for the host CPU (forall iterations in "
      "sequence)",
      verifyGpuPipelineOptions, buildLowerToGpuEmulationPipeline);
}
