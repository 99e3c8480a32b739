//===- Report.cpp - Explaining precision decisions --------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/Report.h"
#include "mp/Analysis/Location.h"
#include "mp/Analysis/TypePlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::mp;

static constexpr unsigned kUnknownRow = kNumPrecisionClasses;

/// Multiply-accumulate FLOPs of a contraction or convolution with static
/// loop ranges (2 per point of the iteration space); 0 otherwise.
static double getContractionFlops(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isArithmeticAccumulation(op) ||
      !(linalg::isaContractionOpInterface(linalgOp) ||
        linalg::isaConvolutionOpInterface(linalgOp)))
    return 0;
  double points = 1;
  for (int64_t range : linalgOp.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return 0;
    points *= range;
  }
  return 2 * points;
}

static double getTensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat())
    return 0;
  return tensor.getNumElements() *
         (tensor.getElementType().getIntOrFloatBitWidth() / 8.0);
}

PrecisionSummary mlir::mp::summarize(ArrayRef<FunctionPainting> paintings,
                                     const TypePlan &plan) {
  PrecisionSummary summary;
  summary.numCasts = plan.getNumCasts();
  for (const FunctionPainting &fp : paintings) {
    for (const PrecisionNode &node : fp.graph.nodes) {
      unsigned row = node.cls ? static_cast<unsigned>(*node.cls) : kUnknownRow;
      ++summary.byClass[row][static_cast<unsigned>(node.precision)];
      if (node.slot >= 0)
        continue;
      double flops = getContractionFlops(node.op);
      summary.contractionFlops += flops;
      if (node.precision != Precision::f32)
        summary.lowContractionFlops += flops;
      if (isa<arith::ConstantOp>(node.op))
        continue;
      for (Value result : node.op->getResults()) {
        summary.activationBytesF32 += getTensorBytes(result.getType());
        summary.activationBytesMixed += getTensorBytes(plan.getNewType(result));
      }
    }
  }
  return summary;
}

static std::string getFunctionName(Operation *function) {
  if (auto fn = dyn_cast<FunctionOpInterface>(function))
    return fn.getName().str();
  return function->getName().getStringRef().str();
}

void mlir::mp::writeJsonReport(llvm::raw_ostream &os, const Policy &policy,
                               ArrayRef<FunctionPainting> paintings,
                               const PrecisionSummary &summary) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("policy", policy.getName());
    json.attribute("low_precision",
                   stringifyPrecision(policy.getLowPrecision()));
    json.attribute("level", stringifyPolicyLevel(policy.getLevel()));
    json.attributeArray("ops", [&] {
      for (const FunctionPainting &fp : paintings) {
        std::string fn = getFunctionName(fp.function);
        for (const PrecisionNode &node : fp.graph.nodes) {
          json.object([&] {
            json.attribute("function", fn);
            json.attribute("loc", formatLocation(node.op->getLoc()));
            json.attribute("op", node.op->getName().getStringRef());
            if (node.slot >= 0)
              json.attribute("carried_value", node.slot);
            json.attribute("class", node.cls
                                        ? stringifyPrecisionClass(*node.cls)
                                        : llvm::StringRef("unknown"));
            json.attribute("precision", stringifyPrecision(node.precision));
            json.attribute("reason", node.reason);
          });
        }
      }
    });
    json.attributeObject("summary", [&] {
      json.attributeObject("ops_per_precision", [&] {
        for (unsigned p = 0; p < kNumPrecisions; ++p) {
          unsigned count = 0;
          for (unsigned row = 0; row <= kUnknownRow; ++row)
            count += summary.byClass[row][p];
          if (count)
            json.attribute(stringifyPrecision(static_cast<Precision>(p)),
                           count);
        }
      });
      json.attributeObject("ops_per_class", [&] {
        for (unsigned row = 0; row <= kUnknownRow; ++row) {
          unsigned count = 0;
          for (unsigned p = 0; p < kNumPrecisions; ++p)
            count += summary.byClass[row][p];
          json.attribute(
              row == kUnknownRow
                  ? llvm::StringRef("unknown")
                  : stringifyPrecisionClass(static_cast<PrecisionClass>(row)),
              count);
        }
      });
      json.attribute("casts", summary.numCasts);
      json.attribute("contraction_flops", summary.contractionFlops);
      json.attribute("low_precision_contraction_flops",
                     summary.lowContractionFlops);
      json.attribute("low_precision_flop_fraction",
                     summary.contractionFlops > 0
                         ? summary.lowContractionFlops /
                               summary.contractionFlops
                         : 0.0);
      json.attribute("activation_bytes_f32", summary.activationBytesF32);
      json.attribute("activation_bytes_mixed", summary.activationBytesMixed);
    });
  });
  os << "\n";
}

