//===- InitAll.h - Register everything mp provides --------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_INITALL_H
#define MP_INITALL_H

namespace mlir {
class DialectRegistry;
namespace mp {

/// Adds the mp dialect to `registry`.
void registerMPDialects(DialectRegistry &registry);

/// Registers every mp pass and pipeline with the global registry.
void registerMPPassesAndPipelines();

} // namespace mp
} // namespace mlir

#endif // MP_INITALL_H
