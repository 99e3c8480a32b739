//===- Signature.cpp - Entry signatures -------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cstdlib>
#include <cstring>

using namespace mp_runtime;

static mp_status parseValue(const std::string &text, mp_value_info &info) {
  std::memset(&info, 0, sizeof(info));
  size_t bracket = text.find('[');
  std::string dtype = text.substr(0, bracket);
  if (mp_dtype_parse(dtype.c_str(), &info.dtype) != MP_OK)
    return fail(MP_ERROR_FORMAT, "bad signature value '" + text +
                                     "': unknown dtype '" + dtype + "'");
  if (bracket == std::string::npos) {
    info.is_scalar = 1;
    return MP_OK;
  }
  if (text.back() != ']')
    return fail(MP_ERROR_FORMAT, "bad signature value '" + text + "'");
  std::string dims = text.substr(bracket + 1, text.size() - bracket - 2);
  size_t pos = 0;
  while (pos < dims.size()) {
    size_t comma = dims.find(',', pos);
    std::string dim = dims.substr(pos, comma - pos);
    if (info.rank == MP_MAX_RANK)
      return fail(MP_ERROR_UNSUPPORTED, "rank above " +
                                            std::to_string(MP_MAX_RANK) +
                                            " in '" + text + "'");
    if (dim == "?") {
      info.shape[info.rank++] = -1;
    } else {
      char *end = nullptr;
      long long size = std::strtoll(dim.c_str(), &end, 10);
      if (dim.empty() || *end != '\0' || size < 0)
        return fail(MP_ERROR_FORMAT,
                    "bad size '" + dim + "' in '" + text + "'");
      info.shape[info.rank++] = size;
    }
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  return MP_OK;
}

static mp_status parseList(const std::string &text,
                           std::vector<mp_value_info> &out) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t semi = text.find(';', pos);
    mp_value_info info;
    if (mp_status status = parseValue(text.substr(pos, semi - pos), info))
      return status;
    out.push_back(info);
    if (semi == std::string::npos)
      break;
    pos = semi + 1;
  }
  return MP_OK;
}

mp_status mp_runtime::parseSignature(const std::string &text,
                                     std::vector<mp_value_info> &args,
                                     std::vector<mp_value_info> &results) {
  size_t arrow = text.find("->");
  if (arrow == std::string::npos)
    return fail(MP_ERROR_FORMAT, "bad signature '" + text + "': no '->'");
  if (mp_status status = parseList(text.substr(0, arrow), args))
    return status;
  return parseList(text.substr(arrow + 2), results);
}
