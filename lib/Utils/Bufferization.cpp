//===- Bufferization.cpp - Tensors to buffers for every backend -----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Utils/Bufferization.h"

#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void mlir::mp::addBufferizationPasses(
    OpPassManager &pm,
    llvm::function_ref<void(OpPassManager &)> afterDeallocation) {
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  // Loops whose body yields a new tensor (h <- f(h)) get a new buffer per
  // iteration; the deallocation pipeline frees the old one.
  options.allowReturnAllocsFromLoops = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A tensor.empty whose value ends up inserted into a slice of another
  // tensor becomes that slice: the op that fills it writes in place.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createOneShotBufferizePass(options));
  bufferization::buildBufferDeallocationPipeline(pm);
  if (afterDeallocation)
    afterDeallocation(pm);
  // bufferization.clone (from deallocation) becomes memref.alloc + copy.
  pm.addPass(createConvertBufferizationToMemRefPass());
}

unsigned
mlir::mp::copiesToLinalg(Operation *root,
                         llvm::function_ref<bool(memref::CopyOp)> select) {
  SmallVector<memref::CopyOp> copies;
  root->walk([&](memref::CopyOp copy) {
    if (isa<MemRefType>(copy.getSource().getType()) &&
        isa<MemRefType>(copy.getTarget().getType()) && select(copy))
      copies.push_back(copy);
  });
  IRRewriter rewriter(root->getContext());
  for (memref::CopyOp copy : copies) {
    rewriter.setInsertionPoint(copy);
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                copy.getTarget());
  }
  return copies.size();
}

SmallVector<OpOperand *> mlir::mp::getMemoryUses(Value root) {
  SmallVector<OpOperand *> uses;
  SmallVector<Value> worklist = {root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      auto view = dyn_cast<ViewLikeOpInterface>(use.getOwner());
      if (view && view.getViewSource() == value)
        worklist.append(view->result_begin(), view->result_end());
      else
        uses.push_back(&use);
    }
  }
  return uses;
}

bool mlir::mp::areDisjointSubviews(Value a, Value b) {
  // Reshapes and casts keep the elements of the view they read.
  auto strip = [](Value value) {
    while (isa_and_present<memref::CollapseShapeOp, memref::ExpandShapeOp,
                           memref::CastOp>(value.getDefiningOp()))
      value = value.getDefiningOp()->getOperand(0);
    return value;
  };
  a = strip(a);
  b = strip(b);
  auto viewA = a.getDefiningOp<memref::SubViewOp>();
  auto viewB = b.getDefiningOp<memref::SubViewOp>();
  if (!viewA || !viewB || viewA.getSource() != viewB.getSource() ||
      !viewA.getSourceType().getLayout().isIdentity())
    return false;
  // The first and last index of `view` along `d`, if they are constants.
  auto range = [](memref::SubViewOp view,
                  unsigned d) -> std::optional<std::pair<int64_t, int64_t>> {
    std::optional<int64_t> offset =
        getConstantIntValue(view.getMixedOffsets()[d]);
    std::optional<int64_t> size = getConstantIntValue(view.getMixedSizes()[d]);
    std::optional<int64_t> stride =
        getConstantIntValue(view.getMixedStrides()[d]);
    int64_t span, last;
    if (!offset || !size || !stride || *size <= 0 || *stride <= 0 ||
        llvm::MulOverflow(*size - 1, *stride, span) ||
        llvm::AddOverflow(*offset, span, last))
      return std::nullopt;
    return std::make_pair(*offset, last);
  };
  for (unsigned d = 0, e = viewA.getSourceType().getRank(); d < e; ++d) {
    auto rangeA = range(viewA, d), rangeB = range(viewB, d);
    if (rangeA && rangeB &&
        (rangeA->second < rangeB->first || rangeB->second < rangeA->first))
      return true;
  }
  return false;
}

bool mlir::mp::isGpuBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref &&
         isa_and_nonnull<gpu::AddressSpaceAttr>(memref.getMemorySpace());
}

Type mlir::mp::findGpuBuffer(Operation *op) {
  for (TypeRange types :
       {TypeRange(op->getOperandTypes()), TypeRange(op->getResultTypes())})
    for (Type type : types)
      if (isGpuBuffer(type))
        return type;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Type type : block.getArgumentTypes())
        if (isGpuBuffer(type))
          return type;
  Type found;
  op->getAttrDictionary().walk([&](Type type) {
    if (!found && isGpuBuffer(type))
      found = type;
  });
  return found;
}

bool mlir::mp::isGpuDialectOp(Operation *op) {
  return isa_and_present<gpu::GPUDialect, nvgpu::NVGPUDialect,
                         NVVM::NVVMDialect>(op->getDialect());
}
