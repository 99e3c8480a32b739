/*===- fake_gpu_module.c - A hand-written CUDA module for tests --*- C -*-===*
 *
 * Part of the mp project: automatic mixed precision for MLIR.
 *
 * Calls what the host code of mp-lower-to-gpu calls: loads its GPU binary in
 * a constructor, launches a kernel on a stream per entry call and allocates
 * its results through the runtime's allocation functions. With the fake
 * driver (fake_cuda.c) the kernel runs nothing: the entry computes its result
 * on the host, in the memory the backend gave it.
 *===----------------------------------------------------------------------===*/

#include <stddef.h>
#include <stdint.h>

void *mgpuModuleLoad(void *data, size_t size);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamDestroy(void *stream);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemory, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *_mlir_memref_to_llvm_alloc(size_t size);

const char _mp_backend[] = "cuda";
const char _mp_gpu_targets[] = "SASS for sm_80 and PTX for sm_80";

static char binary[] = "a fatbin";
static void *module, *kernel;

__attribute__((constructor)) static void load(void) {
  module = mgpuModuleLoad(binary, sizeof(binary));
  kernel = mgpuModuleGetFunction(module, "double_kernel");
}

__attribute__((destructor)) static void unload(void) {
  mgpuModuleUnload(module);
}

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Memref1D;

/* twice(x) = x + x over f32[1000]. */
const char _mp_sig_twice[] = "f32[1000]->f32[1000]";
void _mp_entry_twice(void **args) {
  Memref1D *out = (Memref1D *)args[0];
  Memref1D *x = (Memref1D *)args[1];
  float *data = (float *)_mlir_memref_to_llvm_alloc(1000 * sizeof(float));
  void *stream = mgpuStreamCreate();
  void *params[] = {&x->aligned, &data};
  mgpuLaunchKernel(kernel, 4, 1, 1, 256, 1, 1, 0, stream, params, NULL, 2);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  for (int i = 0; i < 1000; ++i)
    data[i] = 2 * x->aligned[x->offset + i * x->strides[0]];
  out->allocated = out->aligned = data;
  out->offset = 0;
  out->sizes[0] = 1000;
  out->strides[0] = 1;
}

typedef struct {
  int64_t *allocated, *aligned;
  int64_t offset;
} Memref0D;

/* The address at which the call reads its argument. */
const char _mp_sig_address[] = "f32[1000]->i64[]";
void _mp_entry_address(void **args) {
  Memref0D *out = (Memref0D *)args[0];
  Memref1D *x = (Memref1D *)args[1];
  int64_t *data = (int64_t *)_mlir_memref_to_llvm_alloc(sizeof(int64_t));
  *data = (int64_t)(intptr_t)(x->aligned + x->offset);
  out->allocated = out->aligned = data;
  out->offset = 0;
}

void mp_cuda_conv(int32_t type, int32_t channelsLast, int64_t spatialDims,
                  int64_t groups, int64_t n, int64_t c, int64_t k,
                  int64_t image0, int64_t image1, int64_t image2,
                  int64_t window0, int64_t window1, int64_t window2,
                  int64_t stride0, int64_t stride1, int64_t stride2,
                  int64_t dilation0, int64_t dilation1, int64_t dilation2,
                  int64_t x, int64_t w, int64_t y);

typedef struct {
  uint16_t *allocated, *aligned;
  int64_t offset, sizes[4], strides[4];
} Memref4D;

/* Returns a new packed 4-d buffer of `sizes` in `out`. */
static uint16_t *allocate4D(Memref4D *out, int64_t s0, int64_t s1, int64_t s2,
                            int64_t s3) {
  uint16_t *data =
      (uint16_t *)_mlir_memref_to_llvm_alloc(s0 * s1 * s2 * s3 * 2);
  int64_t sizes[4] = {s0, s1, s2, s3};
  out->allocated = out->aligned = data;
  out->offset = 0;
  for (int d = 3, stride = 1; d >= 0; stride *= sizes[d], --d) {
    out->sizes[d] = sizes[d];
    out->strides[d] = stride;
  }
  return data;
}

static int64_t address(const Memref4D *m) {
  return (int64_t)(intptr_t)(m->aligned + m->offset);
}

/* Calls mp_cuda_conv as mp-gpu-library-conv does for a 2-d convolution of
 * args[1] (N x C x H x W, or N x H x W x C with `nhwc`) and args[2] (K x
 * C/groups x R x S, or K x R x S x C/groups) into a new output in args[0]. */
static void conv2D(void **args, int32_t type, int32_t nhwc, int64_t groups,
                   int64_t n, int64_t c, int64_t k, int64_t h, int64_t w,
                   int64_t r, int64_t s, int64_t strideH, int64_t strideW,
                   int64_t dilationH, int64_t dilationW) {
  Memref4D *out = (Memref4D *)args[0];
  int64_t outH = (h - dilationH * (r - 1) - 1) / strideH + 1;
  int64_t outW = (w - dilationW * (s - 1) - 1) / strideW + 1;
  uint16_t *y = nhwc ? allocate4D(out, n, outH, outW, k)
                     : allocate4D(out, n, k, outH, outW);
  mp_cuda_conv(type, nhwc, 2, groups, n, c, k, h, w, 1, r, s, 1, strideH,
               strideW, 1, dilationH, dilationW, 1,
               address((Memref4D *)args[1]), address((Memref4D *)args[2]),
               (int64_t)(intptr_t)y);
}

/* A grouped f16 convolution: NCHW image 2x6x7x9 in 2 groups, filter 4x3x3x2
 * (KCRS), strides 2x1, dilations 1x2. */
const char _mp_sig_conv_grouped[] = "f16[2,6,7,9];f16[4,3,3,2]->f16[2,4,3,7]";
void _mp_entry_conv_grouped(void **args) {
  conv2D(args, 0, 0, 2, 2, 6, 4, 7, 9, 3, 2, 2, 1, 1, 2);
}

/* A bf16 NHWC convolution: image 1x5x4x3 (NHWC), filter 2x2x3x3 (KRSC). */
const char _mp_sig_conv_nhwc[] = "bf16[1,5,4,3];bf16[2,2,3,3]->bf16[1,4,2,2]";
void _mp_entry_conv_nhwc(void **args) {
  conv2D(args, 1, 1, 1, 1, 3, 2, 5, 4, 2, 3, 1, 1, 1, 1);
}
