/*===- fake_module.c - A hand-written module for runtime tests ---*- C -*-===*
 *
 * Part of the mp project: automatic mixed precision for MLIR.
 *
 * Mimics what mp compiles: packed entry points over memref descriptors and
 * signature strings, so the runtime is tested without the compiler.
 *===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdlib.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Memref1D;

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2D;

/* add(a, b) = a + b over f32[4]. */
const char _mp_sig_add[] = "f32[4];f32[4]->f32[4]";
void _mp_entry_add(void **args) {
  Memref1D *out = (Memref1D *)args[0];
  Memref1D *a = (Memref1D *)args[1], *b = (Memref1D *)args[2];
  float *data = (float *)malloc(4 * sizeof(float));
  for (int i = 0; i < 4; ++i)
    data[i] = a->aligned[a->offset + i * a->strides[0]] +
              b->aligned[b->offset + i * b->strides[0]];
  out->allocated = out->aligned = data;
  out->offset = 0;
  out->sizes[0] = 4;
  out->strides[0] = 1;
}

/* scale(x, s) = x * s over f32[?] with a scalar. */
const char _mp_sig_scale[] = "f32[?];f32->f32[?]";
void _mp_entry_scale(void **args) {
  Memref1D *out = (Memref1D *)args[0];
  Memref1D *x = (Memref1D *)args[1];
  float s = *(float *)args[2];
  int64_t n = x->sizes[0];
  float *data = (float *)malloc((n ? n : 1) * sizeof(float));
  for (int64_t i = 0; i < n; ++i)
    data[i] = x->aligned[x->offset + i * x->strides[0]] * s;
  out->allocated = out->aligned = data;
  out->offset = 0;
  out->sizes[0] = n;
  out->strides[0] = 1;
}

/* split(m) = (transpose(m) as a strided view, m itself): the second result
 * aliases the argument and must not be freed by the runtime. */
const char _mp_sig_split[] = "f32[2,3]->f32[3,2];f32[2,3]";
void _mp_entry_split(void **args) {
  Memref2D *out = (Memref2D *)args[0];
  Memref2D *m = (Memref2D *)args[1];
  float *copy = (float *)malloc(6 * sizeof(float));
  for (int i = 0; i < 6; ++i)
    copy[i] = m->aligned[i];
  out[0].allocated = out[0].aligned = copy;
  out[0].offset = 0;
  out[0].sizes[0] = 3;
  out[0].sizes[1] = 2;
  out[0].strides[0] = 1;
  out[0].strides[1] = 3;
  out[1] = *m;
}

/* twice(x) = (x + 1, x + 1): both results are one buffer, as compiled code
 * returns a value used twice. The runtime copies both, then frees it once. */
const char _mp_sig_twice[] = "f32[4]->f32[4];f32[4]";
void _mp_entry_twice(void **args) {
  Memref1D *out = (Memref1D *)args[0];
  Memref1D *x = (Memref1D *)args[1];
  float *data = (float *)malloc(4 * sizeof(float));
  for (int i = 0; i < 4; ++i)
    data[i] = x->aligned[x->offset + i * x->strides[0]] + 1;
  out[0].allocated = out[0].aligned = data;
  out[0].offset = 0;
  out[0].sizes[0] = 4;
  out[0].strides[0] = 1;
  out[1] = out[0];
}

const char _mp_sig_broken[] = "f32[4->";
void _mp_entry_broken(void **args) { (void)args; }

typedef struct {
  float *allocated, *aligned;
  int64_t offset;
} Memref0D;

static float *allocFloats(int64_t n) {
  return (float *)malloc(n * sizeof(float));
}

/* A training step with roles: p' = p - x * seed, scale' = 2 * scale,
 * loss = sum(p). The runtime's trainer threads p and scale. */
const char _mp_sig_step[] =
    "f32[2]@param;f32[]@loss_scale=4;f32[2]@input;f32[]@grad_seed->"
    "f32[2]@updates=0;f32[]@updates=1;f32[]@loss";
void _mp_entry_step(void **args) {
  Memref1D *newP = (Memref1D *)args[0];
  Memref0D *newScale = (Memref0D *)(newP + 1);
  Memref0D *loss = newScale + 1;
  Memref1D *p = (Memref1D *)args[1], *x = (Memref1D *)args[3];
  Memref0D *scale = (Memref0D *)args[2], *seed = (Memref0D *)args[4];
  float *data = allocFloats(2), *s = allocFloats(1), *l = allocFloats(1);
  *l = 0;
  for (int i = 0; i < 2; ++i) {
    float pi = p->aligned[p->offset + i * p->strides[0]];
    *l += pi;
    data[i] = pi - x->aligned[x->offset + i * x->strides[0]] *
                       seed->aligned[seed->offset];
  }
  *s = 2 * scale->aligned[scale->offset];
  newP->allocated = newP->aligned = data;
  newP->offset = 0;
  newP->sizes[0] = 2;
  newP->strides[0] = 1;
  newScale->allocated = newScale->aligned = s;
  newScale->offset = 0;
  loss->allocated = loss->aligned = l;
  loss->offset = 0;
}

const char _mp_sig_bad_role[] = "f32[2]@weights->f32[2]";
void _mp_entry_bad_role(void **args) { (void)args; }

/* gather(ids, table) = table[ids] over i64[3] indices into f32[4]: the
 * runtime checks the ids against the bound before the call. */
typedef struct {
  int64_t *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Memref1DI64;
const char _mp_sig_gather[] = "i64[3]<4@input;f32[4]->f32[3]";
void _mp_entry_gather(void **args) {
  Memref1D *out = (Memref1D *)args[0];
  Memref1DI64 *ids = (Memref1DI64 *)args[1];
  Memref1D *table = (Memref1D *)args[2];
  float *data = (float *)malloc(3 * sizeof(float));
  for (int i = 0; i < 3; ++i)
    data[i] = table->aligned[table->offset +
                             ids->aligned[ids->offset + i * ids->strides[0]] *
                                 table->strides[0]];
  out->allocated = out->aligned = data;
  out->offset = 0;
  out->sizes[0] = 3;
  out->strides[0] = 1;
}

/* Bounds on what is no integer tensor. */
const char _mp_sig_bad_bound[] = "f32[2]<3->f32[2]";
void _mp_entry_bad_bound(void **args) { (void)args; }
