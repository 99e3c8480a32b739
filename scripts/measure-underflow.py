#!/usr/bin/env python3
"""Measures fp16 gradient underflow: for an exported model (default
examples/torch/mlp) and its saved batch, runs the gradient function in fp32
and in fp16 with and without a static loss scale of 2^16, each seeded with a
loss weight W (gradients of W * loss), and prints, per W, the share of
gradient values that are non-zero in fp32 but flush to zero in fp16, and the
normwise error against fp32. Needs mp-opt and mp-run on PATH (or --bin).

Usage: measure-underflow.py [--model DIR NAME] [--bin build/bin]
"""
import argparse
import glob
import os
import subprocess
import tempfile

import numpy as np

WEIGHTS = [0, -8, -14, -17, -20]  # log2 of the loss weight


def run(bin_dir, graph, name, inputs, out, amp="none"):
    subprocess.run([os.path.join(bin_dir, "mp-run"), graph, "--entry", f"{name}_grad",
                    "--backend", "cpu", "--amp", amp, "--inputs", ",".join(inputs),
                    "--save-outputs", out], check=True, capture_output=True)


def grads(out, n):
    return [np.load(os.path.join(out, f"out{i}.npy")) for i in range(1, 1 + n)]


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", nargs=2, metavar=("DIR", "NAME"),
                        default=[os.path.join(root, "examples", "torch", "mlp"), "mlp"])
    parser.add_argument("--bin", default=os.path.join(root, "build", "bin"))
    args = parser.parse_args()
    d, name = args.model
    # The batch PyTorch's reference data was computed on.
    batch = os.path.join(root, "test", "Integration", "Torch", "Inputs", name,
                         "batch")
    graph = os.path.join(d, f"{name}_grad.mlir")
    n = len(glob.glob(os.path.join(d, "init", "arg*.npy")))
    with tempfile.TemporaryDirectory() as tmp:
        scaled = os.path.join(tmp, "scaled.mlir")
        subprocess.run([os.path.join(args.bin, "mp-opt"), graph,
                        "--mp-amp-pipeline=policy=fp16",
                        "--mp-loss-scaling=mode=static static-scale=65536", "-o", scaled],
                       check=True)
        print(f"fp16 gradient underflow, {name} (examples/torch), saved batch")
        print("| loss weight | non-zero fp32 values | zero in fp16, unscaled | "
              "zero in fp16, scale 2^16 | error unscaled | error scaled |")
        print("| --- | --- | --- | --- | --- | --- |")
        for k in WEIGHTS:
            seed = os.path.join(tmp, "seed.npy")
            np.save(seed, np.array(2.0 ** k, np.float32))
            inputs = [os.path.join(d, "init", f"arg{i}.npy") for i in range(n)]
            inputs += [os.path.join(batch, "x.npy"),
                       os.path.join(batch, "y.npy"), seed]
            outs = {}
            for label, g, amp in (("fp32", graph, "none"), ("fp16", graph, "fp16"),
                                  ("scaled", scaled, "none")):
                outs[label] = os.path.join(tmp, label)
                run(args.bin, g, name, inputs, outs[label], amp)
            ref = np.concatenate([g.ravel() for g in grads(outs["fp32"], n)])
            nonzero = ref != 0
            row = [f"2^{k}", f"{nonzero.sum()}"]
            errs = []
            for label in ("fp16", "scaled"):
                got = np.concatenate([g.ravel() for g in grads(outs[label], n)])
                flushed = np.logical_and(nonzero, got == 0).sum()
                row.append(f"{100 * flushed / nonzero.sum():.2f}%")
                errs.append(float(np.max(np.abs(got - ref)) / np.max(np.abs(ref))))
            row += [f"{e:.1e}" for e in errs]
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
