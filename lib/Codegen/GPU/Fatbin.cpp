//===- Fatbin.cpp - One fatbin per GPU module for all its chips -----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// gpu-module-to-binary makes one object per chip, and #gpu.select_object
// embeds one of them: a module compiled for sm_80 and sm_90a would run sm_80
// code (JIT-compiled from its PTX) on a Hopper GPU. This pass assembles the
// PTX of every chip with ptxas and packs the cubins, plus the PTX of the
// chips that later GPUs can JIT-compile, into one fatbin with fatbinary, so
// that the driver picks the device's own SASS.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"
#include "mp/Codegen/GPU/PtxFiles.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <algorithm>

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUFATBINPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
/// What ptxas -v says of one kernel on one chip.
struct KernelResources {
  int64_t registers = 0;
  int64_t spillBytes = 0; // stores and loads
};

/// The PTX of one chip, and what ptxas said of its kernels.
struct ChipPtx {
  std::string chip; // "sm_90a"
  std::string ptx;
  int optLevel;
  llvm::StringMap<KernelResources> kernels = {};
};

/// What one gpu.binary becomes.
struct Job {
  gpu::BinaryOp binary;
  SmallVector<ChipPtx> chips;
  std::string fatbin; // the result
  std::string error;  // or why there is none
};

/// A scratch directory, removed with what it holds.
struct ScratchDir {
  SmallString<128> path;
  ~ScratchDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};
} // namespace

/// The "80" or "90a" of "sm_90a".
static StringRef smNumber(StringRef chip) { return chip.drop_front(3); }

/// Whether later GPUs can JIT-compile the chip's PTX: not for
/// architecture-specific targets (sm_90a).
static bool isPortable(StringRef chip) { return !chip.ends_with("a"); }

/// Runs `program` with `args`; on failure returns what it printed (its first
/// lines) in `error`.
static bool runTool(StringRef program, ArrayRef<std::string> args,
                    StringRef logPath, std::string &error) {
  SmallVector<StringRef> argv{program};
  for (const std::string &arg : args)
    argv.push_back(arg);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(program, argv, std::nullopt,
                                         redirects, 0, 0, &message);
  if (status == 0)
    return true;
  std::string output;
  if (auto log = llvm::MemoryBuffer::getFile(logPath)) {
    SmallVector<StringRef> lines;
    (*log)->getBuffer().trim().split(lines, '\n', /*MaxSplit=*/8, false);
    output = llvm::join(lines, "; ");
  }
  error = (llvm::sys::path::filename(program) + " failed" +
           (message.empty() ? "" : ": " + message) +
           (output.empty() ? "" : ": " + output))
              .str();
  return false;
}

/// What `ptxas -v` printed (`log`) of each kernel: its registers and its
/// spill stores and loads.
static llvm::StringMap<KernelResources> parsePtxasLog(StringRef log) {
  llvm::StringMap<KernelResources> kernels;
  llvm::Regex entry("Compiling entry function '([^']+)'");
  llvm::Regex spills("([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads");
  llvm::Regex registers("Used ([0-9]+) registers");
  KernelResources *current = nullptr;
  SmallVector<StringRef> lines, match;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    int64_t stores = 0, loads = 0;
    if (entry.match(line, &match))
      current = &kernels[match[1]];
    else if (current && spills.match(line, &match) &&
             !match[1].getAsInteger(10, stores) &&
             !match[2].getAsInteger(10, loads))
      current->spillBytes = stores + loads;
    else if (current && registers.match(line, &match))
      (void)match[1].getAsInteger(10, current->registers);
  }
  return kernels;
}

/// Writes `text` to `path`; on failure says why in `error`.
static bool writeFile(StringRef path, StringRef text, std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream file(path, ec);
  file << text;
  file.close();
  if (!ec && !file.has_error())
    return true;
  error = ("cannot write '" + path + "': " + ec.message()).str();
  file.clear_error();
  return false;
}

