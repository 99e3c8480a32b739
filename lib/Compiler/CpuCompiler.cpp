//===- CpuCompiler.cpp - Compile graphs to shared objects -------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Compiler/CpuCompiler.h"
#include "mp/Conversion/MPToRuntime/MPToRuntime.h"
#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Runtime/Tensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/SystemLibraries.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::mp;

// The compiler hands roles to the runtime by number.
#define MP_CHECK_ROLE(NAME, C)                                                 \
  static_assert(static_cast<int>(Role::NAME) == C, "mp_role differs from "     \
                                                   "Role")
MP_CHECK_ROLE(param, MP_ROLE_PARAM);
MP_CHECK_ROLE(input, MP_ROLE_INPUT);
MP_CHECK_ROLE(grad_seed, MP_ROLE_GRAD_SEED);
MP_CHECK_ROLE(state, MP_ROLE_STATE);
MP_CHECK_ROLE(loss_scale, MP_ROLE_LOSS_SCALE);
MP_CHECK_ROLE(loss, MP_ROLE_LOSS);
MP_CHECK_ROLE(grad_of, MP_ROLE_GRAD_OF);
MP_CHECK_ROLE(updates, MP_ROLE_UPDATES);
MP_CHECK_ROLE(found_inf, MP_ROLE_FOUND_INF);
MP_CHECK_ROLE(output, MP_ROLE_OUTPUT);
#undef MP_CHECK_ROLE

/// The runtime's dtype of an element type, if it has one.
static std::optional<mp_dtype> getDtype(Type type) {
  if (type.isF32())
    return MP_F32;
  if (type.isF16())
    return MP_F16;
  if (type.isBF16())
    return MP_BF16;
  if (type.isF64())
    return MP_F64;
  if (type.isIndex() || type.isInteger(64))
    return MP_I64;
  if (type.isInteger(1))
    return MP_I1;
  if (type.isInteger(8))
    return MP_I8;
  if (type.isInteger(32))
    return MP_I32;
  return std::nullopt;
}

/// One value of a signature: its type and its role in `attrs` (an
/// argument's or result's attributes), or nullopt if the runtime cannot pass
/// a value of `type`.
static std::optional<mp_value_info>
getValueInfo(Type type, DictionaryAttr attrs, bool allowScalar) {
  mp_value_info info = {};
  auto tensor = dyn_cast<RankedTensorType>(type);
  std::optional<mp_dtype> dtype =
      getDtype(tensor ? tensor.getElementType() : type);
  if (!dtype || (!tensor && !allowScalar) ||
      (tensor && tensor.getRank() > MP_MAX_RANK))
    return std::nullopt;
  info.dtype = *dtype;
  info.is_scalar = !tensor;
  if (tensor) {
    info.rank = tensor.getRank();
    for (auto [i, size] : llvm::enumerate(tensor.getShape()))
      info.shape[i] = ShapedType::isDynamic(size) ? -1 : size;
  }
  for (NamedAttribute attr :
       attrs ? attrs.getValue() : ArrayRef<NamedAttribute>()) {
    std::optional<Role> role = getRoleOfAttrName(attr.getName());
    if (!role)
      continue;
    if (info.role != MP_ROLE_LOSS_SCALE)
      info.role = static_cast<mp_role>(*role);
    if (auto f = dyn_cast<FloatAttr>(attr.getValue()))
      info.init = f.getValueAsDouble();
    if (auto i = dyn_cast<IntegerAttr>(attr.getValue())) {
      if (getRoleValue(*role) == RoleValue::Number)
        info.init = i.getInt();
      else
        info.index = i.getInt();
    }
  }
  return info;
}

/// `bound` tightened by `size` (0: no bound).
static int64_t tightenBound(int64_t bound, int64_t size) {
  if (size <= 0)
    return bound;
  return bound ? std::min(bound, size) : size;
}

