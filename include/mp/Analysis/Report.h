//===- Report.h - Explaining precision decisions ----------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The JSON report, the Graphviz view and the summary table of a painting.
// The JSON schema is documented in docs/Report.md.
//
//===----------------------------------------------------------------------===//

#ifndef MP_ANALYSIS_REPORT_H
#define MP_ANALYSIS_REPORT_H

#include "mp/Analysis/Policy.h"
#include "mp/Analysis/PrecisionAnalysis.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace mp {
class TypePlan;

/// The painted graph of one function.
struct FunctionPainting {
  Operation *function;
  PrecisionGraph graph;
};

/// Whole-module figures.
struct PrecisionSummary {
  /// Nodes per class (index: PrecisionClass; the last entry counts unknown
  /// ops) and per final precision (index: Precision).
  unsigned byClass[kNumPrecisionClasses + 1][kNumPrecisions] = {};
  unsigned numCasts = 0;
  double contractionFlops = 0, lowContractionFlops = 0;
  /// Bytes of op results (static shapes, constants excluded) if everything
  /// stayed f32, and after the rewrite.
  double activationBytesF32 = 0, activationBytesMixed = 0;
};

PrecisionSummary summarize(ArrayRef<FunctionPainting> paintings,
                           const TypePlan &plan);

void writeJsonReport(llvm::raw_ostream &os, const Policy &policy,
                     ArrayRef<FunctionPainting> paintings,
                     const PrecisionSummary &summary);

void writeDotGraph(llvm::raw_ostream &os, ArrayRef<FunctionPainting> paintings);

void printSummaryTable(llvm::raw_ostream &os, const Policy &policy,
                       const PrecisionSummary &summary);

} // namespace mp
} // namespace mlir

#endif // MP_ANALYSIS_REPORT_H
