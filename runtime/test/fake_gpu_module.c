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

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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
static void *module, *kernel, *stepKernel;

__attribute__((constructor)) static void load(void) {
  module = mgpuModuleLoad(binary, sizeof(binary));
  kernel = mgpuModuleGetFunction(module, "double_kernel");
  stepKernel = mgpuModuleGetFunction(module, "host_step");
}

__attribute__((destructor)) static void unload(void) {
  mgpuModuleUnload(module);
}

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Memref1D;

/* x + x over f32[1000], by a kernel launched with `shared` bytes of dynamic
   shared memory. */
static void twice(void **args, int32_t shared) {
  Memref1D *out = (Memref1D *)args[0];
  Memref1D *x = (Memref1D *)args[1];
  float *data = (float *)_mlir_memref_to_llvm_alloc(1000 * sizeof(float));
  void *stream = mgpuStreamCreate();
  void *params[] = {&x->aligned, &data};
  mgpuLaunchKernel(kernel, 4, 1, 1, 256, 1, 1, shared, stream, params, NULL, 2);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  for (int i = 0; i < 1000; ++i)
    data[i] = 2 * x->aligned[x->offset + i * x->strides[0]];
  out->allocated = out->aligned = data;
  out->offset = 0;
  out->sizes[0] = 1000;
  out->strides[0] = 1;
}

/* twice(x) = x + x over f32[1000]. */
const char _mp_sig_twice[] = "f32[1000]->f32[1000]";
void _mp_entry_twice(void **args) { twice(args, 0); }

/* The same with 96 KiB of shared memory (a 128 x 128 GEMM block's). */
const char _mp_sig_twice_shared[] = "f32[1000]->f32[1000]";
void _mp_entry_twice_shared(void **args) { twice(args, 96 * 1024); }

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

