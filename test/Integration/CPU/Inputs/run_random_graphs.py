#!/usr/bin/env python3
"""Compiles and runs random graphs (random_graph.py --no-calls) with mp-run,
fp32 and mixed, and checks that every run succeeds: no compiler error, no
crash, outputs of the declared types. Prints 'N passed, N failed'.

Usage: run_random_graphs.py --seeds A:B [--amp fp16]
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
import random_graph  # noqa: E402
from tally import Tally  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="0:20")
    parser.add_argument("--amp", default="fp16")
    args = parser.parse_args()
    first, last = (int(x) for x in args.seeds.split(":"))
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, last):
            path = os.path.join(tmp, f"g{seed}.mlir")
            with open(path, "w") as f:
                f.write(random_graph.Gen(seed, calls=False).function(30))
            run = subprocess.run(
                ["mp-run", path, "--entry", "random", "--random-inputs",
                 "--seed", str(seed), "--amp", args.amp, "--compare-fp32"],
                capture_output=True, text=True)
            ok = run.returncode == 0 and "out2   f32[8]" in run.stdout
            tally.record(ok, None if ok else
                         f"seed {seed}: exit {run.returncode}: "
                         f"{run.stderr.strip()[-300:]}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
