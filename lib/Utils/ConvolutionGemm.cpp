//===- ConvolutionGemm.cpp - Convolutions seen as GEMMs -------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Utils/ConvolutionGemm.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::mp;

/// Whether loop `d` occurs in a result of `map`.
static bool uses(AffineMap map, unsigned d) {
  return llvm::any_of(map.getResults(),
                      [&](AffineExpr e) { return e.isFunctionOfDim(d); });
}

std::optional<ConvolutionLoops>
mlir::mp::analyzeConvolution(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.hasDynamicShape())
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap image = maps[0], filter = maps[1], output = maps[2];
  if (!filter.isProjectedPermutation() || !output.isProjectedPermutation())
    return std::nullopt;
  ConvolutionLoops loops;
  for (AffineExpr e : output.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    bool inImage = uses(image, d), inFilter = uses(filter, d);
    if (inImage && inFilter)
      loops.kinds.push_back(ConvLoopKind::Depth);
    else if (inFilter)
      loops.kinds.push_back(ConvLoopKind::Channel);
    else if (!inImage)
      return std::nullopt;
    else if (llvm::is_contained(image.getResults(),
                                getAffineDimExpr(d, op.getContext())))
      loops.kinds.push_back(ConvLoopKind::Image);
    else
      loops.kinds.push_back(ConvLoopKind::Spatial);
    loops.output.push_back(d);
  }
  for (AffineExpr e : filter.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    if (!uses(output, d))
      loops.reduction.push_back(d);
  }
  if (loops.reduction.size() != op.getNumReductionLoops())
    return std::nullopt;
  loops.ranges = op.getStaticLoopRanges();
  return loops;
}

int64_t mlir::mp::getGroupSize(ArrayRef<unsigned> group,
                               ArrayRef<int64_t> ranges) {
  int64_t size = 1;
  for (unsigned d : group)
    size *= ranges[d];
  return size;
}

/// A gather of `source` through `read` into a new tensor of `shape`.
static Value buildGather(OpBuilder &b, Location loc, Value source,
                         AffineMap read, ArrayRef<int64_t> shape) {
  Type element = getElementTypeOrSelf(source.getType());
  Value init = tensor::EmptyOp::create(b, loc, shape, element);
  SmallVector<utils::IteratorType> iterators(shape.size(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, init.getType(), source, init,
             {read, b.getMultiDimIdentityMap(shape.size())}, iterators,
             [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               linalg::YieldOp::create(nested, nestedLoc, args[0]);
             })
      .getResult(0);
}

/// The expressions of the loops `group` (sizes `ranges`) in terms of
/// `linear`, their row-major linearization, stored at their positions in
/// `exprs`.
static void delinearizeGroup(AffineExpr linear, ArrayRef<unsigned> group,
                             ArrayRef<int64_t> ranges,
                             MutableArrayRef<AffineExpr> exprs) {
  int64_t stride = 1;
  for (int64_t i = group.size() - 1; i >= 0; --i) {
    AffineExpr e = linear.floorDiv(stride);
    exprs[group[i]] = i == 0 ? e : e % ranges[group[i]];
    stride *= ranges[group[i]];
  }
}

Value mlir::mp::buildConvolutionGather(OpBuilder &b, Location loc, Value source,
                                       AffineMap sourceMap,
                                       ArrayRef<int64_t> ranges,
                                       ArrayRef<ArrayRef<unsigned>> groups) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> loops(ranges.size(), getAffineConstantExpr(0, ctx));
  SmallVector<int64_t> shape;
  for (auto [i, group] : llvm::enumerate(groups)) {
    delinearizeGroup(getAffineDimExpr(i, ctx), group, ranges, loops);
    shape.push_back(getGroupSize(group, ranges));
  }
  AffineMap toLoops = AffineMap::get(groups.size(), 0, loops, ctx);
  return buildGather(b, loc, source,
                     simplifyAffineMap(sourceMap.compose(toLoops)), shape);
}

Value mlir::mp::buildCollapsedConvolutionGather(
    OpBuilder &b, Location loc, Value source, AffineMap sourceMap,
    ArrayRef<int64_t> ranges, ArrayRef<ArrayRef<unsigned>> groups) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> loops(ranges.size(), getAffineConstantExpr(0, ctx));
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> reassociation;
  for (ArrayRef<unsigned> group : groups) {
    assert(!group.empty() && "a group of no loops");
    reassociation.emplace_back();
    for (unsigned d : group) {
      reassociation.back().push_back(shape.size());
      loops[d] = getAffineDimExpr(shape.size(), ctx);
      shape.push_back(ranges[d]);
    }
  }
  AffineMap read = simplifyAffineMap(
      sourceMap.compose(AffineMap::get(shape.size(), 0, loops, ctx)));
  // A source already in this layout is only collapsed.
  Value gather =
      read.isIdentity() ? source : buildGather(b, loc, source, read, shape);
  return tensor::CollapseShapeOp::create(b, loc, gather, reassociation);
}

Value mlir::mp::buildConvolutionContraction(
    OpBuilder &b, linalg::LinalgOp conv, Value lhs, Value rhs, Value acc,
    ArrayRef<AffineMap> maps, ArrayRef<utils::IteratorType> iterators,
    bool imageIsLhs) {
  Block &body = *conv.getBlock();
  return linalg::GenericOp::create(
             b, conv.getLoc(), acc.getType(), ValueRange{lhs, rhs}, acc, maps,
             iterators,
             [&](OpBuilder &nested, Location loc, ValueRange args) {
               IRMapping mapping;
               mapping.map(body.getArgument(0), args[imageIsLhs ? 0 : 1]);
               mapping.map(body.getArgument(1), args[imageIsLhs ? 1 : 0]);
               mapping.map(body.getArgument(2), args[2]);
               for (Operation &inner : body.without_terminator())
                 nested.clone(inner, mapping);
               linalg::YieldOp::create(
                   nested, loc,
                   mapping.lookup(body.getTerminator()->getOperand(0)));
             })
      .getResult(0);
}
