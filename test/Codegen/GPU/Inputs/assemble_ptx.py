#!/usr/bin/env python3
"""Assembles every DIR/<module>.<chip>.ptx (as mp-run --save-ptx writes them)
with ptxas -v for its chip and reports, per kernel, registers and spills; a
kernel with mma.sync or wgmma.mma_async is a GEMM. Given an MLIR file
(mp-lower-to-gpu with format=isa), first extracts the PTX of its gpu.binary
ops into DIR.

With --mma TYPE (f16 or bf16), every mma instruction must be
mma.sync.aligned.m16n8k16.row.col.f32.TYPE.TYPE.f32 and every wgmma
wgmma.mma_async.sync.aligned.m64nNk16.f32.TYPE.TYPE (f32 accumulation, the
policy's type); others are reported and fail.

With --report FILE (mp-run's --kernel-report JSON), the kernels it calls f32
GEMMs on CUDA cores are GEMMs too (their spills count) and are counted.

A kernel with more than 48 KiB of static shared memory fails: CUDA launches
only dynamic shared memory beyond that (mp-gpu-dynamic-shared-memory).
Kernels with dynamic shared memory (`.extern .shared`) are counted.

Usage: assemble_ptx.py PTXAS DIR [MLIR_FILE] [--mma TYPE] [--report FILE]
Prints 'N PTX files, F failed, G GEMM kernels, S spilling GEMMs' and, if
any, ', W on wgmma', ', C f32 on CUDA cores' and ', D with dynamic shared
memory'; exit status 1 if a PTX does not assemble or an mma is
of another type.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

OBJECT = re.compile(r'#gpu\.object<#nvvm\.target<([^>]*)>,\s*'
                    r'(?:properties = \{[^}]*\},\s*)?(?:assembly = )?'
                    r'"((?:[^"\\]|\\.)*)"', re.S)


def unescape(text):
    # MLIR prints non-printable bytes of a string as \XX (hex) and \ as \\.
    return re.sub(r'\\(\\|[0-9A-Fa-f]{2})',
                  lambda m: '\\' if m.group(1) == '\\' else chr(int(m.group(1), 16)),
                  text)


def extract(source, out):
    text = open(source).read()
    for binary in re.finditer(r'gpu\.binary @(\w+)\s*\[(.*?)\]\n', text, re.S):
        name = binary.group(1)
        for obj in OBJECT.finditer(binary.group(2)):
            chip = re.search(r'chip = "(\w+)"', obj.group(1)).group(1)
            with open(os.path.join(out, f"{name}.{chip}.ptx"), "w") as f:
                f.write(unescape(obj.group(2)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ptxas")
    parser.add_argument("dir")
    parser.add_argument("mlir", nargs="?")
    parser.add_argument("--mma")
    parser.add_argument("--report")
    parser.add_argument("--max-scalar-loads", type=int,
                        help="fail if the GEMM kernels' PTX has more scalar "
                        "ld.global instructions than this (all chips): their "
                        "operand copies are meant to move 4 to 16 bytes")
    args = parser.parse_args()
    simt = set()
    if args.report:
        for function in json.load(open(args.report))["functions"]:
            simt.update(k["name"] for k in function["per_kernel"]
                        if k["kind"] == "f32 GEMM on CUDA cores")
    ptxas, out = args.ptxas, args.dir
    os.makedirs(out, exist_ok=True)
    if args.mlir:
        extract(args.mlir, out)
    failures = gemms = spilling_gemms = wgmmas = simts = dynamic = 0
    scalar_loads = 0
    paths = sorted(glob.glob(os.path.join(out, "*.ptx")))
    for path in paths:
        name, chip = os.path.basename(path)[:-len(".ptx")].rsplit(".", 1)
        text = open(path).read()
        wgmma = "wgmma.mma_async" in text
        cuda_cores = name in simt
        gemm = "mma.sync" in text or wgmma or cuda_cores
        if args.mma:
            want = f"mma.sync.aligned.m16n8k16.row.col.f32.{args.mma}.{args.mma}.f32"
            for mma in set(re.findall(r"\bmma\.[\w.]+", text)) - {want}:
                failures += 1
                print(f"{name} {chip}: {mma}, expected {want}")
            for mma in set(re.findall(r"\bwgmma\.mma_async[\w.]+", text)):
                if not re.fullmatch(r"wgmma\.mma_async\.sync\.aligned\.m64n"
                                    rf"\d+k16\.f32\.{args.mma}\.{args.mma}",
                                    mma):
                    failures += 1
                    print(f"{name} {chip}: {mma}, expected an f32 "
                          f"accumulator and {args.mma} operands")
        run = subprocess.run([ptxas, f"-arch={chip}", "-v", path, "-o",
                              os.devnull], capture_output=True, text=True)
        if run.returncode != 0:
            failures += 1
            print(f"{name} {chip}: ptxas failed:\n{run.stderr}")
            continue
        spills = re.findall(r'(\d+) bytes spill stores, (\d+) bytes spill loads',
                            run.stderr)
        spilled = sum(int(a) + int(b) for a, b in spills)
        regs = max([int(r) for r in re.findall(r'Used (\d+) registers',
                                               run.stderr)] or [0])
        smem = max([int(b) for b in re.findall(r'(\d+) bytes smem',
                                               run.stderr)] or [0])
        if smem > 48 * 1024:
            failures += 1
            print(f"{name} {chip}: {smem} bytes of static shared memory, "
                  "more than the 48 KiB a launch allows")
        dynamic += ".extern .shared" in text
        gemms += gemm
        if gemm:
            scalar_loads += len(re.findall(r"^\s*(?:@%p\d+\s+)?ld\.global"
                                           r"(?![\w.]*\.v[248]\b)[\w.]*\s",
                                           text, re.M))
        wgmmas += wgmma
        simts += cuda_cores
        spilling_gemms += gemm and spilled > 0
        print(f"{name} {chip}: {'GEMM, ' if gemm else ''}{regs} registers, "
              f"{spilled} bytes spilled")
    if args.max_scalar_loads is not None:
        print(f"{scalar_loads} scalar global loads in the GEMM kernels, "
              f"at most {args.max_scalar_loads}")
        failures += scalar_loads > args.max_scalar_loads
    print(f"{len(paths)} PTX files, {failures} failed, {gemms} GEMM kernels, "
          f"{spilling_gemms} spilling GEMMs"
          + (f", {wgmmas} on wgmma" if wgmmas else "")
          + (f", {simts} f32 on CUDA cores" if simts else "")
          + (f", {dynamic} with dynamic shared memory" if dynamic else ""))
    return 1 if failures or not paths else 0


if __name__ == "__main__":
    sys.exit(main())
