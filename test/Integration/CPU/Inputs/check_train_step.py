#!/usr/bin/env python3
"""Runs compiled training steps (mp-loss-scaling + mp-make-train-step on
train_grad.mlir, whose gradients are inputs) for a few steps per optimizer
and compares parameters and optimizer state with PyTorch's update equations
written out in NumPy float32. Step 2 feeds an inf gradient: every parameter
and state must come back bit for bit and the scale must back off. Prints one
line per configuration and 'N passed, N failed'.

Usage: check_train_step.py TRAIN_GRAD.mlir
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
from mp_run import run_entry  # noqa: E402
from tally import Tally  # noqa: E402

f32 = np.float32
SCALE = 1024.0


def reference(opt, cfg, params, slots, t, grads):
    """One optimizer step, as torch.optim does it for a single tensor."""
    lr = f32(cfg["lr"])
    wd = f32(cfg.get("wd", 0.0))
    if cfg.get("clip"):
        norm = f32(np.sqrt(sum(f32((g.astype(np.float64) ** 2).sum()) for g in grads)))
        coef = min(f32(cfg["clip"]) / (norm + f32(1e-6)), f32(1.0))
        grads = [g * f32(coef) for g in grads]
    new_p, new_s = [], [list(s) for s in slots]
    t = t + f32(1)
    for i, (p, g) in enumerate(zip(params, grads)):
        if opt in ("sgd", "momentum", "adam") and wd != 0:
            g = g + p * wd
        if opt == "sgd":
            new_p.append(p + g * (-lr))
        elif opt == "momentum":
            m = f32(cfg["momentum"])
            buf = slots[0][i] * m + g
            step = g + buf * m if cfg.get("nesterov") else buf
            new_p.append(p + step * (-lr))
            new_s[0][i] = buf
        else:
            b1, b2, eps = 0.9, 0.999, f32(1e-8)
            if opt == "adamw":
                p = p * f32(1.0 - cfg["lr"] * cfg.get("wd", 0.01))
            m = slots[0][i] + (g - slots[0][i]) * f32(1 - b1)
            v = slots[1][i] * f32(b2) + f32(1 - b2) * g * g
            step_size = f32(cfg["lr"] / (1 - b1 ** float(t)))
            bc2 = f32(np.sqrt(1 - b2 ** float(t)))
            denom = np.sqrt(v) / bc2 + eps
            new_p.append(p + (-step_size) * m / denom)
            new_s[0][i], new_s[1][i] = m, v
    return new_p, new_s, t


def check(tmp, grad_mlir, opt, cfg, rng):
    options = f"optimizer={opt} lr={cfg['lr']}"
    for key, name in (("wd", "weight-decay"), ("momentum", "momentum"),
                      ("clip", "clip-norm")):
        if key in cfg:
            options += f" {name}={cfg[key]}"
    if cfg.get("nesterov"):
        options += " nesterov=true"
    k = cfg.get("accumulate", 1)
    if k > 1:
        options += f" accumulate={k}"
    step_mlir = os.path.join(tmp, "step.mlir")
    subprocess.run(["mp-opt", grad_mlir,
                    f"--mp-loss-scaling=init-scale={SCALE} growth-interval=2",
                    f"--mp-make-train-step={options}", "-o", step_mlir], check=True)
    nslots = {"sgd": 0, "momentum": 1}.get(opt, 2)
    params = [rng.uniform(-1, 1, (3, 4)).astype(f32), rng.uniform(-1, 1, 4).astype(f32)]
    slots = [[np.zeros_like(p) for p in params] for _ in range(nslots)]
    t = f32(0)
    scale, tracker = f32(SCALE), np.int32(0)
    worst, problems = 0.0, []
    for step in range(1, 5):
        micro = [rng.uniform(-3, 3, (k, 3, 4)).astype(f32), rng.uniform(-3, 3, (k, 4)).astype(f32)]
        if step == 2:
            micro[0][k - 1, 1, 2] = np.inf
        # The step's mean over micro-batches: ((g0 + g1) + g2...) * (1/K).
        grads = []
        for m in micro:
            total = np.zeros_like(m[0])
            for g in m:
                total = total + g
            grads.append(total * f32(1.0 / k))
        args = params + [m if k > 1 else m[0] for m in micro]
        args += [np.array(1.0, f32), np.array(scale), np.array(tracker)]
        args += [s for slot in slots for s in slot]
        if opt in ("adam", "adamw"):
            args.append(np.array(t))
        res = run_entry(step_mlir, "g_step", args, tmp)
        state_now = params + [s for slot in slots for s in slot] + (
            [np.array(t)] if opt in ("adam", "adamw") else [])
        nstate = len(state_now)
        found_inf = bool(res[nstate + 1])
        new_scale, new_tracker = res[nstate + 2], res[nstate + 3]
        if step == 2:
            same = all(np.array_equal(a.view(np.uint32), np.asarray(b).view(np.uint32))
                       for a, b in zip(res[:nstate], state_now))
            if not (found_inf and same and new_scale == scale * f32(0.5)):
                problems.append(f"step 2 (inf): found_inf {found_inf}, state unchanged "
                                f"{same}, scale {new_scale}")
        else:
            want_p, want_s, want_t = reference(opt, cfg, params, slots, t, grads)
            want = want_p + [s for slot in want_s for s in slot] + (
                [np.array(want_t)] if opt in ("adam", "adamw") else [])
            for got, ref in zip(res[:nstate], want):
                err = float(np.max(np.abs(got - ref) / (np.abs(ref) + 1e-6)))
                worst = max(worst, err)
            if found_inf:
                problems.append(f"step {step}: unexpected overflow")
        params = list(res[:2])
        flat = res[2:2 + nslots * 2]
        slots = [flat[2 * k:2 * k + 2] for k in range(nslots)]
        if opt in ("adam", "adamw"):
            t = f32(res[nstate - 1])
        scale, tracker = f32(new_scale), np.int32(new_tracker)
    if worst > 2e-6:
        problems.append(f"max relative error {worst:.2e} > 2e-6")
    # Growth: the interval is 2, the clean steps after the skip are 3 and 4.
    if scale != f32(SCALE):
        problems.append(f"final scale {scale}, want {SCALE} (backoff then growth)")
    return problems, worst


def main():
    grad_mlir = sys.argv[1]
    rng = np.random.default_rng(0)
    configs = [
        ("sgd", {"lr": 0.1}),
        ("sgd", {"lr": 0.05, "wd": 0.01}),
        ("momentum", {"lr": 0.1, "momentum": 0.9}),
        ("momentum", {"lr": 0.1, "momentum": 0.8, "nesterov": True, "wd": 0.001}),
        ("adam", {"lr": 0.01}),
        ("adam", {"lr": 0.01, "wd": 0.1, "clip": 2.0}),
        ("adamw", {"lr": 0.01}),
        ("adamw", {"lr": 0.02, "wd": 0.05, "clip": 0.5}),
        ("momentum", {"lr": 0.1, "momentum": 0.9, "accumulate": 2}),
        ("adam", {"lr": 0.01, "clip": 1.0, "accumulate": 3}),
    ]
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        for opt, cfg in configs:
            problems, worst = check(tmp, grad_mlir, opt, cfg, rng)
            label = opt + "".join(f" {k}={v}" for k, v in cfg.items())
            tally.record(not problems, f"{label}: " + (
                "ok" if not problems else "FAIL " + "; ".join(problems)))
            print(f"  max relative error {worst:.1e}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
