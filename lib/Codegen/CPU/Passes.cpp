//===- Passes.cpp - mp-lower-to-cpu -----------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Conversion/Passes.h"
#include "mp/Dialect/MP/Transforms/Passes.h"
#include "mp/Utils/Bufferization.h"
#include "mp/Utils/PipelineRegistration.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/Transforms/RequestCWrappers.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir {
namespace mp {
#define GEN_PASS_REGISTRATION
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// f16/bf16 arithmetic through f32; bf16 casts as integer bit operations.
static void addLowPrecisionLegalization(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"f16", "bf16"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  pm.addPass(createKeepEmulatedRoundingsPass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
}

/// n-D vector transfers become fully unrolled 1-D ones (vector.contract is
/// lowered later, to outer products, by convert-vector-to-llvm).
static void addVectorLowering(OpPassManager &pm) {
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll();
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(transfers));
}

void mlir::mp::addLowerBuffersToLLVMPasses(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createMultiplyAddToFmaPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  addVectorLowering(pm);
  addLowPrecisionLegalization(pm);
  // LLVM intrinsics first (exp, log, sqrt, rsqrt...), libm for the rest.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  // x86vector.avx512.dot of mp-pack-bf16-contractions' blocks.
  vectorToLLVM.x86Vector = true;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  // aligned_alloc: a buffer's aligned pointer is the one it was allocated
  // at, so the runtime hands a result buffer over without copying it.
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useAlignedAlloc = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createLLVMBF16AsI16Pass());
}

LogicalResult mlir::mp::verifyCpuPipelineOptions(
    const CpuPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  if (options.tileM <= 0 || options.tileN <= 0 || options.tileK <= 0)
    return errorHandler("mp-lower-to-cpu: tile-m, tile-n and tile-k must be "
                        "positive");
  if (options.optLevel > kMaxCpuOptLevel)
    return errorHandler(
        "mp-lower-to-cpu: opt-level=" + Twine(options.optLevel) +
        " is invalid: expected 0, 1, 2 or 3");
  return success();
}

void mlir::mp::buildLowerToCpuPipeline(OpPassManager &pm,
                                       const CpuPipelineOptions &options) {
  pm.addPass(createVerifyCpuInputPass());
  pm.addNestedPass<func::FuncOp>(createConvertMPToStandardPass());
  pm.addNestedPass<func::FuncOp>(createDecomposeAggregatesPass());
  if (options.optLevel > 0)
    pm.addNestedPass<func::FuncOp>(createSplitConvolutionPhasesPass());
  // bf16 pairs: contractions now, convolutions once they are GEMMs.
  bool bf16Dot = options.bf16Dot && options.optLevel > 0;
  if (bf16Dot)
    pm.addNestedPass<func::FuncOp>(createPackBF16ContractionsPass());
  WidenContractionOperandsPassOptions widen;
  widen.keepBF16Convolutions = bf16Dot;
  pm.addNestedPass<func::FuncOp>(createWidenContractionOperandsPass(widen));
  if (options.optLevel > 0) {
    // Before fusion, so that the producers of the im2col gathers (casts,
    // activations) are computed inside them.
    ConvToGemmPassOptions convToGemm;
    convToGemm.tileN = options.tileN;
    convToGemm.tileK = options.tileK;
    pm.addNestedPass<func::FuncOp>(createConvToGemmPass(convToGemm));
    if (bf16Dot) {
      pm.addNestedPass<func::FuncOp>(createPackBF16ContractionsPass());
      // The convolutions left: widened, as without bf16 pairs.
      pm.addNestedPass<func::FuncOp>(createWidenContractionOperandsPass());
    }
  }
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  if (options.optLevel > 0)
    pm.addNestedPass<func::FuncOp>(createFuseElementwisePass());
  pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  pm.addPass(createProtectArgumentsPass());
  pm.addPass(createUpdateStateInPlacePass());
  if (options.optLevel > 0) {
    pm.addNestedPass<func::FuncOp>(createFlattenElementwisePass());
    if (options.parallel) {
      // One view per tensor that flattening collapsed for several operands:
      // a share then sees that it reads the tensor it writes.
      pm.addNestedPass<func::FuncOp>(createCSEPass());
      DistributeLoopsPassOptions distribute;
      distribute.tileM = options.tileM;
      distribute.tileN = options.tileN;
      pm.addNestedPass<func::FuncOp>(createDistributeLoopsPass(distribute));
    }
    VectorizeContractionsPassOptions vectorize;
    vectorize.tileM = options.tileM;
    vectorize.tileN = options.tileN;
    vectorize.tileK = options.tileK;
    pm.addNestedPass<func::FuncOp>(createVectorizeContractionsPass(vectorize));
    pm.addNestedPass<func::FuncOp>(createVectorizeGathersPass());
    pm.addNestedPass<func::FuncOp>(createVectorizeReductionsPass());
  }
  pm.addPass(createUnaliasLoopResultsPass());
  addBufferizationPasses(pm, [](OpPassManager &pm) {
    pm.addNestedPass<func::FuncOp>(createWriteIntoSlicesPass());
    pm.addPass(createReturnStateInPlacePass());
  });
  pm.addPass(createConvertMPToRuntimePass());
  if (options.optLevel > 0 && options.parallel) {
    // The shares of mp-distribute-loops on OpenMP threads. Each share's
    // body sits in a memref.alloca_scope, which holds no alloca here and
    // which the canonicalizer inlines (a scope of several blocks, once its
    // loops are branches, would not verify).
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
    pm.addPass(createConvertSCFToOpenMPPass());
    pm.addPass(createCanonicalizerPass());
  }
  pm.addNestedPass<func::FuncOp>(createStridedCopiesToLinalgPass());
  addLowerBuffersToLLVMPasses(pm);
}

void mlir::mp::registerCPUCodegenPassesAndPipelines() {
  registerMPCPUCodegenPasses();
  registerModulePipeline<CpuPipelineOptions>(
      "mp-lower-to-cpu",
      "Lower linalg on tensors (fp32 or mixed) to the LLVM dialect for the CPU",
      verifyCpuPipelineOptions, buildLowerToCpuPipeline);
}
