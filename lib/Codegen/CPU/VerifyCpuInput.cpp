//===- VerifyCpuInput.cpp - mp-verify-cpu-input -----------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Utils/Bufferization.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/InterleavedRange.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_VERIFYCPUINPUTPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The dynamic result dimensions of the first reassociation group of `op`
/// (a tensor or memref expand_shape) that has two or more, if any.
template <typename ExpandOp>
static SmallVector<int64_t> findDynamicPair(ExpandOp op) {
  ShapedType type = op.getResultType();
  for (const ReassociationIndices &group : op.getReassociationIndices()) {
    SmallVector<int64_t> dynamic;
    llvm::copy_if(group, std::back_inserter(dynamic),
                  [&](int64_t d) { return type.isDynamicDim(d); });
    if (dynamic.size() > 1)
      return dynamic;
  }
  return {};
}

/// The first result dimension of `op` whose size in `output_shape` is not
/// the one in its type (an SSA value where the type has a static size, or a
/// constant where it is dynamic: the tensor verifier lets it pass,
/// memref.expand_shape's does not), if any.
static std::optional<int64_t>
findOutputShapeMismatch(tensor::ExpandShapeOp op) {
  ArrayRef<int64_t> shape = op.getResultType().getShape();
  for (auto [d, size] : llvm::enumerate(op.getStaticOutputShape()))
    if (size != shape[d])
      return d;
  return std::nullopt;
}

namespace {
struct VerifyCpuInputPass
    : public mp::impl::VerifyCpuInputPassBase<VerifyCpuInputPass> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult result =
        getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
          SmallVector<int64_t> dynamic;
          if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
            if (std::optional<int64_t> d = findOutputShapeMismatch(expand)) {
              auto describe = [](int64_t size) {
                return ShapedType::isDynamic(size)
                           ? std::string("a dynamic size")
                           : "size " + std::to_string(size);
              };
              op->emitError()
                  << pipeline << ": this expand_shape's output_shape gives "
                  << "dimension " << *d << " "
                  << describe(expand.getStaticOutputShape()[*d])
                  << " where its type has "
                  << describe(expand.getResultType().getDimSize(*d))
                  << ", which bufferizes to an invalid memref.expand_shape: "
                     "make them agree";
              return WalkResult::interrupt();
            }
            dynamic = findDynamicPair(expand);
          } else if (auto expand = dyn_cast<memref::ExpandShapeOp>(op))
            dynamic = findDynamicPair(expand);
          if (!dynamic.empty()) {
            op->emitError()
                << pipeline << ": this expand_shape splits one dimension "
                << "into dimensions " << llvm::interleaved(dynamic)
                << " of dynamic size, which LLVM 22's memref lowering "
                   "(expand-strided-metadata) cannot take: give all but one "
                   "of them static sizes";
            return WalkResult::interrupt();
          }
          bool gpuOp = isGpuDialectOp(op);
          Type buffer = gpuOp ? Type() : findGpuBuffer(op);
          if (!gpuOp && !buffer)
            return WalkResult::advance();
          InFlightDiagnostic diag = op->emitError()
                                    << pipeline << ": '" << op->getName();
          if (buffer)
            diag << "' has a buffer in GPU memory (" << buffer
                 << "), that is GPU code";
          else
            diag << "' is GPU code";
          diag << ", which " << pipeline
               << " does not take: it compiles linalg on tensors (the "
                  "output of mp-amp-pipeline or mp-train-pipeline); "
                  "mp-lower-to-gpu makes GPU code from that, and "
                  "mp-lower-to-gpu-emulation runs its tiled stage on the CPU";
          return WalkResult::interrupt();
        });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
