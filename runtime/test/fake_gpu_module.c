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
