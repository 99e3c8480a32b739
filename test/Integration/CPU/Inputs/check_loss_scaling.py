#!/usr/bin/env python3
"""Runs the compiled loss-scaling step on chosen cases and compares with
PyTorch GradScaler's rule written out in NumPy (float32 arithmetic):
unscaled = g * (1 / scale); found_inf = any(!isfinite(g)); on overflow
scale *= 0.5, tracker = 0; else tracker += 1 and, at the interval, scale *= 2
(if finite), tracker = 0; then clamp to [min, max]. Prints one line per case
and 'N passed, N failed'.

Usage: check_loss_scaling.py LOSS_SCALING.mlir
"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
from mp_run import run_entry  # noqa: E402
from tally import Tally  # noqa: E402

INTERVAL, MIN_SCALE, MAX_SCALE = 3, 1.0, 2.0 ** 24


def reference(scale, tracker, g, h, seed):
    inv = np.float32(1.0) / np.float32(scale)
    ug = g.astype(np.float32) * inv
    uh = h * inv
    found = not (np.isfinite(g.astype(np.float32)).all() and np.isfinite(h).all())
    if found:
        new_scale, new_tracker = np.float32(scale) * np.float32(0.5), 0
    else:
        new_tracker = tracker + 1
        new_scale = np.float32(scale)
        if new_tracker >= INTERVAL:
            grown = np.float32(scale) * np.float32(2.0)
            if np.isfinite(grown):
                new_scale = grown
            new_tracker = 0
    new_scale = np.float32(min(max(new_scale, MIN_SCALE), MAX_SCALE))
    return [ug, uh, np.array(found), np.float32(new_scale),
            np.int32(new_tracker), np.float32(seed) * np.float32(scale)]


def main():
    mlir = sys.argv[1]
    rng = np.random.default_rng(0)
    h0 = rng.uniform(-4, 4, (2, 3)).astype(np.float32)
    g0 = rng.uniform(-4, 4, 5).astype(np.float16)
    cases = {
        "clean step": (65536.0, 0, g0, h0),
        "growth at the interval": (65536.0, 2, g0, h0),
        "inf in an f32 gradient": (65536.0, 2, g0, np.where(h0 > 0, np.inf, h0).astype(np.float32)),
        "NaN in an f16 gradient": (1024.0, 1, np.array([1, np.nan, 2, 3, 4], np.float16), h0),
        "backoff stops at min_scale": (1.0, 0, np.array([np.inf] * 5, np.float16), h0),
        "growth stops at max_scale": (2.0 ** 24, 2, g0, h0),
    }
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        for name, (scale, tracker, g, h) in cases.items():
            seed = np.float32(1.0)
            inputs = [np.array(scale, np.float32), np.array(tracker, np.int32), g, h,
                      np.array(seed)]
            got = run_entry(mlir, "step", inputs, tmp)
            want = reference(scale, tracker, g, h, seed)
            same = all(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)
                       for a, b in zip(got, want))
            verdict = "ok" if same else (
                f"FAIL (want scale {want[3]} tracker {want[4]} "
                f"found_inf {bool(want[2])})")
            tally.record(same, f"{name}: scale {got[3]} tracker {got[4]} "
                               f"found_inf {bool(got[2])} {verdict}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
