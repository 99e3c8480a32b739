#!/usr/bin/env python3
"""Builds, on a machine with mp's compiler, a bundle that check.py runs on a
machine with an NVIDIA GPU and nothing of mp's installed (no MLIR).

For each case (a graph's entry under a policy, and how its Tensor Core
contractions and convolutions are computed: --gpu-gemm) the bundle holds the module
compiled for the CUDA backend (mp-run --backend cuda --compile-only
--emit-so), the same graph compiled for the CPU backend, random inputs and
the CPU backend's outputs for them (the reference). For each training case
(an example model under a policy, Adam) it holds the training step compiled
for both backends. And mp-exec with the runtime library, Fashion-MNIST, the
PyTorch models, bench/gpu_train.py, bench/gpu_gemm.py's GEMM modules,
bench/gpu_reduce.py's softmax modules,
probe_cublaslt.py and probe_managed.py; LLVM's OpenMP runtime next to the
runtime library, for the CPU modules; and the training steps of the
models at batch 256 (bench/models) for the CUDA backend, which only
gpu_train.py --batch 256 runs. Fashion-MNIST is cut to its first
16384 training and 2000 test images (the device tool carries 64 MiB).
There, OUT/run.sh OUT RESULTS [check|check-gemm|gemm|gemm4096|profile|reduce|
train|train256|probe ...] runs
them all (or the stages named), each with a time limit, output in
RESULTS/<stage>.txt.

Usage: bundle.py OUT [--mp-run PATH]   (OUT is created; run from anywhere)
"""
import argparse
import glob
import gzip
import os
import shutil
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
ODD = "test/Integration/GPU/Inputs/odd_sizes.mlir"
# The bytes the device tool carries to the GPU machine in one call.
CARRY_LIMIT = 64 * 2**20
CONVS = "test/Integration/GPU/Inputs/convs.mlir"
CASES = [(ODD, e, amp, "codegen")
         for e in ("odd", "one", "batch", "linear", "transposed_relu")
         for amp in ("fp16", "bf16")]
CASES += [("test/Integration/GPU/Inputs/constants.mlir", "bias_table", amp,
           "codegen") for amp in ("none", "fp16")]
CASES += [(f"examples/{g}.mlir", g, amp, "codegen")
          for g in ("mlp_grad", "attention", "conv_block")
          for amp in ("none", "fp16", "bf16")]
# cuBLASLt and cuDNN (convolutions in NCHW, grouped and dilated).
CASES += [(ODD, "odd", "fp16", "library"), ("examples/mlp_grad.mlir",
                                            "mlp_grad", "bf16", "library")]
# f32 contractions on cuBLASLt's f32 kernels.
CASES += [(f"examples/{g}.mlir", g, "none", "library")
          for g in ("mlp_grad", "attention")]
CASES += [(CONVS, e, amp, "library") for e in ("nchw", "grouped")
          for amp in ("fp16", "bf16")]
# cuDNN's backward data and backward filter (torch-mlir's gradients).
CASES += [("test/Integration/GPU/Inputs/library_convs.mlir", e, "fp16",
           "library") for e in ("input_gradient", "filter_gradient")]
# Hopper's wgmma (--gpu-wgmma; mma.sync on GPUs other than sm_90a): odd
# sizes (masked edges), A^T x B, batches, an epilogue, double-buffered f16
# operands, the example graphs.
CASES += [(ODD, e, amp, "wgmma")
          for e in ("odd", "batch", "transposed_relu", "bias_act",
                    "f16_operands") for amp in ("fp16", "bf16")]
CASES += [(f"examples/{g}.mlir", g, "bf16", "wgmma")
          for g in ("mlp_grad", "conv_block")]
# Blocks of two warpgroups (128 x 64).
CASES += [(ODD, e, "fp16", "wgmma2") for e in ("odd", "batch",
                                               "f16_operands")]
CASES += [(ODD, "bias_act", "bf16", "wgmma2"),
          ("examples/mlp_grad.mlir", "mlp_grad", "bf16", "wgmma2")]