/// Assembles `job`, the `index`th, in `dir` with the tools of `toolkit`; its
/// PTX files are kept in `ptxDir` as well if that is not empty. The tools
/// read files of `dir` named by the binary (what ptxas's errors name):
/// fatbinary's `--image3` takes comma-separated fields, so a comma in
/// `ptxDir` would break its file names, and one in the binary's name is
/// replaced (`a,b` is `a_b.<index>`).
static void assemble(Job &job, size_t index, StringRef dir, StringRef toolkit,
                     StringRef ptxDir) {
  SmallString<128> ptxas(toolkit), fatbinary(toolkit);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  llvm::sys::path::append(fatbinary, "bin", "fatbinary");
  for (StringRef tool : {StringRef(ptxas), StringRef(fatbinary)})
    if (!llvm::sys::fs::can_execute(tool)) {
      job.error = ("cannot run '" + tool +
                   "': set cuda-toolkit to a CUDA toolkit or use format=isa")
                      .str();
      return;
    }
  std::string name = job.binary.getSymName().str();
  if (name.find(',') != std::string::npos) {
    std::replace(name.begin(), name.end(), ',', '_');
    name += "." + std::to_string(index);
  }
  std::string base = (dir + "/" + name).str();
  std::string log = base + ".log", output = base + ".fatbin";
  std::vector<std::string> images{"-64", "--create=" + output};
  for (ChipPtx &chip : job.chips) {
    std::string ptx = base + "." + chip.chip + ".ptx";
    std::string cubin = base + "." + chip.chip + ".cubin";
    if (!writeFile(ptx, chip.ptx, job.error) ||
        (!ptxDir.empty() &&
         !writeFile(getPtxFilePath(ptxDir, job.binary.getSymName(), chip.chip),
                    chip.ptx, job.error)))
      return;
    if (!runTool(ptxas,
                 {"-v", "-arch=" + chip.chip,
                  "-O" + std::to_string(chip.optLevel), ptx, "-o", cubin},
                 log, job.error))
      return;
    if (auto printed = llvm::MemoryBuffer::getFile(log))
      chip.kernels = parsePtxasLog((*printed)->getBuffer());
    std::string sm = smNumber(chip.chip).str();
    images.push_back("--image3=kind=elf,sm=" + sm + ",file=" + cubin);
    if (isPortable(chip.chip))
      images.push_back("--image3=kind=ptx,sm=" + sm + ",file=" + ptx);
  }
  if (!runTool(fatbinary, images, log, job.error))
    return;
  auto fatbin = llvm::MemoryBuffer::getFile(output, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!fatbin) {
    job.error = "cannot read '" + output + "'";
    return;
  }
  job.fatbin = (*fatbin)->getBuffer().str();
}

/// Adds to each kernel of the report at `path` (mp-gpu-kernel-report's
/// JSON) that `jobs` compiled its registers and spilled bytes per chip, and
/// to each kernel in `dynamicShared` the bytes of dynamic shared memory its
/// launches ask for as its `shared_bytes` (its buffers', which the report
/// counted before mp-gpu-dynamic-shared-memory may have put some in the
/// same bytes).
static LogicalResult addToReport(StringRef path, ArrayRef<Job> jobs,
                                 const llvm::StringMap<int64_t> &dynamicShared,
                                 std::string &error) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    error = "cannot read the kernel report '" + path.str() +
            "': " + file.getError().message();
    return failure();
  }
  llvm::Expected<llvm::json::Value> report =
      llvm::json::parse((*file)->getBuffer());
  llvm::json::Object *root = report ? report->getAsObject() : nullptr;
  llvm::json::Array *functions = root ? root->getArray("functions") : nullptr;
  if (!functions) {
    if (!report)
      llvm::consumeError(report.takeError());
    error = "'" + path.str() + "' is not a report of mp-gpu-kernel-report";
    return failure();
  }
  for (llvm::json::Value &function : *functions) {
    llvm::json::Object *f = function.getAsObject();
    llvm::json::Array *kernels = f ? f->getArray("per_kernel") : nullptr;
    if (!kernels)
      continue;
    for (llvm::json::Value &kernel : *kernels) {
      llvm::json::Object *k = kernel.getAsObject();
      std::optional<StringRef> name = k ? k->getString("name") : std::nullopt;
      if (!name)
        continue;
      if (int64_t shared = dynamicShared.lookup(*name))
        (*k)["shared_bytes"] = shared;
      llvm::json::Object registers, spills;
      for (const Job &job : jobs)
        for (const ChipPtx &chip : job.chips) {
          auto found = chip.kernels.find(*name);
          if (found == chip.kernels.end())
            continue;
          registers[chip.chip] = found->second.registers;
          spills[chip.chip] = found->second.spillBytes;
        }
      if (registers.empty())
        continue;
      (*k)["registers"] = std::move(registers);
      (*k)["spill_bytes"] = std::move(spills);
    }
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    return failure();
  }
  os << llvm::formatv("{0:2}", *report) << "\n";
  return success();
}

/// "SASS for sm_80, sm_90a and PTX for sm_80"
static std::string describe(ArrayRef<std::string> sass,
                            ArrayRef<std::string> ptx) {
  std::string text = "SASS for " + llvm::join(sass, ", ");
  if (!ptx.empty())
    text += " and PTX for " + llvm::join(ptx, ", ");
  return text;
}

