//===- EnumOptions.h - ODS enums as command-line values ---------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Pass options, pipeline options and mp-run's flags take the values of the
// same ODS enums, spelled as the generated stringify function spells them:
//
//   Option<"optimizer", "optimizer", "::mlir::mp::Optimizer",
//          "::mlir::mp::Optimizer::SGD", "...",
//          "::mlir::mp::clEnumValues(::mlir::mp::symbolizeOptimizer, "
//          "::mlir::mp::getMaxEnumValForOptimizer())">
//
// An unknown value is rejected by the option parser, which lists the valid
// ones in `--help`.
//
//===----------------------------------------------------------------------===//

#ifndef MP_UTILS_ENUMOPTIONS_H
#define MP_UTILS_ENUMOPTIONS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace mp {

/// An llvm::cl modifier adding every value of an ODS enum as a literal.
template <typename EnumT> struct EnumValues {
  std::optional<EnumT> (*symbolize)(uint32_t);
  uint32_t max;

  template <typename Opt> void apply(Opt &option) const {
    for (uint32_t i = 0; i <= max; ++i)
      if (std::optional<EnumT> value = symbolize(i))
        option.getParser().addLiteralOption(stringifyEnum(*value), *value, "");
  }
};

template <typename EnumT>
EnumValues<EnumT> clEnumValues(std::optional<EnumT> (*symbolize)(uint32_t),
                               uint32_t max) {
  return {symbolize, max};
}

} // namespace mp
} // namespace mlir

#endif // MP_UTILS_ENUMOPTIONS_H
