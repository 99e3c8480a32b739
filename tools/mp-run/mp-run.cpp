//===- mp-run.cpp - Compile and run graphs on the CPU -----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
//   mp-run FILE.mlir --entry NAME [--amp=none|fp16|bf16] [--policy FILE]
//          [--inputs a.npy,b.npy | --random-inputs --seed N]
//          [--save-inputs DIR] [--save-outputs DIR] [--compare-fp32]
//          [--repeat N] [--threads N] [--emit-so PATH]
//
// Compiles the entry (and, with --amp, its mixed-precision version made by
// mp-amp-pipeline) to a shared object, runs it through the mp runtime on
// .npy or random inputs, and prints its outputs, the error of the mixed
// outputs against fp32 and the time per call. See docs/Running.md.
//
//===----------------------------------------------------------------------===//

#include "Errors.h"
#include "Graph.h"
#include "Train.h"
#include "mp/Codegen/CPU/Passes.h"
#include "mp/Codegen/GPU/Passes.h"
#include "mp/Compiler/CpuCompiler.h"
#include "mp/InitAll.h"
#include "mp/Pipelines/Pipelines.h"
#include "mp/Runtime/Tensor.h"
#include "mp/Utils/EnumOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>

using namespace mlir;
using namespace mp_run;
using mp_runtime::TensorList;
namespace cl = llvm::cl;

char ReportedError::ID;
char InterruptedError::ID;

/// What --train runs; the training flags below write into it, so the
/// defaults are those of the passes (TableGen) and of TrainOptions.
static TrainCommand trainCommand;
static mp::LossScalingPassOptions &scaling = trainCommand.pipeline.scaling;
static mp::MakeTrainStepPassOptions &step = trainCommand.pipeline.step;
static mp_runner::TrainOptions &runOptions = trainCommand.run;

static cl::OptionCategory category("mp-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<FILE.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (with --train: the gradient function; "
                       "default: the only one)"),
              cl::cat(category));
static cl::opt<std::string>
    amp("amp",
        cl::desc("Mixed precision: none, fp16 or bf16 (runs "
                 "mp-amp-pipeline before lowering)"),
        cl::init("none"), cl::cat(category));
static cl::opt<std::string>
    policyFile("policy", cl::desc("Policy file for --amp (JSON or YAML)"),
               cl::cat(category));
