/*===- fake_cublaslt.c - cuBLASLt on the host, for tests ---------*- C -*-===*
 *
 * Part of the mp project: automatic mixed precision for MLIR.
 *
 * The cuBLASLt entry points the CUDA backend uses, computing matmuls on the
 * host as cuBLASLt documents them (column-major layouts of rows, columns and
 * leading dimension, strided batches, D = alpha op(A) op(B) + beta C, f16 or
 * bf16 inputs, f32 compute, the bias epilogue (a vector of D's type along
 * D's rows), D of f32 or the inputs' type, rounded to nearest even). With the
 *fake driver (fake_cuda.c), whose device memory is host memory, modules whose
 *GEMMs are library calls run end to end on machines without a GPU.
 *MP_FAKE_CUBLASLT_FAIL=NAME:CODE makes entry point NAME return CODE.
 *===----------------------------------------------------------------------===*/

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int Status;

typedef struct {
  int type;
  uint64_t rows, cols;
  int64_t ld, batchStride;
  int32_t batch;
} Layout;

typedef struct {
  int32_t transA, transB;
  uint32_t epilogue;
  const void *bias;
} Desc;

static Status enter(const char *name) {
  const char *fail = getenv("MP_FAKE_CUBLASLT_FAIL");
  size_t length = strlen(name);
  if (fail && strncmp(fail, name, length) == 0 && fail[length] == ':')
    return atoi(fail + length + 1);
  return 0;
}

Status cublasLtCreate(void **handle) {
  static int context;
  *handle = &context;
  return enter("cublasLtCreate");
}

/* Handles are void * (as the runtime declares them: -fsanitize=function
 * checks that caller and callee agree on the exact types). */
Status cublasLtMatmulDescCreate(void **desc, int compute, int scale) {
  if (compute != 68 || scale != 0) /* CUBLAS_COMPUTE_32F, CUDA_R_32F */
    return 15;                     /* CUBLAS_STATUS_NOT_SUPPORTED */
  *desc = calloc(1, sizeof(Desc));
  return enter("cublasLtMatmulDescCreate");
}

Status cublasLtMatmulDescSetAttribute(void *handle, int attribute,
                                      const void *value, size_t size) {
  Desc *desc = handle;
  if (attribute == 7 && size == sizeof(uint32_t)) {
    memcpy(&desc->epilogue, value, size);
    /* CUBLASLT_EPILOGUE_DEFAULT, CUBLASLT_EPILOGUE_BIAS */
    return desc->epilogue == 1 || desc->epilogue == 4 ? 0 : 15;
  }
  if (attribute == 8 && size == sizeof(void *)) {
    memcpy(&desc->bias, value, size);
    return enter("cublasLtMatmulDescSetAttribute");
  }
  if (size != sizeof(int32_t) || (attribute != 3 && attribute != 4))
    return 7; /* CUBLAS_STATUS_INVALID_VALUE */
  memcpy(attribute == 3 ? &desc->transA : &desc->transB, value, size);
  return 0;
}

Status cublasLtMatrixLayoutCreate(void **handle, int type, uint64_t rows,
                                  uint64_t cols, int64_t ld) {
  if (ld < (int64_t)(rows ? rows : 1))
    return 7;
  Layout *layout = calloc(1, sizeof(Layout));
  *layout = (Layout){type, rows, cols, ld, 0, 1};
  *handle = layout;
  return enter("cublasLtMatrixLayoutCreate");
}

Status cublasLtMatrixLayoutSetAttribute(void *handle, int attribute,
                                        const void *value, size_t size) {
  Layout *layout = handle;
  if (attribute == 5 && size == sizeof(int32_t))
    memcpy(&layout->batch, value, size);
  else if (attribute == 6 && size == sizeof(int64_t))
    memcpy(&layout->batchStride, value, size);
  else
    return 7;
  return 0;
}

Status cublasLtMatmulPreferenceCreate(void **preference) {
  static int settings;
  *preference = &settings;
  return 0;
}

Status cublasLtMatmulPreferenceSetAttribute(void *preference, int attribute,
                                            const void *value, size_t size) {
  (void)preference, (void)value;
  return attribute == 1 && size == sizeof(uint64_t) ? 0 : 7;
}

Status cublasLtMatmulDescDestroy(void *desc) {
  free(desc);
  return 0;
}

Status cublasLtMatrixLayoutDestroy(void *layout) {
  free(layout);
  return 0;
}

Status cublasLtMatmulPreferenceDestroy(void *preference) {
  (void)preference; /* static */
  return 0;
}

typedef struct {
  uint64_t algo[8];
  size_t workspaceSize;
  Status state;
  float wavesCount;
  int reserved[4];
} HeuristicResult;

