//===- MPToRuntime.cpp - convert-mp-to-runtime ------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The collectives of a data-parallel training step become calls of the
// runtime's communicator: a single process or MPI on host buffers, depending
// on how the program was launched, or NCCL on the CUDA backend's stream.
//
//===----------------------------------------------------------------------===//

#include "mp/Conversion/MPToRuntime/MPToRuntime.h"
#include "mp/Conversion/Passes.h"
#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Dialect/MP/IR/MPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_CONVERTMPTORUNTIMEPASS
#include "mp/Conversion/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {

/// The runtime's `mp_dtype` number of a collective's element type.
int32_t getRuntimeDtype(Type element) {
  if (element.isF32())
    return 0; // MP_F32
  if (element.isF16())
    return 1; // MP_F16
  if (element.isBF16())
    return 2; // MP_BF16
  return 4;   // MP_I1: the verifier admits nothing else
}

struct AllReduceOpConversion : public OpConversionPattern<AllReduceOp> {
  AllReduceOpConversion(MLIRContext *ctx, StringRef function)
      : OpConversionPattern(ctx), function(function) {}

  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<MemRefType>(adaptor.getInput().getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "not bufferized");
    if (!type.getLayout().isIdentity())
      return op.emitOpError() << "needs a contiguous buffer, not " << type;
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t i = 0; i < type.getRank(); ++i)
      count = arith::MulIOp::create(
          rewriter, loc, count,
          memref::DimOp::create(rewriter, loc, adaptor.getInput(), i));
    Value address = memref::ExtractAlignedPointerAsIndexOp::create(
        rewriter, loc, adaptor.getInput());
    auto toI64 = [&](Value index) -> Value {
      return arith::IndexCastOp::create(rewriter, loc, i64, index);
    };
    auto i32 = [&](int32_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                          value);
    };
    rewriter.replaceOpWithNewOp<func::CallOp>(
        op, function, TypeRange(),
        ValueRange{toI64(address), toI64(count),
                   i32(getRuntimeDtype(type.getElementType())),
                   i32(static_cast<int32_t>(op.getKind()))});
    return success();
  }

private:
  StringRef function;
};

struct WorldSizeOpConversion : public OpConversionPattern<WorldSizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WorldSizeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::CallOp>(op, kWorldSizeFunction,
                                              op.getType(), ValueRange());
    return success();
  }
};

struct ConvertMPToRuntimePass
    : public mp::impl::ConvertMPToRuntimePassBase<ConvertMPToRuntimePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool hasAllReduce = false, hasWorldSize = false;
    module.walk([&](Operation *op) {
      hasAllReduce |= isa<AllReduceOp>(op);
      hasWorldSize |= isa<WorldSizeOp>(op);
    });
    OpBuilder b(module.getBodyRegion());
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    auto streamOrdered = MPDialect::GpuStreamOrderedAttrHelper(&getContext());
    auto declare = [&](StringRef name, FunctionType type) -> LogicalResult {
      if (auto existing = module.lookupSymbol<func::FuncOp>(name)) {
        if (existing.getFunctionType() == type)
          return success();
        return existing.emitError()
               << "@" << name << " is the runtime's; it must have type "
               << type;
      }
      auto decl = func::FuncOp::create(b, module.getLoc(), name, type);
      decl.setPrivate();
      if (name == kCudaAllReduceFunction)
        streamOrdered.setAttr(decl, b.getUnitAttr());
      return success();
    };
    StringRef allReduce =
        cudaStream ? kCudaAllReduceFunction : kAllReduceFunction;
    if ((hasAllReduce &&
         failed(declare(allReduce,
                        b.getFunctionType({i64, i64, i32, i32}, {})))) ||
        (hasWorldSize &&
         failed(declare(kWorldSizeFunction, b.getFunctionType({}, {i32})))))
      return signalPassFailure();

    ConversionTarget target(getContext());
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           memref::MemRefDialect>();
    target.addIllegalOp<AllReduceOp, WorldSizeOp>();
    RewritePatternSet patterns(&getContext());
    populateMPToRuntimeConversionPatterns(patterns, allReduce);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::mp::populateMPToRuntimeConversionPatterns(
    RewritePatternSet &patterns, StringRef allReduceFunction) {
  patterns.add<AllReduceOpConversion>(patterns.getContext(), allReduceFunction);
  patterns.add<WorldSizeOpConversion>(patterns.getContext());
}