# Blocks of 128 x 128 on mma.sync, whose 96 KiB of shared memory is dynamic,
# and on wgmma (m64n128k16, B's and A^T's panels in 64-column blocks).
CASES += [(ODD, e, "fp16", "tile128") for e in ("odd", "f16_operands")]
CASES += [("examples/mlp_grad.mlir", "mlp_grad", "bf16", "tile128")]
CASES += [(ODD, e, "fp16", "wgmma-n128") for e in ("odd", "transposed_relu")]
CASES += [("examples/mlp_grad.mlir", "mlp_grad", "bf16", "wgmma-n128")]
# Weight gradients split along K (mp-gpu-split-k, on by default): partial
# products of f32 and f16 operands summed in order, on mma.sync and wgmma.
CASES += [(ODD, "split_k", "fp16", "codegen"),
          (ODD, "split_k_f16", "bf16", "codegen"),
          (ODD, "split_k_64", "fp16", "wgmma")]
# More stages of panels in flight (--gpu-stages): 3 K steps with 3 and 4
# stages, 16 K steps a part whose slots wrap around; on mma.sync in blocks
# of 64 x 64 and of 4 warps of 64 x 64, and on wgmma.
CASES += [(ODD, e, amp, kind) for e in ("f16_operands", "split_k_64")
          for amp, kind in (("fp16", "stages3"), ("bf16", "w64-stages4"),
                            ("fp16", "wgmma-n128-stages4"))]
# K steps of 64 (--gpu-tile-k 64): a K of 256 in 4 steps and one of 200
# whose last step is masked, on mma.sync and on wgmma's blocks of two
# warpgroups with 4 stages (m64n128k16, 128-byte swizzled rows of A).
CASES += [(ODD, e, amp, kind) for e in ("deep_k", "deep_k_odd")
          for amp, kind in (("fp16", "k64"), ("bf16", "wgmma-n128-k64-stages4"))]
# Blocks of 128 x 256 of 8 warps of 64 x 64 on mma.sync (200 KiB of shared
# memory with 3 stages: sm_90a alone), B's fragments two per ldmatrix.
CASES += [(ODD, "f16_operands", "fp16", "w64-n256-stages3")]
# Reductions over a block's threads (one or a few outputs of many terms) and
# over warps (one per row of 4099 rows of 300).
CASES += [("test/Integration/GPU/Inputs/reductions.mlir", e, "fp16", "codegen")
          for e in ("full", "rows_cols", "many_rows")]
# torch-mlir's ops: a padded max pool, a row max with its index, causal
# attention, an embedding's gather, a concat, a dropout mask.
CASES += [("test/Integration/CPU/Inputs/torch_ops.mlir", e, amp, "codegen")
          for e in ("max_pool_padded", "argmax_rows", "causal_attention",
                    "embedding", "concat_matmul", "dropout")
          for amp in ("fp16", "bf16")]
TRAIN = [(m, amp, "codegen") for m in ("mlp", "cnn", "transformer")
         for amp in ("none", "fp16", "bf16")]
TRAIN += [("cnn", "fp16", "library")]
TRAIN += [(m, amp, "wgmma") for m, amp in (("mlp", "fp16"), ("cnn", "bf16"),
                                          ("transformer", "fp16"))]
# For bench/gpu_train.py --batch 256 only (bench/models, CUDA backend); the
# fp32 steps also with their contractions on cuBLASLt's f32 kernels (the
# fp32 baseline the mixed steps are measured against).
BENCH_TRAIN = [(m, amp, "codegen") for m in ("mlp", "cnn", "transformer")
               for amp in ("none", "fp16", "bf16")]
BENCH_TRAIN += [(m, "none", "library") for m in ("mlp", "cnn", "transformer")]


def case_name(name, amp, gemm):
    return f"{name}-{amp}" + ("" if gemm == "codegen" else f"-{gemm}")


