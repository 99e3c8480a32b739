//===- Signature.cpp - Entry signatures -------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cstdlib>
#include <cstring>

using namespace mp_runtime;

/// Parses a role suffix such as "param", "state=0.5" or "updates=3".
static mp_status parseRole(const std::string &text, mp_value_info &info) {
  static const struct {
    const char *name;
    mp_role role;
    bool takesValue;
  } roles[] = {{"param", MP_ROLE_PARAM, false},
               {"input", MP_ROLE_INPUT, false},
               {"grad_seed", MP_ROLE_GRAD_SEED, false},
               {"state", MP_ROLE_STATE, true},
               {"loss_scale", MP_ROLE_LOSS_SCALE, true},
               {"loss", MP_ROLE_LOSS, false},
               {"grad_of", MP_ROLE_GRAD_OF, true},
               {"updates", MP_ROLE_UPDATES, true},
               {"found_inf", MP_ROLE_FOUND_INF, false},
               {"output", MP_ROLE_OUTPUT, false}};
  size_t eq = text.find('=');
  std::string name = text.substr(0, eq);
  for (const auto &known : roles) {
    if (name != known.name)
      continue;
    if (known.takesValue != (eq != std::string::npos))
      break;
    info.role = known.role;
    if (!known.takesValue)
      return MP_OK;
    char *end = nullptr;
    std::string value = text.substr(eq + 1);
    double number = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0')
      break;
    if (known.role == MP_ROLE_GRAD_OF || known.role == MP_ROLE_UPDATES)
      info.index = static_cast<int64_t>(number);
    else
      info.init = number;
    return MP_OK;
  }
  return fail(MP_ERROR_FORMAT, "bad role '@" + text + "' in a signature");
}

static mp_status parseValue(std::string text, mp_value_info &info) {
  std::memset(&info, 0, sizeof(info));
  size_t at = text.find('@');
  if (at != std::string::npos) {
    if (mp_status status = parseRole(text.substr(at + 1), info))
      return status;
    text.resize(at);
  }
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
