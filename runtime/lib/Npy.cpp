//===- Npy.cpp - NumPy .npy files -------------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <unistd.h>

using namespace mp_runtime;

namespace {
struct FileCloser {
  void operator()(FILE *file) const { std::fclose(file); }
};
using File = std::unique_ptr<FILE, FileCloser>;

const char kMagic[] = "\x93NUMPY";

struct Descr {
  const char *descr;
  mp_dtype dtype;
};
// '<u2' is bf16 only when the caller says so (NumPy has no bf16).
const Descr kDescrs[] = {
    {"<f4", MP_F32}, {"<f2", MP_F16}, {"<f8", MP_F64}, {"|b1", MP_I1},
    {"|i1", MP_I8},  {"<i4", MP_I32}, {"<i8", MP_I64}, {"<u2", MP_BF16},
};

/// The header of a .npy file: a Python dict literal with exactly the keys
/// 'descr' (a string), 'fortran_order' (True or False) and 'shape' (a tuple
/// of non-negative integers), then spaces and a newline (NumPy's format,
/// versions 1.0 to 3.0). Fails with a reason.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : text(text) {}

  /// Fills the fields or returns why the header is malformed.
  std::string parse(std::string &descr, bool &fortranOrder,
                    std::vector<int64_t> &shape) {
    if (text.empty() || text.back() != '\n')
      return "the header does not end with a newline";
    skipSpaces();
    if (!consume('{'))
      return "the header is not a dict";
    bool seen[3] = {false, false, false};
    skipSpaces();
    while (!consume('}')) {
      std::string key;
      if (!parseString(key))
        return "expected a quoted key in the header";
      int index = key == "descr"           ? 0
                  : key == "fortran_order" ? 1
                  : key == "shape"         ? 2
                                           : -1;
      if (index < 0)
        return "unknown key '" + key + "' in the header";
      if (seen[index])
        return "key '" + key + "' appears twice in the header";
      seen[index] = true;
      skipSpaces();
      if (!consume(':'))
        return "expected ':' after '" + key + "'";
      skipSpaces();
      if (index == 0 && !parseString(descr))
        return "'descr' is not a string";
      if (index == 1 && !parseBool(fortranOrder))
        return "'fortran_order' is not True or False";
      if (index == 2) {
        std::string error = parseShape(shape);
        if (!error.empty())
          return error;
      }
      skipSpaces();
      if (consume(','))
        skipSpaces();
      else if (pos >= text.size() || text[pos] != '}')
        return "expected ',' or '}' in the header";
    }
    skipSpaces();
    if (pos != text.size())
      return "unexpected text after the header dict";
    for (int i = 0; i < 3; ++i)
      if (!seen[i])
        return std::string("the header has no '") +
               (i == 0   ? "descr"
                : i == 1 ? "fortran_order"
                         : "shape") +
               "'";
    return "";
  }

private:
  void skipSpaces() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n'))
      ++pos;
  }
  bool consume(char c) {
    if (pos >= text.size() || text[pos] != c)
      return false;
    ++pos;
    return true;
  }
  /// A string in single or double quotes, without escapes.
  bool parseString(std::string &out) {
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return false;
    char quote = text[pos];
    size_t end = text.find(quote, pos + 1);
    if (end == std::string::npos)
      return false;
    out = text.substr(pos + 1, end - pos - 1);
    if (out.find('\\') != std::string::npos)
      return false;
    pos = end + 1;
    return true;
  }
  bool parseBool(bool &out) {
    for (bool value : {true, false}) {
      const char *word = value ? "True" : "False";
      size_t n = std::strlen(word);
      if (text.compare(pos, n, word) == 0) {
        pos += n;
        out = value;
        return true;
      }
    }
    return false;
  }
  /// "()", "(4,)", "(2, 3)" or "(2, 3,)": a 1-tuple needs its comma.
  std::string parseShape(std::vector<int64_t> &shape) {
    if (!consume('('))
      return "'shape' is not a tuple";
    skipSpaces();
    bool trailingComma = false;
    while (!consume(')')) {
      if (pos >= text.size() || text[pos] < '0' || text[pos] > '9')
        return "'shape' holds something other than non-negative integers";
      int64_t value = 0;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        if (__builtin_mul_overflow(value, 10, &value) ||
            __builtin_add_overflow(value, text[pos] - '0', &value))
          return "a size in 'shape' exceeds 64 bits";
        ++pos;
      }
      if (shape.size() == MP_MAX_RANK)
        return "rank above " + std::to_string(MP_MAX_RANK);
      shape.push_back(value);
      skipSpaces();
      trailingComma = consume(',');
      skipSpaces();
      if (!trailingComma && (pos >= text.size() || text[pos] != ')'))
        return "expected ',' or ')' in 'shape'";
    }
    if (shape.size() == 1 && !trailingComma)
      return "'shape' (n) is not a tuple: write (n,)";
    return "";
  }

  const std::string &text;
  size_t pos = 0;
};
} // namespace

extern "C" mp_status mp_npy_read(const char *path, int as_bf16,
                                 mp_tensor *out) {
  std::string where = std::string(path) + ": ";
  File file(std::fopen(path, "rb"));
  if (!file)
    return fail(MP_ERROR_IO, where + std::strerror(errno));
  return readNpy(file.get(), where, as_bf16, out);
}