void mp_cuda_conv(int32_t type, int32_t kind, int32_t channelsLast,
                  int64_t spatialDims, int64_t groups, int64_t n, int64_t c,
                  int64_t k, int64_t image0, int64_t image1, int64_t image2,
                  int64_t window0, int64_t window1, int64_t window2,
                  int64_t stride0, int64_t stride1, int64_t stride2,
                  int64_t dilation0, int64_t dilation1, int64_t dilation2,
                  int64_t padding0, int64_t padding1, int64_t padding2,
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

/* A 2-d convolution of an image N x C x H x W (or N x H x W x C with `nhwc`)
 * and a filter K x C/groups x R x S (or K x R x S x C/groups) with stride,
 * dilation and padding (height, width): the sizes mp_cuda_conv takes. */
typedef struct {
  int32_t type, nhwc;
  int64_t groups, n, c, k, h, w, r, s, stride[2], dilation[2], padding[2];
} Conv2D;

/* Calls mp_cuda_conv as mp-gpu-library-conv does for `conv`: forward (kind
 * 0) from the image args[1] and the filter args[2] into a new output in
 * args[0], backward data (kind 1) from the output gradient args[1] and the
 * filter args[2] into a new image gradient in args[0], or backward filter
 * (kind 2) from the image args[1] and the output gradient args[2] into a
 * new filter gradient in args[0]. */
static void run(void **args, int32_t kind, Conv2D conv) {
  int64_t outH =
      (conv.h + 2 * conv.padding[0] - conv.dilation[0] * (conv.r - 1) - 1) /
          conv.stride[0] +
      1;
  int64_t outW =
      (conv.w + 2 * conv.padding[1] - conv.dilation[1] * (conv.s - 1) - 1) /
          conv.stride[1] +
      1;
  Memref4D *out = (Memref4D *)args[0];
  uint16_t *result;
  int64_t perGroup = conv.c / conv.groups;
  if (kind == 2)
    result = conv.nhwc ? allocate4D(out, conv.k, conv.r, conv.s, perGroup)
                       : allocate4D(out, conv.k, perGroup, conv.r, conv.s);
  else if (kind == 1)
    result = conv.nhwc ? allocate4D(out, conv.n, conv.h, conv.w, conv.c)
                       : allocate4D(out, conv.n, conv.c, conv.h, conv.w);
  else
    result = conv.nhwc ? allocate4D(out, conv.n, outH, outW, conv.k)
                       : allocate4D(out, conv.n, conv.k, outH, outW);
  int64_t first = address((Memref4D *)args[1]),
          second = address((Memref4D *)args[2]),
          written = (int64_t)(intptr_t)result;
  int64_t x = kind == 1 ? written : first;
  int64_t w = kind == 2 ? written : second;
  int64_t y = kind == 0 ? written : kind == 1 ? first : second;
  mp_cuda_conv(conv.type, kind, conv.nhwc, 2, conv.groups, conv.n, conv.c,
               conv.k, conv.h, conv.w, 1, conv.r, conv.s, 1, conv.stride[0],
               conv.stride[1], 1, conv.dilation[0], conv.dilation[1], 1,
               conv.padding[0], conv.padding[1], 0, x, w, y);
}

/* A grouped f16 convolution: NCHW image 2x6x7x9 in 2 groups, filter 4x3x3x2
 * (KCRS), strides 2x1, dilations 1x2. */
const char _mp_sig_conv_grouped[] = "f16[2,6,7,9];f16[4,3,3,2]->f16[2,4,3,7]";
void _mp_entry_conv_grouped(void **args) {
  Conv2D conv = {0, 0, 2, 2, 6, 4, 7, 9, 3, 2, {2, 1}, {1, 2}, {0, 0}};
  run(args, 0, conv);
}

/* A bf16 NHWC convolution: image 1x5x4x3 (NHWC), filter 2x2x3x3 (KRSC),
 * padded by 1 along the width. */
const char _mp_sig_conv_nhwc[] = "bf16[1,5,4,3];bf16[2,2,3,3]->bf16[1,4,4,2]";
void _mp_entry_conv_nhwc(void **args) {
  Conv2D conv = {1, 1, 1, 1, 3, 2, 5, 4, 2, 3, {1, 1}, {1, 1}, {0, 1}};
  run(args, 0, conv);
}

/* The image gradient (f16, 2x3x7x8) of a convolution with a 4x3x3x2 filter,
 * strides 2x1 and padding 1x0, from its output gradient (2x4x4x7). */
const char _mp_sig_conv_backward_data[] =
    "f16[2,4,4,7];f16[4,3,3,2]->f16[2,3,7,8]";
void _mp_entry_conv_backward_data(void **args) {
  Conv2D conv = {0, 0, 1, 2, 3, 4, 7, 8, 3, 2, {2, 1}, {1, 1}, {1, 0}};
  run(args, 1, conv);
}

/* The filter gradient (bf16, 4x3x3x2) of a convolution of a 2x3x7x8 image
 * with strides 2x1, dilations 1x2 and padding 1x0, from the image and its
 * output gradient (2x4x4x6). */
const char _mp_sig_conv_backward_filter[] =
    "bf16[2,3,7,8];bf16[2,4,4,6]->bf16[4,3,3,2]";
void _mp_entry_conv_backward_filter(void **args) {
  Conv2D conv = {1, 0, 1, 2, 3, 4, 7, 8, 3, 2, {2, 1}, {1, 2}, {1, 0}};
  run(args, 2, conv);
}

/* The buffers of one training step, for its kernel. */
typedef struct {
  const float *p, *scale, *x, *seed;
  float *newP, *newScale, *loss;
  uint8_t *foundInf;
} StepBuffers;

/* The step's device work (the fake driver runs a host_ kernel on the host,
 * in stream order): loss = sum(p); a non-finite seed is an overflow that
 * skips the step (p and the scale stay; the scale halves), else
 * p' = p - x * seed and the scale doubles. */
static void computeStep(void *data) {
  StepBuffers *b = (StepBuffers *)data;
  *b->loss = b->p[0] + b->p[1];
  *b->foundInf = !isfinite(*b->seed);
  for (int i = 0; i < 2; ++i)
    b->newP[i] = *b->foundInf ? b->p[i] : b->p[i] - b->x[i] * *b->seed;
  *b->newScale = *b->foundInf ? *b->scale / 2 : *b->scale * 2;
  free(b);
}

static float *at(const Memref1D *m) { return m->aligned + m->offset; }

/* A rank-0 memref of any element type. */
typedef struct {
  void *allocated, *aligned;
  int64_t offset;
} Scalar;

static const float *floatAt(const Scalar *m) {
  return (const float *)m->aligned + m->offset;
}

static void setScalar(Scalar *m, void *data) {
  m->allocated = m->aligned = data;
  m->offset = 0;
}

/* A training step whose work runs on the device, as mp-lower-to-gpu's host
 * code does: it allocates its results, launches its kernel and returns
 * with the kernel queued (the runtime waits, or lets the next step queue
 * behind it). */
const char _mp_sig_step[] =
    "f32[2]@param;f32[]@loss_scale=4;f32[2]@input;f32[]@grad_seed->"
    "f32[2]@updates=0;f32[]@updates=1;f32[]@loss;i1[]@found_inf";
void _mp_entry_step(void **args) {
  Memref1D *newP = (Memref1D *)args[0];
  Scalar *newScale = (Scalar *)(newP + 1);
  Scalar *loss = newScale + 1, *foundInf = newScale + 2;
  StepBuffers *b = (StepBuffers *)malloc(sizeof(StepBuffers));
  b->p = at((const Memref1D *)args[1]);
  b->scale = floatAt((const Scalar *)args[2]);
  b->x = at((const Memref1D *)args[3]);
  b->seed = floatAt((const Scalar *)args[4]);
  b->newP = (float *)_mlir_memref_to_llvm_alloc(2 * sizeof(float));
  b->newScale = (float *)_mlir_memref_to_llvm_alloc(sizeof(float));
  b->loss = (float *)_mlir_memref_to_llvm_alloc(sizeof(float));
  b->foundInf = (uint8_t *)_mlir_memref_to_llvm_alloc(1);
  newP->allocated = newP->aligned = b->newP;
  newP->offset = 0;
  newP->sizes[0] = 2;
  newP->strides[0] = 1;
  setScalar(newScale, b->newScale);
  setScalar(loss, b->loss);
  setScalar(foundInf, b->foundInf);
  /* The kernel frees `b`: nothing reads it after the launch. */
  void (*fn)(void *) = computeStep;
  void *params[] = {&fn, &b};
  mgpuLaunchKernel(stepKernel, 1, 1, 1, 1, 1, 1, 0, mgpuStreamCreate(), params,
                   NULL, 2);
}
