//===- CudaLibraries.cpp - cuBLASLt ops of the CUDA backend ---------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What the host code of mp-lower-to-gpu calls for library ops:
// `mp_cuda_gemm` (mp-gpu-library-gemm) runs one contraction with cuBLASLt.
// The library is loaded with dlopen when a module first calls it (never
// linked: binaries start without it), from the places openCudaLibrary
// lists. Failures are recorded like the driver's and fail the entry call.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <map>

using namespace mp_runtime;

void *mp_runtime::openCudaLibrary(const std::string &what, const char *envVar,
                                  const std::vector<std::string> &sonames,
                                  const std::vector<std::string> &wheelDirs,
                                  std::string &error) {
  std::vector<std::string> dirs, places;
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    dirs.push_back(std::string(home) + "/lib64");
  dirs.push_back("/usr/local/cuda/lib64");
  places.insert(places.end(), dirs.begin(), dirs.end());
  std::vector<std::string> prefixes;
  for (const char *var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (const char *prefix = std::getenv(var); prefix && *prefix)
      prefixes.push_back(prefix);
  if (const char *home = std::getenv("HOME"); home && *home)
    prefixes.push_back(std::string(home) + "/.local");
  prefixes.push_back("/usr/local");
  prefixes.push_back("/usr");
  for (const std::string &prefix : prefixes)
    for (const std::string &wheel : wheelDirs) {
      std::string pattern = prefix + "/lib/python3*/*-packages/nvidia/" + wheel;
      places.push_back(pattern);
      appendGlob(pattern, dirs);
    }

  return openLibrary(what, envVar, sonames, dirs, places, RTLD_LOCAL, error);
}

//===----------------------------------------------------------------------===//
// cuBLASLt
//===----------------------------------------------------------------------===//

namespace {
// cuBLASLt's types and constants, as cublasLt.h, cublas_api.h and
// library_types.h declare them (the ABI is stable from CUDA 11 to 13).
using Status = int;
using Handle = void *;
using Desc = void *;
using Layout = void *;
using Preference = void *;
struct Algo {
  uint64_t data[8];
};
struct HeuristicResult {
  Algo algo;
  size_t workspaceSize;
  Status state;
  float wavesCount;
  int reserved[4];
};
constexpr int kR32F = 0, kR16F = 2, kR16BF = 14, kCompute32F = 68;
constexpr int kDescTransA = 3, kDescTransB = 4, kDescEpilogue = 7,
              kDescBiasPointer = 8;
constexpr uint32_t kEpilogueBias = 4;
constexpr int kLayoutBatchCount = 5, kLayoutBatchStride = 6;
constexpr int kPrefMaxWorkspace = 1;
constexpr int kOpN = 0, kOpT = 1;
constexpr size_t kWorkspaceBytes = size_t(32) << 20;

/// The cuBLASLt entry points used, resolved when first needed.
struct CublasLt {
  Status (*create)(Handle *);
  Status (*descCreate)(Desc *, int, int);
  Status (*descSetAttribute)(Desc, int, const void *, size_t);
  Status (*layoutCreate)(Layout *, int, uint64_t, uint64_t, int64_t);
  Status (*layoutSetAttribute)(Layout, int, const void *, size_t);
  Status (*preferenceCreate)(Preference *);
  Status (*preferenceSetAttribute)(Preference, int, const void *, size_t);
  // Pointers to structs as void *: the exact types a caller and a callee
  // built with -fsanitize=function must agree on.
  Status (*heuristic)(Handle, Desc, Layout, Layout, Layout, Layout, Preference,
                      int, void *, int *);
  Status (*matmul)(Handle, Desc, const void *, const void *, Layout,
                   const void *, Layout, const void *, const void *, Layout,
                   void *, Layout, const void *, void *, size_t, void *);
  Status (*descDestroy)(Desc);
  Status (*layoutDestroy)(Layout);
  Status (*preferenceDestroy)(Preference);
  const char *(*statusName)(Status); // optional

  std::string unusable; // why cuBLASLt cannot be used, once tried
  Handle handle = nullptr;
  void *workspace = nullptr;

  /// A configured matmul, per shape and layout.
  struct Plan {
    Desc desc;
    Layout x, y, d;
    Algo algo;
  };
  std::map<std::vector<int64_t>, Plan> plans;

  static CublasLt &get() {
    static CublasLt lt = load();
    return lt;
  }
  static CublasLt load();

  /// Destroys what `plan` holds.
  void release(Plan &plan) const {
    for (Layout layout : {plan.x, plan.y, plan.d})
      if (layout)
        layoutDestroy(layout);
    if (plan.desc)
      descDestroy(plan.desc);
  }

  /// "call: CUBLAS_STATUS_..." for a failed call.
  std::string describe(const std::string &call, Status status) const {
    const char *name = statusName ? statusName(status) : nullptr;
    return call + ": " +
           (name ? std::string(name)
                 : "cuBLAS status " + std::to_string(status));
  }
};

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t size);

CublasLt CublasLt::load() {
  CublasLt lt{};
  void *lib = openCudaLibrary("cuBLASLt", "MP_CUBLASLT",
                              {"libcublasLt.so.13", "libcublasLt.so.12"},
                              {"cu13/lib", "cublas/lib"}, lt.unusable);
  if (!lib)
    return lt;
  SymbolResolver resolve(lib);
  resolve("cublasLtCreate", lt.create);
  resolve("cublasLtMatmulDescCreate", lt.descCreate);
  resolve("cublasLtMatmulDescSetAttribute", lt.descSetAttribute);
  resolve("cublasLtMatrixLayoutCreate", lt.layoutCreate);
  resolve("cublasLtMatrixLayoutSetAttribute", lt.layoutSetAttribute);
  resolve("cublasLtMatmulPreferenceCreate", lt.preferenceCreate);
  resolve("cublasLtMatmulPreferenceSetAttribute", lt.preferenceSetAttribute);
  resolve("cublasLtMatmulAlgoGetHeuristic", lt.heuristic);
  resolve("cublasLtMatmul", lt.matmul);
  resolve("cublasLtMatmulDescDestroy", lt.descDestroy);
  resolve("cublasLtMatrixLayoutDestroy", lt.layoutDestroy);
  resolve("cublasLtMatmulPreferenceDestroy", lt.preferenceDestroy);
  if (resolve.missing) {
    lt.unusable = std::string("cuBLASLt has no ") + resolve.missing;
    return lt;
  }
  lt.statusName = reinterpret_cast<const char *(*)(Status)>(
      dlsym(lib, "cublasLtGetStatusName"));
  if (Status status = lt.create(&lt.handle))
    lt.unusable = lt.describe("cublasLtCreate", status);
  return lt;
}

/// One operand as the contraction sees it: rows x cols (x batch) elements
/// at `address`, with strides in elements.
struct Matrix {
  int64_t address, rows, cols, rowStride, colStride, batchStride;

  Matrix transposed() const {
    return {address, cols, rows, colStride, rowStride, batchStride};
  }
  /// Whether it is column-major (cuBLAS's order): consecutive rows adjacent
  /// and columns `ld` apart.
  bool isColumnMajor() const {
    return (rowStride == 1 || rows == 1) && (cols == 1 || colStride >= rows);
  }
  int64_t leadingDimension() const {
    return cols == 1 ? std::max<int64_t>(rows, 1) : colStride;
  }
};

/// How cuBLASLt reads `m`: as it is (kOpN) or transposed (kOpT, when `m` is
/// row-major), with the layout's rows, columns and leading dimension; false
/// if `m` is neither row- nor column-major.
bool readAs(const Matrix &m, int &op, int64_t &rows, int64_t &cols,
            int64_t &ld) {
  const Matrix stored = m.isColumnMajor() ? m : m.transposed();
  if (!stored.isColumnMajor())
    return false;
  op = m.isColumnMajor() ? kOpN : kOpT;
  rows = stored.rows;
  cols = stored.cols;
  ld = stored.leadingDimension();
  return true;
}
} // namespace

