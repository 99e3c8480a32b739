//===- Policy.cpp - AMP precision policies ----------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/Policy.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
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
        "op '" + key + "' is in two precision lists ('" + in[0].str() +
        "' and '" + in[1].str() + "'); remove it from one, e.g. with " +
        in[0].str() + "-remove=" + key);
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Policy files
//===----------------------------------------------------------------------===//

namespace mlir {
namespace mp {
namespace detail {
/// Parses the YAML (or JSON) node tree of a policy file. The first error is
/// kept with its position.
class PolicyParser {
public:
  PolicyParser(StringRef text, StringRef fileName) : fileName(fileName) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(text, fileName), llvm::SMLoc());
    sourceMgr.setDiagHandler(
        [](const llvm::SMDiagnostic &diag, void *ctx) {
          auto *self = static_cast<PolicyParser *>(ctx);
          if (self->error.empty())
            self->error = self->format(diag);
        },
        this);
  }

  llvm::Expected<Policy> parse();

private:
  std::string format(const llvm::SMDiagnostic &diag) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << fileName << ":" << diag.getLineNo() << ":" << (diag.getColumnNo() + 1)
       << ": " << diag.getMessage();
    return text;
  }
  /// Records an error at `node` and returns false.
  bool fail(llvm::yaml::Node *node, const llvm::Twine &message) {
    if (error.empty())
      sourceMgr.PrintMessage(node->getSourceRange().Start,
                             llvm::SourceMgr::DK_Error, message);
    return false;
  }
  bool getScalar(llvm::yaml::Node *node, std::string &out);
  bool parseList(llvm::yaml::Node *node, std::vector<std::string> &out);
  bool parseEdits(llvm::yaml::Node *node, bool isAdd);

  std::string fileName;
  llvm::SourceMgr sourceMgr;
  std::string error;

  std::optional<std::string> base, name, precision, level;
  std::optional<bool> lossScaling;
  std::optional<std::vector<std::string>> replaced[kNumPrecisionClasses];
  std::vector<std::string> added[kNumPrecisionClasses];
  std::vector<std::string> removed[kNumPrecisionClasses];
};
} // namespace detail
} // namespace mp
} // namespace mlir

using mlir::mp::detail::PolicyParser;

bool PolicyParser::getScalar(llvm::yaml::Node *node, std::string &out) {
  auto *scalar = dyn_cast_or_null<llvm::yaml::ScalarNode>(node);
  if (!scalar)
    return fail(node, "expected a string");
  SmallString<64> storage;
  out = scalar->getValue(storage).str();
  return true;
}

bool PolicyParser::parseList(llvm::yaml::Node *node,
                             std::vector<std::string> &out) {
  auto *seq = dyn_cast_or_null<llvm::yaml::SequenceNode>(node);
  if (!seq)
    return fail(node, "expected a list of op names, e.g. [\"math.exp\"]");
  for (llvm::yaml::Node &item : *seq) {
    std::string key;
    if (!getScalar(&item, key))
      return false;
    if (key.empty())
      return fail(&item, "empty op name");
    out.push_back(key);
  }
  return error.empty();
}

bool PolicyParser::parseEdits(llvm::yaml::Node *node, bool isAdd) {
  auto *map = dyn_cast_or_null<llvm::yaml::MappingNode>(node);
  if (!map)
    return fail(node, "expected a mapping from list name (allow, deny, infer, "
                      "clear) to a list of op names");
  for (llvm::yaml::KeyValueNode &kv : *map) {
    std::string key;
    if (!getScalar(kv.getKey(), key))
      return false;
    std::optional<PrecisionClass> cls = symbolizePrecisionClass(key);
    if (!cls)
      return fail(kv.getKey(), "unknown list '" + key +
                                   "'; expected allow, deny, infer or clear");
    unsigned idx = static_cast<unsigned>(*cls);
    if (!parseList(kv.getValue(), isAdd ? added[idx] : removed[idx]))
      return false;
  }
  return error.empty();
}

