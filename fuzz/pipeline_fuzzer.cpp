//===- pipeline_fuzzer.cpp - libFuzzer target: mp's passes on mutated IR --===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Inputs are MLIR modules (seeded with the lit inputs and the examples). The
// custom mutator keeps them parseable and valid: it rewrites a tensor type
// (element type, a dimension, the rank, unranked), sets, drops or perturbs an
// attribute (mp's attributes and roles, numbers, splat constants), moves an
// op before or after its neighbour, swaps an operand for another value of
// the same type, or clones an op; a mutant that does not parse and verify is
// dropped. Every input runs through every pass and pipeline of kPipelines
// with a verifier after each pass. The target aborts when a pass succeeds
// with IR that fails verification, when a pipeline fails without an error,
// or when an error has no location; crashes and sanitizer reports are
// libFuzzer's.
//
//===----------------------------------------------------------------------===//

#include "mp/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <regex>
#include <string>

using namespace mlir;

namespace {
/// The passes and pipelines of test/Integration/Inputs/verify_each.py, but
/// mp-lower-to-gpu (LLVM's NVPTX code generation would take most of each
/// run; its stages before that are the emulation's).
const char *const kPipelines[] = {
    "mp-classify-precision",
    "mp-insert-casts",
    "mp-optimize-casts",
    "mp-verify-training-contract",
    "mp-loss-scaling",
    "mp-make-train-step",
    "mp-make-train-step{accumulate=2}",
    "convert-mp-to-standard",
    "mp-decompose-aggregates",
    "mp-split-convolution-phases",
    "mp-pack-bf16-contractions",
    "mp-widen-contraction-operands",
    "mp-conv-to-gemm",
    "mp-flatten-elementwise",
    "mp-fuse-elementwise",
    "mp-distribute-loops",
    "mp-protect-arguments",
    "mp-update-state-in-place",
    "mp-return-state-in-place",
    "mp-vectorize-contractions",
    "mp-vectorize-gathers",
    "mp-vectorize-reductions",
    "mp-strided-copies-to-linalg",
    "mp-unalias-loop-results",
    "mp-write-into-slices",
    "mp-llvm-bf16-as-i16",
    "mp-keep-emulated-roundings",
    "mp-multiply-add-to-fma",
    "mp-amp-pipeline",
    "mp-amp-pipeline{policy=bf16 level=unsafe-force-all}",
    "mp-train-pipeline",
    "mp-lower-to-cpu",
    "mp-lower-to-cpu{bf16-dot=true}",
    "mp-gpu-wgmma-variants",
    "mp-gpu-wgmma-variants{in-flight=true}",
    "mp-gpu-merge-chip-variants",
    "mp-gpu-align-workgroup-buffers",
    "mp-gpu-pair-ldmatrix",
    "mp-gpu-swizzle-panels",
    "mp-gpu-dynamic-shared-memory",
    "mp-gpu-device-scalars",
    "mp-gpu-fold-transposes",
    "mp-gpu-select-gemm",
    "mp-gpu-select-gemm{gemm=library}",
    "mp-gpu-conv-to-gemm",
    "mp-gpu-expand-elementwise",
    "mp-gpu-collapse-elementwise",
    "mp-gpu-choose-tiles",
    "mp-gpu-choose-tiles{large-tiles=128,128,16,128 large-min-blocks=4}",
    "mp-gpu-split-k",
    "mp-gpu-split-k{min-k=32}",
    "mp-gpu-generate-pads",
    "mp-gpu-materialize-constants",
    "mp-gpu-library-gemm",
    "mp-gpu-library-conv",
    "mp-gpu-tile-contractions",
    "mp-gpu-tile-contractions{stages=1}",
    "mp-gpu-tile-contractions{stages=3 reserve-slot=true}",
    "mp-gpu-tile-reductions",
    "mp-gpu-emulate-workgroup-memory",
    "mp-gpu-emulate-subgroup-reduce",
    "mp-gpu-emulate-mma",
    "mp-gpu-async-copies",
    "mp-gpu-map-forall-to-launch",
    "mp-gpu-subgroup-reduce-to-shuffles",
    "mp-gpu-vector-to-mma",
    "mp-gpu-vector-to-fma",
    "mp-gpu-copies-to-linalg",
    "mp-gpu-parallel-dims-outermost",
    "mp-gpu-scalar-ops-to-parallel",
    "mp-gpu-fuse-parallel-loops",
    "mp-gpu-promote-accumulators",
    "mp-gpu-map-parallel-loops",
    "mp-gpu-merge-launches",
    "func.func(mp-gpu-name-kernels)",
    "mp-gpu-async-launches",
    "mp-gpu-launch-bounds",
    "mp-lower-to-gpu-emulation",
};

/// Attributes the mutator sets on ops, functions and arguments.
const char *const kOpAttributes[][2] = {
    {"mp.override", "#mp.precision<f16>"},
    {"mp.override", "#mp.precision<bf16>"},
    {"mp.override", "#mp.precision<f32>"},
    {"mp.override", "#mp.precision<f8e4m3>"},
    {"mp.class", "#mp.class<allow>"},
    {"mp.class", "#mp.class<deny>"},
    {"mp.class", "#mp.class<infer>"},
    {"mp.class", "#mp.class<clear>"},
    {"mp.precision", "#mp.precision<f16>"},
    {"mp.precision", "#mp.precision<f32>"},
    {"mp.accumulator", "#mp.precision<f16>"},
    {"mp.accumulator", "#mp.precision<bf16>"},
    {"mp.signature_precision", "#mp.precision<bf16>"},
};
const char *const kArgAttributes[][2] = {
    {"mp.param", "unit"},
    {"mp.input", "unit"},
    {"mp.grad_seed", "unit"},
    {"mp.loss", "unit"},
    {"mp.output", "unit"},
    {"mp.grad_of", "0 : i64"},
    {"mp.grad_of", "7 : i64"},
    {"mp.updates", "0 : i64"},
    {"mp.updates", "-1 : i64"},
    {"mp.state", "0.0 : f32"},
    {"mp.state", "6.5536e+04 : f32"},
    {"mp.state", "0 : i32"},
};
const char *const kElementTypes[] = {"f32", "f16", "bf16", "f64",
                                     "i32", "i64", "i1"};
const char *const kDims[] = {"1", "2", "3", "8", "16", "37", "64", "?"};
const double kFloats[] = {0.0,
                          -0.0,
                          1.0,
                          -1.0,
                          1e-8,
                          65504.0,
                          1e38,
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN()};
const int64_t kInts[] = {0, 1, -1, 2, 3, 1 << 20, INT64_MAX, INT64_MIN};

/// One context for the whole run, with every dialect and pass mp-opt has.
MLIRContext &getContext() {
  static MLIRContext *context = [] {
    registerAllPasses();
    mp::registerMPPassesAndPipelines();
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    mp::registerMPDialects(registry);
    auto *ctx = new MLIRContext(registry);
    ctx->disableMultithreading();
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  return *context;
}

/// Whether `text` holds what MLIR 22's parser itself crashes on (a null
/// function in the region builder): linalg.batch_matmul or
/// batch_reduce_matmul on unranked tensors or memrefs, or on vectors.
/// Upstream's defect, not mp's (docs/Reliability.md); such inputs are
/// skipped.
bool crashesUpstreamParser(llvm::StringRef text) {
  static const std::regex batchMatmul(
      R"(linalg\.batch_(reduce_)?matmul[^\n]*((tensor|memref)<\*x|vector<))");
  return std::regex_search(text.begin(), text.end(), batchMatmul);
}

/// Whether `module` passes MLIR 22's verifier but is invalid all the same:
/// a `tensor.pad` whose source and result element types differ (its
/// verifier checks only the shapes; bufferization then makes a memref.copy
/// between the two types, which fails verification). Upstream's defect,
/// not mp's (docs/Reliability.md); such inputs are skipped.
bool slipsPastUpstreamVerifier(ModuleOp module) {
  return module
      ->walk([](tensor::PadOp pad) {
        return pad.getSourceType().getElementType() ==
                       pad.getResultType().getElementType()
                   ? WalkResult::advance()
                   : WalkResult::interrupt();
      })
      .wasInterrupted();
}

/// Parses and verifies `text`; diagnostics are dropped.
OwningOpRef<ModuleOp> parse(llvm::StringRef text) {
  if (crashesUpstreamParser(text))
    return nullptr;
  ScopedDiagnosticHandler quiet(&getContext(),
                                [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, &getContext());
  if (module && slipsPastUpstreamVerifier(*module))
    return nullptr;
  return module;
}

template <typename T, size_t N>
const T &pick(const T (&array)[N], std::mt19937 &rng) {
  return array[rng() % N];
}

//===----------------------------------------------------------------------===//
// Mutations
//===----------------------------------------------------------------------===//

/// Rewrites one tensor type of `text`: one occurrence, or all of them.
std::string mutateType(const std::string &text, std::mt19937 &rng) {
  static const std::regex tensorType(
      R"(tensor<((?:(?:\d+|\?)x)*)(f32|f16|bf16|f64|i32|i64|i1)>)");
  std::vector<std::smatch> matches;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), tensorType);
       it != std::sregex_iterator(); ++it)
    matches.push_back(*it);
  if (matches.empty())
    return "";
  const std::smatch &match = matches[rng() % matches.size()];
  std::vector<std::string> dims;
  std::string shape = match[1].str();
  for (size_t pos = 0; pos < shape.size();) {
    size_t x = shape.find('x', pos);
    dims.push_back(shape.substr(pos, x - pos));
    pos = x + 1;
  }
  std::string element = match[2].str();
  switch (rng() % 5) {
  case 0:
    element = pick(kElementTypes, rng);
    break;
  case 1:
    if (dims.empty())
      return "";
    dims[rng() % dims.size()] = pick(kDims, rng);
    break;
  case 2:
    if (dims.empty())
      return "";
    dims.erase(dims.begin() + rng() % dims.size());
    break;
  case 3:
    dims.insert(dims.begin() + rng() % (dims.size() + 1), pick(kDims, rng));
    break;
  case 4:
    dims = {"*"};
    break;
  }
  std::string replacement = "tensor<";
  for (const std::string &dim : dims)
    replacement += dim + "x";
  replacement += element + ">";
  if (rng() % 2) // this occurrence only
    return text.substr(0, match.position(0)) + replacement +
           text.substr(match.position(0) + match.length(0));
  std::string out, old = match[0].str();
  for (size_t pos = 0;;) {
    size_t next = text.find(old, pos);
    if (next == std::string::npos)
      return out + text.substr(pos);
    out += text.substr(pos, next - pos) + replacement;
    pos = next + old.size();
  }
}

