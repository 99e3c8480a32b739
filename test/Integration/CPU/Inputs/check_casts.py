#!/usr/bin/env python3
"""Bit-exact check of compiled f32 <-> f16/bf16 casts against NumPy.

* f16 -> f32 and bf16 -> f32: all 65536 bit patterns.
* f32 -> f16 and f32 -> bf16: 2^20 random bit patterns plus every special
  region: zeros, f32 and f16 subnormals, the f16 smallest normal and
  subnormal, +-65504 and its neighbours up to the overflow threshold, values
  halfway between representable results (ties to even), inf and NaNs.
References: NumPy's float16 conversions; bf16 by bit arithmetic (round to
nearest even on the upper 16 bits). NaN inputs must give NaN (payloads are
not compared). Prints one line per cast and 'N passed, N failed'.

Usage: check_casts.py CASTS.mlir
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
from tally import Tally  # noqa: E402


def f32_inputs():
    rng = np.random.default_rng(7)
    random_bits = rng.integers(0, 2**32, size=2**20, dtype=np.uint64).astype(np.uint32)
    specials = [0.0, -0.0, np.inf, -np.inf, 65504.0, -65504.0, 65519.996,
                65520.0, 65536.0, 2.0**-14, 2.0**-24, 2.0**-25, 2.0**-26,
                3 * 2.0**-26, 1.0 + 2.0**-11, 1.0 + 3 * 2.0**-11,
                1.0 + 2.0**-8, 1.0 + 3 * 2.0**-8, 3.0e38, 1.0e-40]
    values = np.array(specials, dtype=np.float32)
    # Neighbours of the f16 limits and of the bf16/f16 tie points.
    around = np.concatenate([
        np.arange(0x477fe000, 0x47800100, dtype=np.uint32),   # 65504 .. 65536
        np.arange(0x38800000 - 4096, 0x38800000 + 4096, dtype=np.uint32),  # 2^-14
        np.arange(0x33800000 - 4096, 0x33800000 + 4096, dtype=np.uint32),  # 2^-24
        np.arange(0x00000000, 0x00002000, dtype=np.uint32),   # f32 subnormals
        np.arange(0x3f800000, 0x3f820000, dtype=np.uint32),   # [1, 1.0156)
    ])
    nans = np.array([0x7fc00000, 0x7f800001, 0xffc00001, 0x7fffffff], dtype=np.uint32)
    bits = np.concatenate([random_bits, values.view(np.uint32), around, nans,
                           around | np.uint32(0x80000000)])
    return bits.view(np.float32)


def bf16_reference(x):
    """Round to nearest even on the upper 16 bits; NaN stays NaN (quiet)."""
    u = x.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    quiet_nan = ((u >> 16) | 0x40).astype(np.uint16)
    return np.where(np.isnan(x), quiet_nan, rounded)


def run(mlir, entry, array, tmp):
    path = os.path.join(tmp, "in.npy")
    np.save(path, array)
    out = os.path.join(tmp, entry)
    subprocess.run(["mp-run", mlir, "--entry", entry, "--inputs", path,
                    "--save-outputs", out], check=True, capture_output=True)
    return np.load(os.path.join(out, "out0.npy"))


def main():
    mlir = sys.argv[1]
    tally = Tally()
    all16 = np.arange(2**16, dtype=np.uint32).astype(np.uint16)
    x32 = f32_inputs()
    with tempfile.TemporaryDirectory() as tmp:
        cases = []
        # f16 -> f32
        got = run(mlir, "f16_to_f32", all16.view(np.float16), tmp)
        want = all16.view(np.float16).astype(np.float32)
        cases.append(("f16 -> f32", all16.size, got, want))
        # bf16 -> f32 (bf16 is written as its uint16 bits)
        got = run(mlir, "bf16_to_f32", all16, tmp)
        want = (all16.astype(np.uint32) << 16).view(np.float32)
        cases.append(("bf16 -> f32", all16.size, got, want))
        # f32 -> f16
        got = run(mlir, "f32_to_f16", x32, tmp)
        with np.errstate(over="ignore"):  # values past 65520 become inf
            want = x32.astype(np.float16)
        cases.append(("f32 -> f16", x32.size, got, want))
        # f32 -> bf16 (outputs come back as uint16 bits)
        got = run(mlir, "f32_to_bf16", x32, tmp)
        want = bf16_reference(x32)
        want_f = (want.astype(np.uint32) << 16).view(np.float32)
        got_f = (got.astype(np.uint32) << 16).view(np.float32)
        cases.append(("f32 -> bf16", x32.size, got_f, want_f))
        for name, count, got, want in cases:
            got_bits = got.view(np.uint32 if got.itemsize == 4 else np.uint16)
            want_bits = want.view(got_bits.dtype)
            both_nan = np.isnan(got.astype(np.float32)) & np.isnan(want.astype(np.float32))
            bad = np.nonzero((got_bits != want_bits) & ~both_nan)[0]
            ok = bad.size == 0
            detail = ""
            if not ok:
                i = bad[0]
                detail = (f"; first mismatch at #{i}: got {got[i]!r} "
                          f"({int(got_bits[i]):#x}), want {want[i]!r} "
                          f"({int(want_bits[i]):#x})")
            tally.record(ok, f"{name}: {count} values, {bad.size} mismatches"
                             f"{detail} {'ok' if ok else 'FAIL'}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