llvm::Expected<Policy> PolicyParser::parse() {
  llvm::yaml::Stream stream(
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer(),
      sourceMgr);
  llvm::yaml::document_iterator doc = stream.begin();
  llvm::yaml::Node *root = doc != stream.end() ? doc->getRoot() : nullptr;
  if (isa_and_nonnull<llvm::yaml::NullNode>(root))
    root = nullptr;
  auto *map = dyn_cast_or_null<llvm::yaml::MappingNode>(root);
  if (!map && error.empty()) {
    if (root)
      fail(root, "a policy file must hold a mapping (a JSON object)");
    else
      error = fileName + ":1:1: empty policy file";
  }
  llvm::yaml::Node *precisionNode = nullptr, *levelNode = nullptr,
                   *baseNode = nullptr;
  if (map) {
    for (llvm::yaml::KeyValueNode &kv : *map) {
      std::string key;
      if (!getScalar(kv.getKey(), key))
        break;
      llvm::yaml::Node *value = kv.getValue();
      std::string scalar;
      if (key == "name" || key == "base" || key == "precision" ||
          key == "level") {
        if (!getScalar(value, scalar))
          break;
        if (key == "name")
          name = scalar;
        else if (key == "base")
          base = scalar, baseNode = value;
        else if (key == "precision")
          precision = scalar, precisionNode = value;
        else
          level = scalar, levelNode = value;
      } else if (key == "loss_scaling") {
        if (!getScalar(value, scalar))
          break;
        if (scalar != "true" && scalar != "false") {
          fail(value, "expected true or false");
          break;
        }
        lossScaling = scalar == "true";
      } else if (std::optional<PrecisionClass> cls =
                     symbolizePrecisionClass(key)) {
        replaced[static_cast<unsigned>(*cls)].emplace();
        if (!parseList(value, *replaced[static_cast<unsigned>(*cls)]))
          break;
      } else if (key == "add" || key == "remove") {
        if (!parseEdits(value, key == "add"))
          break;
      } else {
        fail(kv.getKey(),
             "unknown key '" + key +
                 "'; expected one of name, base, precision, level, "
                 "loss_scaling, allow, deny, infer, clear, add, remove");
        break;
      }
    }
    // Drain the stream so that syntax errors after the first bad key are seen.
    if (error.empty())
      map->skip();
  }
  if (!error.empty() || stream.failed())
    return llvm::createStringError(error.empty() ? fileName + ": invalid policy"
                                                 : error);

  Policy policy;
  if (base) {
    std::optional<Policy> builtin = Policy::getBuiltin(*base);
    if (!builtin) {
      fail(baseNode,
           "unknown base policy '" + *base + "'; expected fp16 or bf16");
      return llvm::createStringError(error);
    }
    policy = *builtin;
  }
  policy.name = name ? *name : fileName;
  if (precision) {
    if (*precision == "f16" || *precision == "fp16")
      policy.lowPrecision = Precision::f16;
    else if (*precision == "bf16")
      policy.lowPrecision = Precision::bf16;
    else {
      fail(precisionNode, "unsupported precision '" + *precision +
                              "'; expected f16 or bf16 (fp8 is not "
                              "supported yet)");
      return llvm::createStringError(error);
    }
    if (!lossScaling)
      policy.lossScaling = policy.lowPrecision == Precision::f16;
  }
  if (lossScaling)
    policy.lossScaling = *lossScaling;
  if (level) {
    std::optional<PolicyLevel> parsed = parsePolicyLevel(*level);
    if (!parsed) {
      fail(levelNode, "unknown level '" + *level +
                          "'; expected default, tensor-cores-only, "
                          "treat-infer-as-deny or unsafe-force-all");
      return llvm::createStringError(error);
    }
    policy.level = *parsed;
  }
  for (unsigned i = 0; i < kNumPrecisionClasses; ++i) {
    auto cls = static_cast<PrecisionClass>(i);
    if (replaced[i]) {
      for (std::string key : policy.getKeys(cls))
        policy.remove(cls, key);
      for (const std::string &key : *replaced[i])
        policy.add(cls, key);
    }
  }
  for (unsigned i = 0; i < kNumPrecisionClasses; ++i) {
    auto cls = static_cast<PrecisionClass>(i);
    for (const std::string &key : removed[i])
      policy.remove(cls, key);
    for (const std::string &key : added[i])
      policy.add(cls, key);
  }
  if (llvm::Error err = policy.verify())
    return llvm::createStringError(fileName + ": " +
                                   llvm::toString(std::move(err)));
  return policy;
}

llvm::Expected<Policy> Policy::parse(StringRef text, StringRef fileName) {
  PolicyParser parser(text, fileName);
  return parser.parse();
}

llvm::Expected<Policy> Policy::load(StringRef nameOrPath) {
  if (std::optional<Policy> builtin = getBuiltin(nameOrPath))
    return *builtin;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(nameOrPath);
  if (!buffer)
    return llvm::createStringError(
        "cannot read policy file '" + nameOrPath +
        "': " + buffer.getError().message() +
        " (built-in policies: " + llvm::join(getBuiltinNames(), ", ") + ")");
  return parse((*buffer)->getBuffer(), nameOrPath);
}
