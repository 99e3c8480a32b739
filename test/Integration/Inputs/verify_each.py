#!/usr/bin/env python3
"""Runs every mp pass and pipeline on every .mlir file of the repository
(split at '// -----') and checks that none emits IR that fails
verification or crashes: a pass either succeeds with valid IR or fails with
its own diagnostic.

Each run uses --verify-each=false so an invalid output is printed (in the
generic form) instead of being caught; the output is then parsed and
verified again by a plain mp-opt.

Usage: verify_each.py ROOT
"""
import concurrent.futures
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import Tally  # noqa: E402

PASSES = [
    "mp-classify-precision", "mp-insert-casts", "mp-optimize-casts",
    "mp-verify-training-contract", "mp-loss-scaling", "mp-make-train-step",
    "mp-make-train-step=accumulate=2", "convert-mp-to-standard",
    "mp-decompose-aggregates", "mp-split-convolution-phases",
    "mp-pack-bf16-contractions",
    "mp-widen-contraction-operands",
    "mp-conv-to-gemm", "mp-flatten-elementwise", "mp-distribute-loops",
    "mp-fuse-elementwise",
    "mp-protect-arguments", "mp-update-state-in-place",
    "mp-return-state-in-place", "mp-vectorize-contractions",
    "mp-vectorize-gathers", "mp-vectorize-reductions",
    "mp-strided-copies-to-linalg", "mp-amp-pipeline",
    "mp-amp-pipeline=policy=bf16 level=unsafe-force-all",
    "mp-train-pipeline", "mp-lower-to-cpu", "mp-lower-to-cpu=bf16-dot=true",
]


def run(args, stdin):
    return subprocess.run(["mp-opt"] + args, input=stdin, capture_output=True,
                          text=True, timeout=120)


def check(chunk, name, flag):
    """None if fine, else why not."""
    out = run(["--verify-each=false", "--mlir-print-op-generic",
               f"--{flag}", "-"], chunk)
    if out.returncode < 0 or out.returncode >= 128 or "Stack dump" in out.stderr:
        return f"{name}: --{flag} crashed:\n{out.stderr[-2000:]}"
    if out.returncode != 0:
        return None  # refused the input with a diagnostic
    again = run(["-"], out.stdout)
    if again.returncode != 0:
        return f"{name}: --{flag} emitted invalid IR:\n{again.stderr[-2000:]}"
    return None


def main():
    root = sys.argv[1]
    files = sorted(glob.glob(os.path.join(root, "test", "**", "*.mlir"),
                             recursive=True)
                   + glob.glob(os.path.join(root, "examples", "**", "*.mlir"),
                               recursive=True))
    jobs = []
    for path in files:
        text = open(path).read()
        for i, chunk in enumerate(text.split("// -----")):
            # Inputs that do not parse and verify are the parser's tests.
            if run(["-"], chunk).returncode != 0:
                continue
            name = f"{os.path.relpath(path, root)}#{i}"
            jobs += [(chunk, name, flag) for flag in PASSES]
    tally = Tally()
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for why in pool.map(lambda job: check(*job), jobs):
            tally.record(why is None, why)
    print(f"{len(jobs)} runs of {len(PASSES)} passes")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
