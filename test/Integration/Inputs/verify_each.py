#!/usr/bin/env python3
"""Runs every mp pass and pipeline on every .mlir file of the repository
(split at '// -----') and checks that none emits IR that fails
verification or crashes: a pass either succeeds with valid IR or fails with
its own diagnostic.

Each run uses --verify-each=false so an invalid output is printed (in the
generic form) instead of being caught; the output is then parsed and
verified again by a plain mp-opt. One mp-opt process takes every chunk
(--split-input-file) of a batch of about 8 MB per pass; when it crashes or
hangs, or its output does not verify, the chunks run one per process to
name the one that did.

With --in-process, the output is verified in the process that made it
(mp-test-verify after the pass, which says so when it fails) and not parsed
again: half the processes, for the sanitizer build, where the round trip
through the upstream printer and parser finds nothing that the plain
build's run would not. The pipelines to the LLVM dialect (LOWERED) are
always checked so: their outputs hold upstream's dialects only (llvm, gpu),
whose printers and parsers are upstream's.

Usage: verify_each.py ROOT [--skip PASS]... [--in-process]
  --skip PASS   leave out a pass of PASSES (as written there)
"""
import argparse
import concurrent.futures
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import Tally  # noqa: E402

PASSES = [
    "mp-classify-precision", "mp-insert-casts", "mp-optimize-casts",
    "mp-verify-training-contract", "mp-loss-scaling", "mp-make-train-step",
    "mp-make-train-step=accumulate=2", "convert-mp-to-standard",
    "mp-decompose-aggregates", "mp-split-convolution-phases",
    "mp-pack-bf16-contractions",
    "mp-widen-contraction-operands",
    "mp-conv-to-gemm", "mp-flatten-elementwise", "mp-distribute-loops",
    "mp-fuse-elementwise",
    "mp-protect-arguments", "mp-update-state-in-place",
    "mp-return-state-in-place", "mp-vectorize-contractions",
    "mp-vectorize-gathers", "mp-vectorize-reductions",
    "mp-strided-copies-to-linalg", "mp-unalias-loop-results",
    "mp-write-into-slices",
    "mp-llvm-bf16-as-i16", "mp-keep-emulated-roundings",
    "mp-multiply-add-to-fma",
    "mp-amp-pipeline",
    "mp-amp-pipeline=policy=bf16 level=unsafe-force-all",
    "mp-train-pipeline", "mp-lower-to-cpu", "mp-lower-to-cpu=bf16-dot=true",
    "mp-gpu-wgmma-variants", "mp-gpu-merge-chip-variants",
    "mp-gpu-align-workgroup-buffers", "mp-gpu-swizzle-panels",
    "mp-gpu-dynamic-shared-memory",
    "mp-gpu-device-scalars", "mp-gpu-fold-transposes", "mp-gpu-select-gemm",
    "mp-gpu-select-gemm=gemm=library", "mp-gpu-conv-to-gemm",
    "mp-gpu-expand-elementwise", "mp-gpu-collapse-elementwise",
    "mp-gpu-choose-tiles", "mp-gpu-split-k", "mp-gpu-split-k=min-k=32",
    "mp-gpu-generate-pads",
    "mp-gpu-materialize-constants", "mp-gpu-library-gemm",
    "mp-gpu-library-conv", "mp-gpu-tile-contractions",
    "mp-gpu-tile-contractions=stages=2", "mp-gpu-tile-reductions",
    "mp-gpu-emulate-workgroup-memory", "mp-gpu-emulate-subgroup-reduce",
    "mp-gpu-emulate-mma",
    "mp-gpu-async-copies", "mp-gpu-map-forall-to-launch",
    "mp-gpu-subgroup-reduce-to-shuffles", "mp-gpu-vector-to-mma",
    "mp-gpu-vector-to-fma", "mp-gpu-pair-ldmatrix",
    "mp-gpu-copies-to-linalg", "mp-gpu-parallel-dims-outermost",
    "mp-gpu-scalar-ops-to-parallel", "mp-gpu-fuse-parallel-loops",
    "mp-gpu-promote-accumulators", "mp-gpu-map-parallel-loops",
    "mp-gpu-merge-launches", "mp-gpu-name-kernels", "mp-gpu-async-launches",
    "mp-gpu-launch-bounds",
    "mp-lower-to-gpu-emulation", "mp-lower-to-gpu=format=isa",
    # Hopper's variants in blocks of two warpgroups: the split panels and
    # dynamic shared memory on every input.
    "mp-lower-to-gpu=format=isa wgmma=true tile-m=128 tile-n=128",
]

# Pipelines whose outputs hold only upstream's dialects (llvm, gpu).
LOWERED = {
    "mp-lower-to-cpu", "mp-lower-to-cpu=bf16-dot=true",
    "mp-lower-to-gpu-emulation", "mp-lower-to-gpu=format=isa",
    "mp-lower-to-gpu=format=isa wgmma=true tile-m=128 tile-n=128",
}

MARKER = "// -----"
SPLIT = ["--split-input-file", f"--output-split-marker={MARKER}"]
# Parses and verifies: a valid chunk prints as 'module {...}', not in full
# (the emulation's outputs are hundreds of MB together).
CHECK = ["--mlir-print-skip-regions"]
# mp-test-verify's error when a pass's output does not verify.
INVALID = "mp-test-verify: the IR does not verify"
BATCH_BYTES = 8 << 20


