//===- KernelReport.cpp - What the GPU kernels of a function do -----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// An analysis of the kernel stage (gpu.launch ops, before outlining): per
// kernel its kind (a GEMM on mma.sync or wgmma, a block or warp reduction,
// or parallel loops), grid and block, the
// op it was made from, and the bytes it reads and writes, counted once per
// buffer it touches; per function the totals, the bytes of activations
// (to and from the buffers the function allocates and does not return) and
// of results (those it allocates and returns: a step's weight gradients,
// updated parameters and optimizer state). The IR is not changed.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "KernelMemory.h"
#include "LibraryCalls.h"
#include "MmaContraction.h"
#include "Wgmma.h"
#include "mp/Dialect/MP/IR/MPDialect.h"
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

/// The bytes of a memref type, or 0 if its shape is not static.
static int64_t getBytes(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return 0;
  return memref.getNumElements() *
         llvm::divideCeil(memref.getElementTypeBitWidth(), 8);
}

namespace {
/// The roots (getRootBuffer) of the buffers a function returns.
using Results = llvm::SmallDenseSet<Value>;

static Results getResults(func::FuncOp func) {
  Results results;
  func.walk([&](func::ReturnOp op) {
    for (Value value : op.getOperands())
      if (isa<MemRefType>(value.getType()))
        results.insert(getRootBuffer(value));
  });
  return results;
}

/// The memory a kernel or a library call moves: each buffer it touches
/// once, at its static size. Of that, activations are the buffers the
/// function allocates and does not return, results those it allocates and
/// returns (the rest are its arguments).
struct Traffic {
  int64_t bytesRead = 0, bytesWritten = 0, activationBytes = 0, resultBytes = 0;
  /// The buffers (seen through views: their roots) it reads and writes.
  llvm::SetVector<Value> reads, writes;
  /// Per buffer the function allocates (a root), the bytes read and
  /// written.
  llvm::MapVector<Value, std::pair<int64_t, int64_t>> allocated;

  void add(Value buffer, bool read, bool written, const Results &results) {
    Value root = getRootBuffer(buffer);
    if (read)
      reads.insert(root);
    if (written)
      writes.insert(root);
    int64_t bytes = getBytes(buffer.getType());
    bytesRead += read ? bytes : 0;
    bytesWritten += written ? bytes : 0;
    if (!root.getDefiningOp<memref::AllocOp>())
      return;
    (results.contains(root) ? resultBytes : activationBytes) +=
        (read ? bytes : 0) + (written ? bytes : 0);
    auto &[rootRead, rootWritten] = allocated[root];
    rootRead += read ? bytes : 0;
    rootWritten += written ? bytes : 0;
  }
};

/// What one gpu.launch does.
struct Kernel {
  gpu::LaunchOp launch;
  /// A GEMM on Tensor Cores, and whether mp-gpu-wgmma-variants computes its
  /// K steps with wgmma.mma_async on sm_90a; or an f32 GEMM on CUDA cores
  /// (tiled, without mma).
  bool gemm = false, wgmma = false, simt = false;
  Traffic traffic;

  /// How mp-gpu-tile-reductions distributes the reduction it computes, if
  /// it is one: "block" or "warp".
  StringRef reduction;

  std::string getKind() const {
    if (wgmma)
      return "wgmma GEMM";
    if (gemm)
      return "mma.sync GEMM";
    if (simt)
      return "f32 GEMM on CUDA cores";
    if (!reduction.empty())
      return (reduction + " reduction").str();
    return "parallel loops";
  }
  /// Bytes of its workgroup (shared) memory.
  int64_t sharedBytes = 0;
  /// Where the ops computed in it come from (`file:line:col`, each once, in
  /// the order they first appear): the ops fused into it.
  SmallVector<std::string> ops;
};

/// A call of a CUDA library: a contraction run by cuBLASLt (with the
/// consumer its epilogue computes: mp-gpu-library-gemm) or a convolution by
/// cuDNN (mp-gpu-library-conv).
struct LibraryCall {
  func::CallOp call;
  StringRef library;
  Traffic traffic;
  /// Where the ops it computes come from (`file:line:col`).
  SmallVector<std::string> ops;
};

/// A kernel (0, its index) or a library call (1, its index) of a function.
using Unit = std::pair<unsigned, size_t>;

/// The kernels and library calls of one function.
struct FunctionKernels {
  func::FuncOp func;
  Results results;
  SmallVector<Kernel, 0> kernels;
  SmallVector<LibraryCall, 0> calls;
  /// Both in program order.
  SmallVector<Unit> order;
  int64_t bytesMoved = 0, activationBytes = 0, resultBytes = 0, gemms = 0,
          wgmmas = 0, simtGemms = 0;
  int64_t libraryGemms = 0, libraryConvs = 0;

