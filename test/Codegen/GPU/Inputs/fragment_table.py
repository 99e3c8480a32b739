#!/usr/bin/env python3
"""Compares what mp-test-fragment-layout prints (per mma.sync, operand and
lane: the buffer element behind each fragment element) with the fragment
tables of the PTX ISA for mma.sync.aligned.m16n8k16 with .f16/.bf16 A and B
and .f32 C/D ("Matrix fragments for mma.m16n8k16 with floating point type"),
written here from the document, not from the compiler:

  groupID = laneid >> 2, threadID_in_group = laneid % 4
  A (16x16, row major), a0..a7:
    row = groupID            for a0, a1, a4, a5
          groupID + 8        for a2, a3, a6, a7
    col = threadID_in_group * 2 + (i & 1)       for a0..a3
          threadID_in_group * 2 + (i & 1) + 8   for a4..a7
  B (16x8, K x N, column major), b0..b3:
    row = threadID_in_group * 2 + (i & 1)       for b0, b1
          threadID_in_group * 2 + (i & 1) + 8   for b2, b3
    col = groupID
  C and D (16x8), c0..c3:
    row = groupID for c0, c1; groupID + 8 for c2, c3
    col = threadID_in_group * 2 + (i & 1)

With --b-transposed, B is read from an N x K buffer, with --a-transposed A
from a K x M buffer: (row, col) swap.

A warp computes several m16n8k16 tiles of larger panels: each mma's operand
is then the table moved by the offset of its tile, which is read off lane 0's
first element and must agree between operands (A's and B's K offsets; C's
row and column offsets with A's rows and B's columns; an element or lane
this test could not follow, '?', makes a mismatch).
Prints per mma and operand how many lanes match and 'N mma, M mismatches'.
"""
import argparse
import re
import sys


def expected(operand, lane):
    g, t = lane >> 2, lane % 4
    if operand == "A":
        return [(g + 8 * ((i >> 1) & 1), t * 2 + (i & 1) + 8 * (i >> 2))
                for i in range(8)]
    if operand == "B":
        return [(t * 2 + (i & 1) + 8 * (i >> 1), g) for i in range(4)]
    return [(g + 8 * (i >> 1), t * 2 + (i & 1)) for i in range(4)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--a-transposed", action="store_true")
    parser.add_argument("--b-transposed", action="store_true")
    args = parser.parse_args()
    transposed = {"A": args.a_transposed, "B": args.b_transposed}
    line_re = re.compile(r"^mma (\d+) ([ABCD]) lane (\d+):(.*)$")
    lines = {}
    for line in sys.stdin:
        m = line_re.match(line.strip())
        if m:
            lines[(int(m.group(1)), m.group(2), int(m.group(3)))] = [
                tuple(int(x) for x in e.split(",")) if e != "?" else None
                for e in m.group(4).split()]

    def offset(mma, operand):
        """The (row, col) of the tile, in the table's orientation."""
        first = (lines.get((mma, operand, 0)) or [None])[0]
        if first is None:
            return None
        if transposed.get(operand):
            first = first[::-1]
        base = expected(operand, 0)[0]
        return (first[0] - base[0], first[1] - base[1])

    seen = {}
    mismatches = 0
    for (mma, operand, lane), got in sorted(lines.items()):
        moved = offset(mma, operand)
        a, b = offset(mma, "A"), offset(mma, "B")
        consistent = moved is not None and a is not None and b is not None
        if consistent and operand == "A":
            consistent = a[1] == b[0]
        elif consistent and operand in "CD":
            consistent = moved == (a[0], b[1])
        want = [(r + moved[0], c + moved[1]) if consistent else None
                for r, c in expected(operand, lane)]
        if transposed.get(operand):
            want = [(w[1], w[0]) if w else None for w in want]
        ok = consistent and got == want
        seen.setdefault((mma, operand), [0, 0])[0 if ok else 1] += 1
        if not ok:
            mismatches += 1
            print(f"mma {mma} {operand} lane {lane}: got {got}, "
                  f"the ISA says {want}")
    for (mma, operand), (good, bad) in sorted(seen.items()):
        print(f"mma {mma} {operand}: {good} lanes match, {bad} differ")
    count = len({mma for mma, _ in seen})
    print(f"{count} mma, {mismatches} mismatches")
    return 1 if mismatches or not seen else 0


if __name__ == "__main__":
    sys.exit(main())
