#!/usr/bin/env python3
"""Training step time on this CPU: mp against PyTorch, measured in one run.

The three example models (examples/torch/models.py: MLP, CNN, transformer),
batch 64, Adam (lr 1e-3), softmax cross-entropy, Fashion-MNIST:
* mp: `mp-run --train --backend cpu` on the exported training graph
  (examples/torch/<model>/<model>_grad.mlir) with PyTorch's initial weights
  (--init), the rate from its summary line (the training loop, compilation
  excluded), its compiled code on 1 thread and on all cores (--threads),
  and the bytes of parameters and optimizer state it copied per step
  outside the maths (its summary's "state copied").
* PyTorch eager (torch.autocast("cpu") for the mixed policies, where the
  installed PyTorch supports that type on the CPU), on 1 thread and on all
  cores: each in a fresh process whose OpenMP and OpenBLAS pools have that
  many threads (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, set_num_threads).
Then sgemm 1024^3: mp against OpenBLAS, both on 1 thread and on all cores
(bench/cpu_vs_openblas.py's measurement).

Prints a Markdown table: ms per step (the fastest of --runs alternating
runs of each side) and the ratio PyTorch ms / mp ms (above 1: mp is
faster). Skips the PyTorch columns, saying why, when torch
does not import (Debian's python3-torch or pip's torch provide it).

Usage: /usr/bin/python3 bench/cpu_train_vs_torch.py [--steps 300] [--runs 3]
"""
import argparse
import gzip
import os
import re
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "examples", "torch"))
from cpu_vs_openblas import SGEMM, mp_time, openblas_sgemm  # noqa: E402

BATCH = 64
MODELS = ("mlp", "cnn", "transformer")
POLICIES = ("none", "fp16", "bf16")


def dataset_dir():
    return os.environ.get("MP_DATASET_DIR",
                          "/usr/share/datasets/fashion-mnist")


def load_train():
    d = dataset_dir()
    with gzip.open(os.path.join(d, "train-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16)
    with gzip.open(os.path.join(d, "train-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)
    return (images.reshape(-1, 1, 28, 28).astype(np.float32) / 255.0,
            labels.astype(np.int64))


def run(cmd, env=None):
    """The standard output of `cmd`; exits with one line if it fails."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    except OSError as e:
        sys.exit(f"cpu_train_vs_torch.py: {e}")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        sys.exit(f"cpu_train_vs_torch.py: {' '.join(cmd[:3])} ...: {last}")
    return done.stdout


def mp_ms_per_step(mp_run, model, amp, steps, threads):
    graph = os.path.join(ROOT, "examples", "torch", model, f"{model}_grad.mlir")
    cmd = [mp_run, "--train", graph, "--backend", "cpu", "--amp", amp,
           "--init", os.path.join(ROOT, "examples", "torch", model, "init"),
           "--optimizer", "adam", "--lr", "1e-3", "--epochs", "1",
           "--max-steps", str(steps), "--test-limit", "64",
           "--threads", str(threads)]
    out = run(cmd)
    rate = float(re.search(r"([0-9.]+) steps/s", out).group(1))
    copied = int(re.search(r"state copied ([0-9]+) B/step", out).group(1))
    return 1e3 / rate, copied


def torch_autocast_type(torch, amp):
    """The dtype PyTorch's CPU autocast computes `amp` in, None for fp32,
    or a reason it cannot."""
    if amp == "none":
        return None, None
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}[amp]
    a = torch.ones(2, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with torch.autocast("cpu", dtype=dtype):
                got = (a @ a).dtype
        except (RuntimeError, ValueError) as e:
            return None, f"autocast: {e}".splitlines()[0]
    if got != dtype:
        return None, f"CPU autocast of torch {torch.__version__} has no {amp}"
    return dtype, None


def torch_ms_per_step(model_name, amp, threads, steps):
    """Runs in a fresh process whose OpenMP and OpenBLAS pools have
    `threads` threads (both read their size when they load)."""
    import torch
    from models import MODELS, train_step
    torch.set_num_threads(threads)
    dtype, _ = torch_autocast_type(torch, amp)
    x, y = load_train()
    x, y = torch.from_numpy(x), torch.from_numpy(y)
    torch.manual_seed(0)
    model = MODELS[model_name]()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def step(i):
        train_step(model, opt, x, y, i, BATCH, "cpu", dtype)

    for i in range(10):  # warm-up
        step(i)
    start = time.perf_counter()
    for i in range(steps):
        step(i)
    return (time.perf_counter() - start) * 1e3 / steps


def torch_in_child(model_name, amp, threads, steps):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads))
    out = run([sys.executable, os.path.abspath(__file__), "--torch-step",
               model_name, amp, str(threads), "--steps", str(steps)], env)
    return float(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mp-run",
                        default=os.path.join(ROOT, "build", "bin", "mp-run"))
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3,
                        help="runs of each training measurement (the "
                        "fastest is reported)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="sgemm calls per measurement")
    parser.add_argument("--torch-step", nargs=3,
                        metavar=("MODEL", "AMP", "THREADS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.torch_step:
        model, amp, threads = args.torch_step
        print(torch_ms_per_step(model, amp, int(threads), args.steps))
        return
    cores = os.cpu_count()
    try:
        import torch
    except ImportError as e:
        torch, why = None, f"PyTorch columns skipped: {e}"
    if torch is not None:
        why = f"PyTorch {torch.__version__} eager"
    print(f"batch {BATCH}, Adam, {args.steps} steps, fastest of {args.runs} "
          f"runs; {why}; {cores} cores")
    print()
    counts = (1, cores)
    header = "| model | policy | mp state copied |"
    for threads in counts:
        header += (f" mp {threads} thread{'s' if threads > 1 else ''} | "
                   f"PyTorch | PyTorch / mp |")
    print(header)
    print("|---|---|---|" + "---|---|---|" * len(counts))
    reasons = set()
    for model in MODELS:
        for amp in POLICIES:
            policy = "fp32" if amp == "none" else amp
            cells = []
            reason = None if torch is None else \
                torch_autocast_type(torch, amp)[1]
            copied = None
            for threads in counts:
                # Alternating runs, the fastest of each side: the machine's
                # load shifts while a run takes seconds.
                ours, theirs = float("inf"), float("inf")
                for _ in range(args.runs):
                    ms, copied = mp_ms_per_step(args.mp_run, model, amp,
                                                args.steps, threads)
                    ours = min(ours, ms)
                    if torch is not None and not reason:
                        theirs = min(theirs, torch_in_child(
                            model, amp, threads, args.steps))
                if torch is None or reason:
                    cells += [f"{ours:.2f}", "n/a", "n/a"]
                    continue
                cells += [f"{ours:.2f}", f"{theirs:.2f}",
                          f"{theirs / ours:.2f}x"]
            print(f"| {model} | {policy} | {copied} B/step | " +
                  " | ".join(cells) + " |")
            if reason:
                reasons.add(f"{policy}: {reason}")
    print()
    for reason in sorted(reasons):
        print(f"n/a {reason}")
        print()
    print("| sgemm 1024^3 | mp ms | OpenBLAS ms | OpenBLAS / mp |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sgemm.mlir")
        with open(path, "w") as f:
            f.write(SGEMM)
        for threads in counts:
            ours = mp_time(args.mp_run, path, "sgemm", args.repeat, threads)
            theirs = openblas_sgemm(threads, args.repeat)
            print(f"| {threads} thread{'s' if threads > 1 else ''} | "
                  f"{ours * 1e3:.1f} | {theirs * 1e3:.1f} | "
                  f"{theirs / ours:.2f}x |")


if __name__ == "__main__":
    main()