  void add(const Traffic &traffic) {
    bytesMoved += traffic.bytesRead + traffic.bytesWritten;
    activationBytes += traffic.activationBytes;
    resultBytes += traffic.resultBytes;
  }
  void add(Kernel kernel) {
    add(kernel.traffic);
    gemms += kernel.gemm;
    wgmmas += kernel.wgmma;
    simtGemms += kernel.simt;
    order.push_back({0, kernels.size()});
    kernels.push_back(std::move(kernel));
  }
  void add(LibraryCall call) {
    add(call.traffic);
    order.push_back({1, calls.size()});
    calls.push_back(std::move(call));
  }
  const Traffic &getTraffic(Unit unit) const {
    return unit.first ? calls[unit.second].traffic
                      : kernels[unit.second].traffic;
  }
};
} // namespace

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

/// The buffer whose address (getBufferAddress: its aligned pointer plus its
/// offset, as an i64) `address` is, or null.
static Value getAddressedBuffer(Value address) {
  while (Operation *def = address.getDefiningOp()) {
    if (auto pointer = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(def))
      return pointer.getSource();
    if (isa<arith::IndexCastOp>(def))
      address = def->getOperand(0);
    else if (isa<arith::AddIOp>(def))
      address = def->getOperand(0);
    else
      return nullptr;
  }
  return nullptr;
}

/// A library call of `library`: the buffers it reads and writes (from its
/// arguments, see mp-gpu-library-gemm and mp-gpu-library-conv), and the
/// `file:line:col` its location holds (a fused location: the contraction's
/// and its epilogue's), each once.
static LibraryCall analyze(func::CallOp call, StringRef library,
                           const Results &results) {
  LibraryCall result{call, library};
  auto touch = [&](unsigned position, bool read, bool written) {
    if (Value buffer = getAddressedBuffer(call.getOperand(position)))
      result.traffic.add(buffer, read, written, results);
  };
  unsigned last = call.getNumOperands() - 1;
  if (library == "cuBLASLt") {
    // A, B, D (read too with beta != 0), the bias.
    std::optional<APFloat> beta;
    if (auto constant =
            call.getOperand(17).getDefiningOp<arith::ConstantFloatOp>())
      beta = constant.value();
    touch(5, true, false);
    touch(9, true, false);
    touch(13, !beta || !beta->isZero(), true);
    touch(last, true, false);
  } else {
    // x, w, y: kind 1 (backward data) writes x from y.
    bool backward = getConstantIntValue(call.getOperand(1)) == 1;
    touch(last - 2, !backward, backward);
    touch(last - 1, true, false);
    touch(last, backward, !backward);
  }
  llvm::StringSet<> seen;
  call.getLoc()->walk([&](Location loc) {
    if (auto file = dyn_cast<FileLineColLoc>(loc))
      if (std::string text = format(file); seen.insert(text).second)
        result.ops.push_back(text);
    return WalkResult::advance();
  });
  return result;
}

