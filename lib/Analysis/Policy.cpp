//===- Policy.cpp - AMP precision policies ----------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/Policy.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mp;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Built-in lists
//===----------------------------------------------------------------------===//

// Keys are op names, plus pseudo keys for structured (linalg) ops that are not
// listed by name and are recognized from their indexing maps and body:
// "linalg:contraction", "linalg:convolution", "linalg:additive-reduction".
// Other unlisted structured ops are classified from the ops in their body.

static const char *const kAllowList[] = {
    "linalg:contraction",
    "linalg:convolution",
    "linalg.matmul",
    "linalg.batch_matmul",
    "linalg.batch_reduce_matmul",
    "linalg.matvec",
    "linalg.vecmat",
    "linalg.batch_matvec",
    "linalg.batch_vecmat",
    "linalg.dot",
    "linalg.contract",
    "linalg.mmt4d",
    "linalg.batch_mmt4d",
    "linalg.conv_1d",
    "linalg.conv_1d_ncw_fcw",
    "linalg.conv_1d_nwc_wcf",
    "linalg.conv_2d",
    "linalg.conv_2d_nchw_fchw",
    "linalg.conv_2d_ngchw_fgchw",
    "linalg.conv_2d_ngchw_gfchw",
    "linalg.conv_2d_nhwc_fhwc",
    "linalg.conv_2d_nhwc_hwcf",
    "linalg.conv_2d_nhwgc_gfhwc",
    "linalg.conv_3d",
    "linalg.conv_3d_ncdhw_fcdhw",
    "linalg.conv_3d_ndhwc_dhwcf",
    "linalg.depthwise_conv_1d_ncw_cw",
    "linalg.depthwise_conv_1d_nwc_wc",
    "linalg.depthwise_conv_1d_nwc_wcm",
    "linalg.depthwise_conv_2d_nchw_chw",
    "linalg.depthwise_conv_2d_nhwc_hwc",
    "linalg.depthwise_conv_2d_nhwc_hwcm",
    "linalg.depthwise_conv_3d_ncdhw_cdhw",
    "linalg.depthwise_conv_3d_ndhwc_dhwc",
    "linalg.depthwise_conv_3d_ndhwc_dhwcm",
};

static const char *const kDenyList[] = {
    "linalg:additive-reduction",
    "linalg.softmax",
    "linalg.exp",
    "linalg.log",
    "linalg.powf",
    "linalg.rsqrt",
    "linalg.erf",
    "linalg.reciprocal",
    "linalg.pooling_nchw_sum",
    "linalg.pooling_ncw_sum",
    "linalg.pooling_ndhwc_sum",
    "linalg.pooling_nhwc_sum",
    "linalg.pooling_nwc_sum",
    "math.exp",
    "math.exp2",
    "math.expm1",
    "math.log",
    "math.log2",
    "math.log10",
    "math.log1p",
    "math.powf",
    "math.fpowi",
    "math.rsqrt",
    "math.erf",
    "math.erfc",
    "math.sinh",
    "math.cosh",
    "math.tan",
    "math.acos",
    "math.asin",
    "math.acosh",
    "math.asinh",
    "math.atanh",
};

static const char *const kInferList[] = {
    "arith.addf",   "arith.subf",    "arith.mulf", "arith.divf", "arith.remf",
    "arith.sitofp", "arith.uitofp",  "math.tanh",  "math.sqrt",  "math.cbrt",
    "math.sin",     "math.cos",      "math.atan",  "math.atan2", "math.fma",
    "linalg.add",   "linalg.sub",    "linalg.mul", "linalg.div", "linalg.tanh",
    "linalg.sqrt",  "linalg.square",
};

