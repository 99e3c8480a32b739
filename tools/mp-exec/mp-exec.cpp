//===- mp-exec.cpp - Run compiled modules without the compiler --*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
//   mp-exec MODULE --entry NAME [--backend auto|cpu|cuda] [--device N]
//           [--threads N]
//           --inputs a.npy,b.npy [--save-outputs DIR] [--repeat N]
//   mp-exec MODULE --train --entry GRAD [--backend ...] [training flags
//           of mp-run: --epochs, --max-steps, --seed, --log, ...]
//
// Loads a module (MODULE: a .so that `mp-run --compile-only --emit-so` or
// the C++ API compiled, or the directory of an artifact that `mp-run
// --compile-only --output DIR` wrote, whose module.so it loads), runs one entry
// on .npy inputs through the runtime and writes its outputs as DIR/outN.npy, or
// trains a compiled training step (GRAD_step) as `mp-run --train` does. It
// links the runtime alone: compile where MLIR is, run where the GPU is. See
// docs/Running.md.
//
//===----------------------------------------------------------------------===//

#include "mp/Runtime/Tensor.h"
#include "runner/Trainer.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {
struct Flags {
  std::string module, entry, backend = "auto", saveOutputs;
  std::vector<std::string> inputs;
  long repeat = 0;
  bool train = false;
  std::string dataset = "fashion-mnist";
  mp_runner::TrainOptions run;
};

int usage(const char *message) {
  std::fprintf(stderr,
               "mp-exec: error: %s\nusage: mp-exec MODULE --entry NAME "
               "[--backend auto|cpu|cuda] [--device N] [--threads N] --inputs "
               "a.npy,b.npy "
               "[--save-outputs DIR] [--repeat N]\n       mp-exec MODULE "
               "--train --entry GRAD [--backend auto|cpu|cuda] [--device N] "
               "[--threads N] "
               "[--epochs N] [--max-steps N] "
               "[--batch N] [--test-limit N] [--seed N] [--init DIR] [--log "
               "FILE] [--save-params DIR] [--save-state DIR] [--save-every N] "
               "[--resume DIR] [--no-shuffle] [--loss-weight W] "
               "[--inject-overflow S,...] [--inject-rank R] [--dataset "
               "NAME]\n",
               message);
  return 1;
}

/// Parses `text` as an integer in [lo, hi] into `out`.
bool parseInt(const std::string &text, int64_t lo, int64_t hi, int64_t &out) {
  char *end = nullptr;
  errno = 0;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || value < lo || value > hi)
    return false;
  out = value;
  return true;
}

/// mp-run's flags that choose how the step is compiled: they are in the
/// module already.
bool isCompileFlag(const std::string &flag) {
  for (const char *f :
       {"--amp", "--policy", "--loss-scale", "--static-scale", "--init-scale",
        "--growth-interval", "--hysteresis", "--optimizer", "--lr",
        "--momentum", "--weight-decay", "--clip-norm", "--accumulate",
        "--data-parallel", "--allreduce-type", "--O", "-O"})
    if (flag == f)
      return true;
  return false;
}

int runtimeError() {
  std::fprintf(stderr, "mp-exec: error: %s\n", mp_last_error());
  return 1;
}

std::vector<std::string> splitCommas(const std::string &text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos)
      return parts;
    start = comma + 1;
  }
}

