#!/usr/bin/env python3
"""Benchmark (no GPU needed): kernels and bytes moved per training step on
the GPU backend, mixed precision against fp32.

For each example training step (examples/torch/{mlp,cnn,transformer}), builds
the step with mp-train-pipeline (policy none, fp16, bf16), lowers it with
mp-lower-to-gpu and reads mp-gpu-kernel-report's JSON: kernels, GEMM kernels
on mma.sync and f32 GEMM kernels on CUDA cores, bytes moved, bytes of
activations (the buffers a function allocates and frees: the forward and
backward intermediates) and bytes of results (the buffers it allocates and
returns: weight gradients, updated parameters and optimizer state, f32 in
every step by the master-weight contract), summed over the step and the
gradient function it calls once;
with --gpu-gemm library or auto also the cuBLASLt and cuDNN calls (their
traffic counted in the bytes: their operands and results). Prints a
Markdown table with the mixed/fp32 ratios of activations and of all
allocated buffers (activations and results) measured in this one run.
Goal (issue 11): activation bytes of the mixed step <= 0.55x fp32.

With --buffers N, then per step and mixed policy the N activation buffers
that move the most bytes (the report's `buffers`): what mixed precision
has not halved.

With --level, the mixed steps' policy level (mp-train-pipeline's
`level`): `unsafe-force-all` puts the softmax, the norms and the residual
stream in f16/bf16 too (not the default; docs/GPU.md has its figures).

Usage: bench/gpu_static.py [--mp-opt build/bin/mp-opt]
                           [--optimizer sgd|momentum|adam|adamw]
                           [--gpu-gemm codegen|library|auto]
                           [--level default|...|unsafe-force-all]
                           [--buffers N]
"""
import argparse
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ["mlp", "cnn", "transformer"]
POLICIES = ["none", "fp16", "bf16"]


def measure(mp_opt, model, policy, optimizer, gemm, level, tmp):
    report = os.path.join(tmp, f"{model}-{policy}.json")
    source = os.path.join(ROOT, "examples", "torch", model, f"{model}_grad.mlir")
    # The level applies to the mixed policies; fp32 is the same at any.
    pipeline = f"policy={policy} optimizer={optimizer}"
    if policy != "none":
        pipeline += f" level={level}"
    subprocess.run([mp_opt, source, f"--mp-train-pipeline={pipeline}",
                    f"--mp-lower-to-gpu=format=isa gemm={gemm} "
                    f"kernel-report={report}",
                    "-o", os.devnull], check=True)
    with open(report) as f:
        functions = json.load(f)["functions"]
    m = {key: sum(fn[key] for fn in functions)
         for key in ("kernels", "gemm_kernels", "f32_gemm_kernels",
                     "library_gemms", "library_convs", "bytes_moved",
                     "activation_bytes", "result_bytes")}
    m["buffers"] = [b for fn in functions for b in fn["buffers"]
                    if b["kind"] == "activation"]
    m["buffers"].sort(key=lambda b: -(b["bytes_read"] + b["bytes_written"]))
    return m


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mp-opt", default=os.path.join(ROOT, "build", "bin",
                                                         "mp-opt"))
    parser.add_argument("--optimizer", default="sgd",
                        choices=["sgd", "momentum", "adam", "adamw"])
    parser.add_argument("--gpu-gemm", default="codegen",
                        choices=["codegen", "library", "auto"])
    parser.add_argument("--level", default="default",
                        choices=["default", "tensor-cores-only",
                                 "treat-infer-as-deny", "unsafe-force-all"])
    parser.add_argument("--buffers", type=int, default=0, metavar="N")
    args = parser.parse_args()
    print(f"gemm={args.gpu_gemm}, optimizer {args.optimizer}, "
          f"level {args.level}\n")
    print("| step | policy | kernels | GEMMs on mma.sync | f32 GEMMs | "
          "cuBLASLt calls | cuDNN calls | MB moved | MB of activations | "
          "MB of results | activations vs fp32 | "
          "activations and results vs fp32 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    largest = []
    with tempfile.TemporaryDirectory() as tmp:
        for model in MODELS:
            base = None
            for policy in POLICIES:
                m = measure(args.mp_opt, model, policy, args.optimizer,
                            args.gpu_gemm, args.level, tmp)
                base = base or m
                ratio = m["activation_bytes"] / base["activation_bytes"]
                allocated = ((m["activation_bytes"] + m["result_bytes"]) /
                             (base["activation_bytes"] + base["result_bytes"]))
                print(f"| {model} | {'fp32' if policy == 'none' else policy} "
                      f"| {m['kernels']} | {m['gemm_kernels']} "
                      f"| {m['f32_gemm_kernels']} "
                      f"| {m['library_gemms']} | {m['library_convs']} "
                      f"| {m['bytes_moved'] / 1e6:.2f} "
                      f"| {m['activation_bytes'] / 1e6:.2f} "
                      f"| {m['result_bytes'] / 1e6:.2f} "
                      f"| {ratio:.3f}x | {allocated:.3f}x |")
                if policy != "none" and args.buffers > 0:
                    largest.append((model, policy,
                                    m["buffers"][:args.buffers]))
    for model, policy, buffers in largest:
        print(f"\n{model} {policy}: the largest activations\n")
        print("| MB moved | type | allocated at | written by | read by |")
        print("|---|---|---|---|---|")
        for b in buffers:
            moved = (b["bytes_read"] + b["bytes_written"]) / 1e6
            where = os.path.relpath(b["location"], ROOT) if os.path.isabs(
                b["location"].split(":")[0]) else b["location"]
            print(f"| {moved:.2f} | `{b['type']}` | {where} "
                  f"| {', '.join(b['written_by'])} "
                  f"| {', '.join(b['read_by'])} |")


if __name__ == "__main__":
    main()
