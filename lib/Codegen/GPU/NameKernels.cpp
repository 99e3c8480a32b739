//===- NameKernels.cpp - Kernels named by function and position ----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUNAMEKERNELSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// `name` as a PTX identifier: each character other than a letter, a digit,
/// `_` or `$` becomes `_`, and a leading digit gets a `_` before it (a
/// kernel is an external symbol, whose name NVPTX's printer takes as it is
/// and aborts on: `@"x,y"`).
static std::string getPtxIdentifier(StringRef name) {
  std::string id;
  if (name.empty() || llvm::isDigit(name.front()))
    id = "_";
  for (char c : name)
    id += llvm::isAlnum(c) || c == '_' || c == '$' ? c : '_';
  return id;
}

namespace {
struct GPUNameKernelsPass
    : public mp::impl::GPUNameKernelsPassBase<GPUNameKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    int64_t index = 0;
    func.walk([&](gpu::LaunchOp launch) {
      auto name = FlatSymbolRefAttr::get(
          &getContext(), getPtxIdentifier(func.getName()) + "_kernel_" +
                             std::to_string(index++));
      launch.setFunctionAttr(name);
      launch.setModuleAttr(name);
    });
  }
};
} // namespace
