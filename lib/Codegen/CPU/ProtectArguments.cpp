//===- ProtectArguments.cpp - mp-protect-arguments --------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_PROTECTARGUMENTSPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct ProtectArgumentsPass
    : public mp::impl::ProtectArgumentsPassBase<ProtectArgumentsPass> {
  using Base::Base;

  void runOnOperation() override {
    BoolAttr readOnly = BoolAttr::get(&getContext(), false);
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal() || !fn.isPublic())
        continue;
      for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes()))
        if (isa<TensorType>(type))
          fn.setArgAttr(i,
                        bufferization::BufferizationDialect::kWritableAttrName,
                        readOnly);
    }
  }
};
} // namespace
