//===- mp-opt.cpp - mp optimizer driver -------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the mp dialect, passes and pipelines, plus the upstream
// dialects, passes, extensions and translations that graphs and their CPU/GPU
// lowerings need.
//
//===----------------------------------------------------------------------===//

#include "mp/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir {
namespace mp {
// Test-only passes (test/lib), registered like mlir-opt's test passes.
void registerTestPasses();
} // namespace mp
} // namespace mlir

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::mp::registerMPPassesAndPipelines();
  mlir::mp::registerTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::mp::registerMPDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "mp optimizer: automatic mixed precision for MLIR\n",
      registry));
}
