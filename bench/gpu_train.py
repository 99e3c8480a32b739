#!/usr/bin/env python3
"""Training steps per second on an NVIDIA GPU: mp (a training step compiled
by mp-run --backend cuda, run by mp-exec --train) against PyTorch eager with
its own AMP (autocast, and GradScaler for fp16) on the same models
(examples/torch/models.py), batch 64 or 256 (--batch: the bundle's steps
of bench/models), Adam, Fashion-MNIST; and the peak
device memory of each: PyTorch's max_memory_allocated beyond the data set
it keeps on the device, mp's pool peak (mp_cuda_memory: its buffers, in
the pool's size classes, staged batches included), with mp's mixed
precision runs against its fastest fp32 run (its generated step, or at
batch 256 the one whose contractions run on cuBLASLt's f32 kernels, a
row of its own).

Runs on the GPU machine from a bundle of test/Device/bundle.py (which copies
this script, the models and the data set into it); needs torch and numpy,
not MLIR. Prints a Markdown table; ratios are mp / PyTorch, measured in one
run.

Usage: gpu_train.py BUNDLE [--steps N] [--batch 64|256]
"""
import argparse
import gzip
import math
import os
import subprocess
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from models import MODELS, train_step  # noqa: E402

# The training images of the bundle's cut of Fashion-MNIST.
IMAGES = 16384


def load_images(bundle):
    with gzip.open(os.path.join(bundle, "data",
                                "train-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16)
    with gzip.open(os.path.join(bundle, "data",
                                "train-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)
    x = torch.tensor(images.reshape(-1, 1, 28, 28) / 255.0,
                     dtype=torch.float32)
    return x, torch.tensor(labels, dtype=torch.int64)


def torch_steps_per_second(model_name, amp, x, y, steps, batch):
    """Steps per second and peak MiB beyond the data set."""
    x, y = x.cuda(), y.cuda()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    torch.manual_seed(0)
    model = MODELS[model_name]().cuda()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(amp)
    scaler = torch.amp.GradScaler("cuda", enabled=amp == "fp16")

    def step(i):
        train_step(model, opt, x, y, i, batch, "cuda", dtype, scaler)

    for i in range(10):  # warm-up
        step(i)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for i in range(steps):
        step(i)
    torch.cuda.synchronize()
    rate = steps / (time.perf_counter() - start)
    return rate, (torch.cuda.max_memory_allocated() - base) / 2**20


def mp_steps_per_second(bundle, case, model_name, steps, batch):
    """Steps per second, peak MiB of the pool and the GPU time per step
    ("0.412 ms (87%)": its share of the wall time; empty if not printed), or
    None (and the reason on stderr) when mp-exec fails: the other rows
    still get measured."""
    d = os.path.join(bundle, "train", case)
    cmd = [os.path.join(bundle, "bin", "mp-exec"), f"{d}/cuda.so", "--train",
           "--entry", f"{model_name}_grad", "--backend", "cuda",
           "--max-steps", str(steps), "--test-limit", "64",
           "--epochs", str(math.ceil(steps * batch / IMAGES))]
    env = dict(os.environ, MP_DATASET_DIR=os.path.join(bundle, "data"))
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=300)
    except subprocess.TimeoutExpired:
        print(f"gpu_train.py: {' '.join(cmd)}: no answer after 300 s",
              file=sys.stderr)
        return None
    if done.returncode != 0:
        print(f"gpu_train.py: {' '.join(cmd)}: {done.stderr[-400:]}",
              file=sys.stderr)
        return None
    rate = float(done.stdout.split(" steps/s")[0].split(", ")[-1])
    peak = float(done.stdout.split("device memory peak ")[1].split(" MiB")[0])
    gpu = ""
    if "GPU time " in done.stdout:
        time_part = done.stdout.split("GPU time ")[1]
        gpu = (time_part.split(" ms/step")[0] + " ms (" +
               time_part.split("(")[1].split(" of")[0] + ")")
    return rate, peak, gpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch", type=int, choices=(64, 256), default=64)
    args = parser.parse_args()
    x, y = load_images(args.bundle)
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"batch {args.batch}, Adam, {args.steps} steps")
    print("| model | policy | PyTorch steps/s | mp steps/s | mp / PyTorch "
          "| mp speed vs fp32 | mp GPU time/step (busy) | PyTorch peak MiB "
          "| mp peak MiB | mp memory vs fp32 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    # Batch 64: the examples' steps; 256: bench/models'. Per model the fp32
    # steps first: generated, then where the bundle has it with the
    # contractions on cuBLASLt's f32 kernels (batch 256).
    plain = "" if args.batch == 64 else f"-b{args.batch}"
    has = lambda m, amp, suffix: os.path.isdir(  # noqa: E731
        os.path.join(args.bundle, "train", f"{m}-{amp}{suffix}"))
    cases = []
    for m in ("mlp", "cnn", "transformer"):
        cases.append((m, "none", plain))
        if has(m, "none", "-library" + plain):
            cases.append((m, "none", "-library" + plain))
        cases += [(m, amp, plain) for amp in ("fp16", "bf16")]
    # The library path of the batch-64 steps where the bundle has it (cuDNN
    # and cuBLASLt calls).
    cases += [(m, amp, "-library") for m, amp, _ in list(cases)
              if args.batch == 64 and has(m, amp, "-library")]
    # Per model: mp's fastest fp32 step (generated or on cuBLASLt): steps/s
    # and peak MiB, what "vs fp32" compares with.
    fp32 = {}
    for model_name, amp, suffix in cases:
        mp = mp_steps_per_second(args.bundle, f"{model_name}-{amp}{suffix}",
                                 model_name, args.steps, args.batch)
        theirs, their_peak = torch_steps_per_second(model_name, amp, x, y,
                                                    args.steps, args.batch)
        policy = ("fp32" if amp == "none" else amp) + (
            " (cuDNN, cuBLASLt)" if suffix == "-library" else
            " (cuBLASLt)" if suffix.startswith("-library") else "")
        if mp is None:
            print(f"| {model_name} | {policy} | {theirs:.0f} | failed | | | | "
                  f"{their_peak:.1f} | | |")
            continue
        ours, our_peak, gpu = mp
        if amp == "none" and (model_name not in fp32 or
                              ours > fp32[model_name][0]):
            fp32[model_name] = mp
        fp32_rate, fp32_peak, _ = fp32[model_name]
        print(f"| {model_name} | {policy} | {theirs:.0f} | {ours:.1f} | "
              f"{ours / theirs:.3f}x | {ours / fp32_rate:.2f}x | {gpu} | "
              f"{their_peak:.1f} | {our_peak:.1f} "
              f"| {our_peak / fp32_peak:.2f}x |")


if __name__ == "__main__":
    main()