Status cublasLtMatmulAlgoGetHeuristic(void *handle, void *desc, void *a,
                                      void *b, void *c, void *d,
                                      void *preference, int requested,
                                      void *results, int *found) {
  (void)handle, (void)desc, (void)a, (void)b, (void)c, (void)d;
  (void)preference;
  memset(results, 0, sizeof(HeuristicResult) * (requested > 0 ? requested : 0));
  *found = requested > 0;
  return enter("cublasLtMatmulAlgoGetHeuristic");
}

/* f16 and bf16 bits as floats. */
static float halfToFloat(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float magnitude = exponent == 0 ? ldexpf((float)mantissa, -24)
                    : exponent == 31
                        ? (mantissa ? NAN : INFINITY)
                        : ldexpf((float)(mantissa | 0x400), exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

static float bf16ToFloat(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}

/* Floats as f16 and bf16 bits, rounded to nearest even. */
static uint16_t floatToHalf(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof(x));
  uint16_t sign = (x >> 16) & 0x8000;
  uint32_t magnitude = x & 0x7fffffff;
  if (magnitude > 0x7f800000)
    return sign | 0x7e00;
  if (magnitude >= 0x477ff000) /* 65520 and above round to infinity */
    return sign | 0x7c00;
  if (magnitude < 0x38800000) { /* below 2^-14: subnormal, in units of 2^-24 */
    float value;
    memcpy(&value, &magnitude, sizeof(value));
    return sign | (uint16_t)nearbyintf(value * 16777216.0f);
  }
  uint32_t half =
      ((magnitude >> 23) - 112) << 10 | (magnitude & 0x7fffff) >> 13;
  uint32_t rest = magnitude & 0x1fff;
  half += rest > 0x1000 || (rest == 0x1000 && (half & 1));
  return sign | half;
}

static uint16_t floatToBF16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof(x));
  if ((x & 0x7fffffff) > 0x7f800000)
    return (x >> 16) | 0x40;
  return (x + 0x7fff + ((x >> 16) & 1)) >> 16;
}

/* Element `index` of a buffer of `type` (CUDA_R_32F, _16F or _16BF). */
static float load(const void *x, int type, int64_t index) {
  if (type == 0)
    return ((const float *)x)[index];
  uint16_t bits = ((const uint16_t *)x)[index];
  return type == 14 ? bf16ToFloat(bits) : halfToFloat(bits);
}

/* Element (row, col) of op(X), X a column-major layout of `type`. */
static float element(const void *x, const Layout *l, int32_t trans,
                     int32_t batch, uint64_t row, uint64_t col) {
  if (trans) {
    uint64_t t = row;
    row = col;
    col = t;
  }
  return load(x, l->type, batch * l->batchStride + (int64_t)col * l->ld + row);
}

Status cublasLtMatmul(void *handle, void *descHandle, const void *alphaPointer,
                      const void *a, void *aLayout, const void *b,
                      void *bLayout, const void *betaPointer, const void *c,
                      void *cLayout, void *d, void *dLayout, const void *algo,
                      void *workspace, size_t workspaceSize, void *stream) {
  (void)handle, (void)algo, (void)workspace, (void)workspaceSize;
  (void)stream, (void)cLayout;
  const Desc *desc = descHandle;
  const Layout *la = aLayout, *lb = bLayout, *ld = dLayout;
  const float *alpha = alphaPointer, *beta = betaPointer;
  Status status = enter("cublasLtMatmul");
  if (status)
    return status;
  uint64_t m = ld->rows, n = ld->cols;
  uint64_t k = desc->transA ? la->rows : la->cols;
  if ((desc->transA ? la->cols : la->rows) != m ||
      (desc->transB ? lb->cols : lb->rows) != k ||
      (desc->transB ? lb->rows : lb->cols) != n ||
      (ld->type != 0 && ld->type != la->type) ||
      ((desc->epilogue == 4) != (desc->bias != NULL)))
    return 7;
  for (int32_t batch = 0; batch < ld->batch; ++batch)
    for (uint64_t col = 0; col < n; ++col)
      for (uint64_t row = 0; row < m; ++row) {
        double sum = 0;
        for (uint64_t i = 0; i < k; ++i)
          sum += (double)element(a, la, desc->transA, batch, row, i) *
                 element(b, lb, desc->transB, batch, i, col);
        int64_t out = batch * ld->batchStride + (int64_t)col * ld->ld + row;
        float old = *beta != 0 ? element(c, ld, 0, batch, row, col) : 0;
        float value = (float)(*alpha * sum) + *beta * old;
        if (desc->epilogue == 4)
          value += load(desc->bias, ld->type, (int64_t)row);
        if (ld->type == 0)
          ((float *)d)[out] = value;
        else
          ((uint16_t *)d)[out] =
              ld->type == 14 ? floatToBF16(value) : floatToHalf(value);
      }
  return 0;
}

const char *cublasLtGetStatusName(Status status) {
  switch (status) {
  case 7:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case 13:
    return "CUBLAS_STATUS_EXECUTION_FAILED";
  case 15:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  default:
    return NULL;
  }
}
