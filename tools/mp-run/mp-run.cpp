//===- mp-run.cpp - Compile and run graphs on the CPU -----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
//   mp-run FILE.mlir --entry NAME [--amp=none|fp16|bf16] [--policy FILE]
//          [--inputs a.npy,b.npy | --random-inputs --seed N]
//          [--save-inputs DIR] [--save-outputs DIR] [--compare-fp32]
//          [--repeat N] [--emit-so PATH]
//
// Compiles the entry (and, with --amp, its mixed-precision version made by
// mp-amp-pipeline) to a shared object, runs it through the mp runtime on
// .npy or random inputs, and prints its outputs, the error of the mixed
// outputs against fp32 and the time per call. See docs/Running.md.
//
//===----------------------------------------------------------------------===//

#include "Train.h"
#include "mp/Analysis/TrainingContract.h"
#include "mp/Compiler/CpuCompiler.h"
#include "mp/InitAll.h"
#include "mp/Pipelines/Pipelines.h"
#include "mp/Runtime/mp_runtime.h"
#include "mp/Utils/EnumOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

using namespace mlir;
namespace cl = llvm::cl;

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
             "[0, 10), i1 uniform in {0, 1}"),
    cl::cat(category));
static cl::opt<unsigned> seed("seed", cl::desc("Seed of --random-inputs"),
                              cl::init(0), cl::cat(category));
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
static cl::opt<std::string>
    emitSo("emit-so", cl::desc("Keep the compiled shared object at this path"),
           cl::cat(category));

static cl::OptionCategory trainCategory("mp-run training options");
static cl::opt<std::string> trainFile(
    "train",
    cl::desc("Train the gradient function in this file (docs/Training.md)"),
    cl::value_desc("FILE.mlir"), cl::cat(trainCategory));
static cl::opt<std::string> datasetName("dataset",
                                        cl::desc("Data set: fashion-mnist"),
                                        cl::init("fashion-mnist"),
                                        cl::cat(trainCategory));
static cl::opt<unsigned> epochs("epochs", cl::desc("Epochs"), cl::init(1),
                                cl::cat(trainCategory));
static cl::opt<int64_t> batch("batch",
                              cl::desc("Batch size (must be the graph's)"),
                              cl::init(0), cl::cat(trainCategory));
static cl::opt<int64_t> maxSteps("max-steps",
                                 cl::desc("Steps per epoch at most (0: all)"),
                                 cl::init(0), cl::cat(trainCategory));
static cl::opt<int64_t>
    testLimit("test-limit",
              cl::desc("Evaluate on the first N test images (0: all)"),
              cl::init(0), cl::cat(trainCategory));
// Training knobs: the values and defaults of mp-train-pipeline's passes.
static const mp::LossScalingPassOptions scalingDefaults;
static const mp::MakeTrainStepPassOptions stepDefaults;
static cl::opt<mp::LossScaleMode>
    lossScale("loss-scale",
              cl::desc("Loss scaling (auto: dynamic for fp16, none otherwise)"),
              cl::init(mp::LossScaleMode::Auto),
              mp::clEnumValues(mp::symbolizeLossScaleMode,
                               mp::getMaxEnumValForLossScaleMode()),
              cl::cat(trainCategory));
static cl::opt<double> staticScale("static-scale",
                                   cl::desc("The scale of --loss-scale static"),
                                   cl::init(scalingDefaults.staticScale),
                                   cl::cat(trainCategory));
static cl::opt<double> initScale("init-scale",
                                 cl::desc("Initial dynamic loss scale"),
                                 cl::init(scalingDefaults.initScale),
                                 cl::cat(trainCategory));
static cl::opt<int32_t> growthInterval(
    "growth-interval", cl::desc("Clean steps before the scale grows"),
    cl::init(scalingDefaults.growthInterval), cl::cat(trainCategory));
static cl::opt<int32_t>
    hysteresis("hysteresis",
               cl::desc("Overflows in a row before the scale backs off"),
               cl::init(scalingDefaults.hysteresis), cl::cat(trainCategory));
static cl::opt<mp::Optimizer> optimizer(
    "optimizer", cl::desc("The optimizer"), cl::init(stepDefaults.optimizer),
    mp::clEnumValues(mp::symbolizeOptimizer, mp::getMaxEnumValForOptimizer()),
    cl::cat(trainCategory));
static cl::opt<double> lr("lr", cl::desc("Learning rate"),
                          cl::init(stepDefaults.lr), cl::cat(trainCategory));
