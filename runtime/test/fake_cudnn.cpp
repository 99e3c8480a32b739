//===- fake_cudnn.cpp - cuDNN's convolutions on the host, for tests -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
// The cuDNN entry points the CUDA backend uses, computing forward
// convolutions on the host as cuDNN documents them: Nd tensor descriptors
// with explicit strides (N, C, spatial order), filters packed KCRS (NCHW
// format) or KRSC (NHWC), grouped channels, strides and dilations, y =
// conv(x, w) in f32, rounded to the tensors' f16 or bf16, by the runtime's
// CPU convolution (mp_emulated_conv, which the process has with the
// runtime). With the fake driver (fake_cuda.c), whose device memory is host
// memory, mp_cuda_conv runs end to end on machines without a GPU.
// MP_FAKE_CUDNN_FAIL=NAME:CODE makes entry point NAME return CODE.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
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
  int mode = 1, groups = 1, math = 0;
};

Status enter(const char *name) {
  const char *fail = std::getenv("MP_FAKE_CUDNN_FAIL");
  size_t length = std::strlen(name);
  if (fail && std::strncmp(fail, name, length) == 0 && fail[length] == ':')
    return std::atoi(fail + length + 1);
  return 0;
}

/// The strides of a packed tensor of `dims` (N, C, spatial order) stored
/// with its channels first or last.
std::vector<int> packedStrides(const std::vector<int> &dims,
                               bool channelsLast) {
  std::vector<int> strides(dims.size(), 1);
  int stride = channelsLast ? dims[1] : 1;
  for (size_t d = dims.size(); d-- > 2;) {
    strides[d] = stride;
    stride *= dims[d];
  }
  strides[1] = channelsLast ? 1 : stride;
  strides[0] = channelsLast ? stride : stride * dims[1];
  return strides;
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
  // f32 compute: the PSEUDO_HALF configurations.
  if ((mode != 0 && mode != 1) || computeType != 0 || length < 2 || length > 3)
    return kNotSupported;
  auto *conv = static_cast<Conv *>(desc);
  conv->mode = mode;
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

/// What both heuristics answer: an algorithm that wants too much workspace
/// first (the runtime must take the next), then algorithm 1 with 4 KiB.
static Status answerHeuristics(const char *call, int requested, int *found,
                               void *results) {
  if (requested < 1)
    return kBadParam;
  auto *perf = static_cast<AlgoPerf *>(results);
  perf[0] = AlgoPerf{7, 0, 0, size_t(1) << 40, 0, 1, {}};
  *found = 1;
  if (requested > 1) {
    perf[1] = AlgoPerf{1, 0, 0, 4096, 0, 1, {}};
    *found = 2;
  }
  return enter(call);
}

Status cudnnGetConvolutionForwardAlgorithm_v7(void *handle, void *x, void *w,
                                              void *conv, void *y,
                                              int requested, int *found,
                                              void *results) {
  (void)handle, (void)x, (void)w, (void)conv, (void)y;
  return answerHeuristics("cudnnGetConvolutionForwardAlgorithm_v7", requested,
                          found, results);
}

Status cudnnGetConvolutionBackwardDataAlgorithm_v7(void *handle, void *w,
                                                   void *dy, void *conv,
                                                   void *dx, int requested,
                                                   int *found, void *results) {
  (void)handle, (void)w, (void)dy, (void)conv, (void)dx;
  return answerHeuristics("cudnnGetConvolutionBackwardDataAlgorithm_v7",
                          requested, found, results);
}

Status cudnnGetConvolutionBackwardFilterAlgorithm_v7(void *handle, void *x,
                                                     void *dy, void *conv,
                                                     void *dw, int requested,
                                                     int *found,
                                                     void *results) {
  (void)handle, (void)x, (void)dy, (void)conv, (void)dw;
  return answerHeuristics("cudnnGetConvolutionBackwardFilterAlgorithm_v7",
                          requested, found, results);
}

void mp_emulated_conv(int32_t, int32_t, int32_t, int64_t, int64_t, int64_t,
                      int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                      int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                      int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                      int64_t, int64_t);

/// Checks the descriptors of a forward (kind 0), backward-data (kind 1) or
/// backward-filter (kind 2) call as cuDNN would (the output's sizes follow from
/// the image's, the filter's and the convolution's), then computes with the
/// runtime's CPU convolution (EmulatedLibraries.cpp), which takes packed
/// tensors, a forward cross-correlation, the backward data of a convolution and
/// the backward filter of a cross-correlation: others are not supported here.
static Status run(int kind, const void *alphaPointer, void *xDesc,
                  const void *x, void *wDesc, const void *w, void *convDesc,
                  int algo, void *workspace, size_t workspaceBytes,
                  const void *betaPointer, void *yDesc, const void *y) {
  const auto &xt = *static_cast<Tensor *>(xDesc);
  const auto &yt = *static_cast<Tensor *>(yDesc);
  const auto &f = *static_cast<Filter *>(wDesc);
  const auto &conv = *static_cast<Conv *>(convDesc);
  size_t rank = xt.dims.size(), spatial = rank - 2;
  if (algo != 1 || !workspace || workspaceBytes < 4096 ||
      yt.dims.size() != rank || f.dims.size() != rank ||
      conv.strides.size() != spatial || xt.type != yt.type || xt.type != f.type)
    return kBadParam;
  int c = xt.dims[1], k = f.dims[0], groups = conv.groups;
  if (c % groups || k % groups || f.dims[1] != c / groups ||
      yt.dims[0] != xt.dims[0] || yt.dims[1] != k)
    return kBadParam;
  for (size_t d = 0; d < spatial; ++d) {
    int size = (xt.dims[2 + d] + 2 * conv.padding[d] -
                conv.dilations[d] * (f.dims[2 + d] - 1) - 1) /
                   conv.strides[d] +
               1;
    if (yt.dims[2 + d] != size)
      return kBadParam;
  }
  bool channelsLast = f.format == 1;
  if (xt.strides != packedStrides(xt.dims, channelsLast) ||
      yt.strides != packedStrides(yt.dims, channelsLast) ||
      *static_cast<const float *>(alphaPointer) != 1 ||
      *static_cast<const float *>(betaPointer) != 0 ||
      conv.mode != (kind == 1 ? 0 : 1))
    return kNotSupported;
  // Three spatial dimensions: a 2-d convolution has a third of size 1 (and
  // no padding along it).
  int64_t sizes[3][5] = {{1, 1, 1, 1, 0}, {1, 1, 1, 1, 0}, {1, 1, 1, 1, 0}};
  for (size_t d = 0; d < spatial; ++d) {
    sizes[d][0] = xt.dims[2 + d];
    sizes[d][1] = f.dims[2 + d];
    sizes[d][2] = conv.strides[d];
    sizes[d][3] = conv.dilations[d];
    sizes[d][4] = conv.padding[d];
  }
  auto address = [](const void *p) {
    return static_cast<int64_t>(reinterpret_cast<intptr_t>(p));
  };
  mp_emulated_conv(xt.type == 9, kind, channelsLast, int64_t(spatial), groups,
                   xt.dims[0], c, k, sizes[0][0], sizes[1][0], sizes[2][0],
                   sizes[0][1], sizes[1][1], sizes[2][1], sizes[0][2],
                   sizes[1][2], sizes[2][2], sizes[0][3], sizes[1][3],
                   sizes[2][3], sizes[0][4], sizes[1][4], sizes[2][4],
                   address(x), address(w), address(y));
  return 0;
}

Status cudnnConvolutionForward(void *handle, const void *alpha, void *xDesc,
                               const void *x, void *wDesc, const void *w,
                               void *convDesc, int algo, void *workspace,
                               size_t workspaceBytes, const void *beta,
                               void *yDesc, void *y) {
  (void)handle;
  if (Status status = enter("cudnnConvolutionForward"))
    return status;
  return run(0, alpha, xDesc, x, wDesc, w, convDesc, algo, workspace,
             workspaceBytes, beta, yDesc, y);
}

Status cudnnConvolutionBackwardData(void *handle, const void *alpha,
                                    void *wDesc, const void *w, void *dyDesc,
                                    const void *dy, void *convDesc, int algo,
                                    void *workspace, size_t workspaceBytes,
                                    const void *beta, void *dxDesc, void *dx) {
  (void)handle;
  if (Status status = enter("cudnnConvolutionBackwardData"))
    return status;
  return run(1, alpha, dxDesc, dx, wDesc, w, convDesc, algo, workspace,
             workspaceBytes, beta, dyDesc, dy);
}

Status cudnnConvolutionBackwardFilter(void *handle, const void *alpha,
                                      void *xDesc, const void *x, void *dyDesc,
                                      const void *dy, void *convDesc, int algo,
                                      void *workspace, size_t workspaceBytes,
                                      const void *beta, void *dwDesc,
                                      void *dw) {
  (void)handle;
  if (Status status = enter("cudnnConvolutionBackwardFilter"))
    return status;
  return run(2, alpha, xDesc, x, dwDesc, dw, convDesc, algo, workspace,
             workspaceBytes, beta, dyDesc, dy);
}
} // extern "C"
