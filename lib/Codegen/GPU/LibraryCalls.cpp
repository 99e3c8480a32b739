//===- LibraryCalls.cpp - Ops the runtime computes with CUDA libraries ----===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "LibraryCalls.h"
#include "GemmFusion.h"
#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mp;

int64_t mlir::mp::getSaturatingProduct(ArrayRef<int64_t> factors) {
  int64_t product = 1;
  for (int64_t factor : factors)
    product =
        factor && product > INT64_MAX / factor ? INT64_MAX : product * factor;
  return product;
}

int64_t CudnnConvolution::getOutputSize(unsigned d) const {
  return (image[d] + 2 * padding[d] - dilations[d] * (window[d] - 1) - 1) /
             strides[d] +
         1;
}

int64_t CudnnConvolution::getMacs() const {
  SmallVector<int64_t> factors{n, k, c / groups};
  for (unsigned d = 0; d < spatialDims; ++d)
    factors.append({window[d], getOutputSize(d)});
  return getSaturatingProduct(factors);
}

namespace {
/// Where a named convolution keeps its sizes: the image's batch, group and
/// channel dimensions (-1 if it has none), its first spatial one, and the
/// filter's output channels, group and first window dimension.
struct ConvLayout {
  int imageGroup, imageChannels, imageSpatial;
  int filterGroup, filterOutputs, filterSpatial;
  bool channelsLast;
};
} // namespace

/// The layout of the convolutions cuDNN takes; nullopt for other ops.
static std::optional<ConvLayout> getConvLayout(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<ConvLayout>>(op)
      .Case<linalg::Conv1DNcwFcwOp, linalg::Conv2DNchwFchwOp,
            linalg::Conv3DNcdhwFcdhwOp>(
          [](auto) { return ConvLayout{-1, 1, 2, -1, 0, 2, false}; })
      .Case<linalg::Conv2DNgchwGfchwOp>(
          [](auto) { return ConvLayout{1, 2, 3, 0, 1, 3, false}; })
      .Case<linalg::Conv2DNhwcFhwcOp>(
          [](auto) { return ConvLayout{-1, 3, 1, -1, 0, 1, true}; })
      .Default([](Operation *) { return std::nullopt; });
}

/// The strides and dilations of a named convolution.
static std::pair<DenseIntElementsAttr, DenseIntElementsAttr>
getStridesAndDilations(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::pair<DenseIntElementsAttr,
                                                 DenseIntElementsAttr>>(op)
      .Case<linalg::Conv1DNcwFcwOp, linalg::Conv2DNchwFchwOp,
            linalg::Conv3DNcdhwFcdhwOp, linalg::Conv2DNgchwGfchwOp,
            linalg::Conv2DNhwcFhwcOp>([](auto conv) {
        return std::make_pair(conv.getStrides(), conv.getDilations());
      })
      .Default([](Operation *) {
        return std::make_pair(DenseIntElementsAttr(), DenseIntElementsAttr());
      });
}

SmallVector<AffineMap, 3>
mlir::mp::getBackwardFilterMaps(MLIRContext *ctx, ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations) {
  AffineExpr k, c, r, s, n, ho, wo;
  bindDims(ctx, k, c, r, s, n, ho, wo);
  return {AffineMap::get(7, 0,
                         {n, c, r * dilations[0] + ho * strides[0],
                          s * dilations[1] + wo * strides[1]},
                         ctx),
          AffineMap::get(7, 0, {n, k, ho, wo}, ctx),
          AffineMap::get(7, 0, {k, c, r, s}, ctx)};
}

/// The coefficient of loop `dim` in `expr`, a sum of loops times
/// constants (-1 if it is not one).
static int64_t getCoefficient(AffineExpr expr, unsigned dim, unsigned loops) {
  MLIRContext *ctx = expr.getContext();
  SmallVector<AffineExpr> values(loops, getAffineConstantExpr(0, ctx));
  values[dim] = getAffineConstantExpr(1, ctx);
  auto constant = dyn_cast<AffineConstantExpr>(expr.replaceDims(values));
  return constant ? constant.getValue() : -1;
}

/// `op` as cuDNN's backward filter: the generic of getBackwardFilterMaps
/// on an image whose cuDNN output size is the output gradient's.
static std::optional<CudnnConvolution>
matchBackwardFilter(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op) || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != 7 ||
      op.getNumParallelLoops() != 4)
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps[0].getNumResults() != 4)
    return std::nullopt;
  int64_t strides[2], dilations[2];
  for (unsigned d = 0; d < 2; ++d) {
    dilations[d] = getCoefficient(maps[0].getResult(2 + d), 2 + d, 7);
    strides[d] = getCoefficient(maps[0].getResult(2 + d), 5 + d, 7);
    if (dilations[d] < 1 || strides[d] < 1)
      return std::nullopt;
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (ArrayRef<AffineMap>(maps) != ArrayRef<AffineMap>(getBackwardFilterMaps(
                                       op.getContext(), strides, dilations)) ||
      llvm::any_of(ArrayRef(iterators).take_front(4),
                   [](utils::IteratorType t) {
                     return t != utils::IteratorType::parallel;
                   }))
    return std::nullopt;
  ArrayRef<int64_t> x =
      cast<ShapedType>(op.getDpsInputs()[0].getType()).getShape();
  ArrayRef<int64_t> dy =
      cast<ShapedType>(op.getDpsInputs()[1].getType()).getShape();
  ArrayRef<int64_t> dw =
      cast<ShapedType>(op.getDpsInits()[0].getType()).getShape();
  CudnnConvolution conv;
  conv.kind = ConvKind::backwardFilter;
  conv.n = x[0];
  conv.c = x[1];
  conv.k = dy[1];
  conv.image = {x[2], x[3], 1};
  conv.window = {dw[2], dw[3], 1};
  conv.strides = {strides[0], strides[1], 1};
  conv.dilations = {dilations[0], dilations[1], 1};
  conv.padding.assign(kConvSpatialDims, 0);
  for (unsigned d = 0; d < 2; ++d)
    if (conv.image[d] < conv.dilations[d] * (conv.window[d] - 1) + 1 ||
        conv.getOutputSize(d) != dy[2 + d])
      return std::nullopt;
  return conv;
}

