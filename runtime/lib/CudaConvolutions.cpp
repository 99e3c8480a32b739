//===- CudaConvolutions.cpp - cuDNN convolutions of the CUDA backend ------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// `mp_cuda_conv` (mp-gpu-library-conv) runs one forward, backward-data or
// backward-filter convolution with cuDNN 9's convolution API: f16 or bf16
// image, filter and output with f32 compute (cuDNN's PSEUDO_HALF and
// PSEUDO_BFLOAT16 configurations), Tensor Core math, the algorithm chosen by
// cuDNN's heuristics once per shape. Like cuBLASLt, cuDNN is loaded with dlopen
// when a module first calls it.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

using namespace mp_runtime;

namespace {
// cuDNN's types and constants, as cudnn_graph.h, cudnn_ops.h and
// cudnn_cnn.h (version 9) declare them.
using Status = int;
using Handle = void *;
using TensorDesc = void *;
using FilterDesc = void *;
using ConvDesc = void *;
struct AlgoPerf {
  int algo;
  Status status;
  float time;
  size_t memory;
  int determinism;
  int mathType;
  int reserved[3];
};
constexpr int kDataHalf = 2, kDataBFloat16 = 9, kDataFloat = 0;
constexpr int kFormatNCHW = 0, kFormatNHWC = 1;
constexpr int kConvolution = 0, kCrossCorrelation = 1, kTensorOpMath = 1;
// The most algorithms: CUDNN_CONVOLUTION_FWD_ALGO_COUNT (8),
// CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT (6) and
// CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT (7).
constexpr int kForwardAlgos = 8, kBackwardDataAlgos = 6,
              kBackwardFilterAlgos = 7;
/// What mp_cuda_conv computes (mp-gpu-library-conv's kinds).
enum Kind : int32_t { kForward = 0, kBackwardData = 1, kBackwardFilter = 2 };
constexpr size_t kWorkspaceBytes = size_t(32) << 20;

/// The cuDNN entry points used, resolved when first needed.
struct Cudnn {
  Status (*create)(Handle *);
  Status (*setStream)(Handle, void *);
  Status (*createTensor)(TensorDesc *);
  Status (*setTensor)(TensorDesc, int, int, const int *, const int *);
  Status (*destroyTensor)(TensorDesc);
  Status (*createFilter)(FilterDesc *);
  Status (*setFilter)(FilterDesc, int, int, int, const int *);
  Status (*destroyFilter)(FilterDesc);
  Status (*createConv)(ConvDesc *);
  Status (*setConv)(ConvDesc, int, const int *, const int *, const int *, int,
                    int);
  Status (*setGroups)(ConvDesc, int);
  Status (*setMath)(ConvDesc, int);
  Status (*destroyConv)(ConvDesc);
  // The results as void *: the exact types a caller and a callee built
  // with -fsanitize=function must agree on.
  Status (*getAlgorithms)(Handle, TensorDesc, FilterDesc, ConvDesc, TensorDesc,
                          int, int *, void *);
  Status (*getBackwardDataAlgorithms)(Handle, FilterDesc, TensorDesc, ConvDesc,
                                      TensorDesc, int, int *, void *);
  Status (*getBackwardFilterAlgorithms)(Handle, TensorDesc, TensorDesc,
                                        ConvDesc, FilterDesc, int, int *,
                                        void *);
  Status (*forward)(Handle, const void *, TensorDesc, const void *, FilterDesc,
                    const void *, ConvDesc, int, void *, size_t, const void *,
                    TensorDesc, void *);
  Status (*backwardData)(Handle, const void *, FilterDesc, const void *,
                         TensorDesc, const void *, ConvDesc, int, void *,
                         size_t, const void *, TensorDesc, void *);
  Status (*backwardFilter)(Handle, const void *, TensorDesc, const void *,
                           TensorDesc, const void *, ConvDesc, int, void *,
                           size_t, const void *, FilterDesc, void *);
  const char *(*errorString)(Status);

  std::string unusable; // why cuDNN cannot be used, once tried
  Handle handle = nullptr;
  void *stream = nullptr; // the handle's stream
  void *workspace = nullptr;

  /// A configured convolution, per shape.
  struct Plan {
    TensorDesc x = nullptr, y = nullptr;
    FilterDesc w = nullptr;
    ConvDesc conv = nullptr;
    int algo = 0;
    size_t workspace = 0;
  };
  std::map<std::vector<int64_t>, Plan> plans;

  static Cudnn &get() {
    static Cudnn dnn = load();
    return dnn;
  }
  static Cudnn load();

