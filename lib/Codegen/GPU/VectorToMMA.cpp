//===- VectorToMMA.cpp - The tiled stage's contractions to mma.sync -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Upstream's vector-to-nvgpu conversion handles f16 operands only. bf16
// fragments have f16's layout (PTX ISA, mma.m16n8k16), so a bf16 stage goes
// through it with its operand reads re-typed as f16 (the loads it generates
// move bits, no arithmetic), and its mma.sync ops are then built here as
// nvvm.mma.sync of type bf16 on the same registers.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUVECTORTOMMAPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Upstream's ldmatrix of an A operand stored K x M (read with .trans) takes
/// the x4 load's 8x8 matrices in the order rows 0-7 / columns 0-7, rows 0-7
/// / columns 8-15, rows 8-15 / columns 0-7, rows 8-15 / columns 8-15 of A,
/// but the m16n8k16 A fragment (PTX ISA) takes a2, a3 from rows 8-15 and a4,
/// a5 from columns 8-15: the middle two matrices are swapped. The lanes that
/// give their row addresses (8-15 and 16-23) trade them here. B's x2 loads
/// are one column of matrices and have no such order.
static void fixTransposedALoads(RewriterBase &rewriter, gpu::LaunchOp stage) {
  llvm::SetVector<nvgpu::LdMatrixOp> loads;
  stage.walk([&](nvgpu::MmaSyncOp mma) {
    auto load = mma.getMatrixA().getDefiningOp<nvgpu::LdMatrixOp>();
    if (load && load.getTranspose() && load.getNumTiles() == 4)
      loads.insert(load);
  });
  MLIRContext *context = stage.getContext();
  AffineExpr l = getAffineDimExpr(0, context);
  AffineMap swapped = AffineMap::get(
      1, 0, l + (l.floorDiv(8) % 2) * 8 - (l.floorDiv(16) % 2) * 8);
  for (nvgpu::LdMatrixOp load : loads) {
    rewriter.setInsertionPoint(load);
    Value lane = gpu::LaneIdOp::create(rewriter, load.getLoc(),
                                       /*upperBound=*/nullptr);
    Value newLane =
        affine::AffineApplyOp::create(rewriter, load.getLoc(), swapped, lane);
    SmallVector<Value> indices;
    for (Value index : load.getIndices())
      indices.push_back(recomputeWith(rewriter, load, index, [&](Value v) {
        return v.getDefiningOp<gpu::LaneIdOp>() ? newLane : Value();
      }));
    rewriter.modifyOpInPlace(load,
                             [&] { load.getIndicesMutable().assign(indices); });
  }
}

/// Re-types the bf16 operand reads of `stage` as f16 reads of the same bits.
/// Returns whether there were any.
static FailureOr<bool> punBF16Reads(RewriterBase &rewriter,
                                    gpu::LaunchOp stage) {
  SmallVector<vector::TransferReadOp> reads;
  stage.walk([&](vector::TransferReadOp read) {
    if (read.getVectorType().getElementType().isBF16())
      reads.push_back(read);
  });
  Type f16 = rewriter.getF16Type();
  for (vector::TransferReadOp read : reads) {
    if (!llvm::all_of(read->getUsers(), llvm::IsaPred<vector::ContractionOp>) ||
        !isa<MemRefType>(read.getBase().getType()))
      return read.emitError("mp-gpu-vector-to-mma: a bf16 read that is not a "
                            "contraction operand on a buffer");
    Location loc = read.getLoc();
    rewriter.setInsertionPoint(read);
    auto bufferType = cast<MemRefType>(read.getBase().getType());
    Value buffer = UnrealizedConversionCastOp::create(
                       rewriter, loc, bufferType.clone(f16), read.getBase())
                       .getResult(0);
    Value padding =
        arith::BitcastOp::create(rewriter, loc, f16, read.getPadding());
    Value punned = vector::TransferReadOp::create(
        rewriter, loc, read.getVectorType().clone(f16), buffer,
        read.getIndices(), read.getPermutationMapAttr(), padding,
        read.getMask(), read.getInBoundsAttr());
    rewriter.replaceOp(read, punned);
  }
  return !reads.empty();
}

/// The 32-bit registers of a fragment `value` of 16-bit elements, one per row
/// of its vector<Rx2xf16>.
static SmallVector<Value> getRegisters(RewriterBase &rewriter, Location loc,
                                       Value value) {
  auto type = cast<VectorType>(value.getType());
  auto word = VectorType::get({1}, rewriter.getI32Type());
  SmallVector<Value> registers;
  for (int64_t row = 0; row < type.getDimSize(0); ++row) {
    Value pair = vector::ExtractOp::create(rewriter, loc, value, row);
    Value bits = vector::BitCastOp::create(rewriter, loc, word, pair);
    registers.push_back(vector::ExtractOp::create(rewriter, loc, bits, 0));
  }
  return registers;
}

