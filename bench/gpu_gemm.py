#!/usr/bin/env python3
"""GEMM throughput on an NVIDIA GPU: mp's generated Tensor Core kernels
(--gpu-gemm codegen) in several configurations, its cuBLASLt calls
(--gpu-gemm library) and PyTorch's matmul, f16 and bf16 operands with f32
accumulation, square sizes 1024..8192; fp32 (and TF32) PyTorch matmuls for
reference. The generated configurations (PATHS below): blocks of 64 x 64
(4 warps of 32 x 32) with 2, 3 or 4 stages of panels in flight
(--gpu-stages); blocks of 128 x 128 as 16 warps of 32 x 32, or as 4 warps
of 64 x 64 (half the shared memory traffic per mma.sync) with 2, 3 or 4
stages, their shared memory dynamic past 48 KiB; Hopper's wgmma.mma_async
on sm_90a (mma.sync elsewhere) in blocks of one warpgroup (64 x 64) or two
(128 x 128, 128 x 256), and as --gpu-wgmma chooses (two from 2048^3).
Also f32 operands and C (the fp32 policy), in a table of their own: the
generated kernel on CUDA cores against cuBLASLt's f32 kernels and
torch.matmul in FP32 (no TF32).

Two steps, as the GPU machine has no MLIR:
  gpu_gemm.py build OUT [--sizes 1024,2048,4096,8192] [--build DIR]
      (here) writes OUT/gemm/: one graph per size and type, C = A x B with
      A, B f16 or bf16 and C f32, compiled with mp-run --backend cuda
      --compile-only --output for every path, and this script; with mp-exec
      and the runtime in OUT/bin and OUT/lib (test/Device/bundle.py makes
      the same layout).
  gpu_gemm.py run OUT [--paths codegen,codegen-s3,library] [--repeat N]
      [--no-torch]
      (there) draws the inputs, runs each module with mp-exec --repeat,
      checks every output against NumPy, and prints a
      Markdown table of milliseconds and TFLOP/s (2 M N K / time), with
      PyTorch's on the same device when torch is importable (it says so
      when it is not). Ratios are measured in one run. --sizes 4096 takes
      some of the sizes built.
  gpu_gemm.py profile OUT [--paths codegen,library] [--size 4096]
      [--type f16] [--ncu ncu]
      (there) Nsight Compute's counters of each path's GEMM kernel at one
      size: throughput, occupancy, issue stalls, Tensor Core activity.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES = ("f16", "bf16")
# Each path's mp-run flags.
GENERATED = ["--gpu-gemm", "codegen"]
PATHS = {
    # The defaults: blocks of 64 x 64, 4 warps of 32 x 32, 2 stages.
    "codegen": GENERATED,
    "codegen-s3": GENERATED + ["--gpu-stages", "3"],
    "codegen-s4": GENERATED + ["--gpu-stages", "4"],
    # Blocks of 128 x 128 of 16 warps of 32 x 32 (96 KiB of shared memory
    # with the staged C tile: dynamic).
    "codegen-128x128": GENERATED + ["--gpu-tile", "128,128,32,32"],
    # 4 warps of 64 x 64: per 16 of K, 8 ldmatrix for 32 mma.sync a warp
    # (32 x 32: 4 for 8).
    "codegen-128x128-w64": GENERATED + ["--gpu-tile", "128,128,64,64"],
    "codegen-128x128-w64-s3": GENERATED + ["--gpu-tile", "128,128,64,64",
                                           "--gpu-stages", "3"],
    "codegen-128x128-w64-s4": GENERATED + ["--gpu-tile", "128,128,64,64",
                                           "--gpu-stages", "4"],
    # 8 warps of 64 x 64 in blocks of 128 x 256: a third less operand
    # traffic than 128 x 128 (L2_BYTES); 176 and 200 KiB of shared memory
    # (the C tile takes 128), sm_90a alone.
    "codegen-128x256-w64": GENERATED + ["--gpu-tile", "128,256,64,64",
                                        "--gpu-chips", "sm_90a"],
    "codegen-128x256-w64-s3": GENERATED + ["--gpu-tile", "128,256,64,64",
                                           "--gpu-stages", "3",
                                           "--gpu-chips", "sm_90a"],
    # Hopper's wgmma (on sm_90a; mma.sync elsewhere) as --gpu-wgmma
    # chooses: blocks of two warpgroups (128 x 128) for GEMMs with 256 such
    # blocks or more (from 2048^3), else one (64 x 64).
    "codegen-wgmma": GENERATED + ["--gpu-wgmma"],
    # Blocks of one warpgroup, 64 x 64, at every size.
    "codegen-wgmma-64x64": GENERATED + ["--gpu-wgmma", "--gpu-tile",
                                        "64,64,32,32"],
    # Two warpgroups of 64 x 128 (m64n128k16; B's panel in 64-column
    # blocks), 2 and 4 stages.
    "codegen-wgmma-128x128": GENERATED + ["--gpu-wgmma", "--gpu-tile",
                                          "128,128,32,32"],
    "codegen-wgmma-128x128-s4": GENERATED + ["--gpu-wgmma", "--gpu-tile",
                                             "128,128,32,32", "--gpu-stages",
                                             "4"],
    # The same with K steps of 64 (--gpu-tile-k 64: four wgmmas a trip,
    # A's rows 128 bytes, half the barriers per K) and 3 or 4 stages (one
    # or two steps, 64 or 128 of K, copied ahead).
    "codegen-wgmma-128x128-k64-s3": GENERATED + [
        "--gpu-wgmma", "--gpu-tile", "128,128,32,32", "--gpu-stages", "3",
        "--gpu-tile-k", "64"],
    "codegen-wgmma-128x128-k64-s4": GENERATED + [
        "--gpu-wgmma", "--gpu-tile", "128,128,32,32", "--gpu-stages", "4",
        "--gpu-tile-k", "64"],
    # Two warpgroups of 64 x 256 (CUTLASS's usual Hopper tile),
    # single-buffered: with 2 stages sm_80's copy would need 176 KiB.
    "codegen-wgmma-128x256": GENERATED + ["--gpu-wgmma", "--gpu-tile",
                                          "128,256,32,32", "--gpu-stages",
                                          "1"],
    # The same with 3 stages (200 KiB), compiled for sm_90a alone.
    "codegen-wgmma-128x256-s3": GENERATED + ["--gpu-wgmma", "--gpu-tile",
                                             "128,256,32,32", "--gpu-stages",
                                             "3", "--gpu-chips", "sm_90a"],
    "library": ["--gpu-gemm", "library"],
}
# f32 operands (the fp32 policy), in a table of their own: generated on CUDA
# cores in blocks of up to 64 x 64 with 4 x 4 elements of C per thread (the
# default) or 128 x 128 with 8 x 8 (--gpu-f32-tile), and cuBLASLt's f32
# kernels (no TF32).
F32_PATHS = {
    "codegen": GENERATED,
    "codegen-128-t8": GENERATED + ["--gpu-f32-tile", "128,8"],
    "library": PATHS["library"],
}

GRAPH = """func.func @gemm(%a: tensor<{n}x{n}x{t}>, %b: tensor<{n}x{n}x{t}>)
    -> tensor<{n}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}x{n}xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<{n}x{n}xf32>)
      -> tensor<{n}x{n}xf32>
  %d = linalg.matmul ins(%a, %b : tensor<{n}x{n}x{t}>, tensor<{n}x{n}x{t}>)
                     outs(%c : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  return %d : tensor<{n}x{n}xf32>
}}
"""


def block_tile(path, n):
    """The rows and columns of C a block of `path` computes in an n^3 GEMM
    (the defaults 64 x 64; with --gpu-wgmma 128 x 128 from 256 such
    blocks), or None for cuBLASLt."""
    flags = PATHS[path]
    if path == "library":
        return None
    if "--gpu-tile" in flags:
        m, n = flags[flags.index("--gpu-tile") + 1].split(",")[:2]
        return int(m), int(n)
    if "--gpu-wgmma" in flags and (-(-n // 128)) ** 2 >= 256:
        return 128, 128
    return 64, 64


def l2_bytes(n, element_bytes, tile):
    """The operand bytes the blocks of an n^3 GEMM load into shared memory
    (from L2, where the panels that several blocks read meet): each of the
    n / bn block columns reads all of A, each of the n / bm block rows all
    of B, n^3 (1 / bm + 1 / bn) elements. A ceiling of L2 bandwidth over
    these bytes bounds the kernel's speed whatever its Tensor Core work."""
    bm, bn = tile
    return element_bytes * n ** 3 * (1 / bm + 1 / bn)