  /// Destroys what `plan` holds.
  void release(Plan &plan) const {
    for (TensorDesc tensor : {plan.x, plan.y})
      if (tensor)
        destroyTensor(tensor);
    if (plan.w)
      destroyFilter(plan.w);
    if (plan.conv)
      destroyConv(plan.conv);
  }

  /// "call: CUDNN_STATUS_..." for a failed call.
  std::string describe(const std::string &call, Status status) const {
    return call + ": " + errorString(status);
  }
};

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t size);

Cudnn Cudnn::load() {
  Cudnn dnn{};
  void *lib = openCudaLibrary("cuDNN", "MP_CUDNN", {"libcudnn.so.9"},
                              {"cudnn/lib"}, dnn.unusable);
  if (!lib)
    return dnn;
  SymbolResolver resolve(lib);
  resolve("cudnnCreate", dnn.create);
  resolve("cudnnSetStream", dnn.setStream);
  resolve("cudnnCreateTensorDescriptor", dnn.createTensor);
  resolve("cudnnSetTensorNdDescriptor", dnn.setTensor);
  resolve("cudnnDestroyTensorDescriptor", dnn.destroyTensor);
  resolve("cudnnCreateFilterDescriptor", dnn.createFilter);
  resolve("cudnnSetFilterNdDescriptor", dnn.setFilter);
  resolve("cudnnDestroyFilterDescriptor", dnn.destroyFilter);
  resolve("cudnnCreateConvolutionDescriptor", dnn.createConv);
  resolve("cudnnSetConvolutionNdDescriptor", dnn.setConv);
  resolve("cudnnSetConvolutionGroupCount", dnn.setGroups);
  resolve("cudnnSetConvolutionMathType", dnn.setMath);
  resolve("cudnnDestroyConvolutionDescriptor", dnn.destroyConv);
  resolve("cudnnGetConvolutionForwardAlgorithm_v7", dnn.getAlgorithms);
  resolve("cudnnConvolutionForward", dnn.forward);
  resolve("cudnnGetConvolutionBackwardDataAlgorithm_v7",
          dnn.getBackwardDataAlgorithms);
  resolve("cudnnConvolutionBackwardData", dnn.backwardData);
  resolve("cudnnGetConvolutionBackwardFilterAlgorithm_v7",
          dnn.getBackwardFilterAlgorithms);
  resolve("cudnnConvolutionBackwardFilter", dnn.backwardFilter);
  resolve("cudnnGetErrorString", dnn.errorString);
  if (resolve.missing) {
    dnn.unusable = std::string("cuDNN has no ") + resolve.missing;
    return dnn;
  }
  if (Status status = dnn.create(&dnn.handle))
    dnn.unusable = dnn.describe("cudnnCreate", status);
  return dnn;
}

/// The sizes and packed strides of an N x C x spatial tensor stored with
/// its channels first (NCHW) or last (NHWC), as cuDNN's Nd descriptors take
/// them (always in N, C, spatial order).
void packedTensor(int64_t n, int64_t c, const std::vector<int64_t> &spatial,
                  bool channelsLast, std::vector<int> &dims,
                  std::vector<int> &strides) {
  dims = {int(n), int(c)};
  for (int64_t size : spatial)
    dims.push_back(int(size));
  strides.assign(dims.size(), 1);
  // Innermost first: the channels (NHWC) or the last spatial dimension.
  int64_t stride = 1;
  if (channelsLast) {
    strides[1] = 1;
    stride = c;
  }
  for (size_t d = dims.size(); d-- > 2;) {
    strides[d] = int(stride);
    stride *= dims[d];
  }
  if (!channelsLast) {
    strides[1] = int(stride);
    stride *= c;
  }
  strides[0] = int(stride);
}

std::string join(const std::vector<int> &sizes) {
  std::string text;
  for (int size : sizes)
    text += (text.empty() ? "" : "x") + std::to_string(size);
  return text;
}

/// One convolution as cuDNN's descriptors take it: x (the image), w and y
/// (the output) in N, C, spatial order, with strides, dilations and padding
/// per spatial dimension.
struct Shape {
  Kind kind;
  int element;
  bool channelsLast;
  int groups;
  std::vector<int> xDims, xStrides, wDims, yDims, yStrides, strides, dilations,
      padding;

  std::vector<int64_t> key() const {
    std::vector<int64_t> key{kind, element, channelsLast, groups};
    for (const std::vector<int> *sizes :
         {&xDims, &wDims, &yDims, &strides, &dilations, &padding})
      key.insert(key.end(), sizes->begin(), sizes->end());
    return key;
  }
};

