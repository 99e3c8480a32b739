//===- Npy.cpp - NumPy .npy files -------------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cstdio>
#include <cstring>
#include <memory>

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

/// The value of `key` in the header dict, e.g. "'<f4'" or "(2, 3)".
std::string findField(const std::string &header, const std::string &key) {
  size_t pos = header.find("'" + key + "'");
  if (pos == std::string::npos)
    return "";
  pos = header.find(':', pos);
  if (pos == std::string::npos)
    return "";
  ++pos;
  while (pos < header.size() && header[pos] == ' ')
    ++pos;
  if (pos < header.size() && header[pos] == '(') {
    size_t close = header.find(')', pos);
    return close == std::string::npos ? ""
                                      : header.substr(pos, close - pos + 1);
  }
  size_t end = header.find_first_of(",}", pos);
  return header.substr(pos, end - pos);
}
} // namespace

extern "C" mp_status mp_npy_read(const char *path, int as_bf16,
                                 mp_tensor *out) {
  std::string where = std::string(path) + ": ";
  File file(std::fopen(path, "rb"));
  if (!file)
    return fail(MP_ERROR_IO, where + std::strerror(errno));
  unsigned char prefix[10];
  if (std::fread(prefix, 1, 8, file.get()) != 8 ||
      std::memcmp(prefix, kMagic, 6) != 0)
    return fail(MP_ERROR_FORMAT, where + "not a .npy file");
  unsigned major = prefix[6];
  uint32_t headerLen = 0;
  if (major == 1) {
    if (std::fread(prefix, 1, 2, file.get()) != 2)
      return fail(MP_ERROR_FORMAT, where + "truncated header");
    headerLen = prefix[0] | (prefix[1] << 8);
  } else if (major == 2 || major == 3) {
    if (std::fread(prefix, 1, 4, file.get()) != 4)
      return fail(MP_ERROR_FORMAT, where + "truncated header");
    headerLen = prefix[0] | (prefix[1] << 8) | (prefix[2] << 16) |
                (static_cast<uint32_t>(prefix[3]) << 24);
  } else {
    return fail(MP_ERROR_FORMAT,
                where + "unsupported .npy version " + std::to_string(major));
  }
  std::string header(headerLen, '\0');
  if (std::fread(header.data(), 1, headerLen, file.get()) != headerLen)
    return fail(MP_ERROR_FORMAT, where + "truncated header");
  std::string descr = findField(header, "descr");
  if (findField(header, "fortran_order") != "False")
    return fail(MP_ERROR_UNSUPPORTED,
                where + "Fortran-order arrays are not supported");
  const Descr *match = nullptr;
  for (const Descr &d : kDescrs)
    if (descr == std::string("'") + d.descr + "'")
      match = &d;
  if (!match)
    return fail(
        MP_ERROR_UNSUPPORTED,
        where + "unsupported dtype " + descr +
            " (supported: <f4 <f2 <f8 |b1 |i1 <i4 <i8, and <u2 as bf16)");
  if (match->dtype == MP_BF16 && !as_bf16)
    return fail(MP_ERROR_UNSUPPORTED,
                where + "uint16 array: only bf16 arguments read '<u2' files");
  std::string shapeText = findField(header, "shape");
  if (shapeText.size() < 2)
    return fail(MP_ERROR_FORMAT, where + "no shape in the header");
  int64_t shape[MP_MAX_RANK];
  int32_t rank = 0;
  std::string dims = shapeText.substr(1, shapeText.size() - 2);
  size_t pos = 0;
  while (pos < dims.size()) {
    size_t comma = dims.find(',', pos);
    std::string dim = dims.substr(pos, comma - pos);
    size_t first = dim.find_first_not_of(' ');
    if (first != std::string::npos) {
      if (rank == MP_MAX_RANK)
        return fail(MP_ERROR_UNSUPPORTED, where + "rank above 8");
      shape[rank++] = std::stoll(dim.substr(first));
    }
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  if (mp_status status = mp_tensor_alloc(match->dtype, rank, shape, out))
    return status;
  size_t bytes = mp_tensor_num_bytes(out);
  if (std::fread(out->data, 1, bytes, file.get()) != bytes) {
    mp_tensor_release(out);
    return fail(MP_ERROR_FORMAT, where + "file holds fewer values than its "
                                         "shape says");
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
  File file(std::fopen(path, "wb"));
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
  if (std::fwrite(prefix, 1, 10, file.get()) != 10 ||
      std::fwrite(header.data(), 1, header.size(), file.get()) !=
          header.size() ||
      std::fwrite(tensor->data, 1, bytes, file.get()) != bytes)
    return fail(MP_ERROR_IO, std::string(path) + ": write failed");
  return MP_OK;
}