/// One cuBLASLt matrix layout to create.
struct LayoutSpec {
  Layout *layout;
  int type;
  int64_t rows, cols, ld, batchStride;
};

/// Creates `p`'s descriptor and layouts (`specs`: X, Y, D), `batch` times,
/// with the bias epilogue if there is a `bias` (its alignment matters to
/// the choice), and chooses its algorithm; the failing call, or "" (what
/// was created stays in `p` for CublasLt::release either way).
std::string configure(const CublasLt &lt, CublasLt::Plan &p, int opX, int opY,
                      LayoutSpec (&specs)[3], int64_t batch, void *bias) {
  if (Status s = lt.descCreate(&p.desc, kCompute32F, kR32F))
    return lt.describe("cublasLtMatmulDescCreate", s);
  for (auto [attribute, op] :
       {std::make_pair(kDescTransA, &opX), std::make_pair(kDescTransB, &opY)})
    if (Status s = lt.descSetAttribute(p.desc, attribute, op, sizeof(int)))
      return lt.describe("cublasLtMatmulDescSetAttribute", s);
  if (bias) {
    Status s = lt.descSetAttribute(p.desc, kDescEpilogue, &kEpilogueBias,
                                   sizeof(kEpilogueBias));
    if (!s)
      s = lt.descSetAttribute(p.desc, kDescBiasPointer, &bias, sizeof(bias));
    if (s)
      return lt.describe("cublasLtMatmulDescSetAttribute", s);
  }
  for (LayoutSpec &l : specs) {
    if (Status s = lt.layoutCreate(l.layout, l.type, l.rows, l.cols, l.ld))
      return lt.describe("cublasLtMatrixLayoutCreate", s);
    if (batch <= 1)
      continue;
    int32_t count = static_cast<int32_t>(batch);
    Status s = lt.layoutSetAttribute(*l.layout, kLayoutBatchCount, &count,
                                     sizeof(count));
    if (!s)
      s = lt.layoutSetAttribute(*l.layout, kLayoutBatchStride, &l.batchStride,
                                sizeof(l.batchStride));
    if (s)
      return lt.describe("cublasLtMatrixLayoutSetAttribute", s);
  }
  Preference preference = nullptr;
  if (Status s = lt.preferenceCreate(&preference))
    return lt.describe("cublasLtMatmulPreferenceCreate", s);
  uint64_t workspace = kWorkspaceBytes;
  HeuristicResult result{};
  int found = 0;
  std::string err;
  if (Status s = lt.preferenceSetAttribute(preference, kPrefMaxWorkspace,
                                           &workspace, sizeof(workspace)))
    err = lt.describe("cublasLtMatmulPreferenceSetAttribute", s);
  else if (Status s = lt.heuristic(lt.handle, p.desc, p.x, p.y, p.d, p.d,
                                   preference, 1, &result, &found))
    err = lt.describe("cublasLtMatmulAlgoGetHeuristic", s);
  else if (found < 1)
    err = "cublasLtMatmulAlgoGetHeuristic: no algorithm on this GPU";
  lt.preferenceDestroy(preference);
  p.algo = result.algo;
  return err;
}

