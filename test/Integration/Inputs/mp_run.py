"""Runs one entry of a graph with mp-run on NumPy arrays, for the test
scripts."""
import os
import subprocess

import numpy as np


def run_entry(mlir, entry, args, tmp, amp="none"):
    """Saves `args` as .npy under `tmp`, runs `entry` of `mlir` with mp-run
    and returns its outputs as arrays."""
    paths = []
    for i, a in enumerate(args):
        paths.append(os.path.join(tmp, f"in{i}.npy"))
        np.save(paths[-1], a)
    out = os.path.join(tmp, "out")
    subprocess.run(["mp-run", mlir, "--entry", entry, "--amp", amp, "--inputs",
                    ",".join(paths), "--save-outputs", out], check=True,
                   capture_output=True)
    results = []
    while os.path.exists(os.path.join(out, f"out{len(results)}.npy")):
        results.append(np.load(os.path.join(out, f"out{len(results)}.npy")))
    return results
