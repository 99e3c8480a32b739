#!/usr/bin/env python3
"""Reads the summary lines of mp-run --train runs (the first is the
reference) and checks each reaches --min percent test accuracy and the
others stay within --max-gap percentage points of the first.

Usage: compare_accuracy.py REF.out RUN.out... --min PCT --max-gap PP
"""
import argparse
import re
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--min", type=float, required=True)
    parser.add_argument("--max-gap", type=float, required=True)
    args = parser.parse_args()
    results = []
    for path in args.runs:
        text = open(path).read()
        match = re.search(r"^(\S+): .*test accuracy ([0-9.]+)%", text, re.M)
        if not match:
            print(f"{path}: no summary line")
            return 1
        results.append((match.group(1), float(match.group(2))))
    ok = True
    ref_label, ref = results[0]
    for label, acc in results:
        learned = acc > args.min
        ok &= learned
        print(f"{label}: {acc:.2f}% (above {args.min}%: {learned})")
    for label, acc in results[1:]:
        close = abs(acc - ref) <= args.max_gap
        ok &= close
        print(f"{label} within {args.max_gap} pp of {ref_label}: {close} "
              f"({acc - ref:+.2f} pp)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
