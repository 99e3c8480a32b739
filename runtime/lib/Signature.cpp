//===- Signature.cpp - Entry signatures -------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mp_runtime;

namespace {
/// What follows a role's name in a signature.
enum class RoleValue { None, Number, Index };
} // namespace

static RoleValue getRoleValue(mp_role role) {
  switch (role) {
  case MP_ROLE_STATE:
  case MP_ROLE_LOSS_SCALE:
    return RoleValue::Number;
  case MP_ROLE_GRAD_OF:
  case MP_ROLE_UPDATES:
    return RoleValue::Index;
  default:
    return RoleValue::None;
  }
}

extern "C" const char *mp_role_name(mp_role role) {
  switch (role) {
  case MP_ROLE_NONE:
    return "";
  case MP_ROLE_PARAM:
    return "param";
  case MP_ROLE_INPUT:
    return "input";
  case MP_ROLE_GRAD_SEED:
    return "grad_seed";
  case MP_ROLE_STATE:
    return "state";
  case MP_ROLE_LOSS_SCALE:
    return "loss_scale";
  case MP_ROLE_LOSS:
    return "loss";
  case MP_ROLE_GRAD_OF:
    return "grad_of";
  case MP_ROLE_UPDATES:
    return "updates";
  case MP_ROLE_FOUND_INF:
    return "found_inf";
  case MP_ROLE_OUTPUT:
    return "output";
  }
  return nullptr;
}

/// Parses a role suffix such as "param", "state=0.5" or "updates=3".
static mp_status parseRole(const std::string &text, mp_value_info &info) {
  size_t eq = text.find('=');
  std::string name = text.substr(0, eq);
  for (int role = MP_ROLE_PARAM; role <= MP_ROLE_OUTPUT; ++role) {
    if (name != mp_role_name(static_cast<mp_role>(role)))
      continue;
    info.role = static_cast<mp_role>(role);
    RoleValue kind = getRoleValue(info.role);
    if ((kind != RoleValue::None) != (eq != std::string::npos))
      break;
    if (kind == RoleValue::None)
      return MP_OK;
    std::string value = text.substr(eq + 1);
    char *end = nullptr;
    if (kind == RoleValue::Index)
      info.index = std::strtoll(value.c_str(), &end, 10);
    else
      info.init = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || info.index < 0)
      break;
    return MP_OK;
  }
  return fail(MP_ERROR_FORMAT, "bad role '@" + text + "' in a signature");
}

std::string mp_runtime::formatValueInfo(const mp_value_info &info,
                                        bool withRole) {
  std::string text = info.is_scalar
                         ? std::string(mp_dtype_name(info.dtype))
                         : formatShape(info.dtype, info.rank, info.shape);
  if (info.bound > 0)
    text += "<" + std::to_string(info.bound);
  if (!withRole || info.role == MP_ROLE_NONE)
    return text;
  text += std::string("@") + mp_role_name(info.role);
  switch (getRoleValue(info.role)) {
  case RoleValue::None:
    break;
  case RoleValue::Number: {
    char number[32];
    std::snprintf(number, sizeof(number), "%.17g", info.init);
    text += std::string("=") + number;
    break;
  }
  case RoleValue::Index:
    text += "=" + std::to_string(info.index);
    break;
  }
  return text;
}

extern "C" size_t mp_value_info_format(const mp_value_info *info, int with_role,
                                       char *buf, size_t size) {
  return copyOut(formatValueInfo(*info, with_role != 0), buf, size);
}

extern "C" size_t mp_signature_format(const mp_value_info *args,
                                      int32_t num_args,
                                      const mp_value_info *results,
                                      int32_t num_results, char *buf,
                                      size_t size) {
  std::string text;
  for (int32_t i = 0; i < num_args; ++i)
    text += (i ? ";" : "") + formatValueInfo(args[i], /*withRole=*/true);
  text += "->";
  for (int32_t i = 0; i < num_results; ++i)
    text += (i ? ";" : "") + formatValueInfo(results[i], /*withRole=*/true);
  return copyOut(text, buf, size);
}

static mp_status parseValue(std::string text, mp_value_info &info) {
  std::memset(&info, 0, sizeof(info));
  size_t at = text.find('@');
  if (at != std::string::npos) {
    if (mp_status status = parseRole(text.substr(at + 1), info))
      return status;
    text.resize(at);
  }
  size_t less = text.find('<');
  if (less != std::string::npos) {
    std::string bound = text.substr(less + 1);
    char *end = nullptr;
    long long value = std::strtoll(bound.c_str(), &end, 10);
    if (bound.empty() || !std::isdigit(static_cast<unsigned char>(bound[0])) ||
        *end != '\0' || value < 1)
      return fail(MP_ERROR_FORMAT, "bad bound '" + bound + "' in '" + text +
                                       "': expected a positive size");
    info.bound = value;
    text.resize(less);
  }
  size_t bracket = text.find('[');
  std::string dtype = text.substr(0, bracket);
  if (mp_dtype_parse(dtype.c_str(), &info.dtype) != MP_OK)
    return fail(MP_ERROR_FORMAT, "bad signature value '" + text +
                                     "': unknown dtype '" + dtype + "'");
  if (info.bound > 0 &&
      (bracket == std::string::npos ||
       (info.dtype != MP_I64 && info.dtype != MP_I32 && info.dtype != MP_I8)))
    return fail(MP_ERROR_FORMAT, "bad signature value '" + text +
                                     "': only integer tensors take a bound");
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
