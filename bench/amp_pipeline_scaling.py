#!/usr/bin/env python3
"""Benchmark: mp-amp-pipeline time against parsing+printing the same graph.

Generates MLP-like graphs (matmul, bias add, relu, exp, row sums, casts of
shared weights) of about 10k and 100k ops, and reports for each size the
median wall time of `mp-opt FILE -o /dev/null` (parse + print) and of the
same with mp-amp-pipeline, as a ratio measured in one run, twice: with
mp-opt's default verification of the IR after every pass, and with
--verify-each=false (the passes' own cost). Goal: ratio <= 2 and linear
growth (time per op roughly constant across sizes).

Usage: bench/amp_pipeline_scaling.py [--mp-opt build/bin/mp-opt] [--repeat 3]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

BLOCK = """  %mm{i} = linalg.matmul ins(%h{i}, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%z : tensor<16x16xf32>) -> tensor<16x16xf32>
  %bb{i} = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<16x16xf32>) dimensions = [0]
  %ad{i} = linalg.add ins(%mm{i}, %bb{i} : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %re{i} = linalg.max ins(%ad{i}, %z : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %ex{i} = linalg.exp ins(%re{i} : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %sm{i} = linalg.reduce ins(%ex{i} : tensor<16x16xf32>) outs(%zr : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {{
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }}
  %sb{i} = linalg.broadcast ins(%sm{i} : tensor<16xf32>) outs(%e : tensor<16x16xf32>) dimensions = [1]
  %h{j} = linalg.div ins(%re{i}, %sb{i} : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
"""
OPS_PER_BLOCK = 10  # top-level ops (the reduce body counts as part of it)


def make_graph(blocks):
    lines = [
        "func.func @g(%h0: tensor<16x16xf32>, %w: tensor<16x16xf32>, %b: tensor<16xf32>) -> tensor<16x16xf32> {",
        "  %c0 = arith.constant 0.0 : f32",
        "  %e = tensor.empty() : tensor<16x16xf32>",
        "  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>",
        "  %er = tensor.empty() : tensor<16xf32>",
        "  %zr = linalg.fill ins(%c0 : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>",
    ]
    for i in range(blocks):
        lines.append(BLOCK.format(i=i, j=i + 1))
    lines.append(f"  return %h{blocks} : tensor<16x16xf32>\n}}\n")
    return "\n".join(lines)


def time_cmd(cmd, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser()
    parser.add_argument("--mp-opt", default=os.path.join(root, "build/bin/mp-opt"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="1000,10000")
    args = parser.parse_args()
    pipeline = "--pass-pipeline=builtin.module(mp-amp-pipeline{policy=fp16})"
    print(f"{'ops':>8} {'parse+print s':>14} {'pipeline s':>11} {'ratio':>6} "
          f"{'no-verify s':>12} {'ratio':>6} {'us/op':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for blocks in (int(s) for s in args.sizes.split(",")):
            path = os.path.join(tmp, f"g{blocks}.mlir")
            with open(path, "w") as f:
                f.write(make_graph(blocks))
            ops = blocks * OPS_PER_BLOCK
            base = time_cmd([args.mp_opt, path, "-o", os.devnull], args.repeat)
            full = time_cmd([args.mp_opt, path, pipeline, "-o", os.devnull], args.repeat)
            fast = time_cmd([args.mp_opt, path, pipeline, "--verify-each=false",
                             "-o", os.devnull], args.repeat)
            print(f"{ops:>8} {base:>14.3f} {full:>11.3f} {full / base:>6.2f} "
                  f"{fast:>12.3f} {fast / base:>6.2f} {1e6 * full / ops:>7.2f}")


if __name__ == "__main__":
    main()
