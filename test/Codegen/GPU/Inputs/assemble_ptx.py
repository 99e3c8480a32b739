#!/usr/bin/env python3
"""Extracts the PTX of every gpu.binary in an MLIR file (mp-lower-to-gpu with
format=isa), writes it as DIR/<module>.<chip>.ptx, assembles each with
ptxas -v for its chip and reports, per kernel, registers and spills.

Usage: assemble_ptx.py MLIR_FILE DIR PTXAS
Exit status 1 if a PTX does not assemble.
"""
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


def main():
    source, out, ptxas = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    text = open(source).read()
    failures = 0
    count = 0
    for binary in re.finditer(r'gpu\.binary @(\w+)\s*\[(.*?)\]\n', text, re.S):
        name = binary.group(1)
        for obj in OBJECT.finditer(binary.group(2)):
            chip = re.search(r'chip = "(\w+)"', obj.group(1)).group(1)
            path = os.path.join(out, f"{name}.{chip}.ptx")
            with open(path, "w") as f:
                f.write(unescape(obj.group(2)))
            run = subprocess.run([ptxas, f"-arch={chip}", "-v", path, "-o",
                                  os.devnull], capture_output=True, text=True)
            count += 1
            if run.returncode != 0:
                failures += 1
                print(f"{name} {chip}: ptxas failed:\n{run.stderr}")
                continue
            spills = re.findall(r'(\d+) bytes spill stores, (\d+) bytes spill loads',
                                run.stderr)
            spilled = sum(int(a) + int(b) for a, b in spills)
            regs = max([int(r) for r in re.findall(r'Used (\d+) registers',
                                                   run.stderr)] or [0])
            print(f"{name} {chip}: {regs} registers, {spilled} bytes spilled")
    print(f"{count} PTX files, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