def gpu_flags(gemm):
    """mp-run's flags for a case's way of computing contractions: --gpu-gemm
    codegen|library|auto, or "wgmma" (generated, on wgmma; "wgmma2" in
    blocks of two warpgroups, double-buffered: dynamic shared memory with
    wgmma's alignment; "wgmma-n128" in blocks of 128 x 128), "tile128"
    (generated in blocks of 128 x 128), "w64" (in blocks of 128 x 128 of 4
    warps of 64 x 64), "w64-n256" (128 x 256 of 8 warps of 64 x 64, for
    sm_90a alone: over sm_80's shared memory), any of them with "-kK" (K
    steps of up to K: --gpu-tile-k) and then "-stagesN" (N stages of panels
    in flight), or "kK" and "stagesN" alone."""
    if "stages" in gemm:
        base, _, stages = gemm.rpartition("stages")
        return gpu_flags(base.rstrip("-") or "codegen") + ["--gpu-stages",
                                                           stages]
    base, _, tile_k = gemm.rpartition("k")
    if tile_k.isdigit() and (not base or base.endswith("-")):
        return gpu_flags(base.rstrip("-") or "codegen") + ["--gpu-tile-k",
                                                           tile_k]
    if gemm == "w64":
        return ["--gpu-gemm", "codegen", "--gpu-tile", "128,128,64,64"]
    if gemm == "w64-n256":
        return ["--gpu-gemm", "codegen", "--gpu-tile", "128,256,64,64",
                "--gpu-chips", "sm_90a"]
    if gemm == "wgmma":
        return ["--gpu-gemm", "codegen", "--gpu-wgmma"]
    if gemm == "wgmma2":
        return ["--gpu-gemm", "codegen", "--gpu-wgmma", "--gpu-tile",
                "128,64,32,32"]
    if gemm == "wgmma-n128":
        return ["--gpu-gemm", "codegen", "--gpu-wgmma", "--gpu-tile",
                "128,128,32,32"]
    if gemm == "tile128":
        return ["--gpu-gemm", "codegen", "--gpu-tile", "128,128,32,32"]
    return ["--gpu-gemm", gemm]
DATASET = os.environ.get("MP_DATASET_DIR", "/usr/share/datasets/fashion-mnist")


def cut_dataset(source, out):
    """The first 16384 training and 2000 test images of the IDX files in
    `source` (200 steps of 64 fit in one epoch; check.py tests on 2000)."""
    os.makedirs(out, exist_ok=True)
    for kind, count in (("train", 16384), ("t10k", 2000)):
        for part, header, size in (("images-idx3-ubyte", 16, 784),
                                   ("labels-idx1-ubyte", 8, 1)):
            name = f"{kind}-{part}.gz"
            with gzip.open(os.path.join(source, name)) as f:
                head = bytearray(f.read(header))
                body = f.read(count * size)
            struct.pack_into(">I", head, 4, count)
            with gzip.open(os.path.join(out, name), "wb") as f:
                f.write(bytes(head) + body)


