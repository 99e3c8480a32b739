"""Compares two training runs: the parameters they saved (DIR/argN.npy)
and the losses of their CSV logs, element-wise, within a relative
tolerance (0: bit-identical).

usage: compare_runs.py DIR_A LOG_A DIR_B LOG_B --rtol R
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


def worst(a, b):
    """The largest |a - b| / max(|a|, |b|), and whether all are equal."""
    a, b = a.astype(np.float64), b.astype(np.float64)
    scale = np.maximum(np.maximum(np.abs(a), np.abs(b)), 1e-30)
    return float(np.max(np.abs(a - b) / scale, initial=0.0))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir_a")
    parser.add_argument("log_a")
    parser.add_argument("dir_b")
    parser.add_argument("log_b")
    parser.add_argument("--rtol", type=float, required=True)
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
        rel = worst(a, b)
        within = a.shape == b.shape and rel <= args.rtol
        ok &= within
        print(f"{name}: max relative difference {rel:.3g} "
              f"(within {args.rtol:g}: {within})")
    la, lb = losses(args.log_a), losses(args.log_b)
    rel = worst(la, lb) if la.shape == lb.shape else float("inf")
    within = rel <= args.rtol
    ok &= within
    print(f"losses of {len(la)} steps: max relative difference {rel:.3g} "
          f"(within {args.rtol:g}: {within})")
    print(f"all within {args.rtol:g}: {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
