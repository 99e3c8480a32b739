"""Calls the CUDA backend's all-reduce (mp_cuda_all_reduce, what compiled
data-parallel GPU steps call) on buffers of the backend, in every rank of an
mpirun, and compares each result with the reduction computed here from what
every rank contributed. Run with the fake driver and the fake NCCL
(MP_CUDA_DRIVER, MP_NCCL_LIBRARY), whose device memory is host memory.

usage: cuda_all_reduce.py LIBMPRUNTIME [freeze]
  freeze: rank 1 stops before the second all-reduce (the others must give
          up after $MP_COLLECTIVE_TIMEOUT and end the run).
"""
import ctypes
import sys
import time

import numpy as np

rt = ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL)
rt._mlir_memref_to_llvm_alloc.restype = ctypes.c_void_p
rt._mlir_memref_to_llvm_alloc.argtypes = [ctypes.c_size_t]
rt.mp_cuda_all_reduce.argtypes = [ctypes.c_int64, ctypes.c_int64,
                                  ctypes.c_int32, ctypes.c_int32]
rank, size = ctypes.c_int32(), ctypes.c_int32()
if rt.mp_world_init(ctypes.byref(rank), ctypes.byref(size)) != 0:
    sys.exit("mp_world_init failed")
rank, size = rank.value, size.value
freeze = len(sys.argv) > 2 and sys.argv[2] == "freeze"

MP_F32, MP_F16, MP_BF16, MP_I1 = 0, 1, 2, 4
SUM, MAX = 0, 1


def to_bf16(values):
    """f32 -> bf16 bits, rounded to nearest even (finite values)."""
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def contribution(r, n, seed):
    """What rank r contributes: values that differ by rank and element."""
    rng = np.random.default_rng(seed * 97 + r)
    return rng.uniform(-4, 4, n).astype(np.float32)


def run(dtype, kind, n, seed):
    values = contribution(rank, n, seed)
    if dtype == MP_F16:
        data = values.astype(np.float16)
    elif dtype == MP_BF16:
        data = to_bf16(values)
    elif dtype == MP_I1:
        data = (values > 3.5).astype(np.uint8)
    else:
        data = values
    address = rt._mlir_memref_to_llvm_alloc(max(data.nbytes, 1))
    ctypes.memmove(address, data.ctypes.data, data.nbytes)
    rt.mp_cuda_all_reduce(address, n, dtype, kind)
    out = np.empty_like(data)
    ctypes.memmove(out.ctypes.data, address, data.nbytes)

    # The reference: each rank's contribution as it was sent, widened to f32.
    sent = []
    for r in range(size):
        v = contribution(r, n, seed)
        if dtype == MP_F16:
            v = v.astype(np.float16).astype(np.float32)
        elif dtype == MP_BF16:
            v = from_bf16(to_bf16(v))
        elif dtype == MP_I1:
            v = (v > 3.5).astype(np.float32)
        sent.append(v)
    total = np.max(sent, axis=0) if kind == MAX else np.sum(sent, axis=0)
    if dtype == MP_F16:
        want, got = total.astype(np.float16), out
    elif dtype == MP_BF16:
        want, got = to_bf16(total), out
    elif dtype == MP_I1:
        want, got = total.astype(np.uint8), out
    else:
        want, got = total, out
    name = {MP_F32: "f32", MP_F16: "f16", MP_BF16: "bf16", MP_I1: "i1"}[dtype]
    exact = np.array_equal(want, got)
    # MPI (the fake NCCL's transport) may add f32 values in any order.
    close = np.allclose(got.astype(np.float32), want.astype(np.float32),
                        rtol=1e-6, atol=0) if dtype == MP_F32 else exact
    print(f"rank {rank}: {name} {'max' if kind == MAX else 'sum'} of {n}: "
          f"{'ok' if close else 'WRONG'} (any nonzero: {bool(np.any(got))})",
          flush=True)


run(MP_F32, SUM, 1000, 1)
if freeze and rank == 1:
    time.sleep(3600)
run(MP_F32, MAX, 77, 2)
run(MP_F16, SUM, 513, 3)
run(MP_BF16, SUM, 64, 4)
run(MP_I1, MAX, 50, 5)
rt.mp_world_finalize()
