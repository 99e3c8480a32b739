#!/usr/bin/env python3
"""Benchmark: data-parallel training over MPI on this machine's cores.

Trains each example model for a fixed number of steps with 1, 2 (and more,
--ranks) ranks under `mpirun --oversubscribe`, each rank on the graph's
batch (weak scaling: the global batch grows with the ranks), and reports
steps/s and samples/s as mp-run's summary line gives them (the loop alone,
compilation excluded), and the speedup in samples/s over 1 rank, measured in
one run. mp's CPU code is single-threaded, so on N idle cores N ranks can
reach up to N x the samples/s of one; the all-reduces of gradients, loss and
overflow flag cost the rest.

Usage: bench/distributed_scaling.py [--mp-run build/bin/mp-run]
       [--ranks 1,2] [--steps 600] [--amp fp16]
(needs Open MPI's mpirun and Fashion-MNIST; scripts/install-deps.sh installs
both)
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = [("MLP", "examples/torch/mlp/mlp_grad.mlir", 1.0),
          ("CNN", "examples/torch/cnn/cnn_grad.mlir", 0.25),
          ("transformer", "examples/torch/transformer/transformer_grad.mlir",
           0.5)]


def batch_of(path):
    """The leading size of the graph's first mp.input (its batch)."""
    text = open(path).read()
    match = re.search(r"tensor<(\d+)x[^>]*>\s*\{mp\.input", text)
    return int(match.group(1)) if match else 0


def run(mp_run, model, ranks, steps, amp):
    command = [mp_run, "--train", os.path.join(ROOT, model), "--amp", amp,
               "--optimizer", "adam", "--backend", "cpu", "--max-steps",
               str(steps), "--test-limit", "64"]
    if ranks > 1:
        command = [shutil.which("mpirun"), "--oversubscribe", "-np",
                   str(ranks)] + command
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none")
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    match = re.search(r"([0-9.]+) steps/s", out.stdout)
    if out.returncode or not match:
        sys.exit(f"error: {' '.join(command)} failed:\n{out.stderr}")
    return float(match.group(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mp-run", default=os.path.join(ROOT, "build", "bin",
                                                         "mp-run"))
    parser.add_argument("--ranks", default="1,2")
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--amp", default="fp16")
    args = parser.parse_args()
    if not shutil.which("mpirun"):
        sys.exit("error: no mpirun (install openmpi-bin)")
    ranks = [int(r) for r in args.ranks.split(",")]
    print(f"{os.cpu_count()} cores, --amp {args.amp}, Adam, batch per rank "
          f"as the graph's\n")
    print("| model | batch/rank | ranks | steps/s | samples/s | "
          "speedup (samples/s) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, model, share in MODELS:
        batch = batch_of(os.path.join(ROOT, model))
        steps = max(20, int(args.steps * share))
        base = None
        for n in ranks:
            rate = run(args.mp_run, model, n, steps, args.amp)
            samples = rate * batch * n
            base = base or samples
            print(f"| {name} | {batch} | {n} | {rate:.1f} | {samples:.0f} | "
                  f"{samples / base:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