def fail(message):
    sys.exit(f"gpu_gemm.py: {message}")


def run(cmd, env=None):
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        fail(f"{' '.join(cmd)}: exit {done.returncode}: "
             f"{done.stderr.strip()[-600:]}")
    return done.stdout


def build(args):
    mp_run = os.path.join(args.build, "bin", "mp-run")
    gemm = os.path.join(args.out, "gemm")
    os.makedirs(gemm, exist_ok=True)
    for sub in ("bin", "lib"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    shutil.copy(os.path.join(args.build, "bin", "mp-exec"),
                os.path.join(args.out, "bin"))
    shutil.copy(os.path.join(args.build, "lib", "libMPRuntime.so"),
                os.path.join(args.out, "lib"))
    shutil.copy(os.path.abspath(__file__), args.out)
    for n in args.sizes:
        for t in TYPES:
            source = os.path.join(gemm, f"gemm-{n}-{t}.mlir")
            with open(source, "w") as f:
                f.write(GRAPH.format(n=n, t=t))
            for path, flags in PATHS.items():
                run([mp_run, source, "--entry", "gemm", "--backend", "cuda",
                     *flags, "--compile-only", "--output",
                     os.path.join(gemm, f"gemm-{n}-{t}-{path}")])
        source = os.path.join(gemm, f"gemm-{n}-f32.mlir")
        with open(source, "w") as f:
            f.write(GRAPH.format(n=n, t="f32"))
        for path, flags in F32_PATHS.items():
            run([mp_run, source, "--entry", "gemm", "--backend", "cuda",
                 *flags, "--compile-only", "--output",
                 os.path.join(gemm, f"gemm-{n}-f32-{path}")])
    count = len(args.sizes) * (len(TYPES) * len(PATHS) + len(F32_PATHS))
    print(f"gpu_gemm.py: {count} modules in {gemm}")


def save_inputs(np, n, t, directory, seed):
    """Random A and B of n x n in [-1, 1) as mp-exec reads them (bf16 as
    its uint16 bits); returns them as float32 for the reference."""
    rng = np.random.default_rng(seed)
    arrays = []
    for i in range(2):
        x = rng.uniform(-1, 1, (n, n)).astype(np.float32)
        if t == "f32":
            stored = x
            arrays.append(x)
        elif t == "f16":
            stored = x.astype(np.float16)
            arrays.append(stored.astype(np.float32))
        else:  # round to nearest even in the top 16 bits
            bits = x.view(np.uint32)
            bits = bits + 0x7FFF + ((bits >> 16) & 1)
            stored = (bits >> 16).astype(np.uint16)
            arrays.append((stored.astype(np.uint32) << 16).view(np.float32))
        np.save(os.path.join(directory, f"arg{i}.npy"), stored)
    return arrays


def mp_time(bundle, module, directory, repeat, env, entry="gemm",
            inputs=("arg0.npy", "arg1.npy")):
    """(ms per call, device ms per call): a call includes the runtime's
    copies of the inputs into device-visible memory and of the result out;
    its device time is CUDA events' around its work on the stream after
    the inputs' copies (C's fill and the GEMM), over the calls after the
    first (mp-exec's `entry` of `module` on `inputs` in `directory`). Not
    MP_CUDA_PROFILE's mean per launch, host time from launch to
    synchronization over all calls, the first one's setup included (on an
    H200: 14.1 ms over 6 launches of a 4096^3 cuBLASLt call whose device
    time per call was 0.40 ms, docs/results/gpu-h200-2026-11-27.md)."""
    cmd = [os.path.join(bundle, "bin", "mp-exec"), module, "--entry", entry,
           "--inputs", ",".join(os.path.join(directory, i) for i in inputs),
           "--save-outputs", os.path.join(directory, "out"), "--repeat",
           str(repeat)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=120)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{' '.join(cmd)}: no answer after 120 s")
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {done.returncode}: "
                           f"{done.stderr.strip()[-600:]}")
    call = re.search(r"^time per call \(cuda\): median ([0-9.e+-]+) ms",
                     done.stdout, re.M)
    device = re.search(r"^device time per call \(cuda\): median "
                       r"([0-9.e+-]+) ms", done.stdout, re.M)
    if not call or not device:
        raise RuntimeError(
            f"no times in mp-exec's output: {done.stdout.strip()[-200:]} "
            f"{done.stderr.strip()[-200:]}")
    return float(call.group(1)), float(device.group(1))