static Kernel analyze(gpu::LaunchOp launch, bool wgmma,
                      const Results &results) {
  Kernel kernel{launch};
  kernel.wgmma = wgmma && countWgmmaChains(launch) > 0;
  if (StringAttr how = MPDialect::GpuReductionAttrHelper(launch.getContext())
                           .getAttr(launch))
    kernel.reduction = how.getValue();
  Region &body = launch.getBody();
  for (BlockArgument buffer : launch.getWorkgroupAttributions())
    kernel.sharedBytes += getBytes(buffer.getType());
  llvm::StringSet<> seen;
  auto addLocation = [&](Operation *op) {
    if (!op->getLoc()->findInstanceOf<FileLineColLoc>())
      return;
    std::string location = getLocation(op);
    if (seen.insert(location).second)
      kernel.ops.push_back(location);
  };
  body.walk([&](Operation *op) {
    addLocation(op);
    // The ops of an outlined producer it calls.
    if (func::FuncOp callee = getCalledBody(op))
      callee.walk([&](Operation *inner) {
        if (inner != callee && !inner->hasTrait<OpTrait::IsTerminator>())
          addLocation(inner);
      });
  });
  // The buffers from outside the kernel it reads and writes; a view made
  // inside counts as the buffer it views.
  llvm::MapVector<Value, std::pair<bool, bool>> touched;
  body.walk([&](Operation *op) {
    if (isa<nvgpu::MmaSyncOp, NVVM::MmaOp>(op))
      kernel.gemm = true;
    forEachAccess(op, [&](Value value, bool read, bool written) {
      Value outer = value;
      while (body.isAncestor(outer.getParentRegion())) {
        auto view = outer.getDefiningOp<ViewLikeOpInterface>();
        if (!view)
          break;
        outer = view.getViewSource();
      }
      if (body.isAncestor(outer.getParentRegion()))
        return; // a buffer of the kernel's own
      auto &[isRead, isWritten] = touched[outer];
      isRead |= read;
      isWritten |= written;
    });
  });
  for (auto &[buffer, access] : touched)
    kernel.traffic.add(buffer, access.first, access.second, results);
  // A tiled contraction's launch keeps its tiles (mp-gpu-tile-contractions).
  kernel.simt =
      !kernel.gemm &&
      MPDialect::GpuTileAttrHelper(launch.getContext()).getAttr(launch);
  return kernel;
}

/// The constant sizes of a launch's grid or block.
static llvm::json::Array getSizes(gpu::KernelDim3 sizes) {
  llvm::json::Array array;
  for (Value v : {sizes.x, sizes.y, sizes.z})
    array.push_back(getConstantIntValue(v).value_or(-1));
  return array;
}

/// The buffers `f` allocates, as JSON: per buffer where it is allocated,
/// its type, whether it is an activation or a result, the bytes moved to
/// and from it and the kernels and library calls that read and write it
/// (`kernel I`, `library call I`), the most bytes moved first.
static llvm::json::Array getBuffers(const FunctionKernels &f) {
  struct Buffer {
    int64_t read = 0, written = 0;
    llvm::json::Array readBy, writtenBy;
  };
  llvm::MapVector<Value, Buffer> buffers;
  for (auto [kind, index] : f.order) {
    const Traffic &traffic = f.getTraffic({kind, index});
    std::string unit =
        ((kind ? "library call " : "kernel ") + Twine(index)).str();
    for (auto &[root, bytes] : traffic.allocated) {
      Buffer &buffer = buffers[root];
      buffer.read += bytes.first;
      buffer.written += bytes.second;
      if (traffic.reads.contains(root))
        buffer.readBy.push_back(unit);
      if (traffic.writes.contains(root))
        buffer.writtenBy.push_back(unit);
    }
  }
  auto entries = buffers.takeVector();
  llvm::stable_sort(entries, [](const auto &x, const auto &y) {
    return x.second.read + x.second.written > y.second.read + y.second.written;
  });
  llvm::json::Array array;
  for (auto &[root, buffer] : entries) {
    std::string type;
    llvm::raw_string_ostream os(type);
    root.getType().print(os);
    array.push_back(llvm::json::Object{
        {"location", getLocation(root.getDefiningOp())},
        {"type", type},
        {"kind", f.results.contains(root) ? "result" : "activation"},
        {"bytes_read", buffer.read},
        {"bytes_written", buffer.written},
        {"read_by", std::move(buffer.readBy)},
        {"written_by", std::move(buffer.writtenBy)}});
  }
  return array;
}