static cl::opt<double> momentum("momentum", cl::desc("Momentum"),
                                cl::init(stepDefaults.momentum),
                                cl::cat(trainCategory));
static cl::opt<double>
    weightDecay("weight-decay",
                cl::desc("Weight decay (default: the optimizer's PyTorch "
                         "default)"),
                cl::init(stepDefaults.weightDecay), cl::cat(trainCategory));
static cl::opt<double> clipNorm("clip-norm",
                                cl::desc("Clip gradients to this global norm"),
                                cl::init(stepDefaults.clipNorm),
                                cl::cat(trainCategory));
static cl::opt<int64_t>
    accumulate("accumulate",
               cl::desc("Micro-batches per step (gradient accumulation)"),
               cl::init(stepDefaults.accumulate), cl::cat(trainCategory));
static cl::opt<std::string>
    initDir("init", cl::desc("Initial parameters: argN.npy per parameter"),
            cl::value_desc("DIR"), cl::cat(trainCategory));
static cl::opt<std::string> logFile("log",
                                    cl::desc("Write a CSV (step, epoch, loss, "
                                             "scale, skipped, accuracy)"),
                                    cl::cat(trainCategory));
static cl::opt<std::string>
    saveParams("save-params",
               cl::desc("Write the trained parameters as argN.npy to DIR"),
               cl::value_desc("DIR"), cl::cat(trainCategory));
static cl::opt<bool> noShuffle("no-shuffle",
                               cl::desc("Take the batches in file order"),
                               cl::cat(trainCategory));
static cl::opt<float> lossWeight(
    "loss-weight",
    cl::desc("Seed the backward pass with W: train on W * loss (small W "
             "shows fp16 gradient underflow)"),
    cl::init(1.0f), cl::cat(trainCategory));
static cl::list<int64_t>
    injectOverflow("inject-overflow",
                   cl::desc("Seed the backward pass with +inf at these "
                            "(1-based) steps"),
                   cl::CommaSeparated, cl::cat(trainCategory));

namespace {
/// Prints "mp-run: error: MESSAGE" and makes main return 1.
int fail(const llvm::Twine &message) {
  llvm::errs() << "mp-run: error: " << message << "\n";
  return 1;
}

/// Tensors released at scope exit.
struct TensorList {
  std::vector<mp_tensor> tensors;
  ~TensorList() {
    for (mp_tensor &t : tensors)
      mp_tensor_release(&t);
  }
};

struct Compiled {
  std::string label;
  mp_module *module = nullptr;
  mp_entry *entry = nullptr;
  double compileSeconds = 0;
  ~Compiled() {
    if (module)
      mp_module_unload(module);
  }
};

double seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}
} // namespace

/// Compiles `module` (consumed) to `soPath` and loads its entry.
static LogicalResult compileAndLoad(ModuleOp module, const std::string &soPath,
                                    Compiled &out) {
  auto start = std::chrono::steady_clock::now();
  mp::CpuPipelineOptions options;
  options.optLevel = optLevel;
  if (failed(mp::compileToSharedObject(module, soPath, options)))
    return failure();
  out.compileSeconds = seconds(start);
  if (mp_module_load(soPath.c_str(), "cpu", &out.module) != MP_OK ||
      mp_module_find_entry(out.module, entryName.c_str(), &out.entry) !=
          MP_OK) {
    fail(mp_last_error());
    return failure();
  }
  return success();
}

