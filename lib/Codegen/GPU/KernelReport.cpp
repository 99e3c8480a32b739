//===- KernelReport.cpp - What the GPU kernels of a function do -----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// An analysis of the kernel stage (gpu.launch ops, before outlining): per
// kernel its kind (a GEMM on mma.sync or parallel loops), grid and block, the
// op it was made from, and the bytes it reads and writes, counted once per
// buffer it touches; per function the totals and the bytes of activations
// (buffers the function allocates, as opposed to its arguments). The IR is
// not changed.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "LibraryCalls.h"
#include "MmaContraction.h"
#include "mp/Utils/OutputFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUKERNELREPORTPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
/// What one gpu.launch does.
struct Kernel {
  gpu::LaunchOp launch;
  bool gemm = false;
  int64_t bytesRead = 0, bytesWritten = 0, activationBytes = 0;
  /// Bytes of its workgroup (shared) memory.
  int64_t sharedBytes = 0;
  /// Where the ops computed in it come from (`file:line:col`, each once, in
  /// the order they first appear): the ops fused into it.
  SmallVector<std::string> ops;
  /// The buffers (seen through views) it reads and writes.
  llvm::SetVector<Value> reads, writes;
};

/// A call of a CUDA library: a contraction run by cuBLASLt (with the
/// consumer its epilogue computes: mp-gpu-library-gemm) or a convolution by
/// cuDNN (mp-gpu-library-conv).
struct LibraryCall {
  func::CallOp call;
  StringRef library;
  /// Where the ops it computes come from (`file:line:col`).
  SmallVector<std::string> ops;
};

/// The kernels and library calls of one function.
struct FunctionKernels {
  func::FuncOp func;
  SmallVector<Kernel> kernels;
  SmallVector<LibraryCall, 0> calls;
  int64_t bytesMoved = 0, activationBytes = 0, gemms = 0;
  int64_t libraryGemms = 0, libraryConvs = 0;

  void add(Kernel kernel) {
    bytesMoved += kernel.bytesRead + kernel.bytesWritten;
    activationBytes += kernel.activationBytes;
    gemms += kernel.gemm;
    kernels.push_back(kernel);
  }
};
} // namespace

/// The bytes of a memref type, or 0 if its shape is not static.
static int64_t getBytes(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return 0;
  return memref.getNumElements() *
         llvm::divideCeil(memref.getElementTypeBitWidth(), 8);
}

/// `file:line:col`.
static std::string format(FileLineColLoc file) {
  return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
          Twine(file.getStartColumn()))
      .str();
}

/// `file:line:col` of `op` if it has one, else its location as MLIR prints
/// it.
static std::string getLocation(Operation *op) {
  if (auto file = op->getLoc()->findInstanceOf<FileLineColLoc>())
    return format(file);
  std::string text;
  llvm::raw_string_ostream os(text);
  op->getLoc().print(os);
  return text;
}

/// A library call of `library`: the `file:line:col` its location holds
/// (a fused location: the contraction's and its epilogue's), each once.
static LibraryCall analyze(func::CallOp call, StringRef library) {
  LibraryCall result{call, library};
  llvm::StringSet<> seen;
  call.getLoc()->walk([&](Location loc) {
    if (auto file = dyn_cast<FileLineColLoc>(loc))
      if (std::string text = format(file); seen.insert(text).second)
        result.ops.push_back(text);
    return WalkResult::advance();
  });
  return result;
}

