//===- ClassifyPrecision.cpp - mp-classify-precision ------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/CarriedValues.h"
#include "mp/Analysis/Policy.h"
#include "mp/Analysis/PrecisionAnalysis.h"
#include "mp/Analysis/Report.h"
#include "mp/Analysis/TypePlan.h"
#include "mp/Dialect/MP/Transforms/Passes.h"
#include "mp/Utils/OutputFile.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_CLASSIFYPRECISIONPASS
#include "mp/Dialect/MP/Transforms/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct ClassifyPrecisionPass
    : public mp::impl::ClassifyPrecisionPassBase<ClassifyPrecisionPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Loads the policy and applies the list options; emits an error naming the
  /// offending option on failure.
  FailureOr<Policy> buildPolicy();
  void annotate(const PrecisionGraph &graph);
  LogicalResult writeOutputs(const Policy &policy,
                             ArrayRef<FunctionPainting> paintings);
};
} // namespace

/// True if `key` is neither a pseudo key nor a registered op while its
/// dialect is loaded or unknown: it then only matches ops of that exact name
/// (a custom op), and is likely a typo.
static bool isUnknownOpName(StringRef key, MLIRContext *ctx) {
  if (Policy::isPseudoKey(key) || RegisteredOperationName::lookup(key, ctx))
    return false;
  StringRef ns = key.split('.').first;
  return ctx->getLoadedDialect(ns) ||
         !llvm::is_contained(ctx->getAvailableDialects(), ns);
}

FailureOr<Policy> ClassifyPrecisionPass::buildPolicy() {
  ModuleOp module = getOperation();
  llvm::Expected<Policy> loaded = Policy::load(policy);
  if (!loaded) {
    emitError(module.getLoc())
        << "mp-classify-precision: " << llvm::toString(loaded.takeError());
    return failure();
  }
  Policy result = std::move(*loaded);
  if (level != PolicyLevel::FromPolicy)
    result.setLevel(level);
  MLIRContext *ctx = module.getContext();
  for (unsigned i = 0; i < kNumPrecisionClasses; ++i) {
    auto cls = static_cast<PrecisionClass>(i);
    for (const std::string &key : result.getKeys(cls))
      if (isUnknownOpName(key, ctx))
        emitWarning(module.getLoc())
            << "mp-classify-precision: the " << stringifyPrecisionClass(cls)
            << " list of policy '" << result.getName() << "' names '" << key
            << "', which is not a registered op; it only matches ops of that "
               "exact name";
  }
  struct Edit {
    PrecisionClass cls;
    ListOption<std::string> &add, &remove;
  } edits[] = {{PrecisionClass::allow, allowAdd, allowRemove},
               {PrecisionClass::deny, denyAdd, denyRemove},
               {PrecisionClass::infer, inferAdd, inferRemove},
               {PrecisionClass::clear, clearAdd, clearRemove}};
  for (Edit &edit : edits) {
    StringRef list = stringifyPrecisionClass(edit.cls);
    for (const std::string &key : edit.remove) {
      if (!result.remove(edit.cls, key)) {
        emitError(module.getLoc())
            << "mp-classify-precision: " << list << "-remove: '" << key
            << "' is not in the " << list << " list";
        return failure();
      }
    }
    for (const std::string &key : edit.add) {
      if (isUnknownOpName(key, ctx))
        emitWarning(module.getLoc())
            << "mp-classify-precision: " << list << "-add: '" << key
            << "' is not a registered op; it only matches "
               "ops of that exact name";
      result.add(edit.cls, key);
    }
  }
  if (llvm::Error err = result.verify()) {
    emitError(module.getLoc())
        << "mp-classify-precision: " << llvm::toString(std::move(err));
    return failure();
  }
  return result;
}

void ClassifyPrecisionPass::annotate(const PrecisionGraph &graph) {
  MLIRContext *ctx = &getContext();
  DenseMap<Operation *, SmallVector<Attribute>> carried;
  for (const PrecisionNode &node : graph.nodes) {
    auto precision = PrecisionAttr::get(ctx, node.precision);
    if (node.slot >= 0) {
      SmallVector<Attribute> &slots = carried[node.op];
      if (slots.empty())
        slots.assign(CarriedValues(node.op).getNumSlots(),
                     PrecisionAttr::get(ctx, Precision::f32));
      slots[node.slot] = precision;
      continue;
    }
    if (node.cls)
      node.op->setAttr(MPDialect::ClassAttrHelper::getNameStr(),
                       PrecisionClassAttr::get(ctx, *node.cls));
    node.op->setAttr(MPDialect::PrecisionAttrHelper::getNameStr(), precision);
    if (node.precision != Precision::f32)
      ++numLowOps;
    else
      ++numF32Ops;
    // The classifier owns mp.accumulator: one left from an earlier run (of
    // another policy) would contradict this painting.
    node.op->removeAttr(MPDialect::AccumulatorAttrHelper::getNameStr());
    if (lowPrecisionAccumulation && node.precision != Precision::f32 &&
        isArithmeticAccumulation(node.op))
      node.op->setAttr(MPDialect::AccumulatorAttrHelper::getNameStr(),
                       precision);
  }
  for (auto &[op, slots] : carried)
    op->setAttr(MPDialect::PrecisionAttrHelper::getNameStr(),
                ArrayAttr::get(ctx, slots));
}

LogicalResult
ClassifyPrecisionPass::writeOutputs(const Policy &policy,
                                    ArrayRef<FunctionPainting> paintings) {
  if (reportFile.empty() && dotFile.empty() && !summary)
    return success();
  ModuleOp module = getOperation();
  FailureOr<TypePlan> plan = TypePlan::build(module);
  if (failed(plan))
    return failure();
  PrecisionSummary figures = summarize(paintings, *plan);
  if (!reportFile.empty()) {
    auto file =
        openOutput(module, "mp-classify-precision", "report", reportFile);
    if (!file)
      return failure();
    writeJsonReport(file->os(), policy, paintings, figures);
    if (failed(closeOutput(module, "mp-classify-precision", "report",
                           reportFile, std::move(file))))
      return failure();
  }
  if (!dotFile.empty()) {
    auto file = openOutput(module, "mp-classify-precision", "dot", dotFile);
    if (!file)
      return failure();
    writeDotGraph(file->os(), paintings);
    if (failed(closeOutput(module, "mp-classify-precision", "dot", dotFile,
                           std::move(file))))
      return failure();
  }
  if (summary)
    printSummaryTable(llvm::errs(), policy, figures);
  return success();
}

void ClassifyPrecisionPass::runOnOperation() {
  FailureOr<Policy> resolved = buildPolicy();
  if (failed(resolved))
    return signalPassFailure();
  PrecisionAnalysisOptions opts;
  opts.remarks = remarks;
  opts.lowPrecisionAccumulation = lowPrecisionAccumulation;
  opts.lowPrecisionBoundaries = lowPrecisionBoundaries;
  std::vector<FunctionPainting> paintings;
  WalkResult walk = getOperation().walk([&](FunctionOpInterface fn) {
    if (fn.isExternal())
      return WalkResult::advance();
    FailureOr<PrecisionGraph> graph = paintPrecisions(fn, *resolved, opts);
    if (failed(graph))
      return WalkResult::interrupt();
    annotate(*graph);
    if (lowPrecisionBoundaries)
      fn->setAttr(
          MPDialect::SignaturePrecisionAttrHelper::getNameStr(),
          PrecisionAttr::get(&getContext(), resolved->getLowPrecision()));
    paintings.push_back({fn, std::move(*graph)});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || failed(writeOutputs(*resolved, paintings)))
    return signalPassFailure();
}