static LogicalResult makeInputs(const mp_entry *entry, TensorList &args) {
  int32_t numArgs = mp_entry_num_args(entry);
  if (!inputs.empty()) {
    if (static_cast<int32_t>(inputs.size()) != numArgs) {
      fail("--inputs gives " + llvm::Twine(inputs.size()) + " files but '" +
           entryName + "' takes " + llvm::Twine(numArgs) + " arguments");
      return failure();
    }
    for (int32_t i = 0; i < numArgs; ++i) {
      mp_tensor t;
      bool bf16 = mp_entry_arg(entry, i)->dtype == MP_BF16;
      if (mp_npy_read(inputs[i].c_str(), bf16, &t) != MP_OK) {
        fail(mp_last_error());
        return failure();
      }
      args.tensors.push_back(t);
    }
    return success();
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 9), bit(0, 1);
  for (int32_t i = 0; i < numArgs; ++i) {
    const mp_value_info *info = mp_entry_arg(entry, i);
    for (int32_t d = 0; d < info->rank; ++d)
      if (info->shape[d] < 0) {
        fail("argument #" + llvm::Twine(i) +
             " has a dynamic size: give its values with --inputs");
        return failure();
      }
    mp_tensor f64;
    mp_tensor_alloc(MP_F64, info->is_scalar ? 0 : info->rank, info->shape,
                    &f64);
    auto *values = static_cast<double *>(f64.data);
    for (int64_t n = 0, e = mp_tensor_num_elements(&f64); n < e; ++n) {
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
    mp_tensor_convert(&f64, info->dtype, &t);
    mp_tensor_release(&f64);
    args.tensors.push_back(t);
  }
  return success();
}

static LogicalResult call(const Compiled &compiled, TensorList &args,
                          TensorList &results) {
  results.tensors.resize(mp_entry_num_results(compiled.entry));
  if (mp_entry_call(compiled.entry, args.tensors.data(), args.tensors.size(),
                    results.tensors.data(), results.tensors.size()) != MP_OK) {
    results.tensors.clear();
    fail(mp_last_error());
    return failure();
  }
  return success();
}

static LogicalResult saveAll(const std::string &dir, const char *prefix,
                             const char *suffix, TensorList &tensors) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    fail("cannot create '" + dir + "': " + ec.message());
    return failure();
  }
  for (auto [i, t] : llvm::enumerate(tensors.tensors)) {
    std::string path =
        (dir + "/" + prefix + std::to_string(i) + suffix + ".npy");
    if (mp_npy_write(path.c_str(), &t) != MP_OK) {
      fail(mp_last_error());
      return failure();
    }
  }
  return success();
}

static std::string typeOf(const mp_tensor &t) {
  std::string text = std::string(mp_dtype_name(t.dtype)) + "[";
  for (int32_t i = 0; i < t.rank; ++i)
    text += (i ? "," : "") + std::to_string(t.shape[i]);
  return text + "]";
}

static void printOutputs(const char *label, TensorList &results) {
  llvm::outs() << "outputs (" << label << "):\n";
  for (auto [i, t] : llvm::enumerate(results.tensors)) {
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    int64_t count = mp_tensor_num_elements(&t);
    for (int64_t n = 0; n < count; ++n) {
      double v = mp_tensor_get(&t, n);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
    }
    llvm::outs() << llvm::format("  out%-3zu %-18s min %-12.6g max %-12.6g "
                                 "mean %.6g\n",
                                 i, typeOf(t).c_str(), lo, hi,
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
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(mixed.tensors, reference.tensors))) {
    const mp_tensor &m = std::get<0>(pair), &r = std::get<1>(pair);
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
    llvm::outs() << llvm::format("  out%-3zu %-12.4g %-12.4g %-12.4g\n", i,
                                 maxAbs, maxRel, count ? sumRel / count : 0.0);
  }
}

static LogicalResult timeCalls(const Compiled &compiled, TensorList &args) {
  std::vector<double> times;
  for (unsigned n = 0; n <= repeat; ++n) {
    TensorList results;
    auto start = std::chrono::steady_clock::now();
    if (failed(call(compiled, args, results)))
      return failure();
    if (n > 0) // the first call warms up caches and page tables
      times.push_back(seconds(start));
  }
  std::sort(times.begin(), times.end());
  double median = times[times.size() / 2];
  llvm::outs() << llvm::format(
      "time per call (%s): median %.4g ms over %u calls, min %.4g ms, max "
      "%.4g ms (compilation %.3g s, not included)\n",
      compiled.label.c_str(), median * 1e3, static_cast<unsigned>(repeat),
      times.front() * 1e3, times.back() * 1e3, compiled.compileSeconds);
  return success();
}

/// Drops every function but `fn` and what it calls; fails on calls to
/// functions that are only declared.
static LogicalResult keepOnly(ModuleOp module, func::FuncOp fn,
                              StringRef file) {
  for (auto f : module.getOps<func::FuncOp>())
    if (f != fn)
      f.setPrivate();
  PassManager dce(module.getContext());
  dce.addPass(createSymbolDCEPass());
  if (failed(dce.run(module)))
    return failure();
  for (auto f : module.getOps<func::FuncOp>())
    if (f.isExternal()) {
      fail("'" + fn.getName() + "' calls '" + f.getName() +
           "', which is only declared in " + file +
           "; mp-run runs self-contained graphs");
      return failure();
    }
  return success();
}

static LogicalResult makeTempDir(SmallString<128> &dir) {
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("mp-run", dir)) {
    fail("cannot create a temporary directory: " + ec.message());
    return failure();
  }
  return success();
}

