//===- VectorToMMA.cpp - The tiled stage's contractions to mma.sync -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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

namespace {
struct GPUVectorToMMAPass
    : public mp::impl::GPUVectorToMMAPassBase<GPUVectorToMMAPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForallOp> stages;
    getOperation()->walk([&](scf::ForallOp forall) {
      std::optional<ArrayAttr> mapping = forall.getMapping();
      if (mapping && !mapping->empty() &&
          isa<gpu::GPUBlockMappingAttr>((*mapping)[0]))
        stages.push_back(forall);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp stage : stages) {
      RewritePatternSet patterns(&getContext());
      populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
      if (failed(applyPatternsGreedily(stage, std::move(patterns))) ||
          failed(convertVectorToNVVMCompatibleMMASync(rewriter, stage))) {
        stage.emitError("mp-gpu-vector-to-mma: cannot lower this tiled "
                        "contraction to mma.sync");
        return signalPassFailure();
      }
      // The conversion leaves the contracts and transfers it replaced dead.
      if (failed(
              applyPatternsGreedily(stage, RewritePatternSet(&getContext()))))
        return signalPassFailure();
      ++numConverted;
    }
  }
};
} // namespace
