#!/usr/bin/env python3
"""Runs graphs and training steps with mp-run on the CPU backend and on
--backend gpu-emulation (the GPU pipeline's tiled stage executed on the CPU)
and checks that they agree. Prints one line per comparison and
'N passed, N failed'.

Both backends multiply f16/bf16 operands exactly in f32 and accumulate in f32
along K in the same order (the CPU backend with --bf16-dot off: AVX512-BF16's
dot products add two products per step), f32 operands with one fused
multiply-add per step in both, so outputs are expected bit-identical; the check
allows a relative difference of --rtol (of the output's largest magnitude) so
that a legitimate reordering would show as a figure, not as a failure.
With --gpu-gemm library (or auto) the emulation computes the contractions and
convolutions it gives to cuBLASLt and cuDNN with the runtime's CPU
implementations of those calls: another summation order, and convolution
results rounded to f16/bf16 as cuDNN writes them, so --rtol must allow for
that.

Usage:
  compare_backends.py graphs --amp A FILE:ENTRY...   random inputs (or
                                                     --inputs NPY,...),
                                                     outputs
  compare_backends.py random --amp A --seeds X:Y [--size N] [--layers]
                             [--torch]               random_graph.py graphs
                                                     (N x N tensors, 8 x 8
                                                     unless told; --layers:
                                                     convolutions and batch
                                                     matmuls too; --torch:
                                                     torch-mlir's ops too)
  compare_backends.py shapes --amp A --seeds X:Y [--ops N]
                                                     random_shapes.py graphs
                                                     (rectangular tensors of
                                                     odd sizes: M, N and K
                                                     unrelated)
  compare_backends.py dynamic --amp A --seeds X:Y     random_shapes.py's
                                                     contractions of dynamic
                                                     sizes, called with
                                                     random inputs
  compare_backends.py train --amp A --data DIR --steps N FILE...
                                                     losses and parameters
--policy FILE passes a policy file (level: unsafe-force-all, lists) to
both backends. -O N compiles both with LLVM at level N (mp-run -O; default
mp-run's 3): the comparison is of mp's pipelines, which do not depend on it
(no fast-math flags: LLVM keeps every rounding at any level), and at -O0 the
tests' small graphs compile about three times faster.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
import random_graph  # noqa: E402
import random_shapes  # noqa: E402
from tally import Tally  # noqa: E402

BACKENDS = ("cpu", "gpu-emulation")


def mp_run(args, env=None):
    run = subprocess.run(["mp-run"] + args, capture_output=True, text=True,
                         env=env)
    if run.returncode != 0:
        raise RuntimeError(f"mp-run {' '.join(args)}: exit {run.returncode}: "
                           f"{run.stderr.strip()[-400:]}")
    return run.stdout


def difference(ref, out):
    """Largest |ref - out| relative to max(|ref|), or None when the arrays
    cannot be compared (shape, dtype, non-finite values in other places)."""
    if ref.shape != out.shape or ref.dtype != out.dtype:
        return None
    if ref.dtype.kind not in "fc":
        return 0.0 if np.array_equal(ref, out) else float("inf")
    ref = ref.astype(np.float64)
    out = out.astype(np.float64)
    finite = np.isfinite(ref)
    if not np.array_equal(finite, np.isfinite(out)) or not np.array_equal(
            ref[~finite], out[~finite], equal_nan=True):
        return None
    if not finite.any():
        return 0.0
    scale = max(np.abs(ref[finite]).max(), 1e-30)
    return float(np.abs(ref[finite] - out[finite]).max() / scale)


def compare_dirs(name, dirs, pattern, rtol, tally):
    """Compares the .npy files matching `pattern` in the two dirs."""
    files = sorted(os.path.basename(f)
                   for f in glob.glob(os.path.join(dirs[0], pattern)))
    worst, bad = 0.0, []
    for f in files:
        d = difference(np.load(os.path.join(dirs[0], f)),
                       np.load(os.path.join(dirs[1], f)))
        if d is None or d > rtol:
            bad.append(f"{f} ({'incomparable' if d is None else f'{d:.3g}'})")
        else:
            worst = max(worst, d)
    ok = bool(files) and not bad
    detail = (f"{len(files)} arrays, max rel diff {worst:.3g}"
              + ("" if worst else " (bit-identical)")) if ok else (
        "no outputs" if not files else "differ: " + ", ".join(bad))
    tally.record(ok, f"{name}: {'ok' if ok else 'FAIL'}: {detail}")


def backend_flags(backend, args):
    """mp-run flags for `backend`: the policy file and LLVM's level if any,
    products computed exactly in f32 on the CPU, and the emulation's choice
    of library calls, of wgmma's tiles, of the panels' stages, of the Tensor
    Core GEMMs' K step and of the f32 GEMMs' tiles."""
    both = (["--policy", args.policy] if args.policy else []) + (
        ["-O" + args.opt] if args.opt else [])
    if backend == "cpu":
        return both + ["--bf16-dot", "off"]
    return both + ["--gpu-gemm", args.gpu_gemm] + (
        ["--gpu-wgmma"] if args.gpu_wgmma else []) + (
        ["--gpu-tile", args.gpu_tile] if args.gpu_tile else []) + (
        ["--gpu-stages", args.gpu_stages] if args.gpu_stages else []) + (
        ["--gpu-tile-k", args.gpu_tile_k] if args.gpu_tile_k else []) + (
        ["--gpu-f32-tile", args.gpu_f32_tile] if args.gpu_f32_tile else [])


def run_graph(path, entry, args, seed, tmp, tally, name):
    dirs = []
    try:
        for backend in BACKENDS:
            out = os.path.join(tmp, f"{entry}-{args.amp}-{backend}")
            inputs = (["--inputs", args.inputs] if args.inputs else
                      ["--random-inputs", "--seed", str(seed)])
            mp_run([path, "--entry", entry, "--amp", args.amp] + inputs
                   + ["--backend", backend, "--save-outputs", out]
                   + backend_flags(backend, args))
            dirs.append(out)
    except RuntimeError as err:
        tally.record(False, f"{name}: FAIL: {err}")
        return
    compare_dirs(name, dirs, "out*.npy", args.rtol, tally)


def graphs(args, tally, tmp):
    for item in args.items:
        path, entry = item.rsplit(":", 1)
        name = f"{os.path.basename(path)}:{entry} {args.amp}"
        run_graph(path, entry, args, args.seed, tmp, tally, name)


def random_graphs(args, tally, tmp):
    first, last = (int(x) for x in args.seeds.split(":"))
    for seed in range(first, last):
        path = os.path.join(tmp, f"g{seed}.mlir")
        with open(path, "w") as f:
            f.write(random_graph.Gen(seed, calls=False, size=args.size,
                                     layers=args.layers,
                                     torch=args.torch).function(30))
        size = "" if args.size == 8 else f" {args.size}x{args.size}"
        size += " with layers" if args.layers else ""
        size += " with torch ops" if args.torch else ""
        run_graph(path, "random", args, seed, tmp, tally,
                  f"random graph {seed}{size} {args.amp}")


def random_shapes_graphs(args, tally, tmp):
    first, last = (int(x) for x in args.seeds.split(":"))
    for seed in range(first, last):
        path = os.path.join(tmp, f"s{seed}.mlir")
        with open(path, "w") as f:
            f.write(random_shapes.ShapeGen(seed).function(args.ops))
        run_graph(path, "random", args, seed, tmp, tally,
                  f"random shapes {seed} {args.amp}")


def dynamic_graphs(args, tally, tmp):
    first, last = (int(x) for x in args.seeds.split(":"))
    for seed in range(first, last):
        text, shapes = random_shapes.dynamic_contraction(seed)
        path = os.path.join(tmp, f"d{seed}.mlir")
        with open(path, "w") as f:
            f.write(text)
        rng = np.random.default_rng(seed)
        inputs = []
        for i, shape in enumerate(shapes):
            inputs.append(os.path.join(tmp, f"d{seed}-{i}.npy"))
            np.save(inputs[-1], rng.uniform(-1, 1, shape).astype(np.float32))
        sizes = " x ".join("x".join(str(d) for d in s) for s in shapes)
        run_graph(path, "dynamic", argparse.Namespace(**dict(
            vars(args), inputs=",".join(inputs))), seed, tmp, tally,
                  f"dynamic contraction {seed} ({sizes}) {args.amp}")


def train(args, tally, tmp):
    env = dict(os.environ, MP_DATASET_DIR=args.data)
    for path in args.items:
        name = f"{os.path.basename(path)} {args.amp} {args.steps} steps"
        dirs = []
        try:
            for backend in BACKENDS:
                out = os.path.join(tmp, f"{os.path.basename(path)}-{backend}")
                os.makedirs(out, exist_ok=True)
                mp_run(["--train", path, "--amp", args.amp, "--epochs", "1",
                        "--max-steps", str(args.steps), "--seed", "1",
                        "--loss-scale", "dynamic", "--inject-overflow", "2",
                        "--optimizer", args.optimizer, "--backend", backend,
                        "--log", os.path.join(out, "log.csv"),
                        "--save-params", out]
                       + backend_flags(backend, args),
                       env=env)
                log = np.genfromtxt(os.path.join(out, "log.csv"),
                                    delimiter=",", names=True)
                np.save(os.path.join(out, "loss.npy"), log["loss"])
                np.save(os.path.join(out, "scale.npy"), log["scale"])
                np.save(os.path.join(out, "skipped.npy"), log["skipped"])
                dirs.append(out)
        except RuntimeError as err:
            tally.record(False, f"{name}: FAIL: {err}")
            continue
        compare_dirs(name, dirs, "*.npy", args.rtol, tally)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["graphs", "random", "shapes",
                                         "dynamic", "train"])
    parser.add_argument("items", nargs="*")
    parser.add_argument("--amp", default="fp16")
    parser.add_argument("--policy", metavar="FILE",
                        help="policy file for --amp (a level, lists)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--inputs", metavar="NPY,...",
                        help="mp-run's --inputs instead of random inputs "
                             "(arguments of dynamic sizes)")
    parser.add_argument("--seeds", default="0:10")
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--ops", type=int, default=12,
                        help="ops per graph of `shapes`")
    parser.add_argument("--layers", action="store_true")
    parser.add_argument("--torch", action="store_true")
    parser.add_argument("--data")
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--optimizer", default="sgd")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("-O", dest="opt", choices=["0", "1", "2", "3"],
                        help="LLVM's optimization level for both backends")
    parser.add_argument("--gpu-gemm", default="codegen",
                        choices=["codegen", "library", "auto"])
    parser.add_argument("--gpu-wgmma", action="store_true")
    parser.add_argument("--gpu-tile", metavar="M,N,WARP_M,WARP_N")
    parser.add_argument("--gpu-stages", metavar="N")
    parser.add_argument("--gpu-tile-k", metavar="K")
    parser.add_argument("--gpu-f32-tile", metavar="BLOCK,THREAD")
    args = parser.parse_intermixed_args()
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        {"graphs": graphs, "random": random_graphs,
         "shapes": random_shapes_graphs, "dynamic": dynamic_graphs,
         "train": train}[
            args.mode](args, tally, tmp)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
