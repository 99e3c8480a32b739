//===- fake_cudnn.cpp - cuDNN's convolutions on the host, for tests -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
// The cuDNN entry points the CUDA backend uses, computing forward
// convolutions on the host as cuDNN documents them: Nd tensor descriptors
// with explicit strides (N, C, spatial order), filters packed KCRS (NCHW
// format) or KRSC (NHWC), grouped channels, strides and dilations, y =
// alpha conv(x, w) + beta y in f32, rounded to the tensors' f16 or bf16.
// With the fake driver (fake_cuda.c), whose device memory is host memory,
// mp_cuda_conv runs end to end on machines without a GPU.
// MP_FAKE_CUDNN_FAIL=NAME:CODE makes entry point NAME return CODE.
//
//===----------------------------------------------------------------------===//

#include "../lib/Internal.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
using Status = int;
constexpr Status kBadParam = 2000, kNotSupported = 3000;

struct Tensor {
  int type = -1;
  std::vector<int> dims, strides;
};
struct Filter {
  int type = -1, format = 0;
  std::vector<int> dims;
};
struct Conv {
  std::vector<int> padding, strides, dilations;
  int groups = 1, math = 0;
};

Status enter(const char *name) {
  const char *fail = std::getenv("MP_FAKE_CUDNN_FAIL");
  size_t length = std::strlen(name);
  if (fail && std::strncmp(fail, name, length) == 0 && fail[length] == ':')
    return std::atoi(fail + length + 1);
  return 0;
}

float load(const void *data, int type, int64_t index) {
  uint16_t bits = static_cast<const uint16_t *>(data)[index];
  return type == 9 ? mp_runtime::fromBF16(bits) : mp_runtime::fromF16(bits);
}

void store(void *data, int type, int64_t index, float value) {
  static_cast<uint16_t *>(data)[index] =
      type == 9 ? mp_runtime::toBF16(value) : mp_runtime::toF16(value);
}
} // namespace

