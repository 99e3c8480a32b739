//===- SelectGemm.cpp - Generated kernels or cuBLASLt per contraction -----===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"
#include "mp/Utils/TensorMath.h"

#include "FilterGradient.h"
#include "LibraryCalls.h"
#include "MmaContraction.h"

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUSELECTGEMMPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// With gemm=auto, the fewest input channels per group of a grouped
/// convolution given to cuDNN.
static constexpr int64_t kCudnnMinGroupChannels = 8;

/// Whether an operand of `op` is a fill or a splat constant, which the
/// elementwise fusion that follows folds into its body: a sum scaled by a
/// scalar, no GEMM for a library.
static bool hasUniformOperand(linalg::LinalgOp op) {
  return llvm::any_of(op.getDpsInputs(), [](Value input) {
    SplatElementsAttr splat;
    return input.getDefiningOp<linalg::FillOp>() ||
           matchPattern(input, m_Constant(&splat));
  });
}

namespace {
struct GPUSelectGemmPass
    : public mp::impl::GPUSelectGemmPassBase<GPUSelectGemmPass> {
  using Base::Base;

  void runOnOperation() override {
    if (libraryMinMacs < 0) {
      getOperation()->emitError()
          << "mp-gpu-select-gemm: library-min-macs="
          << static_cast<int64_t>(libraryMinMacs)
          << " is invalid: expected a count of multiply-accumulates >= 0";
      return signalPassFailure();
    }
    if (gemm == GpuGemm::codegen)
      return;
    auto library = StringAttr::get(&getContext(), "library");
    auto select = [&](linalg::LinalgOp op, int64_t macs) {
      if (gemm == GpuGemm::automatic && macs < libraryMinMacs)
        return false;
      op->setAttr(MPDialect::GpuGemmAttrHelper::getNameStr(), library);
      return true;
    };
    SmallVector<TorchFilterGradient> filterGradients;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op.hasPureTensorSemantics())
        return;
      // torch-mlir's filter gradients, grouped convolutions of one channel
      // per group, as cuDNN's backward filter: N x K x C x window x output
      // pixels.
      if (std::optional<TorchFilterGradient> gradient =
              matchTorchFilterGradient(op)) {
        ArrayRef<int64_t> dy =
            cast<ShapedType>(gradient->gradient.getType()).getShape();
        ArrayRef<int64_t> dw =
            cast<ShapedType>(gradient->sum.getResult(0).getType()).getShape();
        int64_t macs = getSaturatingProduct(
            {dy[0], dy[1], dw[1], dw[2], dw[3], dy[2], dy[3]});
        if (gemm == GpuGemm::library || macs >= libraryMinMacs) {
          filterGradients.push_back(*gradient);
          return;
        }
      }
      if (std::optional<CudnnConvolution> conv = matchCudnnConvolution(op)) {
        // cuDNN's Tensor Core kernels take groups of 8 channels and more;
        // it computed torch-mlir's filter gradients (64 groups of one
        // channel, 7x7 and 14x14 windows) in 7 ms a call on an H200, 9x
        // the whole generated CNN step: auto keeps such ones generated.
        if (gemm == GpuGemm::automatic && conv->groups > 1 &&
            conv->c / conv->groups < kCudnnMinGroupChannels)
          return;
        numLibraryConvs += select(op, conv->getMacs());
        return;
      }
      if (!isMultiplyAccumulate(op))
        return;
      // f32 contractions too, but only when told (gemm=library): on an
      // H200 the fp32 training steps at batch 256 ran slower with their
      // contractions on cuBLASLt's f32 kernels than with one thread per
      // element of C (docs/results/gpu-h200-2026-11-27.md).
      std::optional<MmaContraction> c = matchLibraryContraction(op);
      if (!c && gemm == GpuGemm::library &&
          matchTiledContraction(op, /*dynamicSizes=*/true))
        op->emitWarning("mp-gpu-select-gemm: this contraction has dynamic "
                        "sizes, which cuBLASLt's calls do not take (their "
                        "descriptors are built from static sizes): it is a "
                        "generated GEMM; give its operands static sizes to "
                        "call cuBLASLt");
      if (!c || hasUniformOperand(op) ||
          (gemm == GpuGemm::automatic && !matchMmaContraction(op)))
        return;
      // batch x M x N x K.
      numLibrary += select(op, getSaturatingProduct(c->ranges));
    });
    IRRewriter rewriter(&getContext());
    for (const TorchFilterGradient &gradient : filterGradients) {
      linalg::GenericOp generic = rewriteAsBackwardFilter(rewriter, gradient);
      generic->setAttr(MPDialect::GpuGemmAttrHelper::getNameStr(), library);
      ++numLibraryConvs;
      ++numFilterGradients;
    }
  }
};
} // namespace