/// Parses argv into `flags`; returns an error message or "".
std::string parse(int argc, char **argv, Flags &flags) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    size_t eq = arg.find('=');
    bool isFlag = arg.rfind("--", 0) == 0;
    if (arg == "--train" || arg == "--no-shuffle") {
      (arg == "--train" ? flags.train : flags.run.inFileOrder) = true;
      continue;
    }
    if (isFlag && isCompileFlag(arg.substr(0, eq)))
      return arg.substr(0, eq) +
             " is compiled into the module: give it to mp-run --compile-only";
    if (isFlag && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else if (isFlag) {
      if (i + 1 >= argc)
        return arg + " needs a value";
      value = argv[++i];
    }
    if (!isFlag) {
      if (!flags.module.empty())
        return "more than one module: '" + flags.module + "' and '" + arg + "'";
      flags.module = arg;
    } else if (arg == "--entry") {
      flags.entry = value;
    } else if (arg == "--backend") {
      flags.backend = value;
    } else if (arg == "--device") {
      int64_t n = 0;
      if (!parseInt(value, 0, 1023, n))
        return "--device " + value + ": expected a GPU number";
      setenv("MP_CUDA_DEVICE", value.c_str(), 1); // read by the CUDA backend
    } else if (arg == "--threads") {
      int64_t n = 0;
      if (!parseInt(value, 0, MP_MAX_THREADS, n))
        return "--threads " + value +
               ": expected a thread count (0: one "
               "per core)";
      mp_set_num_threads(n);
    } else if (arg == "--inputs") {
      flags.inputs = splitCommas(value);
    } else if (arg == "--save-outputs") {
      flags.saveOutputs = value;
    } else if (arg == "--repeat") {
      int64_t n = 0;
      if (!parseInt(value, 0, 1000000, n))
        return "--repeat " + value + ": expected a number of calls";
      flags.repeat = n;
    } else if (arg == "--dataset") {
      flags.dataset = value;
    } else if (arg == "--init") {
      flags.run.initDir = value;
    } else if (arg == "--log") {
      flags.run.logFile = value;
    } else if (arg == "--save-params") {
      flags.run.saveParams = value;
    } else if (arg == "--save-state") {
      flags.run.saveState = value;
    } else if (arg == "--resume") {
      flags.run.resume = value;
    } else if (arg == "--loss-weight") {
      char *end = nullptr;
      flags.run.lossWeight = std::strtof(value.c_str(), &end);
      if (value.empty() || *end)
        return "--loss-weight " + value + ": expected a number";
    } else if (arg == "--inject-overflow") {
      for (const std::string &step : splitCommas(value)) {
        int64_t n = 0;
        if (!parseInt(step, INT64_MIN, INT64_MAX, n))
          return "--inject-overflow " + value + ": expected step numbers";
        flags.run.injectOverflow.push_back(n);
      }
    } else {
      int64_t n = 0;
      int64_t *field = arg == "--max-steps"     ? &flags.run.maxSteps
                       : arg == "--batch"       ? &flags.run.batch
                       : arg == "--test-limit"  ? &flags.run.testLimit
                       : arg == "--save-every"  ? &flags.run.saveEvery
                       : arg == "--inject-rank" ? &flags.run.injectRank
                                                : nullptr;
      bool isUnsigned = arg == "--epochs" || arg == "--seed";
      if (!field && !isUnsigned)
        return "unknown flag " + arg;
      if (!parseInt(value, isUnsigned ? 0 : INT64_MIN,
                    isUnsigned ? UINT32_MAX : INT64_MAX, n))
        return arg + " " + value + ": expected a number";
      if (field)
        *field = n;
      else
        (arg == "--epochs" ? flags.run.epochs : flags.run.seed) = n;
    }
  }
  if (flags.module.empty())
    return "no module (the .so that mp-run --emit-so wrote, or the "
           "directory of mp-run --output)";
  // An artifact directory: its module.so.
  struct stat info;
  if (stat(flags.module.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    std::string so = flags.module + "/module.so";
    if (access(so.c_str(), R_OK) != 0)
      return "'" + flags.module +
             "' is a directory without module.so (mp-run --compile-only "
             "--output DIR writes one)";
    flags.module = so;
  }
  if (flags.entry.empty())
    return "--entry NAME is required (the function to run)";
  for (size_t i = 0; i < flags.inputs.size(); ++i)
    if (flags.inputs[i].empty())
      return "--inputs: file name #" + std::to_string(i + 1) + " is empty";
  if (flags.run.worldSize > 1 && !flags.train)
    return "launched as one of " + std::to_string(flags.run.worldSize) +
           " ranks: only training (--train) runs data-parallel";
  if (flags.train) {
    if (!flags.inputs.empty() || flags.repeat || !flags.saveOutputs.empty())
      return "--train takes its inputs from the data set: drop --inputs, "
             "--repeat and --save-outputs";
    flags.run.label = flags.entry;
    return mp_runner::checkTrainOptions(flags.run);
  }
  return "";
}

/// Writes `text` to stdout and fails if stdout cannot take it.
bool print(const std::string &text) {
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
}
} // namespace

/// mp-exec --train: trains GRAD_step of `module`, as mp-run --train does.
int train(mp_module *module, const Flags &flags) {
  mp_entry *step = nullptr, *grad = nullptr;
  std::string stepName = flags.entry + "_step";
  if (mp_module_find_entry(module, stepName.c_str(), &step) ||
      mp_module_find_entry(module, flags.entry.c_str(), &grad))
    return runtimeError();
  if (flags.run.worldSize > 1 && !mp_module_is_data_parallel(module)) {
    std::fprintf(stderr,
                 "mp-exec: error: launched as one of %d ranks, but '%s' was "
                 "compiled without --data-parallel: each rank would train "
                 "alone\n",
                 flags.run.worldSize, flags.module.c_str());
    return 1;
  }
  mp_runner::Dataset data;
  std::string err = mp_runner::loadDataset(flags.dataset, data);
  mp_runner::TrainSummary summary;
  if (err.empty()) {
    mp_runner::installInterruptHandler();
    err = mp_runner::train(step, grad, data, flags.run, summary);
  }
  if (!err.empty()) {
    std::fprintf(stderr, "mp-exec: error: %s\n", err.c_str());
    return 1;
  }
  if (flags.run.rank == 0)
    print(mp_runner::formatSummary(flags.run, summary) + "\n");
  if (std::fflush(stdout) != 0)
    return 1;
  if (summary.interrupted) {
    std::fprintf(stderr, "mp-exec: interrupted after step %lld\n",
                 static_cast<long long>(summary.steps));
    return 130;
  }
  return 0;
}