bool mlir::mp::isLibraryConvolution(linalg::LinalgOp op) {
  return linalg::isaConvolutionOpInterface(op) ||
         matchBackwardFilter(op).has_value();
}

std::optional<CudnnConvolution>
mlir::mp::matchCudnnConvolution(linalg::LinalgOp op) {
  if (op.hasDynamicShape() || !isMultiplyAccumulate(op))
    return std::nullopt;
  Type image = getElementTypeOrSelf(op.getDpsInputs()[0]);
  Type filter = getElementTypeOrSelf(op.getDpsInputs()[1]);
  if (image != filter || !(image.isF16() || image.isBF16()) ||
      !getElementTypeOrSelf(op.getDpsInits()[0]).isF32() ||
      llvm::any_of(op->getOperandTypes(), [](Type type) {
        // cuDNN's sizes and strides are ints.
        return cast<ShapedType>(type).getNumElements() > INT32_MAX;
      }))
    return std::nullopt;
  std::optional<ConvLayout> layout = getConvLayout(op);
  if (!layout)
    return matchBackwardFilter(op);
  ArrayRef<int64_t> x =
      cast<ShapedType>(op.getDpsInputs()[0].getType()).getShape();
  ArrayRef<int64_t> w =
      cast<ShapedType>(op.getDpsInputs()[1].getType()).getShape();
  auto [strides, dilations] = getStridesAndDilations(op);
  unsigned spatial = strides.getNumElements();

  CudnnConvolution conv;
  conv.channelsLast = layout->channelsLast;
  conv.spatialDims = std::max(spatial, 2u);
  conv.n = x[0];
  conv.groups = layout->imageGroup < 0 ? 1 : x[layout->imageGroup];
  conv.c = conv.groups * x[layout->imageChannels];
  conv.k = (layout->filterGroup < 0 ? 1 : w[layout->filterGroup]) *
           w[layout->filterOutputs];
  // A 1-d convolution is a 2-d one of height 1.
  unsigned first = spatial == 1 ? 1 : 0;
  conv.imageSpatialDim = layout->imageSpatial;
  conv.firstSpatial = first;
  conv.image.assign(kConvSpatialDims, 1);
  conv.window.assign(kConvSpatialDims, 1);
  conv.strides.assign(kConvSpatialDims, 1);
  conv.dilations.assign(kConvSpatialDims, 1);
  conv.padding.assign(kConvSpatialDims, 0);
  for (unsigned d = 0; d < spatial; ++d) {
    conv.image[first + d] = x[layout->imageSpatial + d];
    conv.window[first + d] = w[layout->filterSpatial + d];
    conv.strides[first + d] = strides.getValues<int64_t>()[d];
    conv.dilations[first + d] = dilations.getValues<int64_t>()[d];
  }
  return conv;
}

LogicalResult mlir::mp::replaceLibraryOps(
    ModuleOp module, bool convolutions, StringRef name, FunctionType type,
    StringRef pass,
    function_ref<LogicalResult(IRRewriter &, linalg::LinalgOp, func::FuncOp)>
        rewrite) {
  SmallVector<linalg::LinalgOp> marked;
  module->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(MPDialect::GpuGemmAttrHelper::getNameStr()) &&
        isLibraryConvolution(op) == convolutions)
      marked.push_back(op);
  });
  if (marked.empty())
    return success();
  MLIRContext *ctx = module.getContext();
  auto callee = module.lookupSymbol<func::FuncOp>(name);
  if (callee && (callee.getFunctionType() != type || !callee.isDeclaration()))
    return callee.emitError() << pass << ": @" << name
                              << " is the runtime's; rename this function";
  if (!callee) {
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    callee = func::FuncOp::create(builder, module.getLoc(), name, type);
    callee.setPrivate();
    MPDialect::GpuStreamOrderedAttrHelper(ctx).setAttr(callee,
                                                       UnitAttr::get(ctx));
  }
  IRRewriter rewriter(ctx);
  for (linalg::LinalgOp op : marked)
    if (failed(rewrite(rewriter, op, callee)))
      return failure();
  return success();
}

Operation *mlir::mp::findZeroInit(linalg::LinalgOp op) {
  std::optional<FoldedInit> init = findFoldedInit(op, /*canOutline=*/false);
  if (!init || !init->value)
    return nullptr;
  auto zero = init->value.getDefiningOp<arith::ConstantFloatOp>();
  return zero && zero.value().isZero() ? init->setter : nullptr;
}

Value mlir::mp::getBufferAddress(RewriterBase &rewriter, Location loc,
                                 Value buffer) {
  Type i64 = rewriter.getI64Type();
  auto type = cast<MemRefType>(buffer.getType());
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, buffer);
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer);
  Value offset = arith::MulIOp::create(
      rewriter, loc,
      arith::IndexCastOp::create(rewriter, loc, i64, metadata.getOffset()),
      arith::ConstantIntOp::create(rewriter, loc, i64,
                                   type.getElementTypeBitWidth() / 8));
  return arith::AddIOp::create(
      rewriter, loc, arith::IndexCastOp::create(rewriter, loc, i64, aligned),
      offset);
}