/// mp-run --train: builds the training step with mp-train-pipeline, compiles
/// it, and trains on the data set.
static int runTraining(MLIRContext &context) {
  if (!llvm::sys::fs::exists(trainFile))
    return fail("cannot read '" + trainFile + "': no such file");
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(trainFile, &context);
  if (!module)
    return 1;
  SmallVector<func::FuncOp> candidates;
  std::string names;
  for (auto f : module->getOps<func::FuncOp>()) {
    if (f.isExternal() || !f.isPublic() ||
        !mp::TrainingContract::isGradientFunction(f))
      continue;
    names += (names.empty() ? "" : ", ") + f.getName().str();
    if (entryName.empty() || f.getName() == entryName)
      candidates.push_back(f);
  }
  if (names.empty())
    return fail("no gradient function (with mp.param, mp.grad_seed... roles) "
                "in " +
                trainFile);
  if (candidates.empty())
    return fail("no gradient function '" + entryName + "' in " + trainFile +
                " (gradient functions: " + names + ")");
  if (candidates.size() > 1)
    return fail("several gradient functions in " + trainFile + " (" + names +
                "); choose one with --entry");
  func::FuncOp fn = candidates.front();
  std::string gradName = fn.getName().str();
  if (failed(keepOnly(*module, fn, trainFile)))
    return 1;
  fn.setPublic();

  std::string label = policyFile.empty() ? std::string(amp) : policyFile;
  mp::TrainPipelineOptions options;
  options.policy = label;
  if (label == "none")
    label = "fp32";
  options.lossScale = lossScale;
  options.staticScale = staticScale;
  options.initScale = initScale;
  options.growthInterval = growthInterval;
  options.hysteresis = hysteresis;
  options.optimizer = optimizer;
  options.lr = lr;
  options.momentum = momentum;
  options.weightDecay = weightDecay;
  options.clipNorm = clipNorm;
  options.accumulate = accumulate;
  PassManager pm(&context);
  mp::buildTrainPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 1;

  SmallString<128> tmpDir;
  if (failed(makeTempDir(tmpDir)))
    return 1;
  llvm::scope_exit cleanup([&] { llvm::sys::fs::remove_directories(tmpDir); });
  std::string so =
      emitSo.empty() ? (tmpDir + "/step.so").str() : std::string(emitSo);
  mp::CpuPipelineOptions compileOptions;
  compileOptions.optLevel = optLevel;
  if (failed(mp::compileToSharedObject(*module, so, compileOptions)))
    return 1;
  mp_module *compiled = nullptr;
  mp_entry *step = nullptr, *grad = nullptr;
  if (mp_module_load(so.c_str(), "cpu", &compiled) != MP_OK)
    return fail(mp_last_error());
  llvm::scope_exit unload([&] { mp_module_unload(compiled); });
  if (mp_module_find_entry(compiled, (gradName + "_step").c_str(), &step) !=
          MP_OK ||
      mp_module_find_entry(compiled, gradName.c_str(), &grad) != MP_OK)
    return fail(mp_last_error());

  mp_run::Dataset data;
  std::string error;
  if (!mp_run::loadDataset(datasetName, data, error))
    return fail(error);
  mp_run::TrainOptions trainOptions;
  trainOptions.label = label;
  trainOptions.epochs = epochs;
  trainOptions.seed = seed;
  trainOptions.batch = batch;
  trainOptions.maxSteps = maxSteps;
  trainOptions.testLimit = testLimit;
  trainOptions.initDir = initDir;
  trainOptions.logFile = logFile;
  trainOptions.saveParams = saveParams;
  trainOptions.shuffle = !noShuffle;
  trainOptions.lossWeight = lossWeight;
  if (!(lossWeight > 0) || !std::isfinite(lossWeight))
    return fail("--loss-weight must be positive and finite");
  if (!saveParams.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(saveParams))
      return fail("--save-params: cannot create '" + saveParams +
                  "': " + ec.message());
  trainOptions.injectOverflow.insert(injectOverflow.begin(),
                                     injectOverflow.end());
  mp_run::TrainSummary summary;
  if (!mp_run::train(step, grad, data, trainOptions, summary, error))
    return fail(error);
  llvm::outs() << llvm::format(
      "%s: %lld steps (%lld skipped), final loss %.4f, ", label.c_str(),
      static_cast<long long>(summary.steps),
      static_cast<long long>(summary.skipped), summary.lastLoss);
  if (summary.scale > 0)
    llvm::outs() << llvm::format("loss scale %g, ", summary.scale);
  else
    llvm::outs() << "no loss scaling, ";
  llvm::outs() << llvm::format("%.1f steps/s",
                               summary.steps / std::max(summary.seconds, 1e-9));
  if (summary.accuracy >= 0)
    llvm::outs() << llvm::format(", test accuracy %.2f%%",
                                 100 * summary.accuracy);
  llvm::outs() << "\n";
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions({&category, &trainCategory});
  cl::ParseCommandLineOptions(argc, argv,
                              "mp-run: compile and run a graph on the CPU\n");
  if (amp != "none" && amp != "fp16" && amp != "bf16")
    return fail("--amp must be none, fp16 or bf16, not '" + amp + "'");
  if (!policyFile.empty() && amp == "none")
    return fail("--policy needs --amp=fp16 or --amp=bf16");
  if (!trainFile.empty() && !inputFile.empty())
    return fail("give the graph either as FILE or with --train, not both");
  if (trainFile.empty()) {
    if (inputFile.empty())
      return fail("no input file (mp-run FILE.mlir --entry NAME ..., or "
                  "mp-run --train FILE.mlir ...)");
    if (entryName.empty())
      return fail("--entry NAME is required (the function to run)");
    if (compareFp32 && amp == "none")
      return fail("--compare-fp32 needs --amp=fp16 or --amp=bf16");
    if (inputs.empty() == !randomInputs)
      return fail(randomInputs ? "give either --inputs or --random-inputs"
                               : "give the inputs with --inputs or "
                                 "--random-inputs");
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

  if (!trainFile.empty())
    return runTraining(context);
  if (!llvm::sys::fs::exists(inputFile))
    return fail("cannot read '" + inputFile + "': no such file");
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(inputFile, &context);
  if (!module)
    return 1;
  auto fn = module->lookupSymbol<func::FuncOp>(entryName);
  if (!fn || fn.isExternal()) {
    std::string names;
    for (auto f : module->getOps<func::FuncOp>())
      if (!f.isExternal() && f.isPublic())
        names += (names.empty() ? "" : ", ") + f.getName().str();
    return fail("no function '" + entryName + "' in " + inputFile +
                " (functions: " + names + ")");
  }
  if (failed(keepOnly(*module, fn, inputFile)))
    return 1;
  SmallString<128> tmpDir;
  if (failed(makeTempDir(tmpDir)))
    return 1;
  llvm::scope_exit cleanup([&] { llvm::sys::fs::remove_directories(tmpDir); });

  Compiled reference, mixed;
  reference.label = "fp32";
  mixed.label = amp;
  bool needFp32 = amp == "none" || compareFp32;
  if (amp != "none") {
    OwningOpRef<ModuleOp> clone = module->clone();
    PassManager pm(&context);
    mp::AmpPipelineOptions options;
    options.policy = policyFile.empty() ? std::string(amp) : policyFile;
    mp::buildAmpPipeline(pm, options);
    if (failed(pm.run(*clone)))
      return 1;
    std::string so =
        emitSo.empty() ? (tmpDir + "/mixed.so").str() : std::string(emitSo);
    if (failed(compileAndLoad(*clone, so, mixed)))
      return 1;
  }
  if (needFp32) {
    std::string so = emitSo.empty() || amp != "none"
                         ? (tmpDir + "/fp32.so").str()
                         : std::string(emitSo);
    if (failed(compileAndLoad(*module, so, reference)))
      return 1;
  }
  const Compiled &main = amp == "none" ? reference : mixed;

  TensorList args;
  if (failed(makeInputs(main.entry, args)))
    return 1;
  if (!saveInputs.empty() && failed(saveAll(saveInputs, "arg", "", args)))
    return 1;
  TensorList results;
  if (failed(call(main, args, results)))
    return 1;
  printOutputs(main.label.c_str(), results);
  if (!saveOutputs.empty() && failed(saveAll(saveOutputs, "out", "", results)))
    return 1;
  if (compareFp32) {
    TensorList refResults;
    if (failed(call(reference, args, refResults)))
      return 1;
    printComparison(results, refResults);
    if (!saveOutputs.empty() &&
        failed(saveAll(saveOutputs, "out", ".fp32", refResults)))
      return 1;
  }
  if (repeat > 0) {
    if (failed(timeCalls(main, args)))
      return 1;
    if (compareFp32 && failed(timeCalls(reference, args)))
      return 1;
  }
  return 0;
}
