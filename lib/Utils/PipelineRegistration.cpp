//===- PipelineRegistration.cpp - Checked pass pipelines ------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Utils/PipelineRegistration.h"

using namespace mlir;

LogicalResult mlir::mp::checkModuleAnchor(OpPassManager &pm, StringRef pipeline,
                                          PipelineErrorHandler errorHandler) {
  StringRef anchor = pm.getOpAnchorName();
  if (anchor == ModuleOp::getOperationName())
    return success();
  return errorHandler(
      pipeline + " runs on 'builtin.module', not nested under '" + anchor +
      "': write --pass-pipeline='builtin.module(" + pipeline + "{...})'");
}
