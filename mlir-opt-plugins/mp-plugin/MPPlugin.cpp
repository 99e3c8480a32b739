//===- MPPlugin.cpp - mp as a plugin for mlir-opt ---------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Load with
//   mlir-opt --load-dialect-plugin=MPPlugin.so --load-pass-plugin=MPPlugin.so
// The dialect half is needed to parse mp ops and attributes; the pass half
// registers every mp pass (transforms, conversion, CPU codegen) and pipeline
// (mp-amp-pipeline, mp-train-pipeline, mp-lower-to-cpu).
//
//===----------------------------------------------------------------------===//

#include "mp/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MPDialectPlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::mp::registerMPDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MPPassPlugin", LLVM_VERSION_STRING,
          []() { mlir::mp::registerMPPassesAndPipelines(); }};
}