def find_libomp():
    for d in sorted(glob.glob("/usr/lib/llvm-*/lib"), reverse=True) + [
            "/usr/lib/x86_64-linux-gnu"]:
        if os.path.exists(os.path.join(d, "libomp.so.5")):
            return os.path.realpath(os.path.join(d, "libomp.so.5"))
    sys.exit("bundle.py: no libomp.so.5 (LLVM's OpenMP runtime) found")


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bundle.py: {' '.join(cmd)}: exit {done.returncode}: "
                 f"{done.stderr.strip()[-600:]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    mp_run = os.path.join(args.build, "bin", "mp-run")
    os.makedirs(os.path.join(args.out, "bin"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "lib"), exist_ok=True)
    shutil.copy(os.path.join(args.build, "bin", "mp-exec"),
                os.path.join(args.out, "bin"))
    shutil.copy(os.path.join(args.build, "lib", "libMPRuntime.so"),
                os.path.join(args.out, "lib"))
    # The CPU modules run on threads: LLVM's OpenMP runtime, which the GPU
    # machine lacks, goes next to the runtime library (where it looks).
    shutil.copy(find_libomp(), os.path.join(args.out, "lib", "libomp.so.5"))
    manifest = []
    for path, entry, amp, gemm in CASES:
        name = case_name(entry, amp, gemm)
        case = os.path.join(args.out, "cases", name)
        os.makedirs(case, exist_ok=True)
        graph = os.path.join(ROOT, path)
        common = [mp_run, graph, "--entry", entry, "--amp", amp]
        run(common + ["--backend", "cpu", "--random-inputs", "--seed", "7",
                      "--save-inputs",
                      f"{case}/in", "--save-outputs", f"{case}/ref",
                      "--emit-so", f"{case}/cpu.so"])
        run(common + ["--backend", "cuda", "--compile-only", "--emit-so",
                      f"{case}/cuda.so"] + gpu_flags(gemm))
        inputs = sorted(os.listdir(f"{case}/in"),
                        key=lambda f: int(f[3:-4]))
        manifest.append(f"{name} {entry} {amp} {len(inputs)}")
    with open(os.path.join(args.out, "cases.txt"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    for model, amp, gemm in TRAIN:
        case = os.path.join(args.out, "train", case_name(model, amp, gemm))
        os.makedirs(case, exist_ok=True)
        graph = os.path.join(ROOT, "examples", "torch", model,
                             f"{model}_grad.mlir")
        for backend in ("cpu", "cuda"):
            gpu = gpu_flags(gemm) if backend == "cuda" else []
            run([mp_run, "--train", graph, "--amp", amp, "--optimizer",
                 "adam", "--backend", backend, "--compile-only", "--emit-so",
                 f"{case}/{backend}.so"] + gpu)
    for model, amp, gemm in BENCH_TRAIN:
        case = os.path.join(args.out, "train",
                            case_name(model, amp, gemm) + "-b256")
        os.makedirs(case, exist_ok=True)
        run([mp_run, "--train",
             os.path.join(ROOT, "bench", "models", f"{model}_grad_b256.mlir"),
             "--amp", amp, "--optimizer", "adam", "--backend", "cuda",
             "--compile-only", "--emit-so", f"{case}/cuda.so"] +
            gpu_flags(gemm))
    with open(os.path.join(args.out, "train.txt"), "w") as f:
        f.write("\n".join(f"{case_name(m, amp, gemm)} {m}_grad {amp}"
                          for m, amp, gemm in TRAIN) + "\n")
    cut_dataset(DATASET, os.path.join(args.out, "data"))
    shutil.copy(os.path.join(ROOT, "examples", "torch", "models.py"),
                args.out)
    shutil.copy(os.path.join(ROOT, "bench", "gpu_train.py"), args.out)
    # GEMMs of 1024..8192, generated and on cuBLASLt (bench/gpu_gemm.py).
    run([sys.executable, os.path.join(ROOT, "bench", "gpu_gemm.py"), "build",
         args.out, "--build", args.build])
    # Softmaxes over many rows, a warp or a thread per row
    # (bench/gpu_reduce.py).
    run([sys.executable, os.path.join(ROOT, "bench", "gpu_reduce.py"),
         "build", args.out, "--build", args.build])
    for script in ("check.py", "probe_cublaslt.py", "probe_managed.py",
                   "run.sh"):
        shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                 script), args.out)
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, files in os.walk(args.out) for f in files)
    print(f"{len(CASES)} cases and {len(TRAIN)} training steps in "
          f"{args.out}, {size / 2**20:.1f} MiB")
    # What the device tool carries to the GPU machine in one call.
    if size > CARRY_LIMIT:
        sys.exit(f"bundle.py: {args.out} is {size / 2**20:.1f} MiB, over "
                 f"the {CARRY_LIMIT // 2**20} MiB a device call carries: "
                 "drop cases or GEMM paths")


if __name__ == "__main__":
    main()
