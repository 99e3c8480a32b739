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

#include "MmaContraction.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

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

/// The zero fill of `op`'s accumulator that beta = 0 makes unneeded: the
/// accumulator is allocated in the function and nothing uses it between the
/// fill and `op`.
static linalg::FillOp findZeroFill(linalg::LinalgOp op) {
  Value acc = op.getDpsInitOperand(0)->get();
  if (!acc.getDefiningOp<memref::AllocOp>())
    return nullptr;
  linalg::FillOp fill;
  for (Operation *user : acc.getUsers()) {
    auto candidate = dyn_cast<linalg::FillOp>(user);
    if (candidate && candidate->getBlock() == op->getBlock() &&
        candidate->isBeforeInBlock(op) && candidate.getOutputs()[0] == acc &&
        (!fill || fill->isBeforeInBlock(candidate)))
      fill = candidate;
  }
  if (!fill)
    return nullptr;
  auto zero = fill.getInputs()[0].getDefiningOp<arith::ConstantFloatOp>();
  if (!zero || !zero.value().isZero())
    return nullptr;
  for (Operation *user : acc.getUsers()) {
    Operation *inBlock = op->getBlock()->findAncestorOpInBlock(*user);
    if (user == fill || user == op || !inBlock ||
        inBlock->isBeforeInBlock(fill) || op->isBeforeInBlock(inBlock))
      continue;
    return nullptr;
  }
  return fill;
}

namespace {
struct GPULibraryGemmPass
    : public mp::impl::GPULibraryGemmPassBase<GPULibraryGemmPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> marked;
    module->walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(MPDialect::GpuGemmAttrHelper::getNameStr()))
        marked.push_back(op);
    });
    if (marked.empty())
      return;
    FailureOr<func::FuncOp> gemm = declareGemm(module);
    if (failed(gemm))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : marked)
      if (failed(rewrite(rewriter, op, *gemm)))
        return signalPassFailure();
  }

  /// `mp_cuda_gemm`, declared in `module` if it is not yet.
  FailureOr<func::FuncOp> declareGemm(ModuleOp module) {
    FunctionType type = getGemmType(&getContext());
    if (auto existing = module.lookupSymbol<func::FuncOp>(kLibraryGemmFunction)) {
      if (existing.getFunctionType() == type && existing.isDeclaration())
        return existing;
      return existing.emitError()
             << "mp-gpu-library-gemm: @" << kLibraryGemmFunction
             << " is the runtime's; rename this function";
    }
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto decl = func::FuncOp::create(builder, module.getLoc(), kLibraryGemmFunction, type);
    decl.setPrivate();
    MPDialect::GpuStreamOrderedAttrHelper(&getContext())
        .setAttr(decl, UnitAttr::get(&getContext()));
    return decl;
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
      auto type = cast<MemRefType>(buffer.getType());
      auto metadata =
          memref::ExtractStridedMetadataOp::create(rewriter, loc, buffer);
      Value aligned =
          memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer);
      int64_t bytes = type.getElementTypeBitWidth() / 8;
      Value offset = arith::MulIOp::create(
          rewriter, loc, toI64(metadata.getOffset()), constant(bytes));
      args.push_back(
          arith::AddIOp::create(rewriter, loc, toI64(aligned), offset));
      AffineMap map = op.getMatchingIndexingMap(use);
      for (std::optional<unsigned> loop : loops) {
        std::optional<unsigned> dim;
        if (loop)
          dim = map.getResultPosition(rewriter.getAffineDimExpr(*loop));
        args.push_back(dim ? toI64(metadata.getStrides()[*dim])
                           : constant(0));
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