/// `mma` (f16 registers holding bf16 bits, f32 accumulator) as the bf16
/// nvvm.mma.sync on the same registers.
static void buildBF16MmaSync(RewriterBase &rewriter, nvgpu::MmaSyncOp mma) {
  Location loc = mma.getLoc();
  rewriter.setInsertionPoint(mma);
  SmallVector<Value> a = getRegisters(rewriter, loc, mma.getMatrixA());
  SmallVector<Value> b = getRegisters(rewriter, loc, mma.getMatrixB());
  auto accType = cast<VectorType>(mma.getMatrixC().getType());
  SmallVector<Value> c;
  for (int64_t row = 0; row < accType.getDimSize(0); ++row)
    for (int64_t col = 0; col < accType.getDimSize(1); ++col)
      c.push_back(vector::ExtractOp::create(rewriter, loc, mma.getMatrixC(),
                                            ArrayRef<int64_t>{row, col}));
  Type f32 = rewriter.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(
      rewriter.getContext(), SmallVector<Type>(c.size(), f32));
  Value result = NVVM::MmaOp::create(
      rewriter, loc, resultType, a, b, c, mma.getMmaShapeAsArray(),
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> elements;
  for (int64_t i = 0, e = c.size(); i < e; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(rewriter, loc, result, i));
  rewriter.replaceOpWithNewOp<vector::FromElementsOp>(mma, accType, elements);
}

/// The Tensor Core contractions that `launch` computes (f32 ones run on
/// CUDA cores: mp-gpu-vector-to-fma).
static int64_t countContractions(gpu::LaunchOp launch) {
  int64_t count = 0;
  launch.getBody().walk([&](vector::ContractionOp contract) {
    count += !isSimtContraction(contract);
  });
  return count;
}

/// The op to root the conversion of `contract`'s chain at: its outermost
/// loop inside `launch` (the K loop), else itself. Upstream's conversion
/// starts a chain at every op it walks that is a contraction or an
/// elementwise op it could compute on fragments, scalar ones included, and
/// fails on those; rooted here, the epilogues after the K loop are not
/// walked (they are in no chain: they read C back from memory).
static Operation *getConversionRoot(vector::ContractionOp contract,
                                    gpu::LaunchOp launch) {
  Operation *root = contract;
  for (Operation *op = contract->getParentOp(); op != launch;
       op = op->getParentOp())
    if (isa<scf::ForOp>(op))
      root = op;
  return root;
}

namespace {
struct GPUVectorToMMAPass
    : public mp::impl::GPUVectorToMMAPassBase<GPUVectorToMMAPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> stages;
    getOperation()->walk([&](gpu::LaunchOp launch) {
      if (countContractions(launch) != 0)
        stages.push_back(launch);
    });
    IRRewriter rewriter(&getContext());
    for (gpu::LaunchOp stage : stages) {
      auto cannotLower = [&] {
        stage.emitError("mp-gpu-vector-to-mma: cannot lower this tiled "
                        "contraction to mma.sync");
        signalPassFailure();
      };
      if (failed(keepAccumulatorsInRegisters(stage)))
        return signalPassFailure();
      FailureOr<bool> bf16 = punBF16Reads(rewriter, stage);
      if (failed(bf16))
        return signalPassFailure();
      RewritePatternSet patterns(&getContext());
      populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
      if (failed(applyPatternsGreedily(stage, std::move(patterns))))
        return cannotLower();
      // One chain at a time; the conversion leaves the contracts and
      // transfers it replaced dead, and a chain it cannot take as it was:
      // an error here.
      for (int64_t count = countContractions(stage); count != 0;) {
        vector::ContractionOp contract;
        stage.walk([&](vector::ContractionOp op) {
          if (isSimtContraction(op))
            return WalkResult::advance();
          contract = op;
          return WalkResult::interrupt();
        });
        if (failed(convertVectorToNVVMCompatibleMMASync(
                rewriter, getConversionRoot(contract, stage))))
          return cannotLower();
        if (failed(
                applyPatternsGreedily(stage, RewritePatternSet(&getContext()))))
          return signalPassFailure();
        int64_t left = countContractions(stage);
        if (left >= count)
          return cannotLower();
        count = left;
      }
      fixTransposedALoads(rewriter, stage);
      if (*bf16) {
        SmallVector<nvgpu::MmaSyncOp> mmas;
        stage.walk([&](nvgpu::MmaSyncOp mma) { mmas.push_back(mma); });
        for (nvgpu::MmaSyncOp mma : mmas)
          buildBF16MmaSync(rewriter, mma);
      }
      ++numConverted;
    }
  }
};
} // namespace