/// The smallest static dimension that `scalar` (an integer in a linalg
/// body) indexes: as a tensor.extract's index, itself (an index) or once
/// converted to an index (arith.index_cast or index_castui); 0 if none.
static int64_t getExtractBound(Value scalar) {
  SmallVector<Value> indices;
  if (scalar.getType().isIndex())
    indices.push_back(scalar);
  for (Operation *cast : scalar.getUsers())
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(cast))
      indices.push_back(cast->getResult(0));
  int64_t bound = 0;
  for (Value index : indices) {
    for (OpOperand &use : index.getUses()) {
      auto extract = dyn_cast<tensor::ExtractOp>(use.getOwner());
      if (!extract || use.getOperandNumber() == 0)
        continue;
      int64_t size =
          extract.getTensor().getType().getDimSize(use.getOperandNumber() - 1);
      if (!ShapedType::isDynamic(size))
        bound = tightenBound(bound, size);
    }
  }
  return bound;
}

/// The size of the dimension that the elements of `value` (an integer
/// tensor) index, as torch-mlir's embeddings read a table at the ids they
/// are given: a linalg op takes it as an input (through reshapes and calls)
/// and its body indexes a tensor.extract with the element; 0 if it indexes
/// nothing the signature can bound. The runtime checks the elements of an
/// argument with a bound (docs/Signature.md).
static int64_t getIndexBound(Value value, ModuleOp module, unsigned depth) {
  int64_t bound = 0;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user)) {
      bound =
          tightenBound(bound, getIndexBound(user->getResult(0), module, depth));
    } else if (auto call = dyn_cast<func::CallOp>(user)) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      // Calls nest only so deep (a recursive call bounds nothing more).
      if (callee && !callee.isExternal() && depth < 8)
        bound = tightenBound(
            bound, getIndexBound(callee.getArgument(use.getOperandNumber()),
                                 module, depth + 1));
    } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
      if (linalgOp.isDpsInput(&use))
        bound = tightenBound(
            bound, getExtractBound(linalgOp.getMatchingBlockArgument(&use)));
    }
  }
  return bound;
}

FailureOr<std::string> mlir::mp::getEntrySignature(func::FuncOp fn) {
  SmallVector<mp_value_info> args, results;
  auto module = fn->getParentOfType<ModuleOp>();
  for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes())) {
    std::optional<mp_value_info> info =
        getValueInfo(type, fn.getArgAttrDict(i), /*allowScalar=*/true);
    if (info && !info->is_scalar && module && !fn.isExternal() &&
        (info->dtype == MP_I64 || info->dtype == MP_I32 ||
         info->dtype == MP_I8))
      info->bound = getIndexBound(fn.getArgument(i), module, 0);
    if (!info)
      return fn.emitError() << "argument #" << i << " of type " << type
                            << " cannot be passed by the runtime (use ranked "
                               "tensors of rank at most "
                            << MP_MAX_RANK
                            << " or scalars of f32, f16, bf16, f64, i1, i8, "
                               "i32, i64 or index)";
    args.push_back(*info);
  }
  for (auto [i, type] : llvm::enumerate(fn.getResultTypes())) {
    std::optional<mp_value_info> info =
        getValueInfo(type, fn.getResultAttrDict(i), /*allowScalar=*/false);
    if (!info)
      return fn.emitError()
             << "result #" << i << " of type " << type
             << " cannot be returned by the runtime (use "
                "ranked tensors of rank at most "
             << MP_MAX_RANK << ", e.g. tensor<f32> for a scalar)";
    results.push_back(*info);
  }
  return mp_runtime::formatToString([&](char *buf, size_t size) {
    return mp_signature_format(args.data(), args.size(), results.data(),
                               results.size(), buf, size);
  });
}

