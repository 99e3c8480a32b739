//===- NameKernels.cpp - Kernels named by function and position ----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUNAMEKERNELSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct GPUNameKernelsPass
    : public mp::impl::GPUNameKernelsPassBase<GPUNameKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    int64_t index = 0;
    func.walk([&](gpu::LaunchOp launch) {
      auto name = FlatSymbolRefAttr::get(&getContext(),
                                         func.getName().str() + "_kernel_" +
                                             std::to_string(index++));
      launch.setFunctionAttr(name);
      launch.setModuleAttr(name);
    });
  }
};
} // namespace