static const char *const kClearList[] = {
    "arith.constant",
    "arith.select",
    "arith.maximumf",
    "arith.minimumf",
    "arith.maxnumf",
    "arith.minnumf",
    "arith.negf",
    "arith.cmpf",
    "math.absf",
    "math.copysign",
    "math.floor",
    "math.ceil",
    "math.round",
    "math.roundeven",
    "math.trunc",
    "math.isfinite",
    "math.isinf",
    "math.isnan",
    "linalg.abs",
    "linalg.negf",
    "linalg.max",
    "linalg.min",
    "linalg.floor",
    "linalg.ceil",
    "linalg.round",
    "linalg.select",
    "linalg.copy",
    "linalg.fill",
    "linalg.transpose",
    "linalg.broadcast",
    "linalg.pack",
    "linalg.unpack",
    "linalg.pooling_nchw_max",
    "linalg.pooling_ncw_max",
    "linalg.pooling_ndhwc_max",
    "linalg.pooling_ndhwc_min",
    "linalg.pooling_nhwc_max",
    "linalg.pooling_nhwc_min",
    "linalg.pooling_nwc_max",
    "linalg.pooling_nwc_min",
    "tensor.empty",
    "tensor.extract_slice",
    "tensor.insert_slice",
    "tensor.expand_shape",
    "tensor.collapse_shape",
    "tensor.reshape",
    "tensor.pad",
    "tensor.concat",
    "tensor.cast",
    "tensor.extract",
    "tensor.insert",
    "tensor.from_elements",
    "tensor.splat",
    "tensor.gather",
    "tensor.scatter",
};

std::optional<PolicyLevel> mlir::mp::parsePolicyLevel(StringRef text) {
  std::optional<PolicyLevel> level = symbolizePolicyLevel(text);
  if (level == PolicyLevel::FromPolicy)
    return std::nullopt;
  return level;
}

llvm::ArrayRef<StringRef> Policy::getPseudoKeys() {
  static const StringRef keys[] = {"linalg:contraction", "linalg:convolution",
                                   "linalg:additive-reduction"};
  return keys;
}

bool Policy::isPseudoKey(StringRef key) {
  return llvm::is_contained(getPseudoKeys(), key);
}

llvm::ArrayRef<StringRef> Policy::getBuiltinNames() {
  static const StringRef names[] = {"fp16", "bf16"};
  return names;
}

std::optional<Policy> Policy::getBuiltin(StringRef name) {
  if (!llvm::is_contained(getBuiltinNames(), name))
    return std::nullopt;
  Policy policy;
  policy.name = name.str();
  policy.lowPrecision = name == "fp16" ? Precision::f16 : Precision::bf16;
  policy.lossScaling = name == "fp16";
  auto addAll = [&](PrecisionClass cls, llvm::ArrayRef<const char *> keys) {
    for (const char *key : keys)
      policy.add(cls, key);
  };
  addAll(PrecisionClass::allow, kAllowList);
  addAll(PrecisionClass::deny, kDenyList);
  addAll(PrecisionClass::infer, kInferList);
  addAll(PrecisionClass::clear, kClearList);
  return policy;
}

std::optional<PrecisionClass> Policy::lookup(StringRef key) const {
  auto it = lists.find(key);
  if (it == lists.end() || it->second == 0)
    return std::nullopt;
  for (unsigned i = 0; i < kNumPrecisionClasses; ++i)
    if (it->second & (1u << i))
      return static_cast<PrecisionClass>(i);
  return std::nullopt;
}

void Policy::add(PrecisionClass cls, StringRef key) {
  lists[key] |= 1u << static_cast<unsigned>(cls);
}

bool Policy::remove(PrecisionClass cls, StringRef key) {
  auto it = lists.find(key);
  unsigned bit = 1u << static_cast<unsigned>(cls);
  if (it == lists.end() || !(it->second & bit))
    return false;
  it->second &= ~bit;
  return true;
}

std::vector<std::string> Policy::getKeys(PrecisionClass cls) const {
  std::vector<std::string> keys;
  for (const auto &entry : lists)
    if (entry.second & (1u << static_cast<unsigned>(cls)))
      keys.push_back(entry.first().str());
  llvm::sort(keys);
  return keys;
}

