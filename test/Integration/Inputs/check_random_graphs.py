#!/usr/bin/env python3
"""Runs mp-amp-pipeline on random graphs and checks its guarantees.

For each seed: generate a graph (random_graph.py, or with --shapes
random_shapes.py: rectangular tensors of odd sizes), run mp-opt with the
pipeline followed by mp-test-amp-invariants (types of contractions, deny ops
and reductions; casts), and check that function signatures are unchanged.
Prints one line per failure and a closing 'N passed, N failed' line.

Usage: check_random_graphs.py --seeds A:B [--ops N] [--options 'policy=bf16']
                              [--layers] [--torch] [--shapes]
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import random_graph  # noqa: E402
import random_shapes  # noqa: E402
from tally import Tally  # noqa: E402

SIGNATURE = re.compile(r"^\s*func\.func (?:private )?@\w+\(.*$", re.M)


def run(args, text):
    return subprocess.run(["mp-opt"] + args, input=text, capture_output=True,
                          text=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="0:50")
    parser.add_argument("--ops", type=int, default=40)
    parser.add_argument("--options", default="policy=fp16")
    parser.add_argument("--layers", action="store_true")
    parser.add_argument("--torch", action="store_true")
    parser.add_argument("--shapes", action="store_true")
    args = parser.parse_args()
    first, last = (int(x) for x in args.seeds.split(":"))
    pipeline = (f"--pass-pipeline=builtin.module(mp-amp-pipeline{{{args.options}}},"
                "mp-test-amp-invariants)")
    tally = Tally()
    for seed in range(first, last):
        if args.shapes:
            graph = random_shapes.ShapeGen(seed).function(args.ops)
        else:
            graph = random_graph.Gen(seed, layers=args.layers,
                                     torch=args.torch).function(args.ops)
        reference = run([], graph)
        result = run([pipeline], graph)
        problem = None
        if reference.returncode != 0:
            problem = "generator produced invalid IR: " + reference.stderr.strip()
        elif result.returncode != 0:
            errors = [l for l in result.stderr.splitlines() if "error" in l]
            problem = "; ".join(errors[:3]) or result.stderr.strip()[-500:]
        elif SIGNATURE.findall(reference.stdout) != SIGNATURE.findall(result.stdout):
            problem = "function signatures changed"
        tally.record(problem is None, problem and
                     f"seed {seed} ({args.options}): {problem}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