/// The first of `found` algorithms (best first, as cuDNN's heuristics give
/// them) that succeeds within the workspace, into `p`; `call` is the
/// heuristics' name for the error.
std::string chooseAlgorithm(Cudnn::Plan &p, const AlgoPerf *results, int found,
                            const char *call) {
  for (int i = 0; i < found; ++i)
    if (results[i].status == 0 && results[i].memory <= kWorkspaceBytes) {
      p.algo = results[i].algo;
      p.workspace = results[i].memory;
      return "";
    }
  return std::string(call) + ": no algorithm within " +
         std::to_string(kWorkspaceBytes >> 20) + " MiB of workspace";
}

/// Creates `p`'s descriptors and chooses its algorithm: the failing call,
/// or "" (what was created stays in `p` for Cudnn::release either way).
std::string configure(const Cudnn &dnn, Cudnn::Plan &p, const Shape &shape) {
  int rank = int(shape.xDims.size());
  if (Status s = dnn.createTensor(&p.x))
    return dnn.describe("cudnnCreateTensorDescriptor", s);
  if (Status s = dnn.createTensor(&p.y))
    return dnn.describe("cudnnCreateTensorDescriptor", s);
  if (Status s = dnn.setTensor(p.x, shape.element, rank, shape.xDims.data(),
                               shape.xStrides.data()))
    return dnn.describe("cudnnSetTensorNdDescriptor", s);
  if (Status s = dnn.setTensor(p.y, shape.element, rank, shape.yDims.data(),
                               shape.yStrides.data()))
    return dnn.describe("cudnnSetTensorNdDescriptor", s);
  if (Status s = dnn.createFilter(&p.w))
    return dnn.describe("cudnnCreateFilterDescriptor", s);
  if (Status s = dnn.setFilter(p.w, shape.element,
                               shape.channelsLast ? kFormatNHWC : kFormatNCHW,
                               rank, shape.wDims.data()))
    return dnn.describe("cudnnSetFilterNdDescriptor", s);
  if (Status s = dnn.createConv(&p.conv))
    return dnn.describe("cudnnCreateConvolutionDescriptor", s);
  // A backward-data call computes the input gradient of a convolution
  // (the filter flipped), a forward one a cross-correlation.
  if (Status s = dnn.setConv(
          p.conv, int(shape.strides.size()), shape.padding.data(),
          shape.strides.data(), shape.dilations.data(),
          shape.kind == kBackwardData ? kConvolution : kCrossCorrelation,
          kDataFloat))
    return dnn.describe("cudnnSetConvolutionNdDescriptor", s);
  if (Status s = dnn.setGroups(p.conv, shape.groups))
    return dnn.describe("cudnnSetConvolutionGroupCount", s);
  if (Status s = dnn.setMath(p.conv, kTensorOpMath))
    return dnn.describe("cudnnSetConvolutionMathType", s);
  AlgoPerf results[kForwardAlgos] = {};
  int found = 0;
  if (shape.kind == kBackwardData) {
    const char *call = "cudnnGetConvolutionBackwardDataAlgorithm_v7";
    if (Status s =
            dnn.getBackwardDataAlgorithms(dnn.handle, p.w, p.y, p.conv, p.x,
                                          kBackwardDataAlgos, &found, results))
      return dnn.describe(call, s);
    return chooseAlgorithm(p, results, std::min(found, kBackwardDataAlgos),
                           call);
  }
  if (shape.kind == kBackwardFilter) {
    const char *call = "cudnnGetConvolutionBackwardFilterAlgorithm_v7";
    if (Status s = dnn.getBackwardFilterAlgorithms(dnn.handle, p.x, p.y, p.conv,
                                                   p.w, kBackwardFilterAlgos,
                                                   &found, results))
      return dnn.describe(call, s);
    return chooseAlgorithm(p, results, std::min(found, kBackwardFilterAlgos),
                           call);
  }
  const char *call = "cudnnGetConvolutionForwardAlgorithm_v7";
  if (Status s = dnn.getAlgorithms(dnn.handle, p.x, p.w, p.conv, p.y,
                                   kForwardAlgos, &found, results))
    return dnn.describe(call, s);
  return chooseAlgorithm(p, results, std::min(found, kForwardAlgos), call);
}
} // namespace