/// Under mpirun: a failed rank ends the others, which would wait for it.
int finish(const Flags &flags, int status) {
  if (status == 1 && flags.run.worldSize > 1)
    mp_world_abort("see the error above");
  mp_world_finalize();
  return status;
}

int main(int argc, char **argv) {
  Flags flags;
  if (mp_world_init(&flags.run.rank, &flags.run.worldSize) != MP_OK)
    return runtimeError();
  if (std::string problem = parse(argc, argv, flags); !problem.empty())
    return finish(flags, usage(problem.c_str()));
  mp_module *module = nullptr;
  if (mp_module_load(flags.module.c_str(), flags.backend.c_str(), &module))
    return finish(flags, runtimeError());
  if (flags.train) {
    int status = train(module, flags);
    mp_module_unload(module);
    return finish(flags, status);
  }
  int status = 1;
  mp_entry *entry = nullptr;
  mp_runtime::TensorList args, results;
  do {
    if (mp_module_find_entry(module, flags.entry.c_str(), &entry)) {
      runtimeError();
      break;
    }
    int32_t numArgs = mp_entry_num_args(entry);
    if (static_cast<int32_t>(flags.inputs.size()) != numArgs) {
      std::string message = "--inputs gives " +
                            std::to_string(flags.inputs.size()) +
                            " files but '" + flags.entry + "' takes " +
                            std::to_string(numArgs) + " arguments";
      usage(message.c_str());
      break;
    }
    bool ok = true;
    for (int32_t i = 0; ok && i < numArgs; ++i) {
      mp_tensor t;
      ok = mp_npy_read(flags.inputs[i].c_str(),
                       mp_entry_arg(entry, i)->dtype == MP_BF16, &t) == MP_OK;
      if (ok)
        args.push_back(t);
    }
    if (!ok) {
      runtimeError();
      break;
    }
    // Wall-clock times and, on the CUDA backend, device times (events).
    std::vector<double> times, deviceTimes;
    for (long n = 0; ok && n <= flags.repeat; ++n) {
      results = mp_runtime::TensorList(mp_entry_num_results(entry));
      auto start = std::chrono::steady_clock::now();
      ok = mp_entry_call(entry, args.data(), args.size(), results.data(),
                         results.size()) == MP_OK;
      if (n == 0) // the first call loads code and warms caches
        continue;
      times.push_back(std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count() *
                      1e3);
      if (double ms = mp_cuda_last_call_ms(); ms >= 0)
        deviceTimes.push_back(ms);
    }
    if (!ok) {
      runtimeError();
      break;
    }
    if (!flags.saveOutputs.empty() &&
        mkdir(flags.saveOutputs.c_str(), 0777) != 0 && errno != EEXIST) {
      std::fprintf(stderr, "mp-exec: error: cannot create '%s': %s\n",
                   flags.saveOutputs.c_str(), std::strerror(errno));
      break;
    }
    for (int32_t i = 0; ok && i < static_cast<int32_t>(results.size()); ++i) {
      std::string line =
          "out" + std::to_string(i) + " " + mp_runtime::formatType(results[i]);
      if (!flags.saveOutputs.empty()) {
        std::string path =
            flags.saveOutputs + "/out" + std::to_string(i) + ".npy";
        ok = mp_npy_write(path.c_str(), &results[i]) == MP_OK;
        line += " -> " + path;
      }
      ok = ok && print(line + "\n");
    }
    if (!ok) {
      runtimeError();
      break;
    }
    auto printTimes = [&](const char *what, std::vector<double> &ms) {
      std::sort(ms.begin(), ms.end());
      char line[256];
      std::snprintf(line, sizeof(line),
                    "%s per call (%s): median %.4g ms over %zu calls, min "
                    "%.4g ms, max %.4g ms\n",
                    what, mp_module_backend(module), ms[ms.size() / 2],
                    ms.size(), ms.front(), ms.back());
      return print(line);
    };
    if (!times.empty())
      printTimes("time", times);
    if (!times.empty() && deviceTimes.size() == times.size())
      printTimes("device time", deviceTimes);
    status = std::fflush(stdout) == 0 ? 0 : 1;
  } while (false);
  args = mp_runtime::TensorList();
  results = mp_runtime::TensorList();
  mp_module_unload(module);
  return status;
}
