"""Compares two training runs: the parameters they saved (DIR/argN.npy)
and the losses of their CSV logs, element-wise: |a - b| <= atol + rtol *
max(|a|, |b|) (both 0: bit-identical).

usage: compare_runs.py DIR_A LOG_A DIR_B LOG_B --rtol R [--atol A]
"""
import argparse
import csv
import os
import sys

import numpy as np


def losses(path):
    """The loss column of an mp-run --log CSV (with or without its header)."""
    with open(path) as f:
        rows = [row for row in csv.reader(f) if row and row[0] != "step"]
    return np.array([float(row[2]) for row in rows], dtype=np.float64)


def compare(a, b, rtol, atol):
    """The largest |a - b|, and whether every element is within the
    tolerance."""
    if a.shape != b.shape:
        return float("inf"), False
    a, b = a.astype(np.float64), b.astype(np.float64)
    diff = np.abs(a - b)
    bound = atol + rtol * np.maximum(np.abs(a), np.abs(b))
    return float(np.max(diff, initial=0.0)), bool(np.all(diff <= bound))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir_a")
    parser.add_argument("log_a")
    parser.add_argument("dir_b")
    parser.add_argument("log_b")
    parser.add_argument("--rtol", type=float, required=True)
    parser.add_argument("--atol", type=float, default=0.0)
    args = parser.parse_args()
    names = sorted(n for n in os.listdir(args.dir_a) if n.endswith(".npy"))
    if not names or names != sorted(
            n for n in os.listdir(args.dir_b) if n.endswith(".npy")):
        print("error: the runs saved different parameters")
        return 1
    ok = True
    for name in names:
        a = np.load(os.path.join(args.dir_a, name))
        b = np.load(os.path.join(args.dir_b, name))
        diff, within = compare(a, b, args.rtol, args.atol)
        ok &= within
        print(f"{name}: max difference {diff:.3g} (within: {within})")
    la, lb = losses(args.log_a), losses(args.log_b)
    diff, within = compare(la, lb, args.rtol, args.atol)
    ok &= within
    print(f"losses of {len(la)} steps: max difference {diff:.3g} "
          f"(within: {within})")
    print(f"all within rtol {args.rtol:g}, atol {args.atol:g}: {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