/// Sets, drops or perturbs an attribute of `op` or of a function argument.
bool mutateAttribute(Operation *op, std::mt19937 &rng) {
  MLIRContext *ctx = op->getContext();
  switch (rng() % 4) {
  case 0: { // an mp attribute on the op
    const auto &[name, value] = pick(kOpAttributes, rng);
    op->setAttr(name, parseAttribute(value, ctx));
    return true;
  }
  case 1: { // a role on an argument of a function
    auto func = dyn_cast<FunctionOpInterface>(op);
    if (!func || func.getNumArguments() == 0)
      return false;
    unsigned arg = rng() % func.getNumArguments();
    const auto &[name, value] = pick(kArgAttributes, rng);
    if (rng() % 3 == 0)
      func.removeArgAttr(arg, StringAttr::get(ctx, name));
    else
      func.setArgAttr(arg, name, parseAttribute(value, ctx));
    return true;
  }
  default:
    break;
  }
  if (rng() % 4 == 0) { // drop a discardable attribute (printers may read
                        // inherent ones that the verifier does not check)
    SmallVector<NamedAttribute> discardable(op->getDiscardableAttrs());
    if (discardable.empty())
      return false;
    op->removeDiscardableAttr(
        discardable[rng() % discardable.size()].getName());
    return true;
  }
  if (op->getAttrs().empty())
    return false;
  NamedAttribute named = op->getAttrs()[rng() % op->getAttrs().size()];
  Attribute attr = named.getValue();
  if (auto f = dyn_cast<FloatAttr>(attr))
    attr = FloatAttr::get(f.getType(), pick(kFloats, rng));
  else if (auto i = dyn_cast<IntegerAttr>(attr); i && i.getType().isInteger())
    attr = IntegerAttr::get(i.getType(),
                            llvm::APInt(i.getType().getIntOrFloatBitWidth(),
                                        pick(kInts, rng), /*isSigned=*/true,
                                        /*implicitTrunc=*/true));
  else if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    llvm::APFloat value(pick(kFloats, rng));
    bool lost;
    value.convert(cast<FloatType>(dense.getElementType()).getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
    attr = DenseElementsAttr::get(dense.getType(), value);
  } else
    return false;
  // An inherent attribute keeps to its constraint (an enum's cases: the
  // parser rejects other values, and LLVM 22's llvm.load verifier crashes
  // on an ordering out of range).
  if (std::optional<RegisteredOperationName> name = op->getRegisteredInfo();
      name && op->getInherentAttr(named.getName())) {
    NamedAttrList changed(op->getAttrs());
    changed.set(named.getName(), attr);
    ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
    if (failed(name->verifyInherentAttrs(changed,
                                         [&] { return op->emitError(); })))
      return false;
  }
  op->setAttr(named.getName(), attr);
  return true;
}