namespace {
struct GPUFatbinPass
    : public mp::impl::GPUFatbinPassBase<GPUFatbinPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<Job> jobs;
    for (auto binary : module.getOps<gpu::BinaryOp>()) {
      Job job{binary, {}, {}, {}};
      for (auto [index, attr] : llvm::enumerate(binary.getObjects())) {
        auto object = cast<gpu::ObjectAttr>(attr);
        auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
        if (!target ||
            object.getFormat() != gpu::CompilationTarget::Assembly) {
          binary.emitError() << "mp-gpu-fatbin: object #" << index
                             << " is not NVVM PTX; run gpu-module-to-binary "
                                "with format=isa first";
          return signalPassFailure();
        }
        job.chips.push_back({target.getChip().str(),
                             object.getObject().getValue().str(),
                             target.getO()});
      }
      if (!job.chips.empty())
        jobs.push_back(std::move(job));
    }
    if (jobs.empty())
      return;

    ScratchDir dir;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("mp-fatbin", dir.path)) {
      module.emitError() << "mp-gpu-fatbin: cannot create a scratch "
                            "directory: "
                         << ec.message();
      return signalPassFailure();
    }
    if (StringRef(dir.path).contains(',')) {
      module.emitError() << "mp-gpu-fatbin: the scratch directory '" << dir.path
                         << "' has a comma, which fatbinary cannot take in a "
                            "file name: set TMPDIR to a directory without one";
      return signalPassFailure();
    }
    if (!ptxDir.empty())
      if (std::error_code ec = llvm::sys::fs::create_directories(ptxDir)) {
        module.emitError() << "mp-gpu-fatbin: cannot create '" << ptxDir
                           << "': " << ec.message();
        return signalPassFailure();
      }
    parallelForEach(&getContext(), jobs, [&](Job &job) {
      assemble(job, &job - jobs.data(), dir.path, cudaToolkit, ptxDir);
    });

    MLIRContext *ctx = &getContext();
    Builder builder(ctx);
    std::vector<std::string> sass, ptx;
    for (Job &job : jobs) {
      if (!job.error.empty()) {
        job.binary.emitError() << "mp-gpu-fatbin: " << job.error;
        return signalPassFailure();
      }
      SmallVector<Attribute> sassChips, ptxChips;
      for (const ChipPtx &chip : job.chips) {
        sassChips.push_back(builder.getStringAttr(chip.chip));
        if (isPortable(chip.chip))
          ptxChips.push_back(builder.getStringAttr(chip.chip));
        if (!llvm::is_contained(sass, chip.chip))
          sass.push_back(chip.chip);
        if (isPortable(chip.chip) && !llvm::is_contained(ptx, chip.chip))
          ptx.push_back(chip.chip);
      }
      auto first = cast<gpu::ObjectAttr>(job.binary.getObjects()[0]);
      NamedAttrList properties(first.getProperties());
      properties.set("mp.sass", builder.getArrayAttr(sassChips));
      properties.set("mp.ptx", builder.getArrayAttr(ptxChips));
      auto fatbin = gpu::ObjectAttr::get(
          ctx, first.getTarget(), gpu::CompilationTarget::Fatbin,
          builder.getStringAttr(job.fatbin), properties.getDictionary(ctx),
          first.getKernels());
      job.binary.setObjectsAttr(builder.getArrayAttr({fatbin}));
    }

    // The dynamic shared memory each kernel's launches ask for (constants,
    // the same for every launch of a kernel).
    llvm::StringMap<int64_t> dynamicShared;
    module.walk([&](gpu::LaunchFuncOp launch) {
      APInt bytes;
      if (Value size = launch.getDynamicSharedMemorySize();
          size && matchPattern(size, m_ConstantInt(&bytes))) {
        int64_t &shared = dynamicShared[launch.getKernelName().getValue()];
        shared = std::max(shared, bytes.getSExtValue());
      }
    });
    std::string error;
    if (!kernelReport.empty() &&
        failed(addToReport(kernelReport, jobs, dynamicShared, error))) {
      module.emitError() << "mp-gpu-fatbin: " << error;
      return signalPassFailure();
    }

    // What the binaries hold, for the runtime's messages.
    constexpr StringLiteral kTargets = "_mp_gpu_targets";
    if (auto old = module.lookupSymbol<LLVM::GlobalOp>(kTargets))
      old.erase();
    std::string text = describe(sass, ptx);
    text.push_back('\0');
    OpBuilder globals = OpBuilder::atBlockBegin(module.getBody());
    LLVM::GlobalOp::create(
        globals, module.getLoc(),
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size()),
        /*isConstant=*/true, LLVM::Linkage::External, kTargets,
        globals.getStringAttr(text));
  }
};
} // namespace
