#!/usr/bin/env python3
"""Writes a Fashion-MNIST-shaped data set (gzipped IDX, 28x28 images) of N
training and N test examples into DIR, labels i % 10 unless --label says
otherwise for example 0 (--same-label L: all examples); --image-dims writes other dimensions into the image
files' headers (the data stays N 28x28 images). Pixels are 0 unless --random
SEED fills them with bytes from Python's random.Random(SEED).

Usage: make_idx.py DIR N [--label L | --same-label L] [--image-dims A,B,C]
                   [--random SEED]
"""
import argparse
import gzip
import os
import random
import struct


def write(path, dims, payload):
    with gzip.open(path, "wb") as f:
        f.write(struct.pack(">BBBB", 0, 0, 8, len(dims)))
        for d in dims:
            f.write(struct.pack(">I", d))
        f.write(payload)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("n", type=int)
    parser.add_argument("--label", type=int)
    parser.add_argument("--same-label", type=int)
    parser.add_argument("--image-dims")
    parser.add_argument("--random", type=int)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    labels = bytes(i % 10 for i in range(args.n))
    if args.label is not None and args.n:
        labels = bytes([args.label]) + labels[1:]
    if args.same_label is not None:
        labels = bytes([args.same_label] * args.n)
    dims = (args.n, 28, 28)
    if args.image_dims:
        dims = tuple(int(d) for d in args.image_dims.split(","))
    pixels = bytes(args.n * 28 * 28)
    if args.random is not None:
        pixels = random.Random(args.random).randbytes(len(pixels))
    for split in ("train", "t10k"):
        write(os.path.join(args.dir, f"{split}-images-idx3-ubyte.gz"),
              dims, pixels)
        write(os.path.join(args.dir, f"{split}-labels-idx1-ubyte.gz"),
              (args.n,), labels)


if __name__ == "__main__":
    main()