/// Moves `op` across a neighbour, swaps an operand for another value of the
/// same type, or clones the op next to itself.
bool mutateStructure(Operation *op, std::mt19937 &rng) {
  if (op->hasTrait<OpTrait::IsTerminator>() || isa<ModuleOp>(op))
    return false;
  switch (rng() % 4) {
  case 0:
    if (Operation *next = op->getNextNode();
        next && !next->hasTrait<OpTrait::IsTerminator>()) {
      op->moveAfter(next);
      return true;
    }
    return false;
  case 1:
    if (Operation *prev = op->getPrevNode()) {
      op->moveBefore(prev);
      return true;
    }
    return false;
  case 2: {
    if (op->getNumOperands() == 0)
      return false;
    OpOperand &operand = op->getOpOperand(rng() % op->getNumOperands());
    std::vector<Value> candidates;
    for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode())
      for (Value result : prev->getResults())
        if (result.getType() == operand.get().getType())
          candidates.push_back(result);
    for (Value arg : op->getBlock()->getArguments())
      if (arg.getType() == operand.get().getType())
        candidates.push_back(arg);
    if (candidates.empty())
      return false;
    operand.set(candidates[rng() % candidates.size()]);
    return true;
  }
  default:
    OpBuilder(op).clone(*op);
    return true;
  }
}

