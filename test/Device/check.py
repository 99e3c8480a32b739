#!/usr/bin/env python3
"""Runs a bundle made by bundle.py: each case's CUDA module with mp-exec
--backend cuda (and its CPU module with --backend cpu), compared with the CPU
backend's outputs that the bundle holds. Needs numpy and a GPU; no MLIR.

The GPU multiplies the same f16/bf16 (or f32) values as the CPU backend but
accumulates in a different order (mma.sync tiles, no FMA contraction
guarantees), so outputs differ by rounding; a difference beyond the policy's
TOLERANCE of the output's largest magnitude is a failure. Then each training step trains
--steps steps on both backends from the same initial parameters and batches
(with fp16, an overflow injected at step 3): the skipped steps and the
loss scales must be the same, the losses' means over windows of 20 steps
agree within the policy's LOSS_TOLERANCE, and the test accuracies within 2
points. For fp16 the GPU's
parameters after step 3 (skipped) must equal those after step 2 bit for
bit. Where compute-sanitizer is found (PATH, /usr/local/cuda/bin), one
training step of each fp16 case runs under its memcheck and racecheck
tools, which must report 0 errors, and so does each graph case of a GEMM
whose K loop has no barrier after its cp.async copies (SANITIZED). Cases
compiled with --gpu-wgmma (name
ending in -wgmma, or -wgmma2 and -wgmma-n128 for blocks of two
warpgroups) run wgmma on sm_90a GPUs and mma.sync on the others; the
-wgmma2, -wgmma-n128 and -tile128 (128 x 128 on mma.sync) cases launch
kernels with dynamic shared memory.
Prints one line per case and 'N passed, N failed'; --repeat N also times
both backends.

Usage: check.py BUNDLE [--repeat N] [--steps N] [--only REGEX]
  (--only: the cases whose names REGEX finds, such as 'stages|w64')
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import numpy as np

# fp32: 1e-5 of the output's largest magnitude, as issue 12 asks (the
# largest on an H200 was 9.7e-6, mlp_grad's on cuBLASLt's f32 kernels).
TOLERANCE = {"none": 1e-5, "fp16": 2e-3, "bf16": 1.6e-2}
# Losses drift apart over the steps as rounding differences feed back: a
# batch's loss may differ by several percent after 100 steps of mixed
# precision (another order of accumulation on each side), so the losses
# must agree as means over windows of WINDOW steps; the largest difference
# of one step is printed too.
WINDOW = 20
LOSS_TOLERANCE = {"none": 1e-4, "fp16": 2e-2, "bf16": 3e-2}
TIMEOUT = 120  # seconds for one mp-exec run
# Graph cases run under compute-sanitizer's memcheck and racecheck too
# (where it is found): GEMMs whose K loop has no barrier between the
# cp.async copies of later steps and the warps' reads of this one's panels.
SANITIZED = ("f16_operands", "split_k_64")


def exec_case(bundle, case, entry, backend, nargs, out, repeat, tool=()):
    """Runs a graph case with mp-exec (under the command `tool`, if given);
    its stdout and stderr, or RuntimeError."""
    d = os.path.join(bundle, "cases", case)
    inputs = ",".join(f"{d}/in/arg{i}.npy" for i in range(nargs))
    cmd = list(tool) + [
        os.path.join(bundle, "bin", "mp-exec"), f"{d}/{backend}.so",
        "--entry", entry, "--backend", backend, "--inputs", inputs,
        "--save-outputs", out]
    if repeat:
        cmd += ["--repeat", str(repeat)]
    done = run_bounded(cmd, timeout=TIMEOUT * (3 if tool else 1))
    return done.stdout, done.stderr


def run_bounded(cmd, env=None, timeout=TIMEOUT):
    """Runs `cmd`; its result, or RuntimeError when it fails or outlasts
    `timeout` seconds (a hang must not eat the machine's time)."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"no answer after {timeout} s: {' '.join(cmd)}")
    if done.returncode != 0:
        raise RuntimeError((done.stderr + done.stdout).strip()[-400:])
    return done


def compare(ref_dir, out_dir):
    """Largest difference over all outputs, relative to each output's
    largest magnitude, and the number of outputs."""
    worst, count = 0.0, 0
    for name in sorted(os.listdir(ref_dir)):
        ref = np.atleast_1d(np.load(os.path.join(ref_dir, name))).astype(
            np.float64)
        got = np.atleast_1d(np.load(os.path.join(out_dir, name))).astype(
            np.float64)
        if ref.shape != got.shape:
            return float("inf"), count
        scale = max(float(np.max(np.abs(ref))) if ref.size else 0.0, 1e-30)
        diff = np.abs(got - ref)
        if not np.all(np.isfinite(got) == np.isfinite(ref)):
            return float("inf"), count
        diff[~np.isfinite(ref)] = 0
        worst = max(worst, float(np.max(diff)) / scale if ref.size else 0.0)
        count += 1
    return worst, count


def run_training(bundle, case, entry, backend, steps, extra=(), tool=(),
                 test_limit=2000):
    """Trains `case` on `backend` for `steps` steps with mp-exec (under the
    command `tool`, if given) and tests it on `test_limit` images; its
    stdout and stderr, or RuntimeError."""
    d = os.path.join(bundle, "train", case)
    cmd = list(tool) + [
        os.path.join(bundle, "bin", "mp-exec"), f"{d}/{backend}.so",
        "--train", "--entry", entry, "--backend", backend, "--max-steps",
        str(steps), "--test-limit", str(test_limit), "--seed", "1"] + list(
            extra)
    if "-fp16" in case and steps >= 3:
        cmd += ["--inject-overflow", "3"]  # dynamic scaling skips the step
    env = dict(os.environ, MP_DATASET_DIR=os.path.join(bundle, "data"))
    done = run_bounded(cmd, env, timeout=TIMEOUT * (3 if tool else 1))
    return done.stdout, done.stderr


def train_case(bundle, case, entry, backend, steps):
    """The CSV log rows and the summary line of a training run."""
    log = os.path.join(bundle, "train", case, f"log-{backend}.csv")
    out, _ = run_training(bundle, case, entry, backend, steps,
                          ["--log", log])
    with open(log) as f:
        rows = [line.strip().split(",") for line in f][1:]
    return rows, out.strip()


def skip_keeps_params(bundle, case, entry, backend="cuda"):
    """Whether the parameters after the skipped step 3 equal those after
    step 2 bit for bit."""
    dirs = []
    for steps in (2, 3):
        d = os.path.join(bundle, "train", case, f"params-{steps}")
        run_training(bundle, case, entry, backend, steps,
                     ["--save-params", d])
        dirs.append(d)
    names = sorted(os.listdir(dirs[0]))
    return bool(names) and names == sorted(os.listdir(dirs[1])) and all(
        np.array_equal(np.load(os.path.join(dirs[0], n)),
                       np.load(os.path.join(dirs[1], n))) for n in names)


def find_sanitizer():
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    path = "/usr/local/cuda/bin/compute-sanitizer"
    return path if os.path.exists(path) else None


def sanitize(run, sanitizer):
    """'memcheck 0 racecheck 0' (errors per tool) for `run(tool)`, a run
    under the command `tool` returning its stdout and stderr. memcheck ends
    with 'ERROR SUMMARY: N errors', racecheck with 'RACECHECK SUMMARY: N
    hazards displayed (E errors, W warnings)'."""
    counts = []
    for tool in ("memcheck", "racecheck"):
        out = run([sanitizer, "--tool", tool, "--error-exitcode", "1",
                   "--print-limit", "5"])
        found = re.findall(r"ERROR SUMMARY: (\d+) error|"
                           r"RACECHECK SUMMARY: \d+ hazards? displayed "
                           r"\((\d+) errors?", "\n".join(out))
        counts.append(f"{tool} " + ("".join(found[-1]) if found else "?"))
    return " ".join(counts)


def check_training(bundle, steps, only):
    passed = failed = 0
    sanitizer = find_sanitizer()
    if not sanitizer:
        print("note: no compute-sanitizer; memcheck and racecheck not run")
    with open(os.path.join(bundle, "train.txt")) as f:
        cases = [line.split() for line in f
                 if line.strip() and only.search(line.split()[0])]
    for case, entry, amp in cases:
        try:
            cpu, cpu_line = train_case(bundle, case, entry, "cpu", steps)
            gpu, gpu_line = train_case(bundle, case, entry, "cuda", steps)
        except RuntimeError as err:
            print(f"FAIL train {case}: {err}")
            failed += 1
            continue
        losses = [(float(c[2]), float(g[2])) for c, g in zip(cpu, gpu)]
        worst_step = max(abs(c - g) / max(abs(c), 1e-6) for c, g in losses)
        windows = [losses[i:i + WINDOW] for i in range(0, len(losses), WINDOW)]
        worst = max(abs(sum(c for c, _ in w) - sum(g for _, g in w)) /
                    max(abs(sum(c for c, _ in w)), 1e-6) for w in windows)
        skipped_same = [c[4] for c in cpu] == [g[4] for g in gpu]
        scales_same = [c[3] for c in cpu] == [g[3] for g in gpu]
        acc = (float(cpu[-1][5]) * 100, float(gpu[-1][5]) * 100)
        ok = (len(cpu) == len(gpu) == steps and skipped_same and
              scales_same and worst <= LOSS_TOLERANCE[amp] and
              abs(acc[0] - acc[1]) <= 2)
        rate = [line.split("steps/s")[0].split(", ")[-1] for line in
                (cpu_line, gpu_line)]
        extra = ""
        if amp == "fp16":
            try:
                kept = skip_keeps_params(bundle, case, entry)
                extra = (", parameters across the skipped step "
                         + ("bit-identical" if kept else "CHANGED"))
                ok = ok and kept
                if sanitizer:
                    errors = sanitize(
                        lambda tool: run_training(bundle, case, entry, "cuda",
                                                  1, tool=tool,
                                                  test_limit=64), sanitizer)
                    extra += f", compute-sanitizer: {errors} errors"
                    ok = ok and errors == "memcheck 0 racecheck 0"
            except RuntimeError as err:
                extra, ok = f", FAILED: {err}", False
        print(f"{'ok  ' if ok else 'FAIL'} train {case}: {steps} steps, "
              f"skipped {'same' if skipped_same else 'DIFFERENT'} "
              f"({sum(int(c[4]) for c in cpu)}), scales "
              f"{'same' if scales_same else 'DIFFERENT'}, loss diff: "
              f"{worst:.3g} of {WINDOW}-step means, {worst_step:.3g} of one "
              f"step, accuracy cpu {acc[0]:.2f}% cuda {acc[1]:.2f}%, "
              f"steps/s cpu {rate[0]} cuda {rate[1]}{extra}")
        passed += ok
        failed += not ok
    return passed, failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle")
    parser.add_argument("--repeat", type=int, default=0)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--only", type=re.compile, default=re.compile(""),
                        help="run the cases whose names this regular "
                        "expression finds (graph cases and training steps)")
    args = parser.parse_args()
    passed = failed = 0
    with open(os.path.join(args.bundle, "cases.txt")) as f:
        cases = [line.split() for line in f
                 if line.strip() and args.only.search(line.split()[0])]
    sanitizer = find_sanitizer()
    for case, entry, amp, nargs in cases:
        ref = os.path.join(args.bundle, "cases", case, "ref")
        line = f"{case}:"
        ok = True
        for backend in ("cpu", "cuda"):
            out = os.path.join(args.bundle, "cases", case, "out-" + backend)
            try:
                stdout, _ = exec_case(args.bundle, case, entry, backend,
                                      int(nargs), out, args.repeat)
                timing = next((l for l in stdout.splitlines()
                               if l.startswith("time")), "")
            except RuntimeError as err:
                line += f" {backend} FAILED: {err}"
                ok = False
                continue
            worst, count = compare(ref, out)
            limit = 0.0 if backend == "cpu" else TOLERANCE[amp]
            good = worst <= limit
            ok = ok and good
            line += (f" {backend} {'ok' if good else 'MISMATCH'}"
                     f" ({count} outputs, max diff {worst:.3g} of max|ref|)")
            if timing:
                line += f" [{timing.split('): ')[1].split(' over')[0]}]"
        if sanitizer and any(k in case for k in SANITIZED):
            out = os.path.join(args.bundle, "cases", case, "out-sanitized")
            try:
                errors = sanitize(
                    lambda tool: exec_case(args.bundle, case, entry, "cuda",
                                           int(nargs), out, 0, tool), sanitizer)
            except RuntimeError as err:
                errors = f"FAILED: {err}"
            line += f", compute-sanitizer: {errors} errors"
            ok = ok and errors == "memcheck 0 racecheck 0"
        print(("ok   " if ok else "FAIL ") + line)
        passed += ok
        failed += not ok
    p, f = check_training(args.bundle, args.steps, args.only)
    passed += p
    failed += f
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