def bundle_env(bundle):
    """The environment mp-exec runs in: the bundle's runtime library first."""
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(bundle, "lib") + (
        ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    return env


def import_torch():
    """PyTorch if it is importable and sees a GPU, else None."""
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


def median_ms(torch, fn, repeat):
    """The median of `repeat` calls of `fn` after a first one, each timed
    with CUDA events on the current stream."""
    fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(repeat):
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def torch_time(torch, n, dtype, repeat):
    a = torch.rand(n, n, device="cuda", dtype=torch.float32).to(dtype)
    b = torch.rand(n, n, device="cuda", dtype=torch.float32).to(dtype)
    return median_ms(torch, lambda: torch.matmul(a, b), repeat)


def tflops(n, ms):
    return 2.0 * n ** 3 / (ms * 1e-3) / 1e12


def time_checked(np, args, module, directory, env, want):
    """(call ms, device ms) of `module` on the inputs in `directory`
    (mp_time), or why there are none, also said on stderr: "failed" (the
    call failed) or "wrong (E)" (its output is more than 1e-4 of its largest
    magnitude off `want`, NumPy's product)."""
    try:
        call, ms = mp_time(args.bundle, module, directory, args.repeat, env)
    except RuntimeError as err:  # the other cells still run
        print(f"gpu_gemm.py: {err}", file=sys.stderr)
        return "failed"
    got = np.load(os.path.join(directory, "out", "out0.npy"))
    error = np.max(np.abs(got - want)) / np.max(np.abs(want))
    if not error <= 1e-4:
        print(f"gpu_gemm.py: {module}: wrong result "
              f"(relative error {error:.2e} against NumPy)", file=sys.stderr)
        return f"wrong ({error:.1e})"
    return call, ms


def run_bundle(args):
    import numpy as np
    gemm = os.path.join(args.bundle, "gemm")
    sizes = sorted({int(m.group(1)) for f in os.listdir(gemm)
                    if (m := re.match(r"gemm-(\d+)-f16-codegen$", f))})
    if not sizes:
        fail(f"no modules in {gemm}: run 'gpu_gemm.py build' first")
    if args.sizes:
        missing = sorted(set(args.sizes) - set(sizes))
        if missing:
            fail(f"--sizes: {', '.join(map(str, missing))} not built (built: "
                 f"{', '.join(map(str, sizes))})")
        sizes = sorted(args.sizes)
    env = bundle_env(args.bundle)
    torch = None if args.no_torch else import_torch()
    if torch:
        torch.backends.cuda.matmul.allow_tf32 = False
    device = torch.cuda.get_device_name() if torch else "(PyTorch not used)"
    print(f"GEMM C = A x B (f32 accumulation), {device}; median of "
          f"{args.repeat} calls")
    print(f"PyTorch: {'torch ' + torch.__version__ if torch else 'not importable or no GPU: its columns are empty'}\n")
    print("mp: 'device ms' is the call's time on the device (CUDA events: "
          "C's fill and the GEMM kernel or cuBLASLt call), 'call ms' the "
          "whole entry call with the runtime's copies of inputs and result\n")
    header = "| n | type | " + " | ".join(
        f"mp {p} call ms | mp {p} device ms | mp {p} TFLOP/s"
        for p in args.paths)
    header += (" | codegen / cuBLASLt | torch ms | torch TFLOP/s | "
               "mp best / torch |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    traffic = []  # (n, type, path, device ms) of the correct runs
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            for t in TYPES:
                directory = os.path.join(tmp, f"{n}-{t}")
                os.makedirs(directory)
                a, b = save_inputs(np, n, t, directory, seed=n)
                want = a @ b  # every path's output is checked against it
                cells, times = [], {}
                for path in args.paths:
                    module = os.path.join(gemm, f"gemm-{n}-{t}-{path}")
                    result = time_checked(np, args, module, directory, env,
                                          want)
                    if isinstance(result, str):
                        cells.append(f"{result} |  | ")
                        continue
                    call, ms = result
                    cells.append(f"{call:.3f} | {ms:.3f} | "
                                 f"{tflops(n, ms):.1f}")
                    times[path] = ms
                    traffic.append((n, t, path, ms))
                best = min(times.values(), default=None)
                generated = [ms for p, ms in times.items()
                             if p.startswith("codegen")]
                # The target: the generated GEMM at >= 0.7x cuBLASLt.
                cells.append(f"{times['library'] / min(generated):.2f}x"
                             if generated and "library" in times else "n/a")
                if torch:
                    dtype = torch.float16 if t == "f16" else torch.bfloat16
                    ms = torch_time(torch, n, dtype, args.repeat)
                    ratio = f"{ms / best:.2f}x" if best else "n/a"
                    cells.append(f"{ms:.3f} | {tflops(n, ms):.1f} | {ratio}")
                else:
                    cells.append(" |  | ")
                print(f"| {n} | {t} | " + " | ".join(cells) + " |")
        print("\nOperand traffic into shared memory (L2 to SM), each "
              "generated kernel: n^3 (1/bm + 1/bn) elements of 2 bytes for "
              "blocks of bm x bn, over its device time:\n")
        print("| n | type | path | block | GB | TB/s |\n|---|---|---|---|---|---|")
        for n, t, path, ms in traffic:
            tile = block_tile(path, n)
            if tile:
                gb = l2_bytes(n, 2, tile) / 1e9
                print(f"| {n} | {t} | {path} | {tile[0]} x {tile[1]} | "
                      f"{gb:.2f} | {gb / ms:.2f} |")
        f32_table(args, np, torch, gemm, sizes, env, tmp)
        if torch:
            print("\nPyTorch reference, fp32 operands:")
            for n in sizes:
                for tf32 in (False, True):
                    torch.backends.cuda.matmul.allow_tf32 = tf32
                    ms = torch_time(torch, n, torch.float32, args.repeat)
                    print(f"- {n}: {'TF32' if tf32 else 'FP32'} {ms:.3f} ms, "
                          f"{tflops(n, ms):.1f} TFLOP/s")


def f32_table(args, np, torch, gemm, sizes, env, tmp):
    """f32 operands and C: mp's generated kernel (CUDA cores) and its
    cuBLASLt call (f32 kernels, no TF32) against torch.matmul in FP32, each
    output checked against NumPy. Modules built before f32 was added are
    skipped."""
    if not os.path.exists(os.path.join(gemm, f"gemm-{sizes[0]}-f32-codegen")):
        print("\n(no f32 modules in this bundle)")
        return
    print("\nf32 operands (the fp32 policy): generated on CUDA cores, "
          "cuBLASLt's f32 kernels (no TF32), torch.matmul in FP32; device ms\n")
    header = "| n | " + " | ".join(f"mp {p} ms | TFLOP/s"
                                    for p in F32_PATHS)
    header += " | codegen / cuBLASLt | torch FP32 ms | TFLOP/s |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for n in sizes:
        directory = os.path.join(tmp, f"{n}-f32")
        os.makedirs(directory)
        a, b = save_inputs(np, n, "f32", directory, seed=n)
        want = a @ b
        cells, times = [], {}
        for path in F32_PATHS:
            module = os.path.join(gemm, f"gemm-{n}-f32-{path}")
            if not os.path.exists(module):
                cells.append("not built | ")
                continue
            result = time_checked(np, args, module, directory, env, want)
            if isinstance(result, str):
                cells.append(f"{result} | ")
                continue
            _, ms = result
            times[path] = ms
            cells.append(f"{ms:.3f} | {tflops(n, ms):.1f}")
        generated = [ms for p, ms in times.items() if p != "library"]
        cells.append(f"{times['library'] / min(generated):.2f}x"
                     if generated and "library" in times else "n/a")
        if torch:
            torch.backends.cuda.matmul.allow_tf32 = False
            ms = torch_time(torch, n, torch.float32, args.repeat)
            cells.append(f"{ms:.3f} | {tflops(n, ms):.1f}")
        else:
            cells.append(" | ")
        print(f"| {n} | " + " | ".join(cells) + " |")


# ncu's sections, and the stall reasons and Tensor Core pipes' activity as
# metric patterns (names differ between chips).
NCU_SECTIONS = ("SpeedOfLight", "LaunchStats", "Occupancy",
                "ComputeWorkloadAnalysis", "MemoryWorkloadAnalysis",
                "WarpStateStats")
NCU_METRICS = (r"regex:^smsp__average_warps_issue_stalled_.*_per_issue_active"
               r"\.ratio$",
               r"regex:^sm__pipe_tensor.*cycles_active\.avg\.pct_of_peak_"
               r"sustained_active$")


def parse_ncu(csv_text):
    """The kernel's name and the (section, metric, unit, value) rows of
    ncu's --csv --page details output for the one kernel it profiled."""
    import csv
    lines = [line for line in csv_text.splitlines() if line.startswith('"')]
    rows = [r for r in csv.DictReader(lines) if r.get("Metric Name")]
    kernels = sorted({r.get("Kernel Name", "") for r in rows})
    return ", ".join(kernels), [(r.get("Section Name", ""), r["Metric Name"],
                                 r.get("Metric Unit", ""),
                                 r.get("Metric Value", "")) for r in rows]


def profile_bundle(args):
    """Nsight Compute's counters of the GEMM kernel (the second call's
    launch) of each path at one size and type: throughput against the
    chip's peaks, occupancy, issue stalls per instruction, Tensor Core
    activity. The clocks are left alone (--clock-control none)."""
    import numpy as np
    gemm = os.path.join(args.bundle, "gemm")
    env = bundle_env(args.bundle)
    with tempfile.TemporaryDirectory() as tmp:
        save_inputs(np, args.size, args.type, tmp, seed=args.size)
        for path in args.paths:
            module = os.path.join(gemm, f"gemm-{args.size}-{args.type}-{path}")
            if not os.path.isdir(module):
                print(f"## {path}: no module {module}\n")
                continue
            # The second launch: the generated kernel of the second call
            # (C's fill is in it), or cuBLASLt's after C's fill (a kernel
            # of mp's, or a memset: then the second call's).
            cmd = [args.ncu, "--clock-control", "none", "--launch-skip", "1",
                   "--launch-count", "1", "--csv", "--page", "details"]
            for section in NCU_SECTIONS:
                cmd += ["--section", section]
            program = [os.path.join(args.bundle, "bin", "mp-exec"), module,
                       "--entry", "gemm", "--inputs",
                       f"{tmp}/arg0.npy,{tmp}/arg1.npy", "--repeat", "2"]
            # With the metric patterns, else (an ncu that refuses them)
            # the sections alone.
            for metrics in (["--metrics", ",".join(NCU_METRICS)], []):
                try:
                    done = subprocess.run(cmd + metrics + program,
                                          capture_output=True, text=True,
                                          env=env, timeout=args.timeout)
                except subprocess.TimeoutExpired:
                    done = None
                    break
                kernel, rows = parse_ncu(done.stdout)
                if rows:
                    break
            if done is None:
                print(f"## {path}: ncu gave no answer in {args.timeout} s\n")
                continue
            print(f"## {path} ({args.size}^3 {args.type}): {kernel or '?'}, "
                  f"{len(rows)} metrics, ncu exit {done.returncode}\n")
            if not rows:
                print("    " + (done.stdout + done.stderr).strip()[-800:]
                      .replace("\n", "\n    ") + "\n")
                continue
            print("| section | metric | value |\n|---|---|---|")
            for section, metric, unit, value in rows:
                print(f"| {section} | {metric} | {value} {unit} |")
            print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("out")
    b.add_argument("--sizes", default="1024,2048,4096,8192",
                   type=lambda s: [int(x) for x in s.split(",")])
    b.add_argument("--build", default=os.path.join(ROOT, "build"))
    r = sub.add_parser("run")
    r.add_argument("bundle")
    r.add_argument("--paths", default=",".join(PATHS),
                   type=lambda s: s.split(","))
    r.add_argument("--repeat", type=int, default=20)
    r.add_argument("--no-torch", action="store_true")
    r.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")],
                   help="of those built (default: all)")
    p = sub.add_parser("profile")
    p.add_argument("bundle")
    p.add_argument("--paths", default="codegen,codegen-128x128-w64-s3,"
                   "codegen-128x256-w64-s3,codegen-wgmma,library",
                   type=lambda s: s.split(","))
    p.add_argument("--size", type=int, default=4096)
    p.add_argument("--type", choices=TYPES, default="f16")
    p.add_argument("--ncu", default="ncu")
    p.add_argument("--timeout", type=int, default=120)
    args = parser.parse_args()
    if args.command == "build":
        build(args)
    elif args.command == "profile":
        profile_bundle(args)
    else:
        bad = [p for p in args.paths if p not in PATHS]
        if bad:
            fail(f"--paths: unknown {', '.join(bad)} (known: "
                 f"{', '.join(PATHS)})")
        run_bundle(args)


if __name__ == "__main__":
    main()
