//===- Tensor.cpp - Tensors, dtypes and errors ------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace mp_runtime;

static thread_local std::string lastError;

mp_status mp_runtime::fail(mp_status status, const std::string &message) {
  lastError = message;
  return status;
}

extern "C" const char *mp_last_error(void) { return lastError.c_str(); }

namespace {
struct DtypeInfo {
  mp_dtype dtype;
  const char *name;
  size_t size;
};
const DtypeInfo kDtypes[] = {
    {MP_F32, "f32", 4}, {MP_F16, "f16", 2}, {MP_BF16, "bf16", 2},
    {MP_F64, "f64", 8}, {MP_I1, "i1", 1},   {MP_I8, "i8", 1},
    {MP_I32, "i32", 4}, {MP_I64, "i64", 8},
};
} // namespace

extern "C" const char *mp_dtype_name(mp_dtype dtype) {
  for (const DtypeInfo &info : kDtypes)
    if (info.dtype == dtype)
      return info.name;
  return "?";
}

extern "C" size_t mp_dtype_size(mp_dtype dtype) {
  for (const DtypeInfo &info : kDtypes)
    if (info.dtype == dtype)
      return info.size;
  return 0;
}

extern "C" mp_status mp_dtype_parse(const char *name, mp_dtype *out) {
  for (const DtypeInfo &info : kDtypes)
    if (std::strcmp(info.name, name) == 0) {
      *out = info.dtype;
      return MP_OK;
    }
  return fail(MP_ERROR_FORMAT, std::string("unknown dtype '") + name + "'");
}

mp_status mp_runtime::checkShape(mp_dtype dtype, int32_t rank,
                                 const int64_t *shape, size_t &bytes,
                                 const std::string &where) {
  if (rank < 0 || rank > MP_MAX_RANK)
    return fail(MP_ERROR_UNSUPPORTED, where + "rank " + std::to_string(rank) +
                                          " is not supported (max " +
                                          std::to_string(MP_MAX_RANK) + ")");
  uint64_t total = mp_dtype_size(dtype);
  for (int32_t i = 0; i < rank; ++i) {
    if (shape[i] < 0)
      return fail(MP_ERROR_FORMAT, where + "negative size in a tensor shape");
    if (__builtin_mul_overflow(total, static_cast<uint64_t>(shape[i]),
                               &total) ||
        total > kMaxTensorBytes)
      return fail(MP_ERROR_UNSUPPORTED, where + "a tensor of shape " +
                                            formatShape(dtype, rank, shape) +
                                            " exceeds the runtime's limit of " +
                                            std::to_string(kMaxTensorBytes) +
                                            " bytes");
  }
  bytes = total;
  return MP_OK;
}

extern "C" int64_t mp_tensor_num_elements(const mp_tensor *tensor) {
  int64_t count = 1;
  for (int32_t i = 0; i < tensor->rank; ++i)
    if (__builtin_mul_overflow(count, tensor->shape[i], &count))
      return -1;
  return count;
}

extern "C" size_t mp_tensor_num_bytes(const mp_tensor *tensor) {
  int64_t count = mp_tensor_num_elements(tensor);
  uint64_t bytes;
  if (count < 0 || __builtin_mul_overflow(static_cast<uint64_t>(count),
                                          mp_dtype_size(tensor->dtype), &bytes))
    return SIZE_MAX;
  return bytes;
}

extern "C" mp_status mp_tensor_alloc(mp_dtype dtype, int32_t rank,
                                     const int64_t *shape, mp_tensor *out) {
  std::memset(out, 0, sizeof(*out));
  size_t bytes = 0;
  if (mp_status status = checkShape(dtype, rank, shape, bytes))
    return status;
  // One byte at least, so that empty tensors have a distinct pointer.
  void *data = std::calloc(bytes + 1, 1);
  if (!data)
    return fail(MP_ERROR_MEMORY, "cannot allocate " + std::to_string(bytes) +
                                     " bytes for a tensor of shape " +
                                     formatShape(dtype, rank, shape));
  out->dtype = dtype;
  out->rank = rank;
  for (int32_t i = 0; i < rank; ++i)
    out->shape[i] = shape[i];
  out->data = data;
  out->owned = 1;
  return MP_OK;
}