llvm::Error Policy::verify() const {
  std::vector<std::string> keys;
  for (const auto &entry : lists)
    keys.push_back(entry.first().str());
  llvm::sort(keys);
  for (const std::string &key : keys) {
    unsigned bits = lists.lookup(key);
    if (llvm::popcount(bits) < 2)
      continue;
    SmallVector<StringRef> in;
    for (unsigned i = 0; i < kNumPrecisionClasses; ++i)
      if (bits & (1u << i))
        in.push_back(stringifyPrecisionClass(static_cast<PrecisionClass>(i)));
    return llvm::createStringError(
        llvm::formatv("op '{0}' is in two precision lists ('{1}' and '{2}'); "
                      "remove it from one, e.g. with {1}-remove={0}",
                      key, in[0], in[1])
            .str());
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Policy files
//===----------------------------------------------------------------------===//
//
// A policy file is read by llvm::yaml::Input (JSON is YAML) into PolicyFile:
// unknown and duplicate keys, values of the wrong kind, empty op names, bad
// precisions, levels and base names are errors at their line and column.
// MappingTraits<PolicyFile>::validate then builds the Policy from its base
// and checks what needs the lists: removing an op that is not there, an op
// in two lists.

namespace {
/// An op name (or pseudo key) in a list: not empty.
struct OpName {
  std::string key;
};
/// The name of a built-in policy.
struct BaseName {
  std::string name;
};
/// The low precision of a policy: f16 (also spelled fp16) or bf16.
struct LowPrecision {
  Precision value;
};

/// One list of op names per class, each optional.
struct ClassLists {
  std::optional<std::vector<OpName>> lists[kNumPrecisionClasses];
};

struct PolicyFile {
  std::optional<std::string> name;
  std::optional<BaseName> base;
  std::optional<LowPrecision> precision;
  std::optional<PolicyLevel> level;
  std::optional<bool> lossScaling;
  /// Lists that replace the base's.
  ClassLists replaced;
  std::optional<ClassLists> add, remove;

  /// Built by validate().
  Policy policy;
};
} // namespace

LLVM_YAML_IS_SEQUENCE_VECTOR(OpName)

namespace llvm {
namespace yaml {
template <> struct ScalarTraits<OpName> {
  static void output(const OpName &value, void *, raw_ostream &os) {
    os << value.key;
  }
  static StringRef input(StringRef scalar, void *, OpName &value) {
    if (scalar.empty())
      return "empty op name";
    value.key = scalar.str();
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::Double; }
};

template <> struct ScalarTraits<BaseName> {
  static void output(const BaseName &value, void *, raw_ostream &os) {
    os << value.name;
  }
  static StringRef input(StringRef scalar, void *, BaseName &value) {
    if (!llvm::is_contained(Policy::getBuiltinNames(), scalar))
      return "unknown base policy; expected fp16 or bf16";
    value.name = scalar.str();
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<LowPrecision> {
  static void output(const LowPrecision &value, void *, raw_ostream &os) {
    os << stringifyPrecision(value.value);
  }
  static StringRef input(StringRef scalar, void *, LowPrecision &value) {
    if (scalar == "f16" || scalar == "fp16")
      value.value = Precision::f16;
    else if (scalar == "bf16")
      value.value = Precision::bf16;
    else
      return "unsupported precision; expected f16 or bf16 (fp8 is not "
             "supported yet)";
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<PolicyLevel> {
  static void output(const PolicyLevel &value, void *, raw_ostream &os) {
    os << stringifyPolicyLevel(value);
  }
  static StringRef input(StringRef scalar, void *, PolicyLevel &value) {
    std::optional<PolicyLevel> level = parsePolicyLevel(scalar);
    if (!level)
      return "unknown level; expected default, tensor-cores-only, "
             "treat-infer-as-deny or unsafe-force-all";
    value = *level;
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct MappingTraits<ClassLists> {
  static void mapping(IO &io, ClassLists &lists) {
    for (unsigned i = 0; i < kNumPrecisionClasses; ++i)
      io.mapOptional(
          stringifyPrecisionClass(static_cast<PrecisionClass>(i)).data(),
          lists.lists[i]);
  }
};

template <> struct MappingTraits<PolicyFile> {
  static void mapping(IO &io, PolicyFile &file) {
    io.mapOptional("name", file.name);
    io.mapOptional("base", file.base);
    io.mapOptional("precision", file.precision);
    io.mapOptional("level", file.level);
    io.mapOptional("loss_scaling", file.lossScaling);
    MappingTraits<ClassLists>::mapping(io, file.replaced);
    io.mapOptional("add", file.add);
    io.mapOptional("remove", file.remove);
  }
  static std::string validate(IO &, PolicyFile &file);
};
} // namespace yaml
} // namespace llvm

std::string llvm::yaml::MappingTraits<PolicyFile>::validate(IO &io,
                                                            PolicyFile &file) {
  // yaml::Input validates even what it failed to read.
  if (io.error())
    return {};
  Policy &policy = file.policy;
  if (file.base)
    if (std::optional<Policy> builtin = Policy::getBuiltin(file.base->name))
      policy = std::move(*builtin);
  if (file.name)
    policy.setName(*file.name);
  if (file.precision)
    policy.setLowPrecision(file.precision->value);
  if (file.lossScaling)
    policy.setLossScaling(*file.lossScaling);
  if (file.level)
    policy.setLevel(*file.level);
  for (unsigned i = 0; i < kNumPrecisionClasses; ++i) {
    auto cls = static_cast<PrecisionClass>(i);
    StringRef list = stringifyPrecisionClass(cls);
    if (const auto &replaced = file.replaced.lists[i]) {
      for (const std::string &key : policy.getKeys(cls))
        policy.remove(cls, key);
      for (const OpName &op : *replaced)
        policy.add(cls, op.key);
    }
    if (file.remove && file.remove->lists[i])
      for (const OpName &op : *file.remove->lists[i])
        if (!policy.remove(cls, op.key))
          return ("remove: '" + op.key + "' is not in the " + list + " list")
              .str();
    if (file.add && file.add->lists[i])
      for (const OpName &op : *file.add->lists[i])
        policy.add(cls, op.key);
  }
  if (llvm::Error err = policy.verify())
    return llvm::toString(std::move(err));
  return {};
}

/// The YAML documents in `text` that hold something (not only comments or
/// `---`), or nullopt on a syntax error (left to yaml::Input to report).
static std::optional<unsigned> countDocuments(StringRef text) {
  llvm::SourceMgr silent;
  silent.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  llvm::yaml::Stream stream(text, silent);
  unsigned count = 0;
  for (llvm::yaml::Document &doc : stream) {
    llvm::yaml::Node *root = doc.getRoot();
    count += root && !isa<llvm::yaml::NullNode>(root);
    doc.skip();
    if (stream.failed())
      return std::nullopt;
  }
  return count;
}

llvm::Expected<Policy> Policy::parse(StringRef text, StringRef fileName) {
  // yaml::Input skips documents with nothing in them: count them first.
  std::optional<unsigned> documents = countDocuments(text);
  if (documents == 0u)
    return llvm::createStringError(fileName + ":1:1: empty policy file");
  if (documents > 1u)
    return llvm::createStringError(
        fileName + ": a policy file holds one document; remove what follows "
                   "the first '---' or '...'");
  struct Reported {
    StringRef fileName;
    std::string error;
  } reported{fileName, {}};
  auto buffer = llvm::MemoryBuffer::getMemBuffer(text, fileName);
  llvm::yaml::Input input(
      buffer->getMemBufferRef(), /*Ctxt=*/nullptr,
      [](const llvm::SMDiagnostic &diag, void *context) {
        auto &reported = *static_cast<Reported *>(context);
        if (!reported.error.empty())
          return;
        llvm::raw_string_ostream os(reported.error);
        os << reported.fileName;
        // Some errors have no position (a stream that ends early).
        if (diag.getLoc().isValid())
          os << ":" << diag.getLineNo() << ":" << (diag.getColumnNo() + 1);
        os << ": " << diag.getMessage();
      },
      &reported);
  PolicyFile file;
  input >> file;
  if (input.error())
    return llvm::createStringError(reported.error.empty()
                                       ? fileName + ": invalid policy"
                                       : reported.error);
  if (!file.name)
    file.policy.setName(fileName);
  return std::move(file.policy);
}

/// Policy files are small: reading stops past this many bytes (a device
/// such as /dev/zero never ends).
static constexpr size_t kMaxPolicyBytes = 1 << 20;

llvm::Expected<Policy> Policy::load(StringRef nameOrPath) {
  if (std::optional<Policy> builtin = getBuiltin(nameOrPath))
    return *builtin;
  auto cannotRead = [&](const llvm::Twine &why) {
    return llvm::createStringError(
        "cannot read policy file '" + nameOrPath + "': " + why +
        " (built-in policies: " + llvm::join(getBuiltinNames(), ", ") + ")");
  };
  llvm::Expected<llvm::sys::fs::file_t> fd =
      llvm::sys::fs::openNativeFileForRead(nameOrPath);
  if (!fd)
    return cannotRead(llvm::toString(fd.takeError()));
  llvm::scope_exit close([&] { llvm::sys::fs::closeFile(*fd); });
  llvm::SmallString<4096> text;
  char chunk[4096];
  while (true) {
    llvm::Expected<size_t> read = llvm::sys::fs::readNativeFile(*fd, chunk);
    if (!read)
      return cannotRead(llvm::toString(read.takeError()));
    if (*read == 0)
      return parse(text, nameOrPath);
    text.append(chunk, chunk + *read);
    if (text.size() > kMaxPolicyBytes)
      return cannotRead("larger than " + llvm::Twine(kMaxPolicyBytes) +
                        " bytes");
  }
}
