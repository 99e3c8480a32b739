#!/usr/bin/env python3
"""What cuBLASLt's ReLU epilogue makes of a NaN, on the GPU at hand.

mp-gpu-library-gemm leaves a ReLU after a library GEMM to a kernel because
cuBLASLt's documentation says only "x := max(x, 0)": mp's ReLU
(arith.maximumf) keeps a NaN, and an epilogue that turned it into 0 would
hide an overflow from the loss scaler's finite check. This probe runs
cublasLtMatmul with CUBLASLT_EPILOGUE_RELU_BIAS (f16 in, f32 compute and
out) on a product whose first row is NaN and prints what the epilogue left
there: "keeps NaN" would let the pass take ReLUs, "gives 0" would not.

Needs PyTorch with CUDA (for device memory and the library it loads);
prints one line, exits non-zero if cuBLASLt cannot be called.

Usage: probe_cublaslt.py
"""
import ctypes
import glob
import os
import sys

import torch

COMPUTE_32F, R_32F, R_16F = 68, 0, 2
DESC_EPILOGUE, DESC_BIAS_POINTER = 7, 8
EPILOGUE_RELU_BIAS = 6


def load_cublaslt():
    """The cuBLASLt that PyTorch loaded (by its soname), or one of CUDA's."""
    torch.ones(8, 8, device="cuda").matmul(torch.ones(8, 8, device="cuda"))
    names = ["libcublasLt.so.13", "libcublasLt.so.12"]
    names += glob.glob(os.path.join(os.path.dirname(torch.__file__), "..",
                                    "nvidia", "*", "lib", "libcublasLt.so*"))
    names += glob.glob("/usr/local/cuda/lib64/libcublasLt.so*")
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    sys.exit("probe_cublaslt.py: no libcublasLt found")


def check(status, call):
    if status:
        sys.exit(f"probe_cublaslt.py: {call} returned cuBLAS status {status}")


def main():
    lt = load_cublaslt()
    p = ctypes.c_void_p
    handle, desc = p(), p()
    check(lt.cublasLtCreate(ctypes.byref(handle)), "cublasLtCreate")
    check(lt.cublasLtMatmulDescCreate(ctypes.byref(desc), COMPUTE_32F, R_32F),
          "cublasLtMatmulDescCreate")
    m = n = k = 16
    # Column-major A (m x k) with a NaN in row 0, B = identity: row 0 of
    # the product is NaN; bias 0, so ReLU decides what row 0 becomes.
    a = torch.randn(k, m, device="cuda", dtype=torch.float16)  # A^T, row-major
    a[0, 0] = float("nan")
    b = torch.eye(k, n, device="cuda", dtype=torch.float16)
    bias = torch.zeros(m, device="cuda", dtype=torch.float32)
    d = torch.full((n, m), 7.0, device="cuda", dtype=torch.float32)
    epilogue = ctypes.c_uint32(EPILOGUE_RELU_BIAS)
    check(lt.cublasLtMatmulDescSetAttribute(desc, DESC_EPILOGUE,
                                            ctypes.byref(epilogue),
                                            ctypes.c_size_t(4)),
          "cublasLtMatmulDescSetAttribute(EPILOGUE)")
    bias_pointer = p(bias.data_ptr())
    check(lt.cublasLtMatmulDescSetAttribute(desc, DESC_BIAS_POINTER,
                                            ctypes.byref(bias_pointer),
                                            ctypes.c_size_t(8)),
          "cublasLtMatmulDescSetAttribute(BIAS_POINTER)")
    layouts = []
    for dtype in (R_16F, R_16F, R_32F):
        layout = p()
        check(lt.cublasLtMatrixLayoutCreate(ctypes.byref(layout), dtype,
                                            ctypes.c_uint64(16),
                                            ctypes.c_uint64(16),
                                            ctypes.c_int64(16)),
              "cublasLtMatrixLayoutCreate")
        layouts.append(layout)
    alpha, beta = ctypes.c_float(1), ctypes.c_float(0)
    workspace = torch.empty(32 << 20, device="cuda", dtype=torch.uint8)
    stream = p(torch.cuda.current_stream().cuda_stream)
    check(lt.cublasLtMatmul(handle, desc, ctypes.byref(alpha),
                            p(a.data_ptr()), layouts[0], p(b.data_ptr()),
                            layouts[1], ctypes.byref(beta), p(d.data_ptr()),
                            layouts[2], p(d.data_ptr()), layouts[2], None,
                            p(workspace.data_ptr()),
                            ctypes.c_size_t(workspace.numel()), stream),
          "cublasLtMatmul")
    torch.cuda.synchronize()
    row = d[:, 0]  # column-major D: element (0, j) at d[j, 0]
    verdict = ("keeps NaN" if bool(row.isnan().all()) else
               "gives 0" if bool((row == 0).all()) else
               f"gives {row.tolist()}")
    print(f"{torch.cuda.get_device_name()}: cuBLASLt ReLU epilogue of NaN "
          f"{verdict}")


if __name__ == "__main__":
    main()
