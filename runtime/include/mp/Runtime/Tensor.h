//===- Tensor.h - C++ ownership and formatting of runtime values -*- C++
//-*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Header-only C++ conveniences over mp_runtime.h for C++ clients (mp-run,
// tests, an embedding application): tensors released at scope exit and the
// runtime's formatting as std::string.
//
//===----------------------------------------------------------------------===//

#ifndef MP_RUNTIME_TENSOR_H
#define MP_RUNTIME_TENSOR_H

#include "mp/Runtime/mp_runtime.h"

#include <string>
#include <vector>

namespace mp_runtime {

/// An mp_tensor released (when it owns its data) at scope exit. Move-only.
class Tensor {
public:
  Tensor() : raw() {}
  /// Takes over `tensor`.
  explicit Tensor(const mp_tensor &tensor) : raw(tensor) {}
  Tensor(Tensor &&other) noexcept : raw(other.raw) { other.raw = mp_tensor(); }
  Tensor &operator=(Tensor &&other) noexcept {
    if (this != &other) {
      mp_tensor_release(&raw);
      raw = other.raw;
      other.raw = mp_tensor();
    }
    return *this;
  }
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;
  ~Tensor() { mp_tensor_release(&raw); }

  /// Where functions that fill a tensor (mp_tensor_alloc, mp_npy_read...)
  /// write; release the current value first if there is one.
  mp_tensor *get() { return &raw; }
  const mp_tensor *get() const { return &raw; }
  mp_tensor &operator*() { return raw; }
  const mp_tensor &operator*() const { return raw; }
  mp_tensor *operator->() { return &raw; }
  const mp_tensor *operator->() const { return &raw; }

private:
  mp_tensor raw;
};

/// Tensors side by side, as mp_entry_call takes and returns them, released
/// together. Move-only.
class TensorList {
public:
  TensorList() = default;
  /// `count` empty tensors, e.g. to receive results.
  explicit TensorList(size_t count) : raw(count) {}
  TensorList(TensorList &&) = default;
  TensorList &operator=(TensorList &&other) noexcept {
    clear();
    raw = std::move(other.raw);
    return *this;
  }
  TensorList(const TensorList &) = delete;
  TensorList &operator=(const TensorList &) = delete;
  ~TensorList() { clear(); }

  /// Takes over `tensor`.
  void push_back(const mp_tensor &tensor) { raw.push_back(tensor); }
  void clear() {
    for (mp_tensor &tensor : raw)
      mp_tensor_release(&tensor);
    raw.clear();
  }
  mp_tensor *data() { return raw.data(); }
  int32_t size() const { return static_cast<int32_t>(raw.size()); }
  mp_tensor &operator[](size_t i) { return raw[i]; }
  const mp_tensor &operator[](size_t i) const { return raw[i]; }
  std::vector<mp_tensor>::iterator begin() { return raw.begin(); }
  std::vector<mp_tensor>::iterator end() { return raw.end(); }

private:
  std::vector<mp_tensor> raw;
};

/// Runs `format(buf, size)` (one of the runtime's formatters) into a string.
template <typename Format> std::string formatToString(Format format) {
  std::string text(format(nullptr, 0), '\0');
  format(&text[0], text.size() + 1);
  return text;
}

/// "f32[64,10]".
inline std::string formatType(const mp_tensor &tensor) {
  return formatToString([&](char *buf, size_t size) {
    return mp_tensor_format_type(&tensor, buf, size);
  });
}

/// "f32[64,?]", with `withRole` followed by its role ("@param").
inline std::string format(const mp_value_info &info, bool withRole = false) {
  return formatToString([&](char *buf, size_t size) {
    return mp_value_info_format(&info, withRole, buf, size);
  });
}

} // namespace mp_runtime

#endif // MP_RUNTIME_TENSOR_H
