//===- LibraryConv.cpp - Convolutions as cuDNN calls ----------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Each convolution on buffers that mp-gpu-select-gemm gave to the library
// becomes a call of the runtime's `mp_cuda_conv`, which runs cuDNN's forward
// convolution with f32 compute into a buffer of the operands' type (the
// only output type cuDNN's f16 and bf16 configurations have), and a
// generated elementwise kernel that adds that result to the f32
// accumulator.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "LibraryCalls.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPULIBRARYCONVPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The type of `mp_cuda_conv`: element type and channels-last (i32), then
/// the spatial dimensions, groups, N, C, K, the image, window, strides and
/// dilations per spatial dimension, and the addresses of the image, the
/// filter and the output (i64).
static FunctionType getConvType(MLIRContext *ctx) {
  SmallVector<Type> inputs(2, IntegerType::get(ctx, 32));
  inputs.append(5 + 4 * kConvSpatialDims + 3, IntegerType::get(ctx, 64));
  return FunctionType::get(ctx, inputs, {});
}

namespace {
struct GPULibraryConvPass
    : public mp::impl::GPULibraryConvPassBase<GPULibraryConvPass> {
  using Base::Base;

  void runOnOperation() override {
    auto rewriteOp = [&](IRRewriter &rewriter, linalg::LinalgOp op,
                         func::FuncOp callee) {
      return rewrite(rewriter, op, callee);
    };
    if (failed(replaceLibraryOps(
            getOperation(), /*convolutions=*/true,
            emulate ? kEmulatedConvFunction : kLibraryConvFunction,
            getConvType(&getContext()), getArgument(), rewriteOp)))
      signalPassFailure();
  }

  LogicalResult rewrite(IRRewriter &rewriter, linalg::LinalgOp op,
                        func::FuncOp callee) {
    std::optional<CudnnConvolution> conv;
    if (op.hasPureBufferSemantics())
      conv = matchCudnnConvolution(op);
    if (!conv)
      return op->emitError()
             << "mp-gpu-library-conv: marked mp.gpu_gemm = \"library\" but "
                "not a convolution on buffers that cuDNN computes (NCHW, "
                "grouped NGCHW or NHWC, static shapes, f16 or bf16 image and "
                "filter, an f32 accumulator)";
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<Value> temporaries;
    // cuDNN reads a packed image and filter: others are copied first.
    auto packed = [&](Value buffer) {
      auto type = cast<MemRefType>(buffer.getType());
      if (memref::isStaticShapeAndContiguousRowMajor(type))
        return buffer;
      Value copy = memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get(type.getShape(), type.getElementType()));
      memref::CopyOp::create(rewriter, loc, buffer, copy);
      temporaries.push_back(copy);
      return copy;
    };
    Value image = packed(op.getDpsInputs()[0]);
    Value filter = packed(op.getDpsInputs()[1]);
    Value acc = op.getDpsInits()[0];
    auto accType = cast<MemRefType>(acc.getType());
    Type element = getElementTypeOrSelf(image);
    Value result = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(accType.getShape(), element));
    temporaries.push_back(result);

    Type i64 = rewriter.getI64Type(), i32 = rewriter.getI32Type();
    SmallVector<Value> args{
        arith::ConstantIntOp::create(rewriter, loc, i32, element.isBF16()),
        arith::ConstantIntOp::create(rewriter, loc, i32, conv->channelsLast)};
    auto push = [&](int64_t value) {
      args.push_back(arith::ConstantIntOp::create(rewriter, loc, i64, value));
    };
    for (int64_t value :
         {int64_t(conv->spatialDims), conv->groups, conv->n, conv->c, conv->k})
      push(value);
    for (ArrayRef<int64_t> values :
         {ArrayRef<int64_t>(conv->image), ArrayRef<int64_t>(conv->window),
          ArrayRef<int64_t>(conv->strides), ArrayRef<int64_t>(conv->dilations)})
      llvm::for_each(values, push);
    for (Value buffer : {image, filter, result})
      args.push_back(getBufferAddress(rewriter, loc, buffer));
    func::CallOp::create(rewriter, loc, callee, args);

    // The accumulator plus the result, or the result alone where the
    // accumulator was filled with zeros for the convolution.
    linalg::FillOp fill = findZeroFill(op);
    bool add = !fill;
    if (fill) {
      rewriter.eraseOp(fill);
      ++numFillsDropped;
    }
    AffineMap identity = rewriter.getMultiDimIdentityMap(accType.getRank());
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{result}, ValueRange{acc},
        ArrayRef<AffineMap>{identity, identity},
        SmallVector<utils::IteratorType>(accType.getRank(),
                                         utils::IteratorType::parallel),
        [&](OpBuilder &b, Location nested, ValueRange values) {
          Value sum = arith::ExtFOp::create(b, nested, accType.getElementType(),
                                            values[0]);
          if (add)
            sum = arith::AddFOp::create(b, nested, values[1], sum);
          linalg::YieldOp::create(b, nested, sum);
        });
    for (Value temporary : temporaries)
      memref::DeallocOp::create(rewriter, loc, temporary);
    rewriter.eraseOp(op);
    ++numCalls;
    return success();
  }
};
} // namespace
