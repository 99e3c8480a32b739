//===- Pipelines.cpp - mp pass pipelines ------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Pipelines/Pipelines.h"
#include "mp/Dialect/MP/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

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

void mlir::mp::registerMPPipelines() {
  PassPipelineRegistration<AmpPipelineOptions>(
      "mp-amp-pipeline",
      "Automatic mixed precision: classify, insert casts, optimize casts",
      buildAmpPipeline);
}