static Kernel analyze(gpu::LaunchOp launch) {
  Kernel kernel{launch};
  Region &body = launch.getBody();
  for (BlockArgument buffer : launch.getWorkgroupAttributions())
    kernel.sharedBytes += getBytes(buffer.getType());
  llvm::StringSet<> seen;
  body.walk([&](Operation *op) {
    if (!op->getLoc()->findInstanceOf<FileLineColLoc>())
      return;
    std::string location = getLocation(op);
    if (seen.insert(location).second)
      kernel.ops.push_back(location);
  });
  // The buffers from outside the kernel it reads and writes; a view made
  // inside counts as the buffer it views.
  llvm::MapVector<Value, std::pair<bool, bool>> touched;
  body.walk([&](Operation *op) {
    if (isa<nvgpu::MmaSyncOp, NVVM::MmaOp>(op))
      kernel.gemm = true;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      Value value = effect.getValue();
      if (!value || !isa<MemRefType>(value.getType()))
        continue;
      Value outer = value;
      while (body.isAncestor(outer.getParentRegion())) {
        auto view = outer.getDefiningOp<ViewLikeOpInterface>();
        if (!view)
          break;
        outer = view.getViewSource();
      }
      if (body.isAncestor(outer.getParentRegion()))
        continue; // a buffer of the kernel's own
      auto &[read, written] = touched[outer];
      read |= isa<MemoryEffects::Read>(effect.getEffect());
      written |= isa<MemoryEffects::Write>(effect.getEffect());
    }
  });
  for (auto &[buffer, access] : touched) {
    if (access.first)
      kernel.reads.insert(getRootBuffer(buffer));
    if (access.second)
      kernel.writes.insert(getRootBuffer(buffer));
    int64_t bytes = getBytes(buffer.getType());
    int64_t moved = (access.first ? bytes : 0) + (access.second ? bytes : 0);
    kernel.bytesRead += access.first ? bytes : 0;
    kernel.bytesWritten += access.second ? bytes : 0;
    if (getRootBuffer(buffer).getDefiningOp<memref::AllocOp>())
      kernel.activationBytes += moved;
  }
  return kernel;
}

/// The constant sizes of a launch's grid or block.
static llvm::json::Array getSizes(gpu::KernelDim3 sizes) {
  llvm::json::Array array;
  for (Value v : {sizes.x, sizes.y, sizes.z})
    array.push_back(getConstantIntValue(v).value_or(-1));
  return array;
}

static void writeJson(llvm::raw_ostream &os,
                      MutableArrayRef<FunctionKernels> functions) {
  llvm::json::Array functionArray;
  for (FunctionKernels &f : functions) {
    llvm::json::Array kernels;
    for (auto [i, k] : llvm::enumerate(f.kernels)) {
      kernels.push_back(llvm::json::Object{
          {"index", static_cast<int64_t>(i)},
          {"name", k.launch.getFunction().value_or("")},
          {"kind", k.gemm ? "mma.sync GEMM" : "parallel loops"},
          {"grid", getSizes(k.launch.getGridSizeOperandValues())},
          {"block", getSizes(k.launch.getBlockSizeOperandValues())},
          {"location", getLocation(k.launch)},
          {"ops", llvm::json::Array(k.ops)},
          {"shared_bytes", k.sharedBytes},
          {"bytes_read", k.bytesRead},
          {"bytes_written", k.bytesWritten},
          {"activation_bytes", k.activationBytes}});
    }
    llvm::json::Array calls;
    for (auto [i, c] : llvm::enumerate(f.calls))
      calls.push_back(llvm::json::Object{{"index", static_cast<int64_t>(i)},
                                         {"library", c.library},
                                         {"location", getLocation(c.call)},
                                         {"ops", llvm::json::Array(c.ops)}});
    functionArray.push_back(
        llvm::json::Object{{"function", f.func.getName()},
                           {"kernels", static_cast<int64_t>(f.kernels.size())},
                           {"library_calls", std::move(calls)},
                           {"gemm_kernels", f.gemms},
                           {"library_gemms", f.libraryGemms},
                           {"library_convs", f.libraryConvs},
                           {"bytes_moved", f.bytesMoved},
                           {"activation_bytes", f.activationBytes},
                           {"per_kernel", std::move(kernels)}});
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"functions", std::move(functionArray)}}))
     << "\n";
}

