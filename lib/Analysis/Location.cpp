//===- Location.cpp - Printing locations for users --------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/Location.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

std::string mlir::mp::formatLocation(Location loc) {
  std::string text = "unknown";
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
              ":" + Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}