static void writeJson(llvm::raw_ostream &os,
                      MutableArrayRef<FunctionKernels> functions) {
  llvm::json::Array functionArray;
  for (FunctionKernels &f : functions) {
    llvm::json::Array kernels;
    for (auto [i, k] : llvm::enumerate(f.kernels)) {
      llvm::json::Object kernel{
          {"index", static_cast<int64_t>(i)},
          {"name", k.launch.getFunction().value_or("")},
          {"kind", k.getKind()},
          {"grid", getSizes(k.launch.getGridSizeOperandValues())},
          {"block", getSizes(k.launch.getBlockSizeOperandValues())},
          {"location", getLocation(k.launch)},
          {"ops", llvm::json::Array(k.ops)},
          {"shared_bytes", k.sharedBytes},
          {"bytes_read", k.traffic.bytesRead},
          {"bytes_written", k.traffic.bytesWritten},
          {"activation_bytes", k.traffic.activationBytes},
          {"result_bytes", k.traffic.resultBytes}};
      // A GEMM's tiles: rows and columns of C per block and per warp.
      if (DenseI64ArrayAttr tiles =
              MPDialect::GpuTileAttrHelper(k.launch.getContext())
                  .getAttr(k.launch))
        kernel["tile"] = llvm::json::Array(tiles.asArrayRef());
      kernels.push_back(std::move(kernel));
    }
    llvm::json::Array calls;
    for (auto [i, c] : llvm::enumerate(f.calls))
      calls.push_back(
          llvm::json::Object{{"index", static_cast<int64_t>(i)},
                             {"library", c.library},
                             {"location", getLocation(c.call)},
                             {"ops", llvm::json::Array(c.ops)},
                             {"bytes_read", c.traffic.bytesRead},
                             {"bytes_written", c.traffic.bytesWritten},
                             {"activation_bytes", c.traffic.activationBytes},
                             {"result_bytes", c.traffic.resultBytes}});
    functionArray.push_back(
        llvm::json::Object{{"function", f.func.getName()},
                           {"kernels", static_cast<int64_t>(f.kernels.size())},
                           {"library_calls", std::move(calls)},
                           {"gemm_kernels", f.gemms},
                           {"wgmma_kernels", f.wgmmas},
                           {"f32_gemm_kernels", f.simtGemms},
                           {"library_gemms", f.libraryGemms},
                           {"library_convs", f.libraryConvs},
                           {"bytes_moved", f.bytesMoved},
                           {"activation_bytes", f.activationBytes},
                           {"result_bytes", f.resultBytes},
                           {"buffers", getBuffers(f)},
                           {"per_kernel", std::move(kernels)}});
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"functions", std::move(functionArray)}}))
     << "\n";
}