extern "C" void mp_tensor_release(mp_tensor *tensor) {
  if (tensor->owned)
    freeTensorData(tensor->data);
  tensor->data = nullptr;
  tensor->owned = 0;
}

std::string mp_runtime::formatShape(mp_dtype dtype, int32_t rank,
                                    const int64_t *shape) {
  std::string text = mp_dtype_name(dtype);
  text += "[";
  for (int32_t i = 0; i < rank; ++i) {
    if (i)
      text += ",";
    text += shape[i] < 0 ? "?" : std::to_string(shape[i]);
  }
  return text + "]";
}

size_t mp_runtime::copyOut(const std::string &text, char *buf, size_t size) {
  if (size) {
    size_t n = std::min(text.size(), size - 1);
    std::memcpy(buf, text.data(), n);
    buf[n] = '\0';
  }
  return text.size();
}

extern "C" size_t mp_tensor_format_type(const mp_tensor *tensor, char *buf,
                                        size_t size) {
  return copyOut(formatShape(tensor->dtype, tensor->rank, tensor->shape), buf,
                 size);
}

//===----------------------------------------------------------------------===//
// Element access and conversion
//===----------------------------------------------------------------------===//

namespace {
double load(const void *data, mp_dtype dtype, int64_t i) {
  switch (dtype) {
  case MP_F32:
    return static_cast<const float *>(data)[i];
  case MP_F16:
    return static_cast<double>(static_cast<const _Float16 *>(data)[i]);
  case MP_BF16:
    return fromBF16(static_cast<const uint16_t *>(data)[i]);
  case MP_F64:
    return static_cast<const double *>(data)[i];
  case MP_I1:
    return static_cast<const uint8_t *>(data)[i] ? 1 : 0;
  case MP_I8:
    return static_cast<const int8_t *>(data)[i];
  case MP_I32:
    return static_cast<const int32_t *>(data)[i];
  case MP_I64:
    return static_cast<double>(static_cast<const int64_t *>(data)[i]);
  }
  return 0;
}

void store(void *data, mp_dtype dtype, int64_t i, double value) {
  switch (dtype) {
  case MP_F32:
    static_cast<float *>(data)[i] = static_cast<float>(value);
    return;
  case MP_F16:
    // Through f32, as the compiled code converts: f64 -> f32 is exact for
    // every value that came from f32, f16 or bf16.
    static_cast<_Float16 *>(data)[i] =
        static_cast<_Float16>(static_cast<float>(value));
    return;
  case MP_BF16:
    static_cast<uint16_t *>(data)[i] = toBF16(static_cast<float>(value));
    return;
  case MP_F64:
    static_cast<double *>(data)[i] = value;
    return;
  case MP_I1:
    static_cast<uint8_t *>(data)[i] = value != 0;
    return;
  case MP_I8:
    static_cast<int8_t *>(data)[i] = static_cast<int8_t>(value);
    return;
  case MP_I32:
    static_cast<int32_t *>(data)[i] = static_cast<int32_t>(value);
    return;
  case MP_I64:
    static_cast<int64_t *>(data)[i] = static_cast<int64_t>(value);
    return;
  }
}
} // namespace

extern "C" double mp_tensor_get(const mp_tensor *tensor, int64_t index) {
  return load(tensor->data, tensor->dtype, index);
}

extern "C" mp_status mp_tensor_convert(const mp_tensor *in, mp_dtype dtype,
                                       mp_tensor *out) {
  if (mp_status status = mp_tensor_alloc(dtype, in->rank, in->shape, out))
    return status;
  int64_t count = mp_tensor_num_elements(in);
  if (in->dtype == MP_F32 && dtype == MP_BF16) {
    // Exact f32 -> bf16 without the detour through double.
    for (int64_t i = 0; i < count; ++i)
      static_cast<uint16_t *>(out->data)[i] =
          toBF16(static_cast<const float *>(in->data)[i]);
    return MP_OK;
  }
  for (int64_t i = 0; i < count; ++i)
    store(out->data, dtype, i, load(in->data, in->dtype, i));
  return MP_OK;
}
