#!/usr/bin/env python3
"""Checks mp-run's outputs against NumPy references computed independently.

For each (file, entry) it runs `mp-run --random-inputs --save-inputs
--save-outputs` (with --amp and --compare-fp32 when asked), loads the saved
inputs, computes the reference in float64 with NumPy and compares:
  * fp32 outputs: max|x - ref| / max|ref| <= 1e-5 (normwise relative error);
  * mixed outputs: the same measure <= the --tol given for that precision.
Prints one line per output and a closing 'N passed, N failed' line.

Usage: numerics.py FILE ENTRY [--amp fp16 --tol 1e-2] [--seed N]
                   [--bf16-dot auto|on|off]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
from tally import Tally  # noqa: E402


def matmul(a, b):
    return [a @ b]


def batch_matmul(a, b):
    return [np.einsum("bmk,bkn->bmn", a, b)]


def conv2d_nhwc_hwcf(x, f, stride=1, dilation=1):
    n, h, w, c = x.shape
    kh, kw, _, fo = f.shape
    oh = (h - dilation * (kh - 1) - 1) // stride + 1
    ow = (w - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, oh, ow, fo))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i * dilation: i * dilation + stride * (oh - 1) + 1: stride,
                      j * dilation: j * dilation + stride * (ow - 1) + 1: stride, :]
            out += np.einsum("nhwc,cf->nhwf", patch, f[i, j])
    return out


def conv2d(x, f):
    return [conv2d_nhwc_hwcf(x, f, stride=2)]


def depthwise_nhwc_hwc(x, f, d):
    n, h, w, c = x.shape
    kh, kw, _ = f.shape
    oh, ow = h - d * (kh - 1), w - d * (kw - 1)
    out = np.zeros((n, oh, ow, c))
    for i in range(kh):
        for j in range(kw):
            out += x[:, i * d: i * d + oh, j * d: j * d + ow, :] * f[i, j]
    return out


def depthwise_conv(x, f):
    return [depthwise_nhwc_hwc(x, f, 2)]


def conv2d_nchw_fchw(x, f, stride=1, dilation=1):
    return conv2d_nhwc_hwcf(x.transpose(0, 2, 3, 1), f.transpose(2, 3, 1, 0),
                            stride, dilation).transpose(0, 3, 1, 2)


def conv_nchw(x, f, b):
    return [conv2d_nchw_fchw(x, f, stride=2) + b[None, :, None, None]]


def conv_nhwc(x, f):
    return [conv2d_nhwc_hwcf(x, f, dilation=2)]


def conv_grouped(x, f):
    return [np.stack([conv2d_nchw_fchw(x[:, g], f[g], dilation=2)
                      for g in range(x.shape[1])], axis=1)]


def conv_1d(x, f):
    return [conv2d_nhwc_hwcf(x[:, None], f[None])[:, 0]]


def conv_odd_pixels(x, f):
    return [conv2d_nchw_fchw(x, f)]


def conv_depthwise(x, f):
    return [depthwise_nhwc_hwc(x, f, 1)]


def spread(x, axis, stride, offset, size):
    """`x` spread `stride` apart from `offset` along `axis` into zeros."""
    shape = list(x.shape)
    shape[axis] = size
    out = np.zeros(shape)
    index = [slice(None)] * x.ndim
    index[axis] = slice(offset, offset + stride * x.shape[axis], stride)
    out[tuple(index)] = x
    return out


def conv_spread_2d(dy, f):
    img = spread(spread(dy, 2, 2, 1, 10), 3, 2, 1, 10)
    return [conv2d_nchw_fchw(img, f)]


def conv_spread_1d(x, f, acc):
    return [acc + conv2d_nhwc_hwcf(spread(x, 1, 3, 4, 14)[:, None],
                                   f[None])[:, 0]]


def softmax_rows(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def softmax(x):
    return [softmax_rows(x)]


def reductions(x):
    return [x.sum(axis=1), x.max(axis=1)]


def layernorm(x, g, b):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return [(x - mean) / np.sqrt(var + 1e-5) * g + b]


def elementwise(x, y):
    return [np.tanh(x * y) + np.exp(x)]


def softplus(x):
    return [np.log1p(np.exp(x))]


def loop(h, w):
    for _ in range(3):
        h = np.tanh(h @ w)
    return [h]


def loop_results(x, w, s):
    fill = np.full((8, 8), s)
    return [fill + x @ w, fill + x, fill + w @ x,
            2 * fill.reshape(2, 4, 8)]


def mlp_grad(w1, b1, w2, b2, x, y, seed):
    pre = x @ w1 + b1
    h = np.maximum(pre, 0)
    logits = h @ w2 + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    s = e.sum(axis=1, keepdims=True)
    logp = shifted - np.log(s)
    batch = x.shape[0]
    loss = -(y * logp).sum() / batch
    dlogits = (e / s - y) * seed / batch
    dw2 = h.T @ dlogits
    db2 = dlogits.sum(axis=0)
    dh = dlogits @ w2.T
    dpre = np.where(pre > 0, dh, 0.0)
    dw1 = x.T @ dpre
    db1 = dpre.sum(axis=0)
    return [np.asarray(loss), dw1, db1, dw2, db2]


def attention(x, wq, wk, wv, w1, w2):
    mean = x.mean(axis=1, keepdims=True)
    var = (x * x).mean(axis=1, keepdims=True) - mean * mean
    norm = (x - mean) / np.sqrt(var + 1e-5)
    q, k, v = norm @ wq, norm @ wk, norm @ wv
    heads = lambda t: t.reshape(16, 2, 16).transpose(1, 0, 2)
    qh, kh, vh = heads(q), heads(k), heads(v)
    p = softmax_rows(np.einsum("hqd,hkd->hqk", qh, kh))
    o = np.einsum("hqk,hkd->hqd", p, vh).transpose(1, 0, 2).reshape(16, 32)
    h = o @ w1
    g = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
    return [g @ w2]


def pairs_matmul(a, b):
    return [a @ b]


def pairs_transposed(a, b, w):
    return [a.T @ b, a.T @ w.T]


def pairs_batch(a, b):
    return batch_matmul(a, b)


def conv_block(img, f1, f2):
    c1 = np.maximum(conv2d_nhwc_hwcf(img, f1), 0)
    p1 = c1.reshape(1, 4, 2, 4, 2, 8).max(axis=(2, 4))
    c2 = conv2d_nhwc_hwcf(p1, f2)
    return [c2.reshape(1, 1, 2, 1, 2, 4).sum(axis=(2, 4))]


def max_pool_padded(x):
    n, c, h, w = x.shape
    p = np.full((n, c, h + 2, w + 2), -np.inf)
    p[:, :, 1:-1, 1:-1] = x
    oh, ow = (h + 2 - 3) // 2 + 1, (w + 2 - 3) // 2 + 1
    return [np.stack([np.stack([p[:, :, 2 * i: 2 * i + 3, 2 * j: 2 * j + 3]
                                .max(axis=(2, 3)) for j in range(ow)], -1)
                      for i in range(oh)], -2)]


def argmax_rows(x):
    return [x.max(axis=1, keepdims=True),
            x.argmax(axis=1)[:, None].astype(np.float64)]


def causal_attention(q, k, v):
    s = np.einsum("bmd,bnd->bmn", q, k)
    s = np.where(np.triu(np.ones(s.shape[1:], bool), 1), -np.inf, s)
    return [np.einsum("bmn,bnd->bmd", softmax_rows(s), v)]


def embedding(table, ids, w):
    return [table[ids.astype(np.int64)] @ w]


def concat_matmul(a, b, w):
    c = np.concatenate([a, b], axis=1)
    return [c @ w, c.sum(axis=0)]


def dropout(x, u, w):
    return [(x * (u > 0.25) * np.float32(1.33333337)) @ w]


REFERENCES = {f.__name__: f for f in [
    matmul, batch_matmul, conv2d, depthwise_conv, softmax, reductions,
    layernorm, elementwise, softplus, loop, loop_results, mlp_grad, attention, conv_block, conv_nchw,
    conv_nhwc, conv_grouped, conv_1d, conv_odd_pixels, conv_depthwise,
    conv_spread_2d, conv_spread_1d,
    pairs_matmul, pairs_transposed, pairs_batch, max_pool_padded,
    argmax_rows, causal_attention, embedding, concat_matmul, dropout]}


def load(path):
    a = np.load(path)
    if a.dtype == np.uint16:  # bf16 bits
        a = (a.astype(np.uint32) << 16).view(np.float32)
    return a.astype(np.float64)


def error(x, ref):
    scale = np.abs(ref).max() if ref.size else 0.0
    diff = np.abs(x - ref).max() if ref.size else 0.0
    return diff / scale if scale > 0 else diff


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("entry")
    parser.add_argument("--amp", default="none")
    parser.add_argument("--tol", type=float, default=1e-2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bf16-dot", help="mp-run's --bf16-dot")
    args = parser.parse_args()
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["mp-run", args.file, "--entry", args.entry, "--random-inputs",
               "--seed", str(args.seed), "--save-inputs", tmp,
               "--save-outputs", tmp]
        if args.amp != "none":
            cmd += ["--amp", args.amp, "--compare-fp32"]
        if args.bf16_dot:
            cmd += ["--bf16-dot", args.bf16_dot]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            tally.record(False, f"{args.entry}: mp-run failed: {run.stderr.strip()}")
            return tally.finish()
        n_args = len([f for f in os.listdir(tmp) if f.startswith("arg")])
        inputs = [load(os.path.join(tmp, f"arg{i}.npy")) for i in range(n_args)]
        refs = REFERENCES[args.entry](*inputs)
        for i, ref in enumerate(refs):
            checks = []
            if args.amp == "none":
                checks.append(("fp32", f"out{i}.npy", 1e-5))
            else:
                checks.append(("fp32", f"out{i}.fp32.npy", 1e-5))
                checks.append((args.amp, f"out{i}.npy", args.tol))
            for label, name, tol in checks:
                x = load(os.path.join(tmp, name))
                if x.shape != np.shape(ref):
                    ok, err = False, float("inf")
                else:
                    err = error(x, np.asarray(ref))
                    ok = err <= tol
                tally.record(ok, f"{args.entry} out{i} {label}: normwise error "
                                 f"{err:.3g} (tolerance {tol:g}) "
                                 f"{'ok' if ok else 'FAIL'}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
