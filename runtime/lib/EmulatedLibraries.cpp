//===- EmulatedLibraries.cpp - Library calls on the CPU -------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What mp-lower-to-gpu-emulation calls instead of the CUDA libraries: the
// same arguments as `mp_cuda_gemm` and `mp_cuda_conv`, computed on the host
// as cuBLASLt and cuDNN define them (f32 accumulation; a convolution's
// result, forward or backward data, rounded to the operands' type, as
// cuDNN's f16 and bf16 configurations write it). The emulation runs on the CPU
// backend, where buffers are host memory.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace mp_runtime;

namespace {
/// Element `index` of an f16 (type 0), bf16 (type 1) or f32 (type 2)
/// buffer.
float load(int64_t address, int32_t type, int64_t index) {
  if (type == 2)
    return reinterpret_cast<const float *>(address)[index];
  uint16_t bits = reinterpret_cast<const uint16_t *>(address)[index];
  return type == 1 ? fromBF16(bits) : fromF16(bits);
}

/// The `count` elements of a buffer of `type` (see load) as floats, or none
/// if `read` is false.
std::vector<float> loadAll(int64_t address, int32_t type, int64_t count,
                           bool read) {
  std::vector<float> values(read ? count : 0);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = load(address, type, i);
  return values;
}

/// `value` rounded to f16 (type 0) or bf16 (type 1) bits.
uint16_t toBits(int32_t type, float value) {
  return type == 1 ? toBF16(value) : toF16(value);
}
} // namespace

/// D (m x n) = A (m x k) x B (k x n) + beta D (+ bias[n]), `batch` times,
/// A and B f16 (type 0), bf16 (1) or f32 (2), computed in f32 and rounded
/// to D's type (dType 0: f32, 1: A's and B's, which f32 operands do not
/// take);
/// the strides are in elements, a bias is a packed vector of D's type (see
/// mp-gpu-library-gemm).
extern "C" void mp_emulated_gemm(int32_t type, int64_t batch, int64_t m,
                                 int64_t n, int64_t k, int64_t a, int64_t aSm,
                                 int64_t aSk, int64_t aSb, int64_t b,
                                 int64_t bSk, int64_t bSn, int64_t bSb,
                                 int64_t d, int64_t dSm, int64_t dSn,
                                 int64_t dSb, float beta, int32_t dType,
                                 int64_t bias) {
  // Element `index` of a buffer of D's type.
  auto loadD = [&](int64_t address, int64_t index) {
    return dType ? load(address, type, index)
                 : reinterpret_cast<const float *>(address)[index];
  };
  // Each element of D sums its products in order of p, as one thread of a
  // naive GEMM would; the operands are converted to f32 once (B a matrix
  // at a time, A a row at a time) and a row of D is summed at once.
  std::vector<float> bRows(k * n), aRow(k), sums(n);
  for (int64_t l = 0; l < batch; ++l) {
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        bRows[p * n + j] = load(b, type, l * bSb + p * bSk + j * bSn);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t p = 0; p < k; ++p)
        aRow[p] = load(a, type, l * aSb + i * aSm + p * aSk);
      std::fill(sums.begin(), sums.end(), 0.0f);
      for (int64_t p = 0; p < k; ++p)
        for (int64_t j = 0; j < n; ++j)
          sums[j] += aRow[p] * bRows[p * n + j];
      for (int64_t j = 0; j < n; ++j) {
        float sum = sums[j];
        int64_t index = l * dSb + i * dSm + j * dSn;
        if (beta != 0)
          sum += beta * loadD(d, index);
        if (bias)
          sum += loadD(bias, j);
        if (dType)
          reinterpret_cast<uint16_t *>(d)[index] = toBits(type, sum);
        else
          reinterpret_cast<float *>(d)[index] = sum;
      }
    }
  }
}