static llvm::StringRef getFillColor(const PrecisionNode &node) {
  if (node.precision != Precision::f32)
    return "#9be59b"; // low precision: green
  if (node.cls == PrecisionClass::deny)
    return "#f4a6a6";                      // deny: red
  return node.cls ? "#e8e8e8" : "#ffffff"; // f32: grey, unknown: white
}

void mlir::mp::writeDotGraph(llvm::raw_ostream &os,
                             ArrayRef<FunctionPainting> paintings) {
  os << "digraph mp {\n  node [shape=box, style=filled, "
        "fontname=\"monospace\"];\n";
  unsigned base = 0;
  for (const FunctionPainting &fp : paintings) {
    os << "  subgraph \"cluster_" << getFunctionName(fp.function)
       << "\" {\n    label=\"" << getFunctionName(fp.function) << "\";\n";
    for (auto [i, node] : llvm::enumerate(fp.graph.nodes)) {
      os << "    n" << base + i << " [label=\""
         << node.op->getName().getStringRef();
      if (node.slot >= 0)
        os << " #" << node.slot;
      os << "\\n"
         << stringifyPrecision(node.precision) << " ("
         << (node.cls ? stringifyPrecisionClass(*node.cls)
                      : llvm::StringRef("unknown"))
         << ")\", fillcolor=\"" << getFillColor(node) << "\"];\n";
    }
    for (auto [i, node] : llvm::enumerate(fp.graph.nodes))
      for (unsigned succ : node.succs)
        os << "    n" << base + i << " -> n" << base + succ << ";\n";
    os << "  }\n";
    base += fp.graph.nodes.size();
  }
  os << "}\n";
}

void mlir::mp::printSummaryTable(llvm::raw_ostream &os, const Policy &policy,
                                 const PrecisionSummary &summary) {
  StringRef low = stringifyPrecision(policy.getLowPrecision());
  unsigned lowIdx = static_cast<unsigned>(policy.getLowPrecision());
  os << "mp precision summary (policy " << policy.getName() << ", level "
     << stringifyPolicyLevel(policy.getLevel()) << ")\n";
  os << llvm::format("  %-10s %8s %8s %8s\n", "class", "ops", low.str().c_str(),
                     "f32");
  unsigned totals[3] = {0, 0, 0};
  for (unsigned row = 0; row <= kUnknownRow; ++row) {
    unsigned total = 0;
    for (unsigned p = 0; p < kNumPrecisions; ++p)
      total += summary.byClass[row][p];
    unsigned lowCount = summary.byClass[row][lowIdx];
    unsigned f32Count = summary.byClass[row][0];
    std::string name =
        row == kUnknownRow
            ? "unknown"
            : stringifyPrecisionClass(static_cast<PrecisionClass>(row)).str();
    os << llvm::format("  %-10s %8u %8u %8u\n", name.c_str(), total, lowCount,
                       f32Count);
    totals[0] += total;
    totals[1] += lowCount;
    totals[2] += f32Count;
  }
  os << llvm::format("  %-10s %8u %8u %8u\n", "total", totals[0], totals[1],
                     totals[2]);
  os << "  casts: " << summary.numCasts << "\n";
  if (summary.contractionFlops > 0)
    os << llvm::format(
        "  contraction FLOPs in %s: %.1f%% (%.3g of %.3g)\n", low.str().c_str(),
        100.0 * summary.lowContractionFlops / summary.contractionFlops,
        summary.lowContractionFlops, summary.contractionFlops);
  if (summary.activationBytesF32 > 0)
    os << llvm::format("  activation bytes: f32 %.0f -> mixed %.0f (%.1f%%)\n",
                       summary.activationBytesF32, summary.activationBytesMixed,
                       100.0 * summary.activationBytesMixed /
                           summary.activationBytesF32);
}