/// With kind 0 (forward) y = x cross-correlated with w; with kind 1
/// (backward data) x = the input gradient of the convolution of x with w
/// whose output gradient is y; with kind 2 (backward filter) w = the filter
/// gradient of the cross-correlation of x with w whose output gradient is
/// y. All f16 (type 0) or bf16 (type 1) with f32 compute; see
/// mp-gpu-library-conv for the arguments.
extern "C" void mp_cuda_conv(
    int32_t type, int32_t kind, int32_t channelsLast, int64_t spatialDims,
    int64_t groups, int64_t n, int64_t c, int64_t k, int64_t image0,
    int64_t image1, int64_t image2, int64_t window0, int64_t window1,
    int64_t window2, int64_t stride0, int64_t stride1, int64_t stride2,
    int64_t dilation0, int64_t dilation1, int64_t dilation2, int64_t padding0,
    int64_t padding1, int64_t padding2, int64_t x, int64_t w, int64_t y) {
  void *stream = cuda::activeStream();
  if (!stream)
    return;
  const int64_t imageAll[] = {image0, image1, image2};
  const int64_t windowAll[] = {window0, window1, window2};
  const int64_t strideAll[] = {stride0, stride1, stride2};
  const int64_t dilationAll[] = {dilation0, dilation1, dilation2};
  const int64_t paddingAll[] = {padding0, padding1, padding2};
  Shape shape;
  shape.kind = kind == kBackwardData     ? kBackwardData
               : kind == kBackwardFilter ? kBackwardFilter
                                         : kForward;
  shape.element = type == 1 ? kDataBFloat16 : kDataHalf;
  shape.channelsLast = channelsLast != 0;
  shape.groups = int(groups);
  shape.wDims = {int(k), int(c / groups)};
  std::vector<int64_t> image, output;
  for (int64_t d = 0; d < spatialDims && d < 3; ++d) {
    image.push_back(imageAll[d]);
    shape.wDims.push_back(int(windowAll[d]));
    shape.strides.push_back(int(strideAll[d]));
    shape.dilations.push_back(int(dilationAll[d]));
    shape.padding.push_back(int(paddingAll[d]));
    output.push_back(convolutionOutputSize(imageAll[d], windowAll[d],
                                           strideAll[d], dilationAll[d],
                                           paddingAll[d]));
  }
  packedTensor(n, c, image, shape.channelsLast, shape.xDims, shape.xStrides);
  packedTensor(n, k, output, shape.channelsLast, shape.yDims, shape.yStrides);
  const char *call =
      shape.kind == kBackwardData     ? "cudnnConvolutionBackwardData("
      : shape.kind == kBackwardFilter ? "cudnnConvolutionBackwardFilter("
                                      : "cudnnConvolutionForward(";
  std::string what =
      std::string(call) + join(shape.xDims) + (channelsLast ? " NHWC" : "") +
      " * " + join(shape.wDims) +
      (groups > 1 ? " in " + std::to_string(groups) + " groups" : "") +
      (type == 1 ? " bf16" : " f16") + ")";
  Cudnn &dnn = Cudnn::get();
  if (!dnn.unusable.empty())
    return cuda::recordFailure(dnn.unusable);
  if (!dnn.workspace)
    dnn.workspace = _mlir_memref_to_llvm_aligned_alloc(256, kWorkspaceBytes);
  if (dnn.stream != stream) {
    if (Status status = dnn.setStream(dnn.handle, stream))
      return cuda::recordFailure(dnn.describe("cudnnSetStream", status));
    dnn.stream = stream;
  }

  std::vector<int64_t> key = shape.key();
  auto plan = dnn.plans.find(key);
  if (plan == dnn.plans.end()) {
    Cudnn::Plan p;
    if (std::string err = configure(dnn, p, shape); !err.empty()) {
      dnn.release(p);
      return cuda::recordFailure(err + " for " + what);
    }
    plan = dnn.plans.emplace(key, p).first;
  }
  const Cudnn::Plan &p = plan->second;
  float alpha = 1, beta = 0;
  auto pointer = [](int64_t address) {
    return reinterpret_cast<void *>(static_cast<intptr_t>(address));
  };
  cuda::startLaunch(what);
  Status status;
  if (shape.kind == kBackwardData)
    status = dnn.backwardData(dnn.handle, &alpha, p.w, pointer(w), p.y,
                              pointer(y), p.conv, p.algo, dnn.workspace,
                              p.workspace, &beta, p.x, pointer(x));
  else if (shape.kind == kBackwardFilter)
    status = dnn.backwardFilter(dnn.handle, &alpha, p.x, pointer(x), p.y,
                                pointer(y), p.conv, p.algo, dnn.workspace,
                                p.workspace, &beta, p.w, pointer(w));
  else
    status = dnn.forward(dnn.handle, &alpha, p.x, pointer(x), p.w, pointer(w),
                         p.conv, p.algo, dnn.workspace, p.workspace, &beta, p.y,
                         pointer(y));
  if (status)
    return cuda::recordFailure(dnn.describe(what, status));
  cuda::finishLaunch();
}
