"""Checks the shared memory descriptors of mp-gpu-wgmma-variants
against the panels as mp-gpu-swizzle-panels lays them out, with neither
pass's code: reads MLIR (after both passes, canonicalized; `// -----`
between functions) on stdin, and for each wgmma.mma_async

- evaluates the i64 arithmetic that makes its two descriptors, with each
  panel starting at address 0 (the panels are 1024-byte aligned) and the
  slot of a double-buffered panel 0 and 1;
- lays the panel out as docs/GPU.md says mp-gpu-swizzle-panels does: row r
  at r * (bytes per row), its 16-byte chunk c at chunk
  c XOR ((r / rows per 128-byte line) mod min(chunks per row, 8)); rows
  wider than 128 bytes as their 128-byte blocks one after the other: block
  b of row r is line b * rows + r, at (b * rows + r) * 128, its chunk c at
  c XOR (line mod 8);
- reads the operand the way the PTX ISA defines wgmma's canonical layouts
  ("shared memory matrix layout", "matrix descriptor"): groups of 8 rows of
  the swizzle width (32, 64 or 128 bytes) apart, groups stride-byte-offset
  apart; K-major: an M (N) row of the tile is a row of the pattern, K
  along it; M/N-major: a K row of the tile is a row of the pattern, M (N)
  along it; then the swizzle mode's XOR of address bits 4.. with bits 7..;
- requires every element of the 64 x 16 A tile and the 16 x N B tile of
  the i-th wgmma after a wgmma.fence to be the panel's element at K offset
  16 i; in a block of several warpgroups (known_block_size), evaluated for
  the first thread of each, warpgroup g's A tile is rows 64 g to 64 g + 63.

Prints one line per wgmma and fails on the first wrong element."""
import re
import sys

ASSIGN = re.compile(r"^\s*(%[-\w#.$]+) = (\S+) (.*)$")


def parse_memref(text):
    """A panel's (slots,) rows, cols: a batched GEMM's unit batch dimension
    (after the slots, if any) dropped."""
    m = re.search(r"memref<([\dx]+)x(f16|bf16)", text)
    shape = [int(d) for d in m.group(1).split("x")]
    if len(shape) == 4 and shape[1] == 1:
        return shape[:1] + shape[2:]
    if len(shape) == 3 and shape[0] == 1:
        return shape[1:]
    return shape


class Function:
    def __init__(self, lines):
        self.defs = {}
        self.wgmmas = []
        for line in lines:
            m = ASSIGN.match(line)
            if not m:
                if "nvvm.wgmma.fence.aligned" in line:
                    self.wgmmas.append("fence")
                continue
            name, op, rest = m.groups()
            self.defs[name] = (op, rest)
            if op == "nvvm.wgmma.mma_async":
                self.wgmmas.append(rest)

    def evaluate(self, name, slot, tid=(0, 0, 0)):
        """The value of `name` for thread `tid` and the panel (shape) its
        address is of."""
        op, rest = self.defs[name]
        if op == "arith.constant":
            return int(rest.split(":")[0]), None
        if op == "gpu.thread_id":
            return tid["xyz".index(rest.strip())], None
        if op == "memref.extract_aligned_pointer_as_index":
            return 0, parse_memref(rest)
        operands = re.findall(r"%[-\w#.$]+", rest.split(":")[0])
        if op == "arith.index_cast":
            return self.evaluate(operands[0], slot, tid)
        if op.startswith("affine.apply") or op not in (
                "arith.addi", "arith.muli", "arith.shrui", "arith.andi",
                "arith.ori", "arith.divui"):
            # The slot index of a double-buffered panel.
            return slot, None
        (x, px), (y, py) = (self.evaluate(o, slot, tid) if o in self.defs
                            else (slot, None) for o in operands)
        mask = (1 << 64) - 1
        value = {"arith.addi": lambda: x + y, "arith.muli": lambda: x * y,
                 "arith.divui": lambda: x // y,
                 "arith.shrui": lambda: (x & mask) >> y,
                 "arith.andi": lambda: x & y,
                 "arith.ori": lambda: x | y}[op]()
        return value, px or py


