#!/usr/bin/env python3
"""Checks the outputs of @gemms, @epilogues or @f32_gemms
(library_gemms.mlir) against
NumPy: each contraction computed in float64 from the saved inputs (f16 as
float16, bf16 as its uint16 bits). Prints one line per output and 'N
passed, N failed'; a relative difference (of the output's largest
magnitude) above --rtol fails, or for an f16 or bf16 output above half its
unit in the last place, 2^-11 or 2^-8 (plus --rtol).

Usage: check_gemms.py IN_DIR OUT_DIR [--entry gemms|epilogues|f32_gemms]
                      [--rtol R]
"""
import argparse
import os

import numpy as np


def load(directory, name):
    array = np.load(os.path.join(directory, name))
    if array.dtype == np.uint16:  # bf16 bits
        array = (array.astype(np.uint32) << 16).view(np.float32)
    return array.astype(np.float64)


def gemms(inputs):
    a, b, ba, bb, bt, at, one = (load(inputs, f"arg{i}.npy") for i in range(7))
    return {
        "plain": a @ b,
        "batched": ba @ bb,
        "a_bt": a @ bt.T,
        "at_b": at.T @ b,
        "tiny": one @ one,
    }


def epilogues(inputs):
    a, b, bias, bias16, ba, bb = (load(inputs, f"arg{i}.npy")
                                  for i in range(6))
    return {
        "bias": a @ b + bias,
        "bias_f16": a @ b + bias16,
        "cast_bf16": ba @ bb,
    }


def f32_gemms(inputs):
    a, bt, bias, ba, bb = (load(inputs, f"arg{i}.npy") for i in range(5))
    return {"a_bt_bias": a @ bt.T + bias, "batched": ba @ bb}


# The unit roundoff of each stored type: half the distance between 1 and
# the next number.
ROUNDING = {np.float16: 2.0**-11, np.uint16: 2.0**-8}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("inputs")
    parser.add_argument("outputs")
    parser.add_argument("--entry", choices=["gemms", "epilogues", "f32_gemms"],
                        default="gemms")
    parser.add_argument("--rtol", type=float, default=1e-6)
    args = parser.parse_args()
    expected = {"gemms": gemms, "epilogues": epilogues,
                "f32_gemms": f32_gemms}[args.entry](args.inputs)
    failed = 0
    for i, (name, want) in enumerate(expected.items()):
        path = os.path.join(args.outputs, f"out{i}.npy")
        stored = np.load(path).dtype.type
        got = load(args.outputs, f"out{i}.npy")
        if got.shape != want.shape:
            print(f"{name}: FAIL shape {got.shape} != {want.shape}")
            failed += 1
            continue
        error = np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30)
        ok = error <= args.rtol + ROUNDING.get(stored, 0)
        failed += not ok
        print(f"{name}: {'ok' if ok else 'FAIL'} {list(want.shape)} "
              f"relative error {error:.1e}")
    print(f"{len(expected) - failed} passed, {failed} failed")


if __name__ == "__main__":
    main()
