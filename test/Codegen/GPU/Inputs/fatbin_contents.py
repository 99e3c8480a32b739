#!/usr/bin/env python3
"""Lists what the fatbins in FILE hold: FILE is a shared object (the fatbins
are embedded as they are) or MLIR text (they are gpu.object strings, which
MLIR prints with non-printable bytes as \\XX). Prints one line per distinct
content with the number of fatbins that have it, e.g.

  58 fatbins: sass sm_80, ptx sm_80, sass sm_90a

Entries are read from the fatbin's headers as fatbinary (CUDA 12 and 13)
writes them: a 16-byte file header (magic 0xBA55ED50, version, header size,
size of the entries), then per entry a header (u16 kind: 1 PTX, 2 ELF; u32
header size at 4; u64 payload size at 8; u32 SM number at 28; flags at 40,
0x100000 for an architecture-specific 'a' target) and its payload.

Usage: fatbin_contents.py FILE
"""
import re
import struct
import sys

MAGIC = struct.pack('<I', 0xBA55ED50)


def unescape_strings(text):
    for literal in re.findall(r'"((?:[^"\\]|\\.)*)"', text):
        yield re.sub(rb'\\(\\|[0-9A-Fa-f]{2})',
                     lambda m: b'\\' if m.group(1) == b'\\'
                     else bytes([int(m.group(1), 16)]),
                     literal.encode('latin-1'))


def entries(data, start):
    _, _, header, size = struct.unpack_from('<IHHQ', data, start)
    offset, end = start + header, start + header + size
    while offset < end:
        kind, _, entry_header, payload = struct.unpack_from('<HHIQ', data,
                                                            offset)
        sm, = struct.unpack_from('<I', data, offset + 28)
        flags, = struct.unpack_from('<I', data, offset + 40)
        name = {1: 'ptx', 2: 'sass'}.get(kind, 'kind%d' % kind)
        suffix = 'a' if flags & 0x100000 else ''
        yield '%s sm_%d%s' % (name, sm, suffix)
        offset += entry_header + payload


def main():
    with open(sys.argv[1], 'rb') as f:
        data = f.read()
    blobs = [data]
    if not data.startswith(b'\x7fELF'):
        blobs = list(unescape_strings(data.decode('latin-1')))
    counts = {}
    for blob in blobs:
        start = blob.find(MAGIC)
        while start >= 0:
            content = ', '.join(entries(blob, start))
            counts[content] = counts.get(content, 0) + 1
            start = blob.find(MAGIC, start + 4)
    if not counts:
        print('no fatbins')
    for content, count in sorted(counts.items()):
        print('%d fatbins: %s' % (count, content))


if __name__ == '__main__':
    main()
