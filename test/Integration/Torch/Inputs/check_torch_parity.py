#!/usr/bin/env python3
"""Compares mp with PyTorch on a model exported by scripts/export-torch.py
(graph and initial parameters in DIR, examples/torch/NAME): the files
PyTorch saved next to this script (NAME/batch, NAME/torch) are the
reference.

  grads    mp-run runs @NAME_grad on the saved batch and initial weights
           (seed 1) in fp32, fp16 and bf16; loss and gradients are compared
           normwise, max|mp - torch| / max|torch|, per tensor. With GRAPH
           and TILE, of GRAPH (the model exported at TILE times the batch,
           bench/models) on TILE copies of the batch: the mean loss and its
           gradients are the batch's (the fp32 limit TILE times 1e-5: the
           gradients' f32 sums have TILE times the terms).
  sgd      mp-run --train with plain SGD (lr 0.1) for the saved number of
           steps on the first batches in file order; the losses and the
           final parameters against PyTorch's.
  scaler   mp-run --train in fp16 with inf seeds at the steps where PyTorch's
           GradScaler had inf injected; the scale and skipped columns must
           equal GradScaler's exactly.

Usage: check_torch_parity.py DIR NAME {grads,sgd,scaler} [GRAPH TILE]
"""
import csv
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
from tally import Tally  # noqa: E402

GOLDEN = os.path.dirname(os.path.abspath(__file__))
LIMITS = {"none": 1e-5, "fp16": 3e-2, "bf16": 1.5e-1}
INJECT = "5,6,20,33,34,35"


def relerr(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


def check_grads(d, name, tmp, tally, graph=None, tile="1"):
    n = len(glob.glob(os.path.join(d, "init", "arg*.npy")))
    seed = os.path.join(tmp, "seed.npy")
    np.save(seed, np.array(1.0, np.float32))
    inputs = [os.path.join(d, "init", f"arg{i}.npy") for i in range(n)]
    for part in ("x", "y"):
        batch = np.load(os.path.join(GOLDEN, name, "batch", f"{part}.npy"))
        inputs.append(os.path.join(tmp, f"{part}.npy"))
        np.save(inputs[-1], np.concatenate([batch] * int(tile)))
    inputs.append(seed)
    refs = ["loss"] + [f"grad{i}" for i in range(n)]
    for amp, limit in LIMITS.items():
        if amp == "none":
            limit *= int(tile)
        out = os.path.join(tmp, amp)
        subprocess.run(["mp-run", graph or os.path.join(d, f"{name}_grad.mlir"), "--entry",
                        f"{name}_grad", "--amp", amp, "--inputs", ",".join(inputs),
                        "--save-outputs", out], check=True, capture_output=True)
        errs = [relerr(np.load(os.path.join(out, f"out{i}.npy")),
                       np.load(os.path.join(GOLDEN, name, "torch", f"{ref}.npy")))
                for i, ref in enumerate(refs)]
        label = "fp32" if amp == "none" else amp
        tally.record(max(errs) <= limit,
                     f"{name} {label}{' x' + tile if graph else ''}: loss {errs[0]:.1e}, gradients max "
                     f"{max(errs[1:]):.1e} (limit {limit:g})")


def train(d, name, tmp, extra):
    log = os.path.join(tmp, "run.csv")
    subprocess.run(["mp-run", "--train", os.path.join(d, f"{name}_grad.mlir"),
                    "--init", os.path.join(d, "init"), "--no-shuffle",
                    "--test-limit", "64", "--log", log] + extra,
                   check=True, capture_output=True)
    return list(csv.DictReader(open(log)))


def check_sgd(d, name, tmp, tally):
    want_loss = np.load(os.path.join(GOLDEN, name, "torch", "sgd_loss.npy"))
    params = os.path.join(tmp, "params")
    rows = train(d, name, tmp, ["--amp", "none", "--optimizer", "sgd", "--lr", "0.1",
                                "--max-steps", str(len(want_loss)),
                                "--save-params", params])
    loss = np.array([float(r["loss"]) for r in rows], np.float32)
    loss_err = relerr(loss, want_loss)
    param_err = max(relerr(np.load(p), np.load(os.path.join(GOLDEN, name, "torch", "sgd_" + os.path.basename(p))))
        for p in glob.glob(os.path.join(params, "arg*.npy")))
    tally.record(loss_err <= 1e-5 and param_err <= 1e-5,
                 f"{name} sgd x{len(want_loss)}: losses {loss_err:.1e}, "
                 f"parameters {param_err:.1e} (limit 1e-05)")


def check_scaler(d, name, tmp, tally):
    want = list(csv.DictReader(open(os.path.join(GOLDEN, name, "torch", "gradscaler.csv"))))
    rows = train(d, name, tmp, ["--amp", "fp16", "--growth-interval", "10",
                                "--max-steps", str(len(want)),
                                "--inject-overflow", INJECT])
    got = [(float(r["scale"]), r["skipped"]) for r in rows]
    ref = [(float(r["scale"]), r["skipped"]) for r in want]
    first = next((i for i, (a, b) in enumerate(zip(got, ref)) if a != b), None)
    tally.record(got == ref,
                 f"{name} fp16 scale and skips over {len(ref)} steps equal "
                 f"GradScaler's: {got == ref}"
                 + (f" (step {first + 1}: {got[first]} vs {ref[first]})"
                    if first is not None else "")
                 + f", final scale {got[-1][0]:g}")


def main():
    d, name, what = sys.argv[1:4]
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        {"grads": check_grads, "sgd": check_sgd, "scaler": check_scaler}[what](
            d, name, tmp, tally, *sys.argv[4:6])
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