mp_status mp_runtime::readNpy(FILE *file, const std::string &where, int as_bf16,
                              mp_tensor *out) {
  unsigned char prefix[10];
  if (std::fread(prefix, 1, 8, file) != 8 ||
      std::memcmp(prefix, kMagic, 6) != 0)
    return fail(MP_ERROR_FORMAT, where + "not a .npy file");
  unsigned major = prefix[6], minor = prefix[7];
  uint32_t headerLen = 0;
  if (major == 1 && minor == 0) {
    if (std::fread(prefix, 1, 2, file) != 2)
      return fail(MP_ERROR_FORMAT, where + "truncated header");
    headerLen = prefix[0] | (prefix[1] << 8);
  } else if ((major == 2 || major == 3) && minor == 0) {
    if (std::fread(prefix, 1, 4, file) != 4)
      return fail(MP_ERROR_FORMAT, where + "truncated header");
    headerLen = prefix[0] | (prefix[1] << 8) | (prefix[2] << 16) |
                (static_cast<uint32_t>(prefix[3]) << 24);
  } else {
    return fail(MP_ERROR_FORMAT, where + "unsupported .npy version " +
                                     std::to_string(major) + "." +
                                     std::to_string(minor) +
                                     " (supported: 1.0, 2.0, 3.0)");
  }
  // A real header is a few hundred bytes.
  if (headerLen > (1u << 16))
    return fail(MP_ERROR_FORMAT, where + "header of " +
                                     std::to_string(headerLen) +
                                     " bytes is too long");
  std::string header(headerLen, '\0');
  if (std::fread(header.data(), 1, headerLen, file) != headerLen)
    return fail(MP_ERROR_FORMAT, where + "truncated header");
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  std::string error = HeaderParser(header).parse(descr, fortranOrder, shape);
  if (!error.empty())
    return fail(MP_ERROR_FORMAT, where + error);
  if (fortranOrder)
    return fail(MP_ERROR_UNSUPPORTED,
                where + "Fortran-order arrays are not supported");
  const Descr *match = nullptr;
  for (const Descr &d : kDescrs)
    if (descr == d.descr)
      match = &d;
  if (!match)
    return fail(
        MP_ERROR_UNSUPPORTED,
        where + "unsupported dtype '" + descr +
            "' (supported: <f4 <f2 <f8 |b1 |i1 <i4 <i8, and <u2 as bf16)");
  if (match->dtype == MP_BF16 && !as_bf16)
    return fail(MP_ERROR_UNSUPPORTED,
                where + "uint16 array: only bf16 arguments read '<u2' files");
  size_t bytes = 0;
  if (mp_status status =
          checkShape(match->dtype, shape.size(), shape.data(), bytes, where))
    return status;
  // The data is exactly what the shape says: no fewer values, nothing after.
  long start = std::ftell(file);
  if (start < 0 || std::fseek(file, 0, SEEK_END) != 0)
    return fail(MP_ERROR_IO, where + "cannot seek");
  long end = std::ftell(file);
  if (end < start || static_cast<uint64_t>(end - start) != bytes)
    return fail(MP_ERROR_FORMAT, where + "holds " +
                                     std::to_string(end - start) +
                                     " bytes of data but its shape needs " +
                                     std::to_string(bytes));
  std::fseek(file, start, SEEK_SET);
  if (mp_status status =
          mp_tensor_alloc(match->dtype, shape.size(), shape.data(), out))
    return status;
  if (std::fread(out->data, 1, bytes, file) != bytes) {
    mp_tensor_release(out);
    return fail(MP_ERROR_IO, where + "read failed");
  }
  return MP_OK;
}

extern "C" mp_status mp_npy_write(const char *path, const mp_tensor *tensor) {
  const char *descr = nullptr;
  for (const Descr &d : kDescrs)
    if (d.dtype == tensor->dtype)
      descr = d.descr;
  std::string shape = "(";
  for (int32_t i = 0; i < tensor->rank; ++i) {
    shape += std::to_string(tensor->shape[i]);
    if (tensor->rank == 1)
      shape += ",";
    else if (i + 1 < tensor->rank)
      shape += ", ";
  }
  shape += ")";
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  // Written next to `path`, synced, then renamed over it: a reader (or a
  // crash) sees the old file or the new one, never half of one.
  std::string temp = std::string(path) + ".tmp" + std::to_string(getpid());
  File file(std::fopen(temp.c_str(), "wb"));
  if (!file)
    return fail(MP_ERROR_IO, std::string(path) + ": " + std::strerror(errno));
  unsigned char prefix[10] = {0x93,
                              'N',
                              'U',
                              'M',
                              'P',
                              'Y',
                              1,
                              0,
                              static_cast<unsigned char>(header.size() & 0xff),
                              static_cast<unsigned char>(header.size() >> 8)};
  size_t bytes = mp_tensor_num_bytes(tensor);
  bool written = std::fwrite(prefix, 1, 10, file.get()) == 10 &&
                 std::fwrite(header.data(), 1, header.size(), file.get()) ==
                     header.size() &&
                 std::fwrite(tensor->data, 1, bytes, file.get()) == bytes &&
                 std::fflush(file.get()) == 0 && fsync(fileno(file.get())) == 0;
  int err = written ? 0 : (errno ? errno : EIO);
  if (std::fclose(file.release()) != 0 && !err)
    err = errno;
  if (!err && std::rename(temp.c_str(), path) != 0)
    err = errno;
  if (err) {
    std::remove(temp.c_str());
    return fail(MP_ERROR_IO,
                std::string(path) + ": write failed: " + std::strerror(err));
  }
  return MP_OK;
}