extern "C" {
Status cudnnCreate(void **handle) {
  static int context;
  *handle = &context;
  return enter("cudnnCreate");
}

Status cudnnSetStream(void *handle, void *stream) {
  (void)handle, (void)stream;
  return enter("cudnnSetStream");
}

const char *cudnnGetErrorString(Status status) {
  switch (status) {
  case 0:
    return "CUDNN_STATUS_SUCCESS";
  case kBadParam:
    return "CUDNN_STATUS_BAD_PARAM";
  case kNotSupported:
    return "CUDNN_STATUS_NOT_SUPPORTED";
  case 5000:
    return "CUDNN_STATUS_EXECUTION_FAILED";
  default:
    return "CUDNN_STATUS_UNKNOWN";
  }
}

Status cudnnCreateTensorDescriptor(void **desc) {
  *desc = new Tensor;
  return 0;
}

Status cudnnSetTensorNdDescriptor(void *desc, int type, int rank,
                                  const int *dims, const int *strides) {
  if ((type != 2 && type != 9) || rank < 4 || rank > 5)
    return kBadParam;
  auto *tensor = static_cast<Tensor *>(desc);
  tensor->type = type;
  tensor->dims.assign(dims, dims + rank);
  tensor->strides.assign(strides, strides + rank);
  return enter("cudnnSetTensorNdDescriptor");
}

Status cudnnDestroyTensorDescriptor(void *desc) {
  delete static_cast<Tensor *>(desc);
  return 0;
}

Status cudnnCreateFilterDescriptor(void **desc) {
  *desc = new Filter;
  return 0;
}

Status cudnnSetFilterNdDescriptor(void *desc, int type, int format, int rank,
                                  const int *dims) {
  if ((type != 2 && type != 9) || (format != 0 && format != 1) || rank < 4 ||
      rank > 5)
    return kBadParam;
  auto *filter = static_cast<Filter *>(desc);
  filter->type = type;
  filter->format = format;
  filter->dims.assign(dims, dims + rank);
  return 0;
}

Status cudnnDestroyFilterDescriptor(void *desc) {
  delete static_cast<Filter *>(desc);
  return 0;
}

Status cudnnCreateConvolutionDescriptor(void **desc) {
  *desc = new Conv;
  return 0;
}

Status cudnnSetConvolutionNdDescriptor(void *desc, int length,
                                       const int *padding, const int *strides,
                                       const int *dilations, int mode,
                                       int computeType) {
  // Cross-correlation with f32 compute: the PSEUDO_HALF configurations.
  if (mode != 1 || computeType != 0 || length < 2 || length > 3)
    return kNotSupported;
  auto *conv = static_cast<Conv *>(desc);
  conv->padding.assign(padding, padding + length);
  conv->strides.assign(strides, strides + length);
  conv->dilations.assign(dilations, dilations + length);
  return 0;
}

Status cudnnSetConvolutionGroupCount(void *desc, int groups) {
  if (groups < 1)
    return kBadParam;
  static_cast<Conv *>(desc)->groups = groups;
  return 0;
}

Status cudnnSetConvolutionMathType(void *desc, int math) {
  static_cast<Conv *>(desc)->math = math;
  return 0;
}

Status cudnnDestroyConvolutionDescriptor(void *desc) {
  delete static_cast<Conv *>(desc);
  return 0;
}

/// Mirrors cudnnConvolutionFwdAlgoPerf_t.
struct AlgoPerf {
  int algo;
  Status status;
  float time;
  size_t memory;
  int determinism, mathType, reserved[3];
};

Status cudnnGetConvolutionForwardAlgorithm_v7(void *handle, void *x, void *w,
                                              void *conv, void *y,
                                              int requested, int *found,
                                              void *results) {
  (void)handle, (void)x, (void)w, (void)conv, (void)y;
  if (requested < 1)
    return kBadParam;
  // An algorithm that wants too much workspace first: the runtime must
  // take the next.
  auto *perf = static_cast<AlgoPerf *>(results);
  perf[0] = AlgoPerf{7, 0, 0, size_t(1) << 40, 0, 1, {}};
  *found = 1;
  if (requested > 1) {
    perf[1] = AlgoPerf{1, 0, 0, 4096, 0, 1, {}};
    *found = 2;
  }
  return enter("cudnnGetConvolutionForwardAlgorithm_v7");
}

Status cudnnConvolutionForward(void *handle, const void *alphaPointer,
                               void *xDesc, const void *x, void *wDesc,
                               const void *w, void *convDesc, int algo,
                               void *workspace, size_t workspaceBytes,
                               const void *betaPointer, void *yDesc, void *y) {
  (void)handle;
  if (Status status = enter("cudnnConvolutionForward"))
    return status;
  const auto &xt = *static_cast<Tensor *>(xDesc);
  const auto &yt = *static_cast<Tensor *>(yDesc);
  const auto &f = *static_cast<Filter *>(wDesc);
  const auto &conv = *static_cast<Conv *>(convDesc);
  size_t rank = xt.dims.size(), spatial = rank - 2;
  if (algo != 1 || (workspaceBytes && !workspace) || workspaceBytes < 4096 ||
      yt.dims.size() != rank || f.dims.size() != rank ||
      conv.strides.size() != spatial || xt.type != yt.type || xt.type != f.type)
    return kBadParam;
  int n = xt.dims[0], c = xt.dims[1], k = f.dims[0], groups = conv.groups;
  if (c % groups || k % groups || f.dims[1] != c / groups || yt.dims[0] != n ||
      yt.dims[1] != k)
    return kBadParam;
  for (size_t d = 0; d < spatial; ++d) {
    int size = (xt.dims[2 + d] + 2 * conv.padding[d] -
                conv.dilations[d] * (f.dims[2 + d] - 1) - 1) /
                   conv.strides[d] +
               1;
    if (yt.dims[2 + d] != size)
      return kBadParam;
  }
  // The filter's packed strides, in K, C, window order.
  std::vector<int64_t> fStrides(rank, 1);
  int64_t stride = 1;
  if (f.format == 1) {
    fStrides[1] = 1;
    stride = f.dims[1];
  }
  for (size_t d = rank; d-- > 2;) {
    fStrides[d] = stride;
    stride *= f.dims[d];
  }
  if (f.format == 0) {
    fStrides[1] = stride;
    stride *= f.dims[1];
  }
  fStrides[0] = stride;

  float alpha = *static_cast<const float *>(alphaPointer);
  float beta = *static_cast<const float *>(betaPointer);
  int perGroupIn = c / groups, perGroupOut = k / groups;
  std::vector<int> out(spatial), window(spatial);
  int64_t pixels = 1, taps = 1;
  for (size_t d = 0; d < spatial; ++d) {
    pixels *= yt.dims[2 + d];
    taps *= f.dims[2 + d];
  }
  for (int b = 0; b < n; ++b)
    for (int o = 0; o < k; ++o)
      for (int64_t pixel = 0; pixel < pixels; ++pixel) {
        int64_t rest = pixel;
        for (size_t d = spatial; d-- > 0;) {
          out[d] = int(rest % yt.dims[2 + d]);
          rest /= yt.dims[2 + d];
        }
        int group = o / perGroupOut;
        float sum = 0;
        for (int ci = 0; ci < perGroupIn; ++ci)
          for (int64_t tap = 0; tap < taps; ++tap) {
            int64_t at = tap,
                    xIndex = int64_t(b) * xt.strides[0] +
                             int64_t(group * perGroupIn + ci) * xt.strides[1],
                    wIndex = int64_t(o) * fStrides[0] + ci * fStrides[1];
            bool inside = true;
            for (size_t d = spatial; d-- > 0;) {
              window[d] = int(at % f.dims[2 + d]);
              at /= f.dims[2 + d];
              int position = out[d] * conv.strides[d] - conv.padding[d] +
                             window[d] * conv.dilations[d];
              inside &= position >= 0 && position < xt.dims[2 + d];
              xIndex += int64_t(position) * xt.strides[2 + d];
              wIndex += window[d] * fStrides[2 + d];
            }
            if (inside)
              sum += load(x, xt.type, xIndex) * load(w, f.type, wIndex);
          }
        int64_t yIndex =
            int64_t(b) * yt.strides[0] + int64_t(o) * yt.strides[1];
        for (size_t d = 0; d < spatial; ++d)
          yIndex += int64_t(out[d]) * yt.strides[2 + d];
        float old = beta != 0 ? load(y, yt.type, yIndex) : 0;
        store(y, yt.type, yIndex, alpha * sum + beta * old);
      }
  return 0;
}
} // extern "C"
