#!/usr/bin/env python3
"""Benchmark: mp's generated CPU code against OpenBLAS, measured in one run.

* sgemm 1024^3 (f32): `mp-run --repeat` against cblas_sgemm from
  libopenblas (Debian's libopenblas-dev) on 1 thread (mp's code is
  single-threaded) and on all threads.
* The example graphs end to end (MLP forward+backward, attention block):
  mp-run fp32 against the same computation in NumPy float32 with OpenBLAS on
  1 thread.
Prints each time and the ratio OpenBLAS time / mp time (1.0 = as fast as
OpenBLAS; the goal for sgemm is >= 0.5).

Usage: /usr/bin/python3 bench/cpu_vs_openblas.py [--repeat 5]
(needs python3-numpy and libopenblas-dev; scripts/install-deps.sh installs them)
"""
import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "Integration", "CPU", "Inputs"))

SGEMM = """func.func @sgemm(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
"""


def mp_time(mp_run, path, entry, repeat, threads=1):
    out = subprocess.run([mp_run, path, "--entry", entry, "--backend", "cpu",
                          "--random-inputs", "--repeat", str(repeat),
                          "--threads", str(threads)],
                         check=True,
                         capture_output=True, text=True).stdout
    return float(re.search(r"median ([0-9.e+-]+) ms", out).group(1)) / 1e3


def median_time(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def openblas_sgemm(threads, repeat):
    import numpy as np
    lib = ctypes.CDLL("libopenblas.so.0")
    lib.openblas_set_num_threads(threads)
    n = 1024
    a = np.random.rand(n, n).astype(np.float32)
    b = np.random.rand(n, n).astype(np.float32)
    c = np.zeros((n, n), np.float32)
    ptr = ctypes.POINTER(ctypes.c_float)
    args = (101, 111, 111, n, n, n, ctypes.c_float(1.0), a.ctypes.data_as(ptr),
            n, b.ctypes.data_as(ptr), n, ctypes.c_float(0.0),
            c.ctypes.data_as(ptr), n)
    return median_time(lambda: lib.cblas_sgemm(*args), repeat)


def numpy_graph(name, shapes, repeat):
    """The graph's NumPy reference (numerics.py) in float32, 1 thread."""
    import numpy as np
    import numerics
    rng = np.random.default_rng(0)
    args = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
    fn = getattr(numerics, name)
    return median_time(lambda: fn(*args), repeat)


def main():
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    parser = argparse.ArgumentParser()
    parser.add_argument("--mp-run", default=os.path.join(ROOT, "build/bin/mp-run"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sgemm.mlir")
        with open(path, "w") as f:
            f.write(SGEMM)
        ours = mp_time(args.mp_run, path, "sgemm", args.repeat)
        one = openblas_sgemm(1, args.repeat)
        rows.append(("sgemm 1024^3, OpenBLAS 1 thread", ours, one))
        cores = os.cpu_count()
        rows.append(("sgemm 1024^3, both on %d threads" % cores,
                     mp_time(args.mp_run, path, "sgemm", args.repeat, cores),
                     openblas_sgemm(cores, args.repeat)))
    graphs = [
        ("mlp_grad", "examples/mlp_grad.mlir",
         [(784, 128), (128,), (128, 10), (10,), (64, 784), (64, 10), ()]),
        ("attention", "examples/attention.mlir",
         [(16, 32)] + [(32, 32)] * 5),
    ]
    for name, rel, shapes in graphs:
        ours = mp_time(args.mp_run, os.path.join(ROOT, rel), name, args.repeat)
        rows.append((f"{name} end to end, NumPy+OpenBLAS 1 thread", ours,
                     numpy_graph(name, shapes, args.repeat)))
    print(f"{'benchmark':<46} {'mp ms':>9} {'OpenBLAS ms':>12} {'ratio':>6}")
    for label, ours, ref in rows:
        print(f"{label:<46} {ours * 1e3:>9.2f} {ref * 1e3:>12.2f} {ref / ours:>6.2f}")
    sgemm_ratio = rows[0][2] / rows[0][1]
    print(f"goal: sgemm ratio >= 0.5 against 1 thread: "
          f"{'met' if sgemm_ratio >= 0.5 else 'not met'} ({sgemm_ratio:.2f})")


if __name__ == "__main__":
    main()