def run(args, stdin, timeout=120):
    return subprocess.run(["mp-opt"] + args, input=stdin, capture_output=True,
                          text=True, timeout=timeout)


def crashed(out):
    return (out.returncode < 0 or out.returncode >= 128
            or "Stack dump" in out.stderr)


def batches(chunks):
    """Consecutive chunks of about BATCH_BYTES together: mp-opt's
    --split-input-file takes time in the size of its whole input for each
    chunk (all the emulation's outputs in one input: 95 s, not 30)."""
    batch, size = [], 0
    for chunk in chunks:
        if batch and size + len(chunk) > BATCH_BYTES:
            yield batch
            batch, size = [], 0
        batch.append(chunk)
        size += len(chunk)
    if batch:
        yield batch


def run_chunks(args, chunks):
    """Runs mp-opt over the chunks (--split-input-file), one process per
    batch; returns its diagnostics and each chunk's output, empty where
    mp-opt refused the chunk (no outputs if it crashed or hung)."""
    errors, outputs = "", []
    for batch in batches(chunks):
        try:
            out = run(SPLIT + args + ["-"], f"\n{MARKER}\n".join(batch),
                      timeout=900)
        except subprocess.TimeoutExpired:
            return errors + "it hung", None
        errors += out.stderr
        parts = out.stdout.split(MARKER)
        if crashed(out) or len(parts) != len(batch):
            return errors, None
        outputs += [o.strip() for o in parts]
    return errors, outputs


def check_one(chunk, name, flag):
    """None if fine, else why not: one chunk in a process of its own."""
    try:
        out = run(["--verify-each=false", "--mlir-print-op-generic",
                   f"--{flag}", "-"], chunk)
    except subprocess.TimeoutExpired:
        return f"{name}: --{flag} hung (more than 120 s)"
    if crashed(out):
        return f"{name}: --{flag} crashed:\n{out.stderr[-2000:]}"
    if out.returncode != 0:
        return None  # refused the input with a diagnostic
    again = run(CHECK + ["-"], out.stdout)
    if again.returncode != 0:
        return f"{name}: --{flag} emitted invalid IR:\n{again.stderr[-2000:]}"
    return None


def check_pass(chunks, names, flag, in_process):
    """Why each chunk failed under --flag (None where it is fine). The chunks
    go through a process per batch; a crash or invalid output reruns them
    one by one to name it."""
    if in_process:
        errors, outputs = run_chunks(
            ["--verify-each=false", f"--{flag}", "--mp-test-verify"] + CHECK,
            chunks)
        if outputs is not None and INVALID not in errors:
            return [None] * len(chunks)
        return [check_one(c, n, flag) for c, n in zip(chunks, names)]
    _, outputs = run_chunks(["--verify-each=false", "--mlir-print-op-generic",
                             f"--{flag}"], chunks)
    if outputs is not None:
        # Chunks the pass refused print nothing and stay out of the re-parse.
        done = [i for i, o in enumerate(outputs) if o]
        again, reparsed = run_chunks(CHECK, [outputs[i] for i in done])
        if reparsed is not None:
            whys = [None] * len(chunks)
            for i, o in zip(done, reparsed):
                if not o:
                    whys[i] = (f"{names[i]}: --{flag} emitted invalid IR:\n"
                               f"{again[-2000:]}")
            return whys
    return [check_one(c, n, flag) for c, n in zip(chunks, names)]


def main():
    parser = argparse.ArgumentParser(prog="verify_each.py")
    parser.add_argument("root")
    parser.add_argument("--skip", action="append", default=[],
                        metavar="PASS")
    parser.add_argument("--in-process", action="store_true")
    args = parser.parse_args()
    root = args.root
    unknown = [p for p in args.skip if p not in PASSES]
    if unknown:
        sys.exit(f"verify_each.py: --skip: no pass {', '.join(unknown)}")
    passes = [p for p in PASSES if p not in args.skip]
    files = sorted(glob.glob(os.path.join(root, "test", "**", "*.mlir"),
                             recursive=True)
                   + glob.glob(os.path.join(root, "examples", "**", "*.mlir"),
                               recursive=True))
    chunks, names = [], []
    for path in files:
        for i, chunk in enumerate(open(path).read().split(MARKER)):
            chunks.append(chunk)
            names.append(f"{os.path.relpath(path, root)}#{i}")
    # Inputs that do not parse and verify are the parser's tests.
    out, parsed = run_chunks(CHECK, chunks)
    if parsed is None:
        sys.exit(f"verify_each.py: mp-opt could not parse the inputs:\n"
                 f"{out[-2000:]}")
    keep = [i for i, o in enumerate(parsed) if o]
    chunks = [chunks[i] for i in keep]
    names = [names[i] for i in keep]
    tally = Tally()
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for whys in pool.map(
                lambda flag: check_pass(chunks, names, flag,
                                        args.in_process or flag in LOWERED),
                passes):
            for why in whys:
                tally.record(why is None, why)
    print(f"{len(chunks) * len(passes)} runs of {len(passes)} passes")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
