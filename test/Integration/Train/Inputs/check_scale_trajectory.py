#!/usr/bin/env python3
"""Checks an mp-run --train CSV against PyTorch GradScaler's update rule
(REFERENCE.md), replayed on the steps the run reports as skipped, and checks
that the skipped steps are exactly the injected ones (plus any natural
overflow, reported separately). With --hysteresis H, Megatron-LM's rule.

Usage: check_scale_trajectory.py RUN.csv --init S --interval N
                                 --inject 3,4 [--hysteresis H]
"""
import argparse
import csv
import math
import sys


def replay(skips, init, interval, hysteresis):
    """The scale after each step under the GradScaler (hysteresis 1) or
    Megatron-LM rule, float32 products of powers of two being exact."""
    scale, tracker, h = init, 0, hysteresis
    out = []
    for skipped in skips:
        if skipped:
            tracker = 0
            h -= 1
            if h <= 0:
                scale *= 0.5
        else:
            tracker += 1
            if tracker == interval:
                tracker = 0
                h = hysteresis
                scale *= 2.0
        out.append(scale)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv")
    parser.add_argument("--init", type=float, required=True)
    parser.add_argument("--interval", type=int, required=True)
    parser.add_argument("--inject", required=True)
    parser.add_argument("--hysteresis", type=int, default=1)
    args = parser.parse_args()
    rows = list(csv.DictReader(open(args.csv)))
    skips = [row["skipped"] == "1" for row in rows]
    scales = [float(row["scale"]) for row in rows]
    injected = {int(s) for s in args.inject.split(",")}
    skipped_steps = {i + 1 for i, s in enumerate(skips) if s}
    natural = sorted(skipped_steps - injected)
    missed = sorted(injected - skipped_steps)
    want = replay(skips, args.init, args.interval, args.hysteresis)
    bad = [i + 1 for i, (a, b) in enumerate(zip(scales, want)) if a != b]
    finite = all(math.isfinite(s) and s > 0 for s in scales)
    print(f"steps {len(rows)}, skipped {sorted(skipped_steps)}, "
          f"natural overflows {natural}, injected but not skipped {missed}")
    print(f"scale trajectory matches the rule: {not bad}"
          + (f" (first mismatch at step {bad[0]}: {scales[bad[0] - 1]} vs "
             f"{want[bad[0] - 1]})" if bad else ""))
    print(f"final scale {scales[-1]:g}, always positive and finite: {finite}")
    return 0 if not bad and not missed and finite else 1


if __name__ == "__main__":
    sys.exit(main())
