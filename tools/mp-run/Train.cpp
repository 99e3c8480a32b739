//===- Train.cpp - mp-run --train -------------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Train.h"
#include "Errors.h"
#include "Graph.h"
#include "mp/Analysis/TrainingContract.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mp_run;

/// The gradient function of `command` in `module`.
static llvm::Expected<func::FuncOp>
findGradientFunction(ModuleOp module, const TrainCommand &command) {
  SmallVector<func::FuncOp> candidates;
  std::string names;
  for (auto f : module.getOps<func::FuncOp>()) {
    if (f.isExternal() || !f.isPublic() ||
        !mlir::mp::TrainingContract::isGradientFunction(f))
      continue;
    names += (names.empty() ? "" : ", ") + f.getName().str();
    if (command.entry.empty() || f.getName() == command.entry)
      candidates.push_back(f);
  }
  if (names.empty())
    return error("no gradient function (with mp.param, mp.grad_seed... "
                 "roles) in " +
                 command.file);
  if (candidates.empty())
    return error("no gradient function '" + command.entry + "' in " +
                 command.file + " (gradient functions: " + names + ")");
  if (candidates.size() > 1)
    return error("several gradient functions in " + command.file + " (" +
                 names + "); choose one with --entry");
  return candidates.front();
}

llvm::Error mp_run::runTraining(MLIRContext &context,
                                const TrainCommand &command) {
  const mp_runner::TrainOptions &options = command.run;
  llvm::Expected<OwningOpRef<ModuleOp>> module =
      loadGraph(command.file, context);
  if (!module)
    return module.takeError();
  llvm::Expected<func::FuncOp> fn = findGradientFunction(**module, command);
  if (!fn)
    return fn.takeError();
  std::string gradName = fn->getName().str();
  if (llvm::Error err = keepOnly(**module, *fn, command.file))
    return err;
  fn->setPublic();

  PassManager pm(&context);
  mlir::mp::buildTrainPipeline(pm, command.pipeline);
  if (failed(pm.run(**module)))
    return reported();

  llvm::Expected<std::unique_ptr<TempDir>> tmp = TempDir::create();
  if (!tmp)
    return tmp.takeError();
  const CompileOptions &compile = command.compile;
  std::string soPath =
      compile.emitSo.empty() ? (*tmp)->file("step.so") : compile.emitSo;
  if (compile.compileOnly)
    return compileOnly(**module, options.label + " training step", compile,
                       soPath);
  llvm::Expected<std::unique_ptr<CompiledModule>> compiled =
      CompiledModule::compile(**module, soPath, compile);
  if (!compiled)
    return compiled.takeError();
  llvm::Expected<mp_entry *> step = (*compiled)->findEntry(gradName + "_step");
  if (!step)
    return step.takeError();
  llvm::Expected<mp_entry *> grad = (*compiled)->findEntry(gradName);
  if (!grad)
    return grad.takeError();

  mp_runner::Dataset data;
  if (std::string err = mp_runner::loadDataset(command.dataset, data);
      !err.empty())
    return error(err);
  // The first SIGINT or SIGTERM finishes the current step (LLVM's handler
  // also removes the temporary files); a second one kills the process.
  llvm::sys::SetInterruptFunction([] { mp_runner::interruptRequested = 1; });
  mp_runner::TrainSummary summary;
  std::string err = mp_runner::train(*step, *grad, data, options, summary);
  llvm::sys::SetInterruptFunction(nullptr);
  if (!err.empty())
    return error(err);
  if (options.rank == 0)
    llvm::outs() << mp_runner::formatSummary(options, summary) << "\n";
  if (summary.interrupted)
    return llvm::make_error<InterruptedError>(summary.steps);
  return llvm::Error::success();
}