/// Adds `void _mp_entry_NAME(void **args)` calling `_mlir_ciface_NAME`:
/// args[i] is passed as is for pointer parameters and loaded for others.
static void addPackedEntry(llvm::Module &module, StringRef name,
                           StringRef signature) {
  llvm::Function *ciface = module.getFunction(("_mlir_ciface_" + name).str());
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
  auto *entry = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false),
      llvm::GlobalValue::ExternalLinkage, "_mp_entry_" + name, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  SmallVector<llvm::Value *> callArgs;
  for (auto [i, param] : llvm::enumerate(ciface->args())) {
    llvm::Value *slot = b.CreateConstGEP1_64(ptr, entry->getArg(0), i);
    llvm::Value *pointer = b.CreateLoad(ptr, slot);
    callArgs.push_back(param.getType()->isPointerTy()
                           ? pointer
                           : b.CreateLoad(param.getType(), pointer));
  }
  b.CreateCall(ciface, callArgs);
  b.CreateRetVoid();
  auto *text = llvm::ConstantDataArray::getString(ctx, signature);
  new llvm::GlobalVariable(module, text->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, text,
                           "_mp_sig_" + name);
}

static LogicalResult emitObject(ModuleOp module, llvm::Module &llvmModule,
                                llvm::TargetMachine &tm, StringRef path) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return module.emitError()
           << "cannot write " << path << ": " << ec.message();
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, out.os(), nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return module.emitError() << "the host target cannot emit object files";
  pm.run(llvmModule);
  out.keep();
  return success();
}

static LogicalResult linkSharedObject(ModuleOp module, StringRef object,
                                      StringRef output) {
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return module.emitError()
           << "no C compiler driver ('cc') to link " << output
           << "; install gcc (scripts/install-deps.sh does)";
  // What the code calls beyond glibc's libc, libm and libmvec (its vector
  // math, linked only when the code calls it) comes from the runtime that
  // loads the module (memrefCopy, the CUDA backend's functions), so a
  // module runs where only the runtime is installed.
  std::string message;
  SmallVector<StringRef> args = {*cc,    "-shared",         "-o",     output,
                                 object, "-Wl,--as-needed", "-lmvec", "-lm"};
  if (llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &message))
    return module.emitError() << "linking " << output << " failed"
                              << (message.empty() ? "" : ": ") << message;
  return success();
}

/// LLVM's default pipeline at `optLevel`, with glibc's vector math library
/// (libmvec) known to the vectorizers: a loop that calls expf or logf
/// vectorizes into calls of their 16-wide versions instead of staying a
/// scalar loop.
static void optimizeModule(llvm::Module &module, llvm::TargetMachine &tm,
                           unsigned optLevel) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = tuning.LoopInterleaving = true;
  tuning.LoopVectorization = tuning.SLPVectorization = true;
  llvm::PassBuilder builder(&tm, tuning);
  llvm::TargetLibraryInfoImpl library(tm.getTargetTriple());
  library.addVectorizableFunctionsFromVecLib(llvm::VectorLibrary::LIBMVEC,
                                             tm.getTargetTriple());
  functions.registerPass([&] { return llvm::TargetLibraryAnalysis(library); });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::ModulePassManager pipeline =
      optLevel == 0 ? builder.buildO0DefaultPipeline(levels[0])
                    : builder.buildPerModuleDefaultPipeline(levels[optLevel]);
  pipeline.run(module, modules);
}

/// The subtarget of `triple` for `cpu` with `features` (LLVM's strings).
static llvm::Expected<std::unique_ptr<llvm::MCSubtargetInfo>>
createSubtargetInfo(const llvm::Triple &triple, StringRef cpu,
                    StringRef features) {
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(error);
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, cpu, features));
  if (!info)
    return llvm::createStringError("no subtarget for " + triple.str());
  return std::move(info);
}

/// A builder of target machines for `cpu`: kHostCpu is this machine's CPU
/// with the features it has, any other name a CPU of the host's
/// architecture with the features LLVM knows it to have.
static llvm::Expected<llvm::orc::JITTargetMachineBuilder>
getTargetBuilder(StringRef cpu) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder || cpu == kHostCpu)
    return builder;
  const llvm::Triple &triple = builder->getTargetTriple();
  auto info = createSubtargetInfo(triple, "", "");
  if (!info)
    return info.takeError();
  if (!(*info)->isCPUStringValid(cpu))
    return llvm::createStringError(
        "unknown CPU '" + cpu + "' for " + triple.str() +
        " ('llc -mcpu=help' lists them; '" + kHostCpu + "' is this machine's)");
  builder->setCPU(cpu.str());
  builder->getFeatures() = llvm::SubtargetFeatures();
  return builder;
}

