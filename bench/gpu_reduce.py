#!/usr/bin/env python3
"""Row reductions on an NVIDIA GPU: a softmax over the rows of an f32
matrix (each row's maximum, then the sum of exp(x - max), then x's
exponentials over it) as mp compiles it, with a warp per row (the default
for more rows than blocks of one block per row take, of 256 terms or more:
mp-gpu-tile-reductions' warp-min-extent) and with a thread per row
(--gpu-warp-min-extent 0, what mp did before), against PyTorch's
torch.softmax on the same device. Shapes: more rows than 4096, rows of 256
to 4096 terms.

Two steps, as the GPU machine has no MLIR:
  gpu_reduce.py build OUT [--build DIR]
      (here) writes OUT/reduce/: one graph per shape, compiled with mp-run
      --backend cuda --compile-only --output for both ways, and this script
      with gpu_gemm.py (whose mp-exec timing it shares); mp-exec and the
      runtime in OUT/bin and OUT/lib (test/Device/bundle.py makes the same
      layout).
  gpu_reduce.py run OUT [--repeat N] [--no-torch]
      (there) draws the inputs, runs each module with mp-exec --repeat,
      checks every output against NumPy's softmax, and prints a Markdown
      table of device milliseconds and GB/s (the bytes a softmax must move:
      x read once, the result written once), the thread-per-row time over
      the warp-per-row time, and PyTorch's time over mp's, measured in one
      run.
"""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_gemm  # noqa: E402  (the bundle holds both scripts side by side)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = [(16384, 1024), (65536, 256), (8192, 4096)]
WAYS = {"warp": [], "thread": ["--gpu-warp-min-extent", "0"]}

GRAPH = """\
func.func @softmax(%x: tensor<{r}x{c}xf32>) -> tensor<{r}x{c}xf32> {{
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<{r}xf32>
  %n = linalg.fill ins(%ninf : f32) outs(%e : tensor<{r}xf32>) -> tensor<{r}xf32>
  %max = linalg.reduce ins(%x : tensor<{r}x{c}xf32>) outs(%n : tensor<{r}xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {{
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }}
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<{r}xf32>) -> tensor<{r}xf32>
  %sum = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}} ins(%x, %max : tensor<{r}x{c}xf32>, tensor<{r}xf32>) outs(%z : tensor<{r}xf32>) {{
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %ex = math.exp %d : f32
    %s = arith.addf %ex, %acc : f32
    linalg.yield %s : f32
  }} -> tensor<{r}xf32>
  %ey = tensor.empty() : tensor<{r}x{c}xf32>
  %y = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}} ins(%x, %max, %sum : tensor<{r}x{c}xf32>, tensor<{r}xf32>, tensor<{r}xf32>) outs(%ey : tensor<{r}x{c}xf32>) {{
  ^bb0(%in: f32, %m: f32, %s: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %ex = math.exp %d : f32
    %q = arith.divf %ex, %s : f32
    linalg.yield %q : f32
  }} -> tensor<{r}x{c}xf32>
  return %y : tensor<{r}x{c}xf32>
}}
"""


def fail(message):
    sys.exit(f"gpu_reduce.py: {message}")


def build(args):
    mp_run = os.path.join(args.build, "bin", "mp-run")
    reduce = os.path.join(args.out, "reduce")
    os.makedirs(reduce, exist_ok=True)
    for sub, name in (("bin", "mp-exec"), ("lib", "libMPRuntime.so")):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
        shutil.copy(os.path.join(args.build, sub, name),
                    os.path.join(args.out, sub))
    for script in ("gpu_reduce.py", "gpu_gemm.py"):
        shutil.copy(os.path.join(ROOT, "bench", script), args.out)
    for r, c in SHAPES:
        source = os.path.join(reduce, f"softmax-{r}x{c}.mlir")
        with open(source, "w") as f:
            f.write(GRAPH.format(r=r, c=c))
        for way, flags in WAYS.items():
            gpu_gemm.run([mp_run, source, "--entry", "softmax", "--backend",
                          "cuda", *flags, "--compile-only", "--output",
                          os.path.join(reduce, f"softmax-{r}x{c}-{way}")])
    print(f"gpu_reduce.py: {len(SHAPES) * len(WAYS)} modules in {reduce}")


def torch_ms(torch, r, c, repeat):
    x = torch.rand(r, c, device="cuda", dtype=torch.float32)
    return gpu_gemm.median_ms(torch, lambda: torch.softmax(x, dim=1), repeat)


def run_bundle(args):
    import numpy as np
    reduce = os.path.join(args.bundle, "reduce")
    if not os.path.isdir(reduce):
        fail(f"no modules in {reduce}: run 'gpu_reduce.py build' first")
    env = gpu_gemm.bundle_env(args.bundle)
    torch = None if args.no_torch else gpu_gemm.import_torch()
    if not torch and not args.no_torch:
        print("PyTorch with CUDA is not available: no torch column")
    print(f"softmax over rows, f32; median of {args.repeat} calls; device "
          f"ms (CUDA events around the call's work on the stream)\n")
    print("| rows x terms | warp per row ms | GB/s | thread per row ms | "
          "GB/s | thread / warp | torch ms | torch / mp |")
    print("|---|---|---|---|---|---|---|---|")
    failed = 0
    for r, c in SHAPES:
        gb = 2 * r * c * 4 / 1e9
        with tempfile.TemporaryDirectory() as tmp:
            x = np.random.default_rng(r + c).uniform(
                -8, 8, (r, c)).astype(np.float32)
            np.save(os.path.join(tmp, "x.npy"), x)
            e = np.exp(x - x.max(axis=1, keepdims=True))
            want = e / e.sum(axis=1, keepdims=True)
            ms = {}
            for way in WAYS:
                module = os.path.join(reduce, f"softmax-{r}x{c}-{way}")
                try:
                    _, ms[way] = gpu_gemm.mp_time(
                        args.bundle, module, tmp, args.repeat, env,
                        entry="softmax", inputs=("x.npy",))
                except RuntimeError as error:
                    print(f"FAIL {r}x{c} {way}: {error}", file=sys.stderr)
                    failed += 1
                    continue
                got = np.load(os.path.join(tmp, "out", "out0.npy"))
                diff = float(np.max(np.abs(got - want)))
                if not diff <= 1e-5:
                    print(f"FAIL {r}x{c} {way}: max diff {diff:.3g} from "
                          f"NumPy's softmax", file=sys.stderr)
                    failed += 1
                    ms.pop(way)
        cells = []
        for way in WAYS:
            cells += ([f"{ms[way]:.3f}", f"{gb / (ms[way] * 1e-3):.0f}"]
                      if way in ms else ["-", "-"])
        ratio = (f"{ms['thread'] / ms['warp']:.2f}x"
                 if {"warp", "thread"} <= ms.keys() else "-")
        t = torch_ms(torch, r, c, args.repeat) if torch else None
        versus = (f"{t / ms['warp']:.2f}x" if t and "warp" in ms else "-")
        print(f"| {r} x {c} | {' | '.join(cells)} | {ratio} | "
              f"{f'{t:.3f}' if t else '-'} | {versus} |")
    if failed:
        fail(f"{failed} runs failed")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("out")
    b.add_argument("--build", default=os.path.join(ROOT, "build"))
    r = sub.add_parser("run")
    r.add_argument("bundle")
    r.add_argument("--repeat", type=int, default=20)
    r.add_argument("--no-torch", action="store_true")
    args = parser.parse_args()
    if args.command == "build":
        build(args)
    else:
        run_bundle(args)


if __name__ == "__main__":
    main()