def panel_image(shape, values):
    """Bytes -> element of a panel (slots, rows, cols) of 2-byte elements
    laid out by mp-gpu-swizzle-panels."""
    slots, rows, cols = ([1] + shape)[-3:]
    row_bytes = cols * 2
    line_bytes = min(row_bytes, 128)
    chunks = line_bytes // 16
    rows_per_line = max(1, 128 // row_bytes)
    period = min(chunks, 8)
    image = {}
    for s in range(slots):
        for r in range(rows):
            for c in range(cols):
                block, byte = divmod(c * 2, line_bytes)
                line = block * rows + r
                chunk, within = divmod(byte, 16)
                chunk ^= (line // rows_per_line) % period
                address = (s * rows * row_bytes + line * line_bytes +
                           chunk * 16 + within)
                image[address] = values(s, r, c)
    return image


def read_operand(descriptor, image, k_major, extent):
    """The extent x 16 tile (M or N by K) that a descriptor describes."""
    start = (descriptor & 0x3FFF) << 4
    leading = ((descriptor >> 16) & 0x3FFF) << 4
    stride = ((descriptor >> 32) & 0x3FFF) << 4
    base_offset = (descriptor >> 49) & 7
    mode = descriptor >> 62
    assert base_offset == 0, "base offset %d" % base_offset
    width = {1: 128, 2: 64, 3: 32}[mode]  # bytes per row of the pattern
    bits = {128: 3, 64: 2, 32: 1}[width]
    tile = {}
    for i in range(extent):
        for k in range(16):
            if k_major:
                offset = (i % 8) * width + (i // 8) * stride + k * 2
            else:
                offset = ((k % 8) * width + (k // 8) * stride +
                          (i * 2) % width + (i * 2 // width) * leading)
            address = start + offset
            address ^= ((address >> 7) & ((1 << bits) - 1)) << 4
            tile[i, k] = image[address]
    return tile


def check(function, label, block):
    groups = block[0] * block[1] * block[2] // 128
    step = 0
    for rest in function.wgmmas:
        if rest == "fence":
            step = 0
            continue
        descs = re.findall(r"%[-\w#.$]+", rest.split("<m")[0])[:2]
        n = int(re.search(r"n = (\d+)", rest).group(1))
        a_layout = re.search(r"A\[<\w+>, <\w+>, <(\w+)>\]", rest).group(1)
        b_layout = re.search(r"B\[<\w+>, <\w+>, <(\w+)>\]", rest).group(1)
        for slot, group in ((s, g) for s in (0, 1) for g in range(groups)):
            # The first thread of the warpgroup.
            linear = 128 * group
            tid = (linear % block[0], linear // block[0] % block[1],
                   linear // (block[0] * block[1]))
            for which, desc, extent, k_major in (
                    ("A", descs[0], 64, a_layout == "row"),
                    ("B", descs[1], n, b_layout == "col")):
                value, shape = function.evaluate(desc, slot, tid)
                if len(shape) == 2 and slot:
                    continue
                # Element (slot, row, col) of the panel is that triple.
                image = panel_image(shape, lambda s, r, c: (s, r, c))
                tile = read_operand(value & ((1 << 64) - 1), image, k_major,
                                    extent)
                for (i, k), got in sorted(tile.items()):
                    kk = 16 * step + k
                    if which == "A":
                        i += 64 * group
                    want = (slot, i, kk) if k_major else (slot, kk, i)
                    if len(shape) == 2:
                        want = (0,) + want[1:]
                    if got != want:
                        sys.exit("%s: wgmma %d, %s slot %d warpgroup %d: "
                                 "element (%d, %d) reads panel %s, expected "
                                 "%s" % (label, step, which, slot, group, i,
                                         k, got[1:], want[1:]))
        print("%s: wgmma m64n%dk16 #%d: A %s-major, B %s-major, %d "
              "warpgroup%s, tiles match"
              % (label, n, step, "K" if a_layout == "row" else "M",
                 "K" if b_layout == "col" else "N", groups,
                 "s" if groups > 1 else ""))
        step += 1


def main():
    text = sys.stdin.read()
    for chunk in text.split("// -----"):
        name = re.search(r"func\.func @(\w+)", chunk)
        block = re.search(r"known_block_size = array<i32: (\d+), (\d+), "
                          r"(\d+)>", chunk)
        if name and block:
            check(Function(chunk.splitlines()), name.group(1),
                  [int(d) for d in block.groups()])


if __name__ == "__main__":
    main()