StringRef mlir::mp::getPortableCpu() {
  return llvm::Triple(llvm::sys::getProcessTriple()).getArch() ==
                 llvm::Triple::x86_64
             ? "x86-64-v3"
             : "generic";
}

llvm::Error mlir::mp::checkTargetCpu(StringRef cpu) {
  return getTargetBuilder(cpu).takeError();
}

bool mlir::mp::cpuHasAvx512Bf16(StringRef cpu) {
  auto builder = getTargetBuilder(cpu);
  if (!builder) {
    llvm::consumeError(builder.takeError());
    return false;
  }
  auto info = createSubtargetInfo(builder->getTargetTriple(), builder->getCPU(),
                                  builder->getFeatures().getString());
  if (!info) {
    llvm::consumeError(info.takeError());
    return false;
  }
  return (*info)->checkFeatures("+avx512bf16");
}

/// The features of runtime/include/mp/Runtime/CpuFeatures.def that `info`
/// has, comma-separated: what the runtime checks before it loads a module
/// (x86 only; none elsewhere).
static std::string getCheckedFeatures(const llvm::MCSubtargetInfo &info) {
  if (!info.getTargetTriple().isX86())
    return "";
  static const char *const features[] = {
#define MP_CPU_FEATURE(LLVM_NAME, SUPPORTS_NAME) LLVM_NAME,
#include "mp/Runtime/CpuFeatures.def"
  };
  std::string list;
  for (const char *feature : features)
    if (info.checkFeatures((Twine("+") + feature).str()))
      list += (list.empty() ? "" : ",") + std::string(feature);
  return list;
}

/// Adds the constant C string `value` named `name` to `module`.
static void addString(llvm::Module &module, StringRef name, StringRef value) {
  auto *init = llvm::ConstantDataArray::getString(module.getContext(), value);
  new llvm::GlobalVariable(module, init->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, init, name);
}

LogicalResult mlir::mp::compileToSharedObject(ModuleOp module,
                                              StringRef outputPath,
                                              const CpuPipelineOptions &opts,
                                              StringRef targetCpu) {
  if (failed(verifyCpuPipelineOptions(opts, [&](const Twine &message) {
        return module.emitError(message);
      })))
    return failure();
  // LLVM cannot select vdpbf16ps for a CPU without it (a fatal error).
  if (opts.bf16Dot && !cpuHasAvx512Bf16(targetCpu))
    return module.emitError()
           << "bf16-dot: the target CPU '" << targetCpu
           << "' has no AVX512-BF16, which the compiled code would use";
  return compileToSharedObject(
      module, outputPath, opts.optLevel,
      [&](OpPassManager &pm) { buildLowerToCpuPipeline(pm, opts); }, "cpu",
      targetCpu);
}

FailureOr<SmallVector<std::pair<std::string, std::string>>>
mlir::mp::getEntrySignatures(ModuleOp module) {
  SmallVector<std::pair<std::string, std::string>> entries;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal() || !fn.isPublic())
      continue;
    FailureOr<std::string> signature = getEntrySignature(fn);
    if (failed(signature))
      return failure();
    entries.emplace_back(fn.getName().str(), *signature);
  }
  return entries;
}