static cl::list<std::string>
    inputs("inputs", cl::desc("Input .npy files, one per argument, in order"),
           cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> randomInputs(
    "random-inputs",
    cl::desc("Draw inputs: floats uniform in [-1, 1), integers uniform in "
             "[0, 10) (or below the size of the table they index), i1 "
             "uniform in {0, 1}"),
    cl::cat(category));
static cl::opt<unsigned, true>
    seed("seed", cl::desc("Seed of --random-inputs and of --train"),
         cl::location(runOptions.seed), cl::cat(category));
static cl::opt<std::string> saveInputs("save-inputs",
                                       cl::desc("Write argN.npy to this dir"),
                                       cl::cat(category));
static cl::opt<std::string>
    saveOutputs("save-outputs",
                cl::desc("Write outN.npy (and outN.fp32.npy with "
                         "--compare-fp32) to this dir"),
                cl::cat(category));
static cl::opt<bool> compareFp32(
    "compare-fp32",
    cl::desc("Also run the fp32 graph and print the error of each output"),
    cl::cat(category));
static cl::opt<unsigned> repeat("repeat", cl::desc("Time N calls of the entry"),
                                cl::init(0), cl::cat(category));
static cl::opt<unsigned>
    optLevel("O",
             cl::desc("Optimization level (0-3; mp-lower-to-cpu's opt-level)"),
             cl::init(mp::kDefaultCpuOptLevel), cl::Prefix, cl::cat(category));
static cl::opt<Backend> backend(
    "backend", cl::desc("Where the graph runs (default auto, or $MP_BACKEND)"),
    cl::init(Backend::automatic),
    cl::values(clEnumValN(Backend::automatic, "auto",
                          "cuda when a driver and a GPU are usable, else cpu "
                          "(one line on stderr says which and why)"),
               clEnumValN(Backend::cpu, "cpu", "the CPU (mp-lower-to-cpu)"),
               clEnumValN(Backend::gpuEmulation, "gpu-emulation",
                          "the GPU pipeline's tiled stage, executed on the CPU "
                          "(mp-lower-to-gpu-emulation)"),
               clEnumValN(Backend::cuda, "cuda",
                          "NVIDIA GPUs (mp-lower-to-gpu and the runtime's "
                          "CUDA backend)")),
    cl::cat(category));
static cl::opt<int> device("device",
                           cl::desc("With --backend cuda or auto: the GPU to "
                                    "use (default 0, or $MP_CUDA_DEVICE)"),
                           cl::init(-1), cl::cat(category));
/// LLVM registers a hidden --threads of its own (not used by mp-run): it
/// gives way to mp-run's, declared next (so constructed after this).
static const bool llvmThreadsRenamed = [] {
  auto options = cl::getRegisteredOptions();
  auto it = options.find("threads");
  if (it == options.end())
    return false;
  it->second->setArgStr("llvm-threads");
  return true;
}();
static cl::opt<unsigned> threads(
    "threads",
    cl::desc("Threads of the compiled CPU code (default 0: one per core, "
             "divided among the ranks of an mpirun on this machine)"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string>
    emitSo("emit-so", cl::desc("Keep the compiled shared object at this path"),
           cl::cat(category));
static cl::opt<std::string> outputDir(
    "output",
    cl::desc("With --compile-only: write an artifact for mp-exec to DIR "
             "(module.so and manifest.json: backend, entries, signatures)"),
    cl::value_desc("DIR"), cl::cat(category));
static cl::opt<bool> compileOnlyFlag(
    "compile-only",
    cl::desc("Compile (graph or training step) and run nothing; no inputs, "
             "dataset or driver needed"),
    cl::cat(category));
static cl::opt<std::string> targetCpu(
    "target-cpu",
    cl::desc("The CPU the host code is compiled for: 'host' (this machine's, "
             "with all its instruction set extensions) or a CPU that LLVM "
             "knows ('llc -mcpu=help'), such as x86-64-v3 or znver4. Default: "
             "host, unless mp-run writes the module for later (--compile-only, "
             "--emit-so), which may run on another machine: then x86-64-v3 "
             "(AVX2: Haswell, Zen and later). The runtime refuses a module "
             "that needs an extension the CPU running it lacks"),
    cl::value_desc("cpu"), cl::cat(category));
static cl::opt<std::string> savePtx(
    "save-ptx",
    cl::desc("With --backend cuda: write each GPU module's PTX per chip as "
             "DIR/<module>.<chip>.ptx"),
    cl::value_desc("DIR"), cl::cat(category));

static cl::opt<std::string> kernelReport(
    "kernel-report",
    cl::desc("With --backend cuda: write the kernels of each function (ops "
             "fused, grid, block, shared memory, bytes moved) as JSON to FILE "
             "(mp-gpu-kernel-report)"),
    cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string> kernelDot(
    "kernel-dot",
    cl::desc("With --backend cuda: write a Graphviz view of the kernels (the "
             "source ops clustered and coloured by kernel) to FILE"),
    cl::value_desc("FILE"), cl::cat(category));

static cl::opt<mp::GpuGemm> gpuGemm(
    "gpu-gemm",
    cl::desc("With --backend cuda or gpu-emulation: how Tensor Core "
             "contractions and convolutions are computed (mp-lower-to-gpu's "
             "gemm; the emulation runs library calls on the CPU)"),
    cl::init(mp::GPUSelectGemmPassOptions().gemm), mp::gpuGemmValues(),
    cl::cat(category));

namespace {
enum class Bf16Dot { automatic, on, off };
} // namespace
static cl::opt<Bf16Dot> bf16Dot(
    "bf16-dot",
    cl::desc("With --backend cpu: multiply bf16 contractions with "
             "AVX512-BF16's vdpbf16ps (mp-lower-to-cpu's bf16-dot)"),
    cl::init(Bf16Dot::automatic),
    cl::values(clEnumValN(Bf16Dot::automatic, "auto",
                          "when the CPU compiling has AVX512-BF16"),
               clEnumValN(Bf16Dot::on, "on",
                          "always (the CPU compiling must have AVX512-BF16)"),
               clEnumValN(Bf16Dot::off, "off",
                          "never: widen bf16 operands to f32")),
    cl::cat(category));

static cl::opt<int64_t> gpuStages(
    "gpu-stages", cl::value_desc("N"),
    cl::desc("With --backend cuda or gpu-emulation: K steps of the generated "
             "GEMMs' panels staged at once; 1 single-buffers them, N > 1 "
             "loads the next N - 1 steps' with cp.async during one step's "
             "Tensor Core work (mp-lower-to-gpu's stages)"),
    cl::init(mp::GPUTileContractionsPassOptions().stages), cl::cat(category));

static cl::opt<int64_t> gpuTileK(
    "gpu-tile-k", cl::value_desc("K"),
    cl::desc("With --backend cuda or gpu-emulation: the largest K step of a "
             "trip of the generated Tensor Core GEMMs' K loop, 16, 32 or 64 "
             "(halved, down to 16, until it divides K; mp-lower-to-gpu's "
             "tile-k)"),
    cl::init(mp::GPUTileContractionsPassOptions().tileK), cl::cat(category));

static cl::opt<int64_t> gpuWarpMinExtent(
    "gpu-warp-min-extent", cl::value_desc("N"),
    cl::desc("With --backend cuda or gpu-emulation: reductions to more rows "
             "than one block per row takes, of at least N terms per row "
             "(consecutive in memory), take one warp per row; 0: one thread "
             "per row (mp-lower-to-gpu's warp-min-extent)"),
    cl::init(mp::GPUTileReductionsPassOptions().warpMinExtent),
    cl::cat(category));

static cl::opt<bool> gpuSplitK(
    "gpu-split-k",
    cl::desc("With --backend cuda or gpu-emulation: split the K loop of "
             "generated GEMMs with too few thread blocks into partial GEMMs "
             "and their sum (mp-lower-to-gpu's split-k)"),
    cl::init(mp::kDefaultSplitK), cl::cat(category));

static cl::opt<bool> gpuWgmma(
    "gpu-wgmma",
    cl::desc("With --backend cuda or gpu-emulation: compute the generated "
             "GEMMs' K steps with Hopper's wgmma.mma_async on sm_90a (H100, "
             "H200; mma.sync on the other chips), in blocks of one "
             "warpgroup (64 x 64), or of two (128 x 128) for GEMMs with 256 "
             "such blocks or more unless --gpu-tile is given; warps own 16 "
             "rows each (mp-lower-to-gpu's wgmma)"),
    cl::init(CompileOptions().gpuWgmma), cl::cat(category));

static cl::list<std::string> gpuChips(
    "gpu-chips", cl::CommaSeparated, cl::value_desc("sm_NN,..."),
    cl::desc("With --backend cuda: the NVIDIA GPU architectures to compile "
             "for (mp-lower-to-gpu's chips; default sm_80,sm_90a): SASS for "
             "each, and PTX for those without an 'a' suffix"),
    cl::cat(category));

static cl::list<int64_t> gpuTile(
    "gpu-tile", cl::CommaSeparated, cl::value_desc("M,N,WARP_M,WARP_N"),
    cl::desc("With --backend cuda or gpu-emulation: the thread block's and "
             "each warp's tile of C in generated GEMMs that fill them "
             "(mp-lower-to-gpu's tile-m, tile-n, warp-m, warp-n; default "
             "64,64,32,32)"),
    cl::cat(category));

static cl::list<int64_t> gpuF32Tile(
    "gpu-f32-tile", cl::CommaSeparated, cl::value_desc("BLOCK,THREAD"),
    cl::desc("With --backend cuda or gpu-emulation: the largest block of C "
             "(BLOCK x BLOCK) and each thread's tile (THREAD x THREAD) in f32 "
             "GEMMs on CUDA cores (mp-lower-to-gpu's simt-block, "
             "simt-thread; default 64,4)"),
    cl::cat(category));

static cl::OptionCategory trainCategory("mp-run training options");
static cl::opt<std::string, true> trainFile(
    "train",
    cl::desc("Train the gradient function in this file (docs/Training.md)"),
    cl::value_desc("FILE.mlir"), cl::location(trainCommand.file),
    cl::cat(trainCategory));
static cl::opt<std::string, true>
    datasetName("dataset", cl::desc("Data set: fashion-mnist"),
                cl::location(trainCommand.dataset), cl::init("fashion-mnist"),
                cl::cat(trainCategory));
static cl::opt<unsigned, true> epochs("epochs", cl::desc("Epochs"),
                                      cl::location(runOptions.epochs),
                                      cl::cat(trainCategory));
static cl::opt<int64_t, true>
    batch("batch", cl::desc("Batch size (must be the graph's)"),
          cl::location(runOptions.batch), cl::cat(trainCategory));
static cl::opt<int64_t, true>
    maxSteps("max-steps", cl::desc("Steps per epoch at most (0: all)"),
             cl::location(runOptions.maxSteps), cl::cat(trainCategory));
static cl::opt<int64_t, true>
    testLimit("test-limit",
              cl::desc("Evaluate on the first N test images (0: all)"),
              cl::location(runOptions.testLimit), cl::cat(trainCategory));
// Training knobs: options of mp-train-pipeline's passes.
static cl::opt<mp::LossScaleMode, true>
    lossScale("loss-scale",
              cl::desc("Loss scaling (auto: dynamic for fp16, none otherwise)"),
              cl::location(scaling.mode),
              mp::clEnumValues(mp::symbolizeLossScaleMode,
                               mp::getMaxEnumValForLossScaleMode()),
              cl::cat(trainCategory));
static cl::opt<double, true>
    staticScale("static-scale", cl::desc("The scale of --loss-scale static"),
                cl::location(scaling.staticScale), cl::cat(trainCategory));
static cl::opt<double, true> initScale("init-scale",
                                       cl::desc("Initial dynamic loss scale"),
                                       cl::location(scaling.initScale),
                                       cl::cat(trainCategory));
static cl::opt<int32_t, true> growthInterval(
    "growth-interval", cl::desc("Clean steps before the scale grows"),
    cl::location(scaling.growthInterval), cl::cat(trainCategory));
static cl::opt<int32_t, true>
    hysteresis("hysteresis",
               cl::desc("Overflows in a row before the scale backs off"),
               cl::location(scaling.hysteresis), cl::cat(trainCategory));
static cl::opt<mp::Optimizer, true> optimizer(
    "optimizer", cl::desc("The optimizer"), cl::location(step.optimizer),
    mp::clEnumValues(mp::symbolizeOptimizer, mp::getMaxEnumValForOptimizer()),
    cl::cat(trainCategory));
static cl::opt<double, true> lr("lr", cl::desc("Learning rate"),
                                cl::location(step.lr), cl::cat(trainCategory));
static cl::opt<double, true> momentum("momentum", cl::desc("Momentum"),
                                      cl::location(step.momentum),
                                      cl::cat(trainCategory));
static cl::opt<double, true>
    weightDecay("weight-decay",
                cl::desc("Weight decay (default: the optimizer's PyTorch "
                         "default)"),
                cl::location(step.weightDecay), cl::cat(trainCategory));
static cl::opt<double, true>
    clipNorm("clip-norm", cl::desc("Clip gradients to this global norm"),
             cl::location(step.clipNorm), cl::cat(trainCategory));
static cl::opt<int64_t, true>
    accumulate("accumulate",
               cl::desc("Micro-batches per step (gradient accumulation)"),
               cl::location(step.accumulate), cl::cat(trainCategory));
static cl::opt<bool, true> dataParallel(
    "data-parallel",
    cl::desc("Compile the step for data-parallel training (implied when "
             "mpirun starts more than one rank; for --compile-only "
             "artifacts that mp-exec runs under mpirun)"),
    cl::location(step.dataParallel), cl::cat(trainCategory));
static cl::opt<mp::AllReduceType, true> allreduceType(
    "allreduce-type",
    cl::desc("Precision in which ranks exchange gradients (data-parallel)"),
    cl::location(step.allreduceType),
    mp::clEnumValues(mp::symbolizeAllReduceType,
                     mp::getMaxEnumValForAllReduceType()),
    cl::cat(trainCategory));
static cl::opt<std::string, true>
    initDir("init", cl::desc("Initial parameters: argN.npy per parameter"),
            cl::value_desc("DIR"), cl::location(runOptions.initDir),
            cl::cat(trainCategory));
static cl::opt<std::string, true>
    logFile("log",
            cl::desc("Write a CSV (step, epoch, loss, scale, skipped, "
                     "accuracy)"),
            cl::location(runOptions.logFile), cl::cat(trainCategory));
static cl::opt<std::string, true>
    saveParams("save-params",
               cl::desc("Write the trained parameters as argN.npy to DIR"),
               cl::value_desc("DIR"), cl::location(runOptions.saveParams),
               cl::cat(trainCategory));
static cl::opt<std::string, true> saveState(
    "save-state",
    cl::desc("Checkpoint training to DIR at the end (and every "
             "--save-every N steps): parameters, optimizer and loss-scale "
             "state, position; --resume DIR continues from it"),
    cl::value_desc("DIR"), cl::location(runOptions.saveState),
    cl::cat(trainCategory));
static cl::opt<int64_t, true>
    saveEvery("save-every", cl::desc("With --save-state: every N steps too"),
              cl::value_desc("N"), cl::location(runOptions.saveEvery),
              cl::cat(trainCategory));
static cl::opt<std::string, true>
    resume("resume",
           cl::desc("Continue training from the checkpoint in DIR (same "
                    "model and flags; --epochs/--max-steps count from the "
                    "start)"),
           cl::value_desc("DIR"), cl::location(runOptions.resume),
           cl::cat(trainCategory));
static cl::opt<bool, true> noShuffle("no-shuffle",
                                     cl::desc("Take the batches in file order"),
                                     cl::location(runOptions.inFileOrder),
                                     cl::cat(trainCategory));
static cl::opt<float, true> lossWeight(
    "loss-weight",
    cl::desc("Seed the backward pass with W: train on W * loss (small W "
             "shows fp16 gradient underflow)"),
    cl::location(runOptions.lossWeight), cl::cat(trainCategory));
static cl::opt<int64_t, true> interruptAtStep(
    "interrupt-at-step",
    cl::desc("Testing: send SIGINT to mp-run itself after this step"),
    cl::location(runOptions.interruptAtStep), cl::Hidden,
    cl::cat(trainCategory));
static cl::list<int64_t, std::vector<int64_t>>
    injectOverflow("inject-overflow",
                   cl::desc("Seed the backward pass with +inf at these "
                            "(1-based) steps"),
                   cl::location(runOptions.injectOverflow), cl::CommaSeparated,
                   cl::cat(trainCategory));
static cl::opt<int64_t, true>
    injectRank("inject-rank",
               cl::desc("With --inject-overflow under mpirun: only this rank "
                        "injects (default: all)"),
               cl::location(runOptions.injectRank), cl::cat(trainCategory));

/// Reads or draws the arguments of `entry`.
static llvm::Expected<TensorList> makeInputs(const mp_entry *entry) {
  TensorList args;
  int32_t numArgs = mp_entry_num_args(entry);
  if (!inputs.empty()) {
    if (static_cast<int32_t>(inputs.size()) != numArgs)
      return error("--inputs gives " + llvm::Twine(inputs.size()) +
                   " files but '" + entryName + "' takes " +
                   llvm::Twine(numArgs) + " arguments");
    for (int32_t i = 0; i < numArgs; ++i) {
      mp_tensor t;
      bool bf16 = mp_entry_arg(entry, i)->dtype == MP_BF16;
      if (mp_npy_read(inputs[i].c_str(), bf16, &t) != MP_OK)
        return runtimeError();
      args.push_back(t);
    }
    return std::move(args);
  }
  std::mt19937_64 rng(runOptions.seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> bit(0, 1);
  for (int32_t i = 0; i < numArgs; ++i) {
    const mp_value_info *info = mp_entry_arg(entry, i);
    for (int32_t d = 0; d < info->rank; ++d)
      if (info->shape[d] < 0)
        return error("argument #" + llvm::Twine(i) +
                     " has a dynamic size: give its values with --inputs");
    mp_runtime::Tensor f64;
    if (mp_tensor_alloc(MP_F64, info->is_scalar ? 0 : info->rank, info->shape,
                        f64.get()) != MP_OK)
      return runtimeError();
    auto *values = static_cast<double *>(f64->data);
    // Indices into a table smaller than 10 rows stay inside it.
    std::uniform_int_distribution<int> small(
        0, info->bound > 0 && info->bound < 10 ? int(info->bound) - 1 : 9);
    for (int64_t n = 0, e = mp_tensor_num_elements(f64.get()); n < e; ++n) {
      switch (info->dtype) {
      case MP_F32:
      case MP_F16:
      case MP_BF16:
      case MP_F64:
        // Drawn as f32 so that every dtype sees the same numbers.
        values[n] = static_cast<float>(real(rng));
        break;
      case MP_I1:
        values[n] = bit(rng);
        break;
      default:
        values[n] = small(rng);
      }
    }
    mp_tensor t;
    if (mp_tensor_convert(f64.get(), info->dtype, &t) != MP_OK)
      return runtimeError();
    args.push_back(t);
  }
  return std::move(args);
}

/// Copies of arguments that calls consumed, alive as long as the results
/// that may view them.
static std::vector<TensorList> consumedCopies;

/// Calls `entry`. A training step consumes the state it updates in place
/// (mp_entry_call): it gets copies, so `args` keep their values for the
/// fp32 reference and --save-inputs.
static llvm::Expected<TensorList> call(mp_entry *entry, TensorList &args) {
  mp_tensor *callArgs = args.data();
  for (int32_t r = 0, e = mp_entry_num_results(entry); r < e; ++r) {
    if (mp_entry_result(entry, r)->role != MP_ROLE_UPDATES)
      continue;
    TensorList &copies = consumedCopies.emplace_back();
    for (int32_t i = 0; i < args.size(); ++i) {
      mp_tensor copy;
      if (mp_tensor_convert(&args[i], args[i].dtype, &copy) != MP_OK)
        return runtimeError();
      copies.push_back(copy);
    }
    callArgs = copies.data();
    break;
  }
  TensorList results(mp_entry_num_results(entry));
  if (mp_entry_call(entry, callArgs, args.size(), results.data(),
                    results.size()) != MP_OK)
    return runtimeError();
  return std::move(results);
}

static llvm::Error saveAll(const std::string &dir, const char *prefix,
                           const char *suffix, TensorList &tensors) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return error("cannot create '" + dir + "': " + ec.message());
  for (int32_t i = 0; i < tensors.size(); ++i) {
    std::string path = dir + "/" + prefix + std::to_string(i) + suffix + ".npy";
    if (mp_npy_write(path.c_str(), &tensors[i]) != MP_OK)
      return runtimeError();
  }
  return llvm::Error::success();
}

static void printOutputs(const std::string &label, TensorList &results) {
  llvm::outs() << "outputs (" << label << "):\n";
  for (int32_t i = 0; i < results.size(); ++i) {
    const mp_tensor &t = results[i];
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    int64_t count = mp_tensor_num_elements(&t);
    for (int64_t n = 0; n < count; ++n) {
      double v = mp_tensor_get(&t, n);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
    }
    llvm::outs() << llvm::format("  out%-3d %-18s min %-12.6g max %-12.6g "
                                 "mean %.6g\n",
                                 i, mp_runtime::formatType(t).c_str(), lo, hi,
                                 count ? sum / count : 0.0);
  }
}

/// Relative error of one value against the reference, floored at 1e-3 of
/// the output's largest magnitude so that values near zero do not dominate.
static void printComparison(TensorList &mixed, TensorList &reference) {
  llvm::outs() << "error of " << amp << " against fp32 (relative error "
               << "|x - ref| / max(|ref|, 1e-3 * max|ref|)):\n";
  llvm::outs() << llvm::format("  %-6s %-12s %-12s %-12s\n", "output",
                               "max abs", "max rel", "mean rel");
  for (int32_t i = 0; i < reference.size(); ++i) {
    const mp_tensor &m = mixed[i], &r = reference[i];
    int64_t count = mp_tensor_num_elements(&r);
    double scale = 0;
    for (int64_t n = 0; n < count; ++n)
      scale = std::max(scale, std::fabs(mp_tensor_get(&r, n)));
    double maxAbs = 0, maxRel = 0, sumRel = 0;
    for (int64_t n = 0; n < count; ++n) {
      double ref = mp_tensor_get(&r, n);
      double diff = std::fabs(mp_tensor_get(&m, n) - ref);
      if (std::isnan(diff))
        diff = INFINITY;
      double rel = diff / std::max({std::fabs(ref), 1e-3 * scale, 1e-30});
      maxAbs = std::max(maxAbs, diff);
      maxRel = std::max(maxRel, rel);
      sumRel += rel;
    }
    llvm::outs() << llvm::format("  out%-3d %-12.4g %-12.4g %-12.4g\n", i,
                                 maxAbs, maxRel, count ? sumRel / count : 0.0);
  }
}

static llvm::Error timeCalls(const std::string &label,
                             const CompiledModule &compiled, mp_entry *entry,
                             TensorList &args) {
  // Wall-clock times and, on the CUDA backend, device times (events).
  std::vector<double> times, deviceTimes;
  for (unsigned n = 0; n <= repeat; ++n) {
    auto start = std::chrono::steady_clock::now();
    llvm::Expected<TensorList> results = call(entry, args);
    if (!results)
      return results.takeError();
    if (n == 0) // the first call warms up caches and page tables
      continue;
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count() *
        1e3);
    if (double ms = mp_cuda_last_call_ms(); ms >= 0)
      deviceTimes.push_back(ms);
  }
  auto print = [&](const char *what, std::vector<double> &ms,
                   const std::string &note) {
    std::sort(ms.begin(), ms.end());
    llvm::outs() << llvm::format(
        "%s per call (%s): median %.4g ms over %u calls, min %.4g ms, max "
        "%.4g ms (%s)\n",
        what, label.c_str(), ms[ms.size() / 2], static_cast<unsigned>(repeat),
        ms.front(), ms.back(), note.c_str());
  };
  char compilation[64];
  std::snprintf(compilation, sizeof(compilation),
                "compilation %.3g s, not included",
                compiled.getCompileSeconds());
  print("time", times, compilation);
  if (deviceTimes.size() == times.size())
    print("device time", deviceTimes, "CUDA events: the call's GPU work");
  return llvm::Error::success();
}

namespace {
/// One compiled version of the graph and its entry.
struct Version {
  std::string label;
  std::unique_ptr<CompiledModule> compiled;
  mp_entry *entry = nullptr;
};
} // namespace

/// The CPU to compile for: --target-cpu, or its default (portable for a
/// module written to a file that may be copied to another machine).
static std::string getTargetCpu() {
  if (targetCpu.getNumOccurrences())
    return targetCpu;
  bool kept = compileOnlyFlag || !emitSo.empty();
  return (kept ? mp::getPortableCpu() : StringRef(mp::kHostCpu)).str();
}

/// The compile flags.
static CompileOptions getCompileOptions() {
  CompileOptions options;
  options.backend = backend;
  options.optLevel = optLevel;
  options.targetCpu = getTargetCpu();
  options.bf16Dot =
      bf16Dot == Bf16Dot::on || (bf16Dot == Bf16Dot::automatic &&
                                 mp::cpuHasAvx512Bf16(options.targetCpu));
  options.emitSo = emitSo;
  options.outputDir = outputDir;
  options.compileOnly = compileOnlyFlag;
  options.savePtx = savePtx;
  options.gpuGemm = gpuGemm;
  options.gpuStages = gpuStages;
  options.gpuTileK = gpuTileK;
  options.gpuSplitK = gpuSplitK;
  options.gpuWarpMinExtent = gpuWarpMinExtent;
  options.gpuWgmma = gpuWgmma;
  options.gpuChips.assign(gpuChips.begin(), gpuChips.end());
  if (!gpuTile.empty()) {
    std::copy(gpuTile.begin(), gpuTile.end(), options.gpuTile.begin());
    options.gpuTileGiven = true;
  }
  if (gpuF32Tile.size() == 2)
    std::copy(gpuF32Tile.begin(), gpuF32Tile.end(), options.gpuF32Tile.begin());
  options.kernelReport = kernelReport;
  options.kernelDot = kernelDot;
  return options;
}

/// Compiles `module` (consumed) to `soPath` and finds the entry.
static llvm::Expected<Version> compileVersion(const std::string &label,
                                              ModuleOp module,
                                              const std::string &soPath) {
  Version version;
  version.label = label;
  llvm::Expected<std::unique_ptr<CompiledModule>> compiled =
      CompiledModule::compile(module, soPath, getCompileOptions());
  if (!compiled)
    return compiled.takeError();
  version.compiled = std::move(*compiled);
  llvm::Expected<mp_entry *> entry = version.compiled->findEntry(entryName);
  if (!entry)
    return entry.takeError();
  version.entry = *entry;
  return std::move(version);
}

/// mp-run FILE --entry NAME: compiles the entry (and its mixed version),
/// runs it and prints its outputs.
static llvm::Error runGraph(MLIRContext &context) {
  llvm::Expected<OwningOpRef<ModuleOp>> module = loadGraph(inputFile, context);
  if (!module)
    return module.takeError();
  auto fn = (*module)->lookupSymbol<func::FuncOp>(entryName);
  if (!fn || fn.isExternal()) {
    std::string names;
    for (auto f : (*module)->getOps<func::FuncOp>())
      if (!f.isExternal() && f.isPublic())
        names += (names.empty() ? "" : ", ") + f.getName().str();
    return error("no function '" + entryName + "' in " + inputFile +
                 " (functions: " + names + ")");
  }
  if (llvm::Error err = keepOnly(**module, fn, inputFile))
    return err;
  llvm::Expected<std::unique_ptr<TempDir>> tmp = TempDir::create();
  if (!tmp)
    return tmp.takeError();

  Version reference, mixed;
  if (amp != "none") {
    OwningOpRef<ModuleOp> clone = (*module)->clone();
    PassManager pm(&context);
    mp::AmpPipelineOptions options;
    options.policy = policyFile.empty() ? std::string(amp) : policyFile;
    mp::buildAmpPipeline(pm, options);
    if (failed(pm.run(*clone)))
      return reported();
    if (compileOnlyFlag)
      return compileOnly(*clone, amp, getCompileOptions(),
                         emitSo.empty() ? (*tmp)->file("mixed.so")
                                        : std::string(emitSo));
    llvm::Expected<Version> version = compileVersion(
        amp, *clone,
        emitSo.empty() ? (*tmp)->file("mixed.so") : std::string(emitSo));
    if (!version)
      return version.takeError();
    mixed = std::move(*version);
  }
  if (compileOnlyFlag)
    return compileOnly(**module, "fp32", getCompileOptions(),
                       emitSo.empty() ? (*tmp)->file("fp32.so")
                                      : std::string(emitSo));
  if (amp == "none" || compareFp32) {
    llvm::Expected<Version> version =
        compileVersion("fp32", **module,
                       emitSo.empty() || amp != "none" ? (*tmp)->file("fp32.so")
                                                       : std::string(emitSo));
    if (!version)
      return version.takeError();
    reference = std::move(*version);
  }
  Version &main = amp == "none" ? reference : mixed;

  llvm::Expected<TensorList> args = makeInputs(main.entry);
  if (!args)
    return args.takeError();
  if (!saveInputs.empty())
    if (llvm::Error err = saveAll(saveInputs, "arg", "", *args))
      return err;
  llvm::Expected<TensorList> results = call(main.entry, *args);
  if (!results)
    return results.takeError();
  printOutputs(main.label, *results);
  if (!saveOutputs.empty())
    if (llvm::Error err = saveAll(saveOutputs, "out", "", *results))
      return err;
  if (compareFp32) {
    llvm::Expected<TensorList> refResults = call(reference.entry, *args);
    if (!refResults)
      return refResults.takeError();
    printComparison(*results, *refResults);
    if (!saveOutputs.empty())
      if (llvm::Error err = saveAll(saveOutputs, "out", ".fp32", *refResults))
        return err;
  }
  if (repeat > 0) {
    if (llvm::Error err =
            timeCalls(main.label, *main.compiled, main.entry, *args))
      return err;
    if (compareFp32)
      if (llvm::Error err = timeCalls(reference.label, *reference.compiled,
                                      reference.entry, *args))
        return err;
  }
  return llvm::Error::success();
}

/// Checks the flags that do not depend on the graph.
static llvm::Error checkFlags() {
  if (amp != "none" && amp != "fp16" && amp != "bf16")
    return error("--amp must be none, fp16 or bf16, not '" + amp + "'");
  if (!policyFile.empty() && amp == "none")
    return error("--policy needs --amp=fp16 or --amp=bf16");
  if (!trainCommand.file.empty() && !inputFile.empty())
    return error("give the graph either as FILE or with --train, not both");
  if (!savePtx.empty() && backend != Backend::cuda)
    return error("--save-ptx needs --backend cuda");
  if ((!kernelReport.empty() || !kernelDot.empty()) && backend != Backend::cuda)
    return error("--kernel-report and --kernel-dot need --backend cuda");
  if (!outputDir.empty() &&
      (!compileOnlyFlag || !emitSo.empty() || !savePtx.empty()))
    return error("--output DIR needs --compile-only, and writes DIR/module.so: "
                 "drop --emit-so and --save-ptx");
  // The GPU pipeline's flags, which a CPU run has no use for (a cl::list's
  // & is its storage's address).
  for (const cl::Option *flag : std::initializer_list<const cl::Option *>{
           &gpuGemm, &gpuStages, &gpuTileK, &gpuSplitK, &gpuWarpMinExtent,
           &gpuWgmma, std::addressof(gpuTile), std::addressof(gpuF32Tile)})
    if (flag->getNumOccurrences() && backend == Backend::cpu)
      return error("--" + flag->ArgStr +
                   " needs --backend cuda, gpu-emulation or auto");
  if (bf16Dot.getNumOccurrences() && backend != Backend::cpu &&
      backend != Backend::automatic)
    return error("--bf16-dot needs --backend cpu or auto");
  if (llvm::Error bad = mp::checkTargetCpu(getTargetCpu()))
    return error("--target-cpu: " + llvm::toString(std::move(bad)));
  if (bf16Dot == Bf16Dot::on && !mp::cpuHasAvx512Bf16(getTargetCpu()))
    return error("--bf16-dot on: the target CPU '" + getTargetCpu() +
                 "' has no AVX512-BF16 (the compiled code would use it); use "
                 "auto or off, or another --target-cpu");
  if (optLevel > mp::kMaxCpuOptLevel)
    return error("-O" + std::to_string(optLevel) +
                 " is invalid: expected -O0, -O1, -O2 or -O3");
  if (gpuWarpMinExtent < 0)
    return error("--gpu-warp-min-extent: " + std::to_string(gpuWarpMinExtent) +
                 " is invalid: expected 0 (a thread per row) or more");
  if (gpuChips.getNumOccurrences() && backend != Backend::cuda &&
      backend != Backend::automatic)
    return error("--gpu-chips needs --backend cuda or auto");
  if (gpuTile.getNumOccurrences() || gpuWgmma || gpuChips.getNumOccurrences() ||
      gpuStages.getNumOccurrences() || gpuTileK.getNumOccurrences() ||
      gpuF32Tile.getNumOccurrences()) {
    if (gpuTile.getNumOccurrences() && gpuTile.size() != 4)
      return error("--gpu-tile: expected 4 numbers M,N,WARP_M,WARP_N, got " +
                   std::to_string(gpuTile.size()));
    if (gpuF32Tile.getNumOccurrences() && gpuF32Tile.size() != 2)
      return error("--gpu-f32-tile: expected 2 numbers BLOCK,THREAD, got " +
                   std::to_string(gpuF32Tile.size()));
    // The options the pipeline will get, as the compiler sets them.
    mp::GpuPipelineOptions gpu;
    setGpuOptions(getCompileOptions(), gpu);
    std::string problem;
    if (failed(mp::verifyGpuPipelineOptions(gpu, [&](const Twine &message) {
          problem = message.str();
          return failure();
        })))
      return error((StringRef(problem).contains(" stages=")   ? "--gpu-stages: "
                    : StringRef(problem).contains(" tile-k=") ? "--gpu-tile-k: "
                    : StringRef(problem).contains(" simt-block=")
                        ? "--gpu-f32-tile: "
                    : gpuTile.getNumOccurrences()  ? "--gpu-tile: "
                    : gpuChips.getNumOccurrences() ? "--gpu-chips: "
                                                   : "--gpu-wgmma: ") +
                   problem);
  }
  if (device < -1 || (device >= 0 && backend != Backend::cuda &&
                      backend != Backend::automatic))
    return error("--device needs --backend cuda or auto, and a GPU number "
                 "from 0");
  if (compileOnlyFlag &&
      (!inputs.empty() || randomInputs || compareFp32 || repeat ||
       !saveInputs.empty() || !saveOutputs.empty()))
    return error("--compile-only runs nothing: drop --inputs, "
                 "--random-inputs, --compare-fp32, --repeat, --save-inputs "
                 "and --save-outputs");
  if (!trainCommand.file.empty()) {
    std::string problem = mp_runner::checkTrainOptions(trainCommand.run);
    return problem.empty() ? llvm::Error::success() : error(problem);
  }
  for (auto [i, file] : llvm::enumerate(inputs))
    if (file.empty())
      return error("--inputs: file name #" + llvm::Twine(i + 1) +
                   " is empty (give one .npy file per argument, separated "
                   "by commas)");
  if (inputFile.empty())
    return error("no input file (mp-run FILE.mlir --entry NAME ..., or "
                 "mp-run --train FILE.mlir ...)");
  if (entryName.empty())
    return error("--entry NAME is required (the function to run)");
  if (compareFp32 && amp == "none")
    return error("--compare-fp32 needs --amp=fp16 or --amp=bf16");
  if (!compileOnlyFlag && inputs.empty() == !randomInputs)
    return error(randomInputs ? "give either --inputs or --random-inputs"
                              : "give the inputs with --inputs or "
                                "--random-inputs");
  return llvm::Error::success();
}

/// $MP_BACKEND as the default of --backend.
static llvm::Error readBackendVariable() {
  const char *value = std::getenv("MP_BACKEND");
  if (backend.getNumOccurrences() || !value || !*value)
    return llvm::Error::success();
  Backend chosen = Backend::automatic;
  if (backend.getParser().parse(backend, "backend", value, chosen))
    return error(std::string("MP_BACKEND='") + value +
                 "' is not a backend: auto, cpu, gpu-emulation or cuda");
  backend = chosen;
  return llvm::Error::success();
}

/// Why the GPU pipeline cannot compile here (its CUDA toolkit's ptxas and
/// fatbinary are missing), or "".
static std::string findGpuToolchainProblem() {
  std::string toolkit = mp::GpuPipelineOptions().cudaToolkit;
  for (const char *tool : {"ptxas", "fatbinary"}) {
    std::string path = toolkit + "/bin/" + tool;
    if (!llvm::sys::fs::can_execute(path))
      return "no CUDA toolkit to compile for the GPU: " + path + " not found";
  }
  return "";
}

/// Under mpirun: this rank's place in the world, which only data-parallel
/// training uses.
static llvm::Error joinWorld() {
  if (mp_world_init(&runOptions.rank, &runOptions.worldSize) != MP_OK)
    return runtimeError();
  if (runOptions.worldSize == 1)
    return llvm::Error::success();
  if (trainCommand.file.empty() || compileOnlyFlag)
    return error("launched as one of " + llvm::Twine(runOptions.worldSize) +
                 " ranks: only training (--train) runs data-parallel");
  step.dataParallel = true;
  return llvm::Error::success();
}

/// --device and --backend auto: where the CUDA backend runs, and whether.
static llvm::Error chooseBackend() {
  if (device >= 0)
    setenv("MP_CUDA_DEVICE", std::to_string(device).c_str(), 1);
  if (backend != Backend::automatic)
    return llvm::Error::success();
  char gpu[256];
  std::string why;
  if (mp_backend_probe("cuda", gpu, sizeof(gpu)) != MP_OK)
    why = mp_last_error();
  else
    why = findGpuToolchainProblem();
  backend = why.empty() ? Backend::cuda : Backend::cpu;
  if (why.empty())
    llvm::errs() << "mp-run: --backend auto: cuda on " << gpu << "\n";
  else
    llvm::errs() << "mp-run: --backend auto: cpu (" << why << ")\n";
  return llvm::Error::success();
}

static llvm::Error runCommand() {
  if (llvm::Error err = readBackendVariable())
    return err;
  if (llvm::Error err = joinWorld())
    return err;
  if (llvm::Error err = checkFlags())
    return err;
  if (llvm::Error err = chooseBackend())
    return err;
  if (threads > MP_MAX_THREADS)
    return error("--threads " + llvm::Twine(threads) +
                 ": expected a thread count from 0 (one per core) to " +
                 llvm::Twine(MP_MAX_THREADS));
  if (mp_set_num_threads(threads) != MP_OK)
    return runtimeError();
  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return error("cannot create '" + outputDir + "': " + ec.message());
    emitSo = outputDir + "/module.so";
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  mp::registerMPDialects(registry);
  MLIRContext context(registry);
  // Diagnostics as one line each: "file:line:col: error: message".
  ScopedDiagnosticHandler handler(&context, [](Diagnostic &diag) {
    std::string loc;
    llvm::raw_string_ostream os(loc);
    if (auto file = dyn_cast<FileLineColLoc>(diag.getLocation()))
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn() << ": ";
    const char *kind = diag.getSeverity() == DiagnosticSeverity::Error ? "error"
                       : diag.getSeverity() == DiagnosticSeverity::Warning
                           ? "warning"
                           : "note";
    llvm::errs() << "mp-run: " << loc << kind << ": " << diag.str() << "\n";
    return success();
  });
  if (trainCommand.file.empty())
    return runGraph(context);
  // The flags shared with running a graph.
  std::string policy = policyFile.empty() ? std::string(amp) : policyFile;
  trainCommand.pipeline.classify.policy = policy;
  trainCommand.run.label = policy == "none" ? "fp32" : policy;
  trainCommand.entry = entryName;
  trainCommand.compile = getCompileOptions();
  return runTraining(context, trainCommand);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions({&category, &trainCategory});
  cl::ParseCommandLineOptions(argc, argv,
                              "mp-run: compile and run a graph on the CPU\n");
  int status = 0;
  std::string message;
  llvm::handleAllErrors(
      runCommand(),
      [&](const ReportedError &) {
        message = "compilation failed (see above)";
        status = 1;
      },
      [&](const InterruptedError &err) {
        llvm::outs().flush(); // the summary line first
        llvm::errs() << "mp-run: " << err.message() << "\n";
        status = 130;
      },
      [&](const llvm::ErrorInfoBase &err) {
        message = err.message();
        if (runOptions.worldSize == 1) // else mp_world_abort says it
          llvm::errs() << "mp-run: error: " << message << "\n";
        status = 1;
      });
  // A failed rank ends the others, which would wait for it forever.
  if (status == 1 && runOptions.worldSize > 1) {
    llvm::outs().flush();
    mp_world_abort(message.c_str());
  }
  mp_world_finalize();
  return status;
}
