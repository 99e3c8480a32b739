//===- InitAll.cpp - Register everything mp provides ------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/InitAll.h"
#include "mp/Codegen/CPU/Passes.h"
#include "mp/Codegen/GPU/Passes.h"
#include "mp/Conversion/Passes.h"
#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Dialect/MP/Transforms/Passes.h"
#include "mp/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::mp::registerMPDialects(DialectRegistry &registry) {
  registry.insert<MPDialect>();
}

void mlir::mp::registerMPPassesAndPipelines() {
  registerMPPasses();
  registerMPConversionPasses();
  registerCPUCodegenPassesAndPipelines();
  registerGPUCodegenPassesAndPipelines();
  registerMPPipelines();
}