LogicalResult mlir::mp::compileToSharedObject(
    ModuleOp module, StringRef outputPath, unsigned optLevel,
    function_ref<void(OpPassManager &)> buildPipeline, StringRef backend,
    StringRef targetCpu) {
  if (optLevel > kMaxCpuOptLevel)
    return module.emitError() << "optimization level " << optLevel
                              << " is invalid: expected 0, 1, 2 or 3";
  auto builder = getTargetBuilder(targetCpu);
  if (!builder)
    return module.emitError()
           << "cannot target the CPU: " << llvm::toString(builder.takeError());
  FailureOr<SmallVector<std::pair<std::string, std::string>>> entries =
      getEntrySignatures(module);
  if (failed(entries))
    return failure();

  // mp's argument and result roles (mp.param...) mean nothing to LLVM;
  // mp.updates tells mp-update-state-in-place which state a step updates
  // (lowering drops result attributes).
  for (auto fn : module.getOps<func::FuncOp>()) {
    auto strip = [](ArrayRef<DictionaryAttr> dicts) {
      SmallVector<DictionaryAttr> kept;
      for (DictionaryAttr dict : dicts) {
        NamedAttrList attrs;
        for (NamedAttribute attr : dict)
          if (getRoleOfAttrName(attr.getName()).value_or(Role::updates) ==
              Role::updates)
            attrs.push_back(attr);
        kept.push_back(attrs.getDictionary(dict.getContext()));
      }
      return kept;
    };
    if (ArrayAttr args = fn.getArgAttrsAttr())
      fn.setAllArgAttrs(
          strip(llvm::to_vector(args.getAsRange<DictionaryAttr>())));
    if (ArrayAttr results = fn.getResAttrsAttr())
      fn.setAllResultAttrs(
          strip(llvm::to_vector(results.getAsRange<DictionaryAttr>())));
  }

  PassManager pm(module.getContext());
  buildPipeline(pm);
  if (failed(pm.run(module)))
    return failure();

  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  registerOpenMPDialectTranslation(*module.getContext());
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "mp");
  if (!llvmModule)
    return module.emitError() << "translation to LLVM IR failed";
  // Only the packed entries and signatures are exported: a graph function
  // named like a libc function (`random`, `exp`) must not be bound to it, nor
  // it to us.
  for (llvm::Function &fn : *llvmModule)
    if (!fn.isDeclaration())
      fn.setLinkage(llvm::GlobalValue::InternalLinkage);
  // `_mp_*` globals describe the module to the runtime (`_mp_gpu_targets`).
  for (llvm::GlobalVariable &global : llvmModule->globals())
    if (!global.isDeclaration() && !global.getName().starts_with("llvm.") &&
        !global.getName().starts_with("_mp_"))
      global.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (auto &[name, signature] : *entries)
    addPackedEntry(*llvmModule, name, signature);
  // The runtime backend that can run the module.
  addString(*llvmModule, "_mp_backend", backend);
  // Modules whose steps all-reduce say so (mp_module_is_data_parallel).
  if (llvmModule->getFunction(kAllReduceFunction) ||
      llvmModule->getFunction(kCudaAllReduceFunction)) {
    auto *yes = llvm::ConstantInt::get(
        llvm::Type::getInt8Ty(llvmModule->getContext()), 1);
    new llvm::GlobalVariable(*llvmModule, yes->getType(), /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage, yes,
                             "_mp_data_parallel");
  }

  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeGenOptLevel(*llvm::CodeGenOpt::getLevel(optLevel));
  auto tm = builder->createTargetMachine();
  if (!tm)
    return module.emitError()
           << "cannot target the CPU: " << llvm::toString(tm.takeError());
  // What the code may need of the CPU that runs it (the runtime checks).
  addString(*llvmModule, "_mp_target_cpu", (*tm)->getTargetCPU());
  addString(*llvmModule, "_mp_cpu_features",
            getCheckedFeatures(*(*tm)->getMCSubtargetInfo()));
  llvmModule->setDataLayout((*tm)->createDataLayout());
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  optimizeModule(*llvmModule, **tm, optLevel);

  std::string object = (outputPath + ".o").str();
  if (failed(emitObject(module, *llvmModule, **tm, object)))
    return failure();
  LogicalResult linked = linkSharedObject(module, object, outputPath);
  llvm::sys::fs::remove(object);
  return linked;
}
