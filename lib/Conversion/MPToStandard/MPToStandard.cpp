//===- MPToStandard.cpp - convert-mp-to-standard ----------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Conversion/MPToStandard/MPToStandard.h"
#include "mp/Conversion/Passes.h"
#include "mp/Dialect/MP/IR/MPOps.h"
#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_CONVERTMPTOSTANDARDPASS
#include "mp/Conversion/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {

struct ScaleSeedOpConversion : public OpConversionPattern<ScaleSeedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScaleSeedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, adaptor.getSeed(),
                                               adaptor.getScale());
    return success();
  }
};

struct UnscaleOpConversion : public OpConversionPattern<UnscaleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(UnscaleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value one = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getF32FloatAttr(1.0f));
    Value inv = arith::DivFOp::create(
        rewriter, loc, one, extractScalar(rewriter, loc, adaptor.getScale()));
    Value inf = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getF32FloatAttr(std::numeric_limits<float>::infinity()));
    Value trueValue =
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true));
    Value flag = createZeros(rewriter, loc,
                             RankedTensorType::get({}, rewriter.getI1Type()));
    SmallVector<Value> results;
    for (Value grad : adaptor.getGrads()) {
      results.push_back(
          createElementwise(rewriter, loc, grad, f32,
                            [&](OpBuilder &b, Location l, ValueRange args) {
                              return SmallVector<Value>{arith::MulFOp::create(
                                  b, l, toF32(b, l, args[0]), inv)};
                            })[0]);
      // flag |= any(!(|x| < inf)): true for inf and NaN.
      flag = createFullReduction(
          rewriter, loc, grad, flag,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value x = math::AbsFOp::create(b, l, toF32(b, l, args[0]));
            Value finite =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, inf);
            Value bad = arith::XOrIOp::create(b, l, finite, trueValue);
            return SmallVector<Value>{arith::OrIOp::create(b, l, args[1], bad)};
          });
    }
    results.push_back(flag);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct UpdateScaleOpConversion : public OpConversionPattern<UpdateScaleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(UpdateScaleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto f32Const = [&](float v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getF32FloatAttr(v));
    };
    auto i32Const = [&](int32_t v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI32IntegerAttr(v));
    };
    Value scale = extractScalar(rewriter, loc, adaptor.getScale());
    Value tracker = extractScalar(rewriter, loc, adaptor.getTracker());
    Value foundInf = extractScalar(rewriter, loc, adaptor.getFoundInf());
    // Clean step: count it; grow after growth_interval clean steps, unless
    // the grown scale overflows f32.
    Value succ = arith::AddIOp::create(rewriter, loc, tracker, i32Const(1));
    Value due = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                      succ, i32Const(op.getGrowthInterval()));
    Value grown = arith::MulFOp::create(
        rewriter, loc, scale, f32Const(op.getGrowthFactor().convertToFloat()));
    Value grownFinite =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT,
                              math::AbsFOp::create(rewriter, loc, grown),
                              f32Const(std::numeric_limits<float>::infinity()));
    Value growTo =
        arith::SelectOp::create(rewriter, loc, grownFinite, grown, scale);
    Value cleanScale =
        arith::SelectOp::create(rewriter, loc, due, growTo, scale);
    Value cleanTracker =
        arith::SelectOp::create(rewriter, loc, due, i32Const(0), succ);
    // Overflow: back off, restart counting. With hysteresis, only once the
    // counter of tolerated overflows is used up (Megatron-LM's rule).
    Value backedOff = arith::MulFOp::create(
        rewriter, loc, scale, f32Const(op.getBackoffFactor().convertToFloat()));
    SmallVector<Value> newHysteresis;
    if (Value counter = adaptor.getHysteresisTracker()) {
      Value h = extractScalar(rewriter, loc, counter);
      Value decremented = arith::SubIOp::create(rewriter, loc, h, i32Const(1));
      Value usedUp = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sle, decremented, i32Const(0));
      backedOff =
          arith::SelectOp::create(rewriter, loc, usedUp, backedOff, scale);
      Value cleanH = arith::SelectOp::create(rewriter, loc, due,
                                             i32Const(op.getHysteresis()), h);
      Value nextH =
          arith::SelectOp::create(rewriter, loc, foundInf, decremented, cleanH);
      newHysteresis.push_back(fromScalar(rewriter, loc, nextH));
    }
    Value newScale =
        arith::SelectOp::create(rewriter, loc, foundInf, backedOff, cleanScale);
    Value newTracker = arith::SelectOp::create(rewriter, loc, foundInf,
                                               i32Const(0), cleanTracker);
    if (std::optional<APFloat> lo = op.getMinScale())
      newScale = arith::MaximumFOp::create(rewriter, loc, newScale,
                                           f32Const(lo->convertToFloat()));
    if (std::optional<APFloat> hi = op.getMaxScale())
      newScale = arith::MinimumFOp::create(rewriter, loc, newScale,
                                           f32Const(hi->convertToFloat()));
    Value scaleTensor = fromScalar(rewriter, loc, newScale);
    Value trackerTensor = fromScalar(rewriter, loc, newTracker);
    SmallVector<Value> results = {scaleTensor, trackerTensor};
    llvm::append_range(results, newHysteresis);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ConvertMPToStandardPass
    : public mp::impl::ConvertMPToStandardPassBase<ConvertMPToStandardPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect>();
    target.addIllegalDialect<MPDialect>();
    // Collectives stay for convert-mp-to-runtime, after bufferization.
    target.addLegalOp<AllReduceOp, WorldSizeOp>();
    RewritePatternSet patterns(context);
    populateMPToStandardConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::mp::populateMPToStandardConversionPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<ScaleSeedOpConversion, UnscaleOpConversion, UpdateScaleOpConversion>(
          patterns.getContext());
}
