//===- LibraryGemm.cpp - Contractions as cuBLASLt calls -------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Each contraction on buffers that mp-gpu-select-gemm gave to the library
// becomes a call of the runtime's `mp_cuda_gemm` with the addresses of its
// operands and their strides along the contraction's loops; the runtime
// chooses the cuBLASLt layouts from those strides.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"
#include "mp/Utils/TensorMath.h"

#include "LibraryCalls.h"
#include "MmaContraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPULIBRARYGEMMPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The type of `mp_cuda_gemm`: element type (i32), batch, M, N, K, then per
/// operand its address and three strides (i64), then beta (f32).
static FunctionType getGemmType(MLIRContext *ctx) {
  SmallVector<Type> inputs{IntegerType::get(ctx, 32)};
  inputs.append(4 + 3 * 4, IntegerType::get(ctx, 64));
  inputs.push_back(Float32Type::get(ctx));
  return FunctionType::get(ctx, inputs, {});
}

namespace {
struct GPULibraryGemmPass
    : public mp::impl::GPULibraryGemmPassBase<GPULibraryGemmPass> {
  using Base::Base;

  void runOnOperation() override {
    auto rewriteOp = [&](IRRewriter &rewriter, linalg::LinalgOp op,
                         func::FuncOp callee) {
      return rewrite(rewriter, op, callee);
    };
    if (failed(replaceLibraryOps(
            getOperation(), /*convolutions=*/false,
            emulate ? kEmulatedGemmFunction : kLibraryGemmFunction,
            getGemmType(&getContext()), getArgument(), rewriteOp)))
      signalPassFailure();
  }

  LogicalResult rewrite(IRRewriter &rewriter, linalg::LinalgOp op,
                        func::FuncOp gemm) {
    std::optional<MmaContraction> c;
    if (op.hasPureBufferSemantics() && isMultiplyAccumulate(op))
      c = matchMmaContraction(op);
    if (!c)
      return op->emitError()
             << "mp-gpu-library-gemm: marked mp.gpu_gemm = \"library\" but "
                "not a contraction on buffers that cuBLASLt computes (static "
                "shapes, f16 or bf16 operands, an f32 accumulator)";
    linalg::FillOp fill = findZeroFill(op);
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Type i64 = rewriter.getI64Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, i64, value);
    };
    auto toI64 = [&](Value index) -> Value {
      return arith::IndexCastOp::create(rewriter, loc, i64, index);
    };

    // The address of an operand and its strides along `loops` (0 along a
    // loop it does not have).
    auto operand = [&](OpOperand *use, ArrayRef<std::optional<unsigned>> loops,
                       SmallVectorImpl<Value> &args) {
      Value buffer = use->get();
      auto metadata =
          memref::ExtractStridedMetadataOp::create(rewriter, loc, buffer);
      args.push_back(getBufferAddress(rewriter, loc, buffer));
      AffineMap map = op.getMatchingIndexingMap(use);
      for (std::optional<unsigned> loop : loops) {
        std::optional<unsigned> dim;
        if (loop)
          dim = map.getResultPosition(rewriter.getAffineDimExpr(*loop));
        args.push_back(dim ? toI64(metadata.getStrides()[*dim]) : constant(0));
      }
    };

    Type element = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
    SmallVector<Value> args{arith::ConstantIntOp::create(
        rewriter, loc, rewriter.getI32Type(), element.isBF16() ? 1 : 0)};
    args.push_back(constant(c->batch ? c->ranges[*c->batch] : 1));
    for (unsigned loop : {c->m, c->n, c->k})
      args.push_back(constant(c->ranges[loop]));
    operand(op.getDpsInputOperand(0), {c->m, c->k, c->batch}, args);
    operand(op.getDpsInputOperand(1), {c->k, c->n, c->batch}, args);
    operand(op.getDpsInitOperand(0), {c->m, c->n, c->batch}, args);
    if (fill) {
      rewriter.eraseOp(fill);
      ++numFillsDropped;
    }
    args.push_back(arith::ConstantFloatOp::create(
        rewriter, loc, rewriter.getF32Type(), APFloat(fill ? 0.0f : 1.0f)));
    func::CallOp::create(rewriter, loc, gemm, args);
    rewriter.eraseOp(op);
    ++numCalls;
    return success();
  }
};
} // namespace