/// The kernels of `functions` as a Graphviz graph: per function a cluster,
/// in it per kernel a cluster of the ops fused into it (by location),
/// filled by kind (GEMM on mma.sync, parallel loops), and an edge from the
/// kernel that last wrote a buffer to each kernel that reads it; per
/// library call a cluster of the ops it computes.
static void writeDot(llvm::raw_ostream &os,
                     MutableArrayRef<FunctionKernels> functions) {
  os << "digraph kernels {\n  compound=true;\n  node [shape=box, "
        "style=filled, fillcolor=white, fontsize=10];\n";
  for (auto [f, function] : llvm::enumerate(functions)) {
    os << "  subgraph cluster_f" << f << " {\n    label=\"@"
       << function.func.getName() << "\";\n";
    auto node = [&](size_t k) {
      return llvm::formatv("f{0}_k{1}_0", f, k).str();
    };
    for (auto [k, kernel] : llvm::enumerate(function.kernels)) {
      os << "    subgraph cluster_f" << f << "_k" << k
         << " {\n      style=filled; fillcolor=\""
         << (kernel.gemm ? "palegreen" : "lightgrey") << "\";\n"
         << "      label=\"kernel " << k << ": "
         << (kernel.gemm ? "mma.sync GEMM" : "parallel loops") << ", "
         << kernel.bytesRead + kernel.bytesWritten << " B\";\n";
      // A kernel with no located op still gets a node to connect.
      SmallVector<std::string> ops = kernel.ops;
      if (ops.empty())
        ops.push_back(getLocation(kernel.launch));
      for (auto [i, op] : llvm::enumerate(ops))
        os << "      f" << f << "_k" << k << "_" << i << " [label=\""
           << llvm::sys::path::filename(op) << "\"];\n";
      os << "    }\n";
    }
    // Library calls: a cluster each, the ops they compute in it (no edges:
    // they take addresses, not buffers).
    for (auto [c, call] : llvm::enumerate(function.calls)) {
      os << "    subgraph cluster_f" << f << "_l" << c
         << " {\n      style=filled; fillcolor=\"lightblue\";\n"
         << "      label=\"library call " << c << ": " << call.library
         << "\";\n";
      for (auto [i, op] : llvm::enumerate(call.ops))
        os << "      f" << f << "_l" << c << "_" << i << " [label=\""
           << llvm::sys::path::filename(op) << "\"];\n";
      os << "    }\n";
    }
    DenseMap<Value, size_t> lastWriter;
    llvm::SetVector<std::pair<size_t, size_t>> edges;
    for (auto [k, kernel] : llvm::enumerate(function.kernels)) {
      for (Value buffer : kernel.reads) {
        auto it = lastWriter.find(buffer);
        if (it != lastWriter.end() && it->second != k)
          edges.insert({it->second, k});
      }
      for (Value buffer : kernel.writes)
        lastWriter[buffer] = k;
    }
    for (auto [from, to] : edges)
      os << "    " << node(from) << " -> " << node(to) << " [ltail=cluster_f"
         << f << "_k" << from << ", lhead=cluster_f" << f << "_k" << to
         << "];\n";
    os << "  }\n";
  }
  os << "}\n";
}

namespace {
struct GPUKernelReportPass
    : public mp::impl::GPUKernelReportPassBase<GPUKernelReportPass> {
  using Base::Base;

  void runOnOperation() override {
    markAllAnalysesPreserved();
    ModuleOp module = getOperation();
    SmallVector<FunctionKernels> functions;
    module.walk([&](func::FuncOp func) {
      FunctionKernels f{func};
      func.walk([&](gpu::LaunchOp launch) { f.add(analyze(launch)); });
      func.walk([&](func::CallOp call) {
        bool gemm = call.getCallee() == kLibraryGemmFunction;
        bool conv = call.getCallee() == kLibraryConvFunction;
        f.libraryGemms += gemm;
        f.libraryConvs += conv;
        if (gemm || conv)
          f.calls.push_back(analyze(call, gemm ? "cuBLASLt" : "cuDNN"));
      });
      if (!f.kernels.empty() || f.libraryGemms || f.libraryConvs)
        functions.push_back(std::move(f));
    });
    if (summary)
      for (FunctionKernels &f : functions)
        llvm::errs() << "mp-gpu-kernel-report: @" << f.func.getName() << ": "
                     << f.kernels.size() << " kernels (" << f.gemms
                     << " GEMMs on mma.sync"
                     << (f.libraryGemms
                             ? ", " + std::to_string(f.libraryGemms) +
                                   " cuBLASLt calls"
                             : "")
                     << (f.libraryConvs
                             ? ", " + std::to_string(f.libraryConvs) +
                                   " cuDNN calls"
                             : "")
                     << "), " << f.bytesMoved << " bytes moved, "
                     << f.activationBytes << " bytes of activations\n";
    auto write = [&](StringRef option, StringRef path,
                     function_ref<void(llvm::raw_ostream &)> print) {
      if (path.empty())
        return success();
      auto file = openOutput(module, "mp-gpu-kernel-report", option, path);
      if (!file)
        return failure();
      print(file->os());
      return closeOutput(module, "mp-gpu-kernel-report", option, path,
                         std::move(file));
    };
    if (failed(
            write("report", report,
                  [&](llvm::raw_ostream &os) { writeJson(os, functions); })) ||
        failed(write("dot", dot,
                     [&](llvm::raw_ostream &os) { writeDot(os, functions); })))
      return signalPassFailure();
  }
};
} // namespace