/// One mutant of `text`, or "" when the chosen mutation does not apply.
std::string mutate(const std::string &text, std::mt19937 &rng) {
  if (rng() % 3 == 0)
    return mutateType(text, rng);
  OwningOpRef<ModuleOp> module = parse(text);
  if (!module)
    return "";
  std::vector<Operation *> ops;
  module->walk([&](Operation *op) { ops.push_back(op); });
  Operation *op = ops[rng() % ops.size()];
  if (!(rng() % 2 ? mutateAttribute(op, rng) : mutateStructure(op, rng)))
    return "";
  // Printers may rely on what the verifier checks (a dropped inherent
  // attribute): only a valid mutant is printed.
  ScopedDiagnosticHandler quiet(&getContext(),
                                [](Diagnostic &) { return success(); });
  if (failed(verify(*module)))
    return "";
  std::string out;
  llvm::raw_string_ostream os(out);
  module->print(os);
  return out;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// Aborts when a pass succeeds with IR that fails verification.
struct VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    ScopedDiagnosticHandler print(op->getContext(), [&](Diagnostic &diag) {
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
      return success();
    });
    if (failed(verify(op))) {
      llvm::errs() << "pipeline_fuzzer: " << pass->getArgument()
                   << " emitted IR that fails verification\n";
      std::abort();
    }
  }
};

void runPipeline(ModuleOp input, const char *pipeline) {
  OwningOpRef<ModuleOp> module(input.clone());
  PassManager pm(module->getContext(), ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    std::abort();
  std::string errors;
  bool reported = false, located = true;
  ScopedDiagnosticHandler collect(module->getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error) {
      reported = true;
      located &= !isa<UnknownLoc>(d.getLocation());
      errors += d.str() + "\n";
    }
    return success();
  });
  bool failedRun = failed(pm.run(*module));
  if ((failedRun && !reported) || !located) {
    llvm::errs() << "pipeline_fuzzer: " << pipeline
                 << (located ? " failed without an error\n"
                             : " reported an error without a location:\n")
                 << errors;
    std::abort();
  }
}
} // namespace

/// With MP_FUZZ_MUTANT=PATH, writes `mutant` to PATH before the mutator
/// parses it: a crash in the parser happens outside any input, so libFuzzer
/// keeps nothing, and PATH then holds what crashed it.
static void keepMutant(const std::string &mutant) {
  const char *path = std::getenv("MP_FUZZ_MUTANT");
  if (!path)
    return;
  if (FILE *file = std::fopen(path, "w")) {
    std::fwrite(mutant.data(), 1, mutant.size(), file);
    std::fclose(file);
  }
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937 rng(seed);
  std::string text(reinterpret_cast<char *>(data), size);
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::string mutant = mutate(text, rng);
    keepMutant(mutant);
    if (mutant.empty() || mutant.size() > maxSize || !parse(mutant))
      continue;
    std::memcpy(data, mutant.data(), mutant.size());
    return mutant.size();
  }
  // No mutation kept it valid: the input unchanged. (libFuzzer's byte
  // mutations make text that MLIR's own parser crashes on, e.g. a
  // linalg.transpose permutation of '{{{'; that is upstream's to fix, and it
  // hides mp's defects. fuzz.sh turns libFuzzer's byte-level cross-over off
  // for the same reason.)
  return size;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer reads up to a terminating null, as files read through
  // MemoryBuffer have; libFuzzer's data has none.
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parse(text);
  if (!module)
    return 0;
  for (const char *pipeline : kPipelines)
    runPipeline(*module, pipeline);
  return 0;
}
