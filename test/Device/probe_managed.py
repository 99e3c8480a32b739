#!/usr/bin/env python3
"""Does managed memory slow a GEMM down on the GPU at hand?

mp's CUDA backend allocates every buffer as managed memory
(cuMemAllocManaged, prefetched to the device), and its cuBLASLt call at
4096^3 (f16 in, f32 out) takes several times as long as torch.matmul
(docs/results). This probe times cuBLAS through PyTorch on the same
operands in PyTorch's device memory and in managed memory (written by the
host, prefetched to the device as mp does, then after warm-up calls), and
with an f32 result where this PyTorch has mm's out_dtype, so that the
memory and the output type can be told apart from the library call.

Needs PyTorch with CUDA; prints one line per case (median of 20 calls,
CUDA events).

Usage: probe_managed.py [--n 4096]
"""
import argparse
import ctypes
import os
import sys

import torch

# bench/gpu_gemm.py: beside this script in a bundle, in bench/ in the
# repository.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "bench")]
import gpu_gemm  # noqa: E402

ATTACH_GLOBAL, LOCATION_DEVICE = 1, 1


class Location(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]


class Managed:
    """n x n elements in managed memory, as a CUDA array that torch can
    view (2-byte elements as int16: CUDA arrays have no bf16)."""

    def __init__(self, cuda, n, typestr="<i2"):
        self.pointer = ctypes.c_uint64()
        self.bytes = n * n * int(typestr[-1])
        status = cuda.cuMemAllocManaged(ctypes.byref(self.pointer),
                                        ctypes.c_size_t(self.bytes),
                                        ATTACH_GLOBAL)
        if status:
            sys.exit(f"probe_managed.py: cuMemAllocManaged: error {status}")
        self.__cuda_array_interface__ = {
            "shape": (n, n), "typestr": typestr,
            "data": (self.pointer.value, False), "version": 3}


def median_ms(fn):
    return gpu_gemm.median_ms(torch, fn, 20)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=4096)
    args = parser.parse_args()
    n = args.n
    torch.ones(1, device="cuda")  # the primary context, current here
    cuda = ctypes.CDLL("libcuda.so.1")
    prefetch = cuda.cuMemPrefetchAsync_v2
    prefetch.argtypes = [ctypes.c_uint64, ctypes.c_size_t, Location,
                         ctypes.c_uint, ctypes.c_void_p]
    flops = 2.0 * n ** 3
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"{n}^3, cuBLAS through torch, median of 20 calls")
    for dtype in (torch.float16, torch.bfloat16):
        a = torch.rand(n, n, device="cuda").to(dtype)
        b = torch.rand(n, n, device="cuda").to(dtype)
        views = []
        for src in (a, b):
            # As mp stages an input: the host writes the managed buffer,
            # then a prefetch moves its pages to the device.
            m = Managed(cuda, n)
            host = src.cpu().contiguous()
            ctypes.memmove(m.pointer.value, host.data_ptr(), m.bytes)
            status = prefetch(m.pointer.value, m.bytes,
                              Location(LOCATION_DEVICE, 0), 0, None)
            if status:
                print(f"note: cuMemPrefetchAsync_v2: error {status}")
            views.append((m, torch.as_tensor(m, device="cuda").view(dtype)))
        torch.cuda.synchronize()
        if not all(torch.equal(v, src) for (_, v), src in zip(views, (a, b))):
            sys.exit("probe_managed.py: managed copies differ")
        views = [v for _, v in views]
        # Results in managed memory too, as mp's.
        out = torch.as_tensor(Managed(cuda, n), device="cuda").view(dtype)
        out32 = torch.as_tensor(Managed(cuda, n, "<f4"), device="cuda")
        cases = [("device memory", a, b, {}, {}),
                 ("managed memory", views[0], views[1], {"out": out},
                  {"out": out32})]
        for label, x, y, kept, kept32 in cases:
            ms = median_ms(lambda: torch.matmul(x, y, **kept))
            print(f"{str(dtype)[6:]} {label}: matmul ({str(dtype)[6:]} out) "
                  f"{ms:.3f} ms, {flops / ms / 1e9:.1f} TFLOP/s")
            try:
                ms = median_ms(lambda: torch.mm(x, y, out_dtype=torch.float32,
                                                **kept32))
                print(f"{str(dtype)[6:]} {label}: mm (f32 out) {ms:.3f} ms, "
                      f"{flops / ms / 1e9:.1f} TFLOP/s")
            except (TypeError, RuntimeError) as err:
                print(f"note: mm with out_dtype: {str(err)[:120]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
