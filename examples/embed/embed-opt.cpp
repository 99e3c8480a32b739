//===- embed-opt.cpp - A driver of another compiler that embeds mp --------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What an embedding compiler writes: register mp's dialect next to the
// dialects it uses, and mp's passes and pipelines next to upstream ones.
//
//===----------------------------------------------------------------------===//

#include "mp/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  // Upstream passes this compiler uses (canonicalize, cse, inline...).
  mlir::registerTransformsPasses();
  // mp's passes and pipelines (mp-amp-pipeline, mp-train-pipeline...).
  mlir::mp::registerMPPassesAndPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
  mlir::mp::registerMPDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "a compiler embedding mp\n", registry));
}