/// The kernels of `functions` as a Graphviz graph: per function a cluster,
/// in it per kernel a cluster of the ops fused into it (by location),
/// filled by kind (GEMM on mma.sync, parallel loops), per library call a
/// cluster of the ops it computes, and an edge from the kernel or call that
/// last wrote a buffer to each one that reads it.
static void writeDot(llvm::raw_ostream &os,
                     MutableArrayRef<FunctionKernels> functions) {
  os << "digraph kernels {\n  compound=true;\n  node [shape=box, "
        "style=filled, fillcolor=white, fontsize=10];\n";
  for (auto [f, function] : llvm::enumerate(functions)) {
    os << "  subgraph cluster_f" << f << " {\n    label=\"@"
       << function.func.getName() << "\";\n";
    // A cluster `fF_ID` of a node per op (one at `fallback` if none is
    // located, to connect).
    auto cluster = [&](const std::string &id, StringRef colour,
                       const Twine &label, ArrayRef<std::string> ops,
                       Operation *fallback) {
      os << "    subgraph cluster_f" << f << "_" << id
         << " {\n      style=filled; fillcolor=\"" << colour << "\";\n"
         << "      label=\"" << label << "\";\n";
      SmallVector<std::string> nodes(ops);
      if (nodes.empty())
        nodes.push_back(getLocation(fallback));
      for (auto [i, op] : llvm::enumerate(nodes))
        os << "      f" << f << "_" << id << "_" << i << " [label=\""
           << llvm::sys::path::filename(op) << "\"];\n";
      os << "    }\n";
    };
    // Kernels are `k<i>`, library calls `l<i>`.
    auto id = [](Unit unit) {
      return (unit.first ? "l" : "k") + std::to_string(unit.second);
    };
    for (auto [k, kernel] : llvm::enumerate(function.kernels)) {
      int64_t bytes = kernel.traffic.bytesRead + kernel.traffic.bytesWritten;
      cluster(id({0, k}),
              kernel.gemm   ? "palegreen"
              : kernel.simt ? "khaki"
                            : "lightgrey",
              "kernel " + Twine(k) + ": " + kernel.getKind() + ", " +
                  Twine(bytes) + " B",
              kernel.ops, kernel.launch);
    }
    for (auto [c, call] : llvm::enumerate(function.calls)) {
      int64_t bytes = call.traffic.bytesRead + call.traffic.bytesWritten;
      cluster(id({1, c}), "lightblue",
              "library call " + Twine(c) + ": " + call.library + ", " +
                  Twine(bytes) + " B",
              call.ops, call.call);
    }
    DenseMap<Value, Unit> lastWriter;
    llvm::SetVector<std::pair<Unit, Unit>> edges;
    for (Unit unit : function.order) {
      for (Value buffer : function.getTraffic(unit).reads) {
        auto it = lastWriter.find(buffer);
        if (it != lastWriter.end() && it->second != unit)
          edges.insert({it->second, unit});
      }
      for (Value buffer : function.getTraffic(unit).writes)
        lastWriter[buffer] = unit;
    }
    for (auto [from, to] : edges)
      os << "    f" << f << "_" << id(from) << "_0 -> f" << f << "_" << id(to)
         << "_0 [ltail=cluster_f" << f << "_" << id(from) << ", lhead=cluster_f"
         << f << "_" << id(to) << "];\n";
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
      FunctionKernels f{func, getResults(func)};
      func.walk([&](Operation *op) {
        if (auto launch = dyn_cast<gpu::LaunchOp>(op))
          return f.add(analyze(launch, wgmma, f.results));
        auto call = dyn_cast<func::CallOp>(op);
        bool gemm = call && call.getCallee() == kLibraryGemmFunction;
        bool conv = call && call.getCallee() == kLibraryConvFunction;
        f.libraryGemms += gemm;
        f.libraryConvs += conv;
        if (gemm || conv)
          f.add(analyze(call, gemm ? "cuBLASLt" : "cuDNN", f.results));
      });
      if (!f.kernels.empty() || f.libraryGemms || f.libraryConvs)
        functions.push_back(std::move(f));
    });
    if (summary)
      for (FunctionKernels &f : functions)
        llvm::errs() << "mp-gpu-kernel-report: @" << f.func.getName() << ": "
                     << f.kernels.size() << " kernels (" << f.gemms
                     << " GEMMs on mma.sync"
                     << (f.wgmmas ? ", " + std::to_string(f.wgmmas) +
                                        " of them on wgmma for sm_90a"
                                  : "")
                     << (f.simtGemms ? ", " + std::to_string(f.simtGemms) +
                                           " f32 GEMMs on CUDA cores"
                                     : "")
                     << (f.libraryGemms
                             ? ", " + std::to_string(f.libraryGemms) +
                                   " cuBLASLt calls"
                             : "")
                     << (f.libraryConvs
                             ? ", " + std::to_string(f.libraryConvs) +
                                   " cuDNN calls"
                             : "")
                     << "), " << f.bytesMoved << " bytes moved, "
                     << f.activationBytes << " bytes of activations, "
                     << f.resultBytes << " bytes of results\n";
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
