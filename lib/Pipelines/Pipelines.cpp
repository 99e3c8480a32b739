//===- Pipelines.cpp - mp pass pipelines ------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Pipelines/Pipelines.h"
#include "mp/Analysis/Policy.h"
#include "mp/Dialect/MP/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/Transforms/RequestCWrappers.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::mp;

static ClassifyPrecisionPassOptions
getClassifyOptions(const AmpPipelineOptions &options) {
  ClassifyPrecisionPassOptions classify;
  classify.policy = options.policy;
  classify.level = options.level;
  classify.allowAdd.assign(options.allowAdd.begin(), options.allowAdd.end());
  classify.allowRemove.assign(options.allowRemove.begin(),
                              options.allowRemove.end());
  classify.denyAdd.assign(options.denyAdd.begin(), options.denyAdd.end());
  classify.denyRemove.assign(options.denyRemove.begin(),
                             options.denyRemove.end());
  classify.inferAdd.assign(options.inferAdd.begin(), options.inferAdd.end());
  classify.inferRemove.assign(options.inferRemove.begin(),
                              options.inferRemove.end());
  classify.clearAdd.assign(options.clearAdd.begin(), options.clearAdd.end());
  classify.clearRemove.assign(options.clearRemove.begin(),
                              options.clearRemove.end());
  classify.lowPrecisionAccumulation = options.lowPrecisionAccumulation;
  classify.lowPrecisionBoundaries = options.lowPrecisionBoundaries;
  classify.remarks = options.remarks;
  classify.reportFile = options.report;
  classify.dotFile = options.dot;
  classify.summary = options.summary;
  return classify;
}

void mlir::mp::buildAmpPipeline(OpPassManager &pm,
                                const AmpPipelineOptions &options) {
  pm.addPass(createClassifyPrecisionPass(getClassifyOptions(options)));
  pm.addPass(createInsertCastsPass());
  if (options.optimizeCasts)
    pm.addPass(createOptimizeCastsPass());
}

std::string
mlir::mp::resolveLossScaleMode(const TrainPipelineOptions &options) {
  if (options.lossScale != "auto")
    return options.lossScale;
  if (options.policy == "none")
    return "none";
  // A policy that fails to load is reported by mp-classify-precision.
  llvm::Expected<Policy> policy = Policy::load(options.policy);
  if (!policy) {
    llvm::consumeError(policy.takeError());
    return "dynamic";
  }
  return policy->getLossScaling() ? "dynamic" : "none";
}

void mlir::mp::buildTrainPipeline(OpPassManager &pm,
                                  const TrainPipelineOptions &options) {
  pm.addPass(createVerifyTrainingContractPass());
  if (options.policy != "none") {
    AmpPipelineOptions amp;
    amp.policy = options.policy;
    amp.level = options.level;
    amp.summary = options.summary;
    buildAmpPipeline(pm, amp);
  }
  LossScalingPassOptions scaling;
  scaling.mode = resolveLossScaleMode(options);
  scaling.initScale = options.initScale;
  scaling.growthFactor = options.growthFactor;
  scaling.backoffFactor = options.backoffFactor;
  scaling.growthInterval = options.growthInterval;
  scaling.hysteresis = options.hysteresis;
  scaling.minScale = options.minScale;
  scaling.maxScale = options.maxScale;
  pm.addPass(createLossScalingPass(scaling));
  MakeTrainStepPassOptions step;
  step.optimizer = options.optimizer;
  step.lr = options.lr;
  step.momentum = options.momentum;
  step.nesterov = options.nesterov;
  step.beta1 = options.beta1;
  step.beta2 = options.beta2;
  step.eps = options.eps;
  step.weightDecay = options.weightDecay;
  step.clipNorm = options.clipNorm;
  step.accumulate = options.accumulate;
  pm.addPass(createMakeTrainStepPass(step));
  if (options.accumulate > 1) {
    // Inline the gradient function into the micro-batch loop so the casts of
    // the fp32 master weights leave the loop: made once per step.
    pm.addPass(createInlinerPass());
    pm.addNestedPass<func::FuncOp>(createLoopInvariantCodeMotionPass());
  }
}

/// Tensors to buffers, with function arguments and results as plain
/// (identity-layout) memrefs that callers own.
static void addBufferization(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  // Loops whose body yields a new tensor (h <- f(h)) get a new buffer per
  // iteration; the deallocation pipeline frees the old one.
  options.allowReturnAllocsFromLoops = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(options));
  bufferization::buildBufferDeallocationPipeline(pm);
  // bufferization.clone (from deallocation) becomes memref.alloc + copy.
  pm.addPass(createConvertBufferizationToMemRefPass());
}

/// f16/bf16 arithmetic through f32; bf16 casts as integer bit operations.
static void addLowPrecisionLegalization(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"f16", "bf16"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
}

/// n-D vector transfers become 1-D ones; vector.contract becomes FMAs.
static void addVectorLowering(OpPassManager &pm) {
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll();
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(transfers));
}

void mlir::mp::buildLowerToCpuPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createLowerLossScalingPass());
  pm.addNestedPass<func::FuncOp>(createDecomposeAggregatesPass());
  pm.addNestedPass<func::FuncOp>(createWidenConvolutionOperandsPass());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  pm.addPass(createProtectArgumentsPass());
  pm.addNestedPass<func::FuncOp>(createVectorizeContractionsPass());
  addBufferization(pm);
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
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::mp::registerMPPipelines() {
  PassPipelineRegistration<>(
      "mp-lower-to-cpu",
      "Lower linalg on tensors (fp32 or mixed) to the LLVM dialect for the CPU",
      buildLowerToCpuPipeline);
  PassPipelineRegistration<AmpPipelineOptions>(
      "mp-amp-pipeline",
      "Automatic mixed precision: classify, insert casts, optimize casts",
      buildAmpPipeline);
  PassPipelineRegistration<TrainPipelineOptions>(
      "mp-train-pipeline",
      "Gradient function to mixed-precision training step: AMP, loss "
      "scaling, optimizer",
      buildTrainPipeline);
}
