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

#include "GemmFusion.h"
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
/// operand (A, B, D) its address and three strides (i64), beta (f32), D's
/// type (i32) and the bias's address (i64).
static FunctionType getGemmType(MLIRContext *ctx) {
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  SmallVector<Type> inputs{i32};
  inputs.append(4 + 3 * 4, i64);
  inputs.append({Float32Type::get(ctx), i32, i64});
  return FunctionType::get(ctx, inputs, {});
}

namespace {
/// The consumer of a contraction's C that cuBLASLt's epilogue computes
/// instead: D = C + bias (broadcast along N), converted to D's type.
struct LibraryEpilogue {
  linalg::GenericOp consumer;
  /// The bias vector, if any: of D's element type, contiguous.
  Value bias;
  /// Whether D has the operands' type (else f32).
  bool narrow = false;
};
} // namespace

/// The epilogue (findEpilogue) of `op` (`c`) that cuBLASLt computes with
/// the same rounding: one elementwise consumer that reads C (no view of it)
/// and nothing after reads C; it yields C, C + bias (f32), or either
/// rounded to the operands' type with the bias of that type (widened to f32
/// for the sum), the bias read along C's N dimension only, and D's N
/// contiguous. C starts from zeros (`zeroInit`, beta = 0) or the consumer
/// writes it in place (beta = 1: D = A x B + D + bias). A ReLU is not
/// taken: cuBLASLt does not say what its ReLU makes of a NaN, and
/// `arith.maximumf` keeps it (an overflow the loss scaler must see).
static std::optional<LibraryEpilogue>
matchLibraryEpilogue(linalg::LinalgOp op, const MmaContraction &c,
                     const Epilogue &epilogue, bool zeroInit) {
  Value acc = op.getDpsInits()[0];
  linalg::GenericOp consumer = epilogue.consumer;
  if (!consumer || !epilogue.flags.empty() || epilogue.storesC ||
      epilogue.acc->get() != acc)
    return std::nullopt;
  Value output = consumer.getDpsInits()[0];
  Type operandType = getElementTypeOrSelf(op.getDpsInputs()[0]);
  Type outputType = getElementTypeOrSelf(output);
  if ((!zeroInit && output != acc) ||
      !(outputType.isF32() || outputType == operandType))
    return std::nullopt;
  LibraryEpilogue library{consumer, nullptr, !outputType.isF32()};

  Block &body = consumer.getRegion().front();
  Value result = body.getTerminator()->getOperand(0);
  if (library.narrow) {
    auto trunc = result.getDefiningOp<arith::TruncFOp>();
    if (!trunc || !trunc.getIn().getType().isF32())
      return std::nullopt;
    result = trunc.getIn();
  }
  BlockArgument accArg = consumer.getMatchingBlockArgument(epilogue.acc);
  if (result == accArg)
    return library;
  auto add = result.getDefiningOp<arith::AddFOp>();
  if (!add || (add.getLhs() != accArg && add.getRhs() != accArg))
    return std::nullopt;
  Value addend = add.getLhs() == accArg ? add.getRhs() : add.getLhs();
  if (library.narrow)
    if (auto ext = addend.getDefiningOp<arith::ExtFOp>())
      addend = ext.getIn();
  auto biasArg = dyn_cast<BlockArgument>(addend);
  if (!biasArg || biasArg.getOwner() != &body ||
      biasArg.getType() != outputType ||
      biasArg.getArgNumber() >= consumer.getNumDpsInputs())
    return std::nullopt;
  OpOperand *bias = consumer.getDpsInputOperand(biasArg.getArgNumber());
  // Along N: the last of C's dimensions (cuBLASLt's bias runs along the
  // rows of its column-major D, which is a row-major D's N), contiguous in
  // the bias and in D.
  unsigned rank = consumer.getNumLoops();
  AffineMap cMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  AffineMap biasMap = consumer.getMatchingIndexingMap(bias);
  auto contiguous = [](Value buffer) {
    SmallVector<int64_t> strides;
    int64_t offset;
    auto type = cast<MemRefType>(buffer.getType());
    return succeeded(type.getStridesAndOffset(strides, offset)) &&
           !strides.empty() && strides.back() == 1;
  };
  if (cMap.getResult(rank - 1) != getAffineDimExpr(c.n, op.getContext()) ||
      biasMap.getNumResults() != 1 ||
      biasMap.getResult(0) != getAffineDimExpr(rank - 1, op.getContext()) ||
      !contiguous(bias->get()) || !contiguous(output))
    return std::nullopt;
  library.bias = bias->get();
  return library;
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
      c = matchLibraryContraction(op);
    if (!c)
      return op->emitError()
             << "mp-gpu-library-gemm: marked mp.gpu_gemm = \"library\" but "
                "not a contraction on buffers that cuBLASLt computes (static "
                "shapes, f16, bf16 or f32 operands, an f32 accumulator)";
    Operation *zeroInit = findZeroInit(op);
    std::optional<LibraryEpilogue> epilogue;
    DominanceInfo dominance(op->getParentOp());
    if (std::optional<Epilogue> found =
            findEpilogue(op, op.getDpsInputs(), dominance)) {
      epilogue = matchLibraryEpilogue(op, *c, *found, zeroInit);
      // The consumer's output allocated after the contraction.
      if (epilogue)
        for (Operation *hoisted : found->hoisted)
          rewriter.moveOpBefore(hoisted, op);
    }

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    auto constant = [&](Type type, int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, type, value);
    };

    // The address of a buffer and its strides along `loops` (0 along a
    // loop it does not have), its dimensions those of `map`'s results.
    auto operand = [&](Value buffer, AffineMap map,
                       ArrayRef<std::optional<unsigned>> loops,
                       SmallVectorImpl<Value> &args) {
      auto metadata =
          memref::ExtractStridedMetadataOp::create(rewriter, loc, buffer);
      args.push_back(getBufferAddress(rewriter, loc, buffer));
      for (std::optional<unsigned> loop : loops) {
        std::optional<unsigned> dim;
        if (loop)
          dim = map.getResultPosition(rewriter.getAffineDimExpr(*loop));
        args.push_back(
            dim ? arith::IndexCastOp::create(rewriter, loc, i64,
                                             metadata.getStrides()[*dim])
                : constant(i64, 0));
      }
    };

    Type element = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
    SmallVector<Value> args{constant(i32, element.isF32()    ? 2
                                          : element.isBF16() ? 1
                                                             : 0)};
    args.push_back(constant(i64, c->batch ? c->ranges[*c->batch] : 1));
    for (unsigned loop : {c->m, c->n, c->k})
      args.push_back(constant(i64, c->ranges[loop]));
    for (auto [use, loops] :
         {std::make_pair(
              op.getDpsInputOperand(0),
              SmallVector<std::optional<unsigned>>{c->m, c->k, c->batch}),
          std::make_pair(
              op.getDpsInputOperand(1),
              SmallVector<std::optional<unsigned>>{c->k, c->n, c->batch})})
      operand(use->get(), op.getMatchingIndexingMap(use), loops, args);
    // D: C, or the consumer's output (its dimensions C's).
    OpOperand *acc = op.getDpsInitOperand(0);
    operand(epilogue ? epilogue->consumer.getDpsInits()[0] : acc->get(),
            op.getMatchingIndexingMap(acc), {c->m, c->n, c->batch}, args);
    args.push_back(arith::ConstantFloatOp::create(
        rewriter, loc, rewriter.getF32Type(), APFloat(zeroInit ? 0.0f : 1.0f)));
    args.push_back(constant(i32, epilogue && epilogue->narrow ? 1 : 0));
    args.push_back(epilogue && epilogue->bias
                       ? getBufferAddress(rewriter, loc, epilogue->bias)
                       : constant(i64, 0));
    // The call computes the contraction and the consumer: it is located at
    // both (the kernel report lists them).
    func::CallOp::create(
        rewriter,
        epilogue ? rewriter.getFusedLoc({loc, epilogue->consumer.getLoc()})
                 : loc,
        gemm, args);
    if (zeroInit) {
      rewriter.eraseOp(zeroInit);
      ++numFillsDropped;
    }
    if (epilogue) {
      rewriter.eraseOp(epilogue->consumer);
      ++numEpilogues;
    }
    rewriter.eraseOp(op);
    ++numCalls;
    return success();
  }
};
} // namespace