/// D (m x n) = A (m x k) x B (k x n) + beta D (+ bias[n]), `batch` times,
/// A and B f16 (type 0), bf16 (type 1) or f32 (type 2: cuBLASLt's f32
/// kernels, no TF32), D f32 (dType 0) or of A's type (dType 1), a bias a
/// packed vector of D's type; see mp-gpu-library-gemm.
extern "C" void mp_cuda_gemm(int32_t type, int64_t batch, int64_t m, int64_t n,
                             int64_t k, int64_t a, int64_t aSm, int64_t aSk,
                             int64_t aSb, int64_t b, int64_t bSk, int64_t bSn,
                             int64_t bSb, int64_t c, int64_t cSm, int64_t cSn,
                             int64_t cSb, float beta, int32_t dType,
                             int64_t bias) {
  void *stream = cuda::activeStream();
  if (!stream)
    return;
  const char *typeName = type == 2 ? " f32" : type == 1 ? " bf16" : " f16";
  std::string what = "cublasLtMatmul(" + std::to_string(batch) + "x" +
                     std::to_string(m) + "x" + std::to_string(n) + "x" +
                     std::to_string(k) + typeName + (bias ? " +bias" : "") +
                     (dType ? std::string(" ->") + typeName : "") + ")";
  CublasLt &lt = CublasLt::get();
  if (!lt.unusable.empty())
    return cuda::recordFailure(lt.unusable);
  if (!lt.workspace)
    lt.workspace = _mlir_memref_to_llvm_aligned_alloc(256, kWorkspaceBytes);

  // cuBLAS is column-major: a row-major D is computed as D^T = B^T A^T. The
  // bias runs along the rows of cuBLAS's D: D^T's, N.
  Matrix x{a, m, k, aSm, aSk, aSb}, y{b, k, n, bSk, bSn, bSb},
      d{c, m, n, cSm, cSn, cSb};
  if (bias || !d.isColumnMajor()) {
    Matrix oldX = x;
    x = y.transposed();
    y = oldX.transposed();
    d = d.transposed();
  }
  int opX, opY, opD;
  int64_t xRows, xCols, ldx, yRows, yCols, ldy, dRows, dCols, ldd;
  if (!readAs(x, opX, xRows, xCols, ldx) ||
      !readAs(y, opY, yRows, yCols, ldy) ||
      !readAs(d, opD, dRows, dCols, ldd) || opD != kOpN)
    return cuda::recordFailure(what +
                               ": an operand is neither row- nor "
                               "column-major" +
                               (bias ? " (D: row-major)" : ""));

  int element = type == 2 ? kR32F : type == 1 ? kR16BF : kR16F;
  auto pointer = [](int64_t address) {
    return reinterpret_cast<void *>(static_cast<intptr_t>(address));
  };
  void *biasPointer = pointer(bias);
  std::vector<int64_t> key{element,
                           batch,
                           m,
                           n,
                           k,
                           opX,
                           opY,
                           ldx,
                           ldy,
                           ldd,
                           x.batchStride,
                           y.batchStride,
                           d.batchStride,
                           dType,
                           bias ? 1 + (bias % 16 == 0) : 0};
  auto plan = lt.plans.find(key);
  if (plan == lt.plans.end()) {
    CublasLt::Plan p{};
    LayoutSpec specs[] = {
        {&p.x, element, xRows, xCols, ldx, x.batchStride},
        {&p.y, element, yRows, yCols, ldy, y.batchStride},
        {&p.d, dType ? element : kR32F, dRows, dCols, ldd, d.batchStride}};
    if (std::string err = configure(lt, p, opX, opY, specs, batch, biasPointer);
        !err.empty()) {
      lt.release(p);
      return cuda::recordFailure(err + " for " + what);
    }
    plan = lt.plans.emplace(key, p).first;
  }
  const CublasLt::Plan &p = plan->second;
  if (bias)
    if (Status status = lt.descSetAttribute(p.desc, kDescBiasPointer,
                                            &biasPointer, sizeof(biasPointer)))
      return cuda::recordFailure(
          lt.describe("cublasLtMatmulDescSetAttribute", status) + " for " +
          what);
  float alpha = 1;
  cuda::startLaunch(what);
  if (Status status =
          lt.matmul(lt.handle, p.desc, &alpha, pointer(x.address), p.x,
                    pointer(y.address), p.y, &beta, pointer(d.address), p.d,
                    pointer(d.address), p.d, &p.algo, lt.workspace,
                    kWorkspaceBytes, stream))
    return cuda::recordFailure(lt.describe(what, status));
  cuda::finishLaunch();
}