/// mp_cuda_conv on the host: with kind 0 y = x cross-correlated with w,
/// with kind 1 x = the input gradient of the convolution (flipped filter)
/// of x with w whose output gradient is y, with kind 2 w = the filter
/// gradient of the cross-correlation of x with w whose output gradient is
/// y; packed NCHW or NHWC tensors of
/// f16 (type 0) or bf16 (type 1), f32 accumulation, the result rounded to
/// the type (see mp-gpu-library-conv for the arguments).
extern "C" void mp_emulated_conv(
    int32_t type, int32_t kind, int32_t channelsLast, int64_t spatialDims,
    int64_t groups, int64_t n, int64_t c, int64_t k, int64_t image0,
    int64_t image1, int64_t image2, int64_t window0, int64_t window1,
    int64_t window2, int64_t stride0, int64_t stride1, int64_t stride2,
    int64_t dilation0, int64_t dilation1, int64_t dilation2, int64_t padding0,
    int64_t padding1, int64_t padding2, int64_t x, int64_t w, int64_t y) {
  // Three spatial dimensions always: unused ones have size 1.
  const int64_t image[] = {image0, image1, image2};
  const int64_t window[] = {window0, window1, window2};
  const int64_t stride[] = {stride0, stride1, stride2};
  const int64_t dilation[] = {dilation0, dilation1, dilation2};
  const int64_t padding[] = {padding0, padding1, padding2};
  (void)spatialDims;
  int64_t out[3];
  for (int d = 0; d < 3; ++d)
    out[d] = convolutionOutputSize(image[d], window[d], stride[d], dilation[d],
                                   padding[d]);
  int64_t inGroup = c / groups, outGroup = k / groups;
  // The element of (batch, channel, position) of a packed tensor with
  // `channels` channels and the spatial sizes `sizes`.
  auto at = [&](int64_t b, int64_t ch, const int64_t *pos, int64_t channels,
                const int64_t *sizes) {
    int64_t pixel = (pos[0] * sizes[1] + pos[1]) * sizes[2] + pos[2];
    int64_t pixels = sizes[0] * sizes[1] * sizes[2];
    return channelsLast ? (b * pixels + pixel) * channels + ch
                        : (b * channels + ch) * pixels + pixel;
  };
  // Every product x[in] w[r] of the convolution in y's order; the forward
  // one sums them per y element, the backward-data one adds y[o] w[flipped
  // r] to x[in], the backward-filter one x[in] y[o] to w[r].
  int64_t taps = window[0] * window[1] * window[2];
  int64_t xSize = n * c * image[0] * image[1] * image[2];
  int64_t wSize = k * inGroup * taps;
  std::vector<float> gradient(kind == 1 ? xSize : kind == 2 ? wSize : 0);
  // The operands that this kind reads, converted to f32 once.
  std::vector<float> xs = loadAll(x, type, xSize, kind != 1);
  std::vector<float> ws = loadAll(w, type, wSize, kind != 2);
  std::vector<float> ys =
      loadAll(y, type, n * k * out[0] * out[1] * out[2], kind != 0);
  int64_t o[3], r[3], in[3], flipped[3];
  for (int64_t b = 0; b < n; ++b)
    for (int64_t f = 0; f < k; ++f)
      for (o[0] = 0; o[0] < out[0]; ++o[0])
        for (o[1] = 0; o[1] < out[1]; ++o[1])
          for (o[2] = 0; o[2] < out[2]; ++o[2]) {
            float sum = 0;
            int64_t group = f / outGroup, yIndex = at(b, f, o, k, out);
            for (int64_t ci = 0; ci < inGroup; ++ci)
              for (r[0] = 0; r[0] < window[0]; ++r[0])
                for (r[1] = 0; r[1] < window[1]; ++r[1])
                  for (r[2] = 0; r[2] < window[2]; ++r[2]) {
                    bool inside = true;
                    for (int d = 0; d < 3; ++d) {
                      in[d] =
                          o[d] * stride[d] + r[d] * dilation[d] - padding[d];
                      inside &= in[d] >= 0 && in[d] < image[d];
                      flipped[d] = window[d] - 1 - r[d];
                    }
                    if (!inside)
                      continue;
                    int64_t xIndex = at(b, group * inGroup + ci, in, c, image);
                    if (kind == 1)
                      gradient[xIndex] +=
                          ys[yIndex] * ws[at(f, ci, flipped, inGroup, window)];
                    else if (kind == 2)
                      gradient[at(f, ci, r, inGroup, window)] +=
                          xs[xIndex] * ys[yIndex];
                    else
                      sum += xs[xIndex] * ws[at(f, ci, r, inGroup, window)];
                  }
            if (kind == 0)
              reinterpret_cast<uint16_t *>(y)[yIndex] = toBits(type, sum);
          }
  auto *result = reinterpret_cast<uint16_t *>(kind == 2 ? w : x);
  for (size_t i = 0; i < gradient.size(); ++i)
    result[i] = toBits(type, gradient[i]);
}
