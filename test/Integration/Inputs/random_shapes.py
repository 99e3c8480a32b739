#!/usr/bin/env python3
"""Random fp32 graphs of rectangular tensors of odd sizes, for testing mp.

random_graph.py's tensors are all N x N: a contraction's M, N and K are
equal, so a kernel that confused two of them, or the edges of one with
another's, would agree with the CPU backend there. Here every tensor has its
own shape, drawn from sizes around the GPU tiles' (1, 3, 5, ..., 61, 64, 67,
..., 130) and batches of 1 to 5: contractions (linalg.matmul, its transposed
forms, generic contractions, batch matmuls plain and A x B^T) of unrelated
M, N and K, accumulating into a zero fill or into another tensor; bias and
activation epilogues; elementwise chains; reductions along any dimension;
broadcasts, transposes, softmaxes along any dimension, reshapes between
2-D and 3-D, slices at odd offsets and inserts; convolutions of odd images
with strides 1 and 2. An operand of a shape nothing computed yet has is a new
function argument. Every value the body computes is a result, so each op is
compared. Only the Python standard library is needed.

dynamic_contraction(seed) draws a graph of one contraction of dynamic sizes
instead (a matmul or batch matmul, A or B transposed or not, each of M, N,
K and the batch dynamic or not, at least one dynamic; into a tensor, a ReLU
after it or not) and the shapes of its arguments' values.

Usage: random_shapes.py SEED [--ops N | --dynamic]
"""
import random
import sys

DIMS = [1, 3, 5, 8, 13, 16, 17, 24, 29, 32, 37, 48, 61, 64, 67, 96, 130]
BATCHES = [1, 2, 3, 5]
FACTORS = [2, 3, 5]


def ttype(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def body(emit, args, lines, result):
    """A linalg region over f32 block arguments `args` computing `lines`."""
    emit("^bb0(" + ", ".join(f"{a}: f32" for a in args) + "):")
    for line in lines:
        emit("  " + line)
    emit(f"  linalg.yield {result} : f32")


class ShapeGen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.n = 0
        self.lines = []
        self.args = []      # (name, shape)
        self.values = []    # (name, shape): what the body computed

    def name(self, prefix="v"):
        self.n += 1
        return f"%{prefix}{self.n}"

    def emit(self, text):
        self.lines.append("  " + text)

    def dim(self):
        return self.r.choice(DIMS)

    def operand(self, shape):
        """A value of `shape`: a computed one (usually) or a new argument."""
        same = [v for v, s in self.args + self.values if s == shape]
        if same and self.r.random() < 0.75:
            return self.r.choice(same)
        v = f"%a{len(self.args)}"
        self.args.append((v, shape))
        return v

    def any_value(self, rank):
        """A value of `rank` dimensions: computed, or a new argument."""
        pool = [(v, s) for v, s in self.values if len(s) == rank]
        if pool and self.r.random() < 0.8:
            return self.r.choice(pool)
        if rank == 3:
            shape = (self.r.choice(BATCHES), self.dim(), self.dim())
        else:
            shape = tuple(self.dim() for _ in range(rank))
        return self.operand(shape), shape

    def result(self, v, shape):
        self.values.append((v, shape))
        return v

    def empty(self, shape):
        e = self.name("e")
        self.emit(f"{e} = tensor.empty() : {ttype(shape)}")
        return e

    def fill(self, shape, value="0.0"):
        c, f = self.name("c"), self.name("z")
        self.emit(f"{c} = arith.constant {value} : f32")
        self.emit(f"{f} = linalg.fill ins({c} : f32) outs({self.empty(shape)} : {ttype(shape)}) -> {ttype(shape)}")
        return f

    def init(self, shape):
        """A contraction's accumulator: zeros, or a tensor it adds to."""
        if self.r.random() < 0.7:
            return self.fill(shape)
        return self.operand(shape)

    # ---- op emitters
    def matmul(self):
        """C[m, n] += A x B with A and B in any of linalg.matmul's layouts,
        or as a linalg.generic."""
        m, n, k = self.dim(), self.dim(), self.dim()
        layout = self.r.choice(["mk,kn", "mk,kn", "km,kn", "mk,nk", "generic"])
        a_dims, b_dims = (("m", "k"), ("k", "n")) if layout == "generic" else (
            tuple(layout.split(",")[0]), tuple(layout.split(",")[1]))
        size = {"m": m, "n": n, "k": k}
        a_shape = tuple(size[d] for d in a_dims)
        b_shape = tuple(size[d] for d in b_dims)
        a, b, c = self.operand(a_shape), self.operand(b_shape), self.init((m, n))
        v = self.name()
        types = f"{ttype(a_shape)}, {ttype(b_shape)}"
        if layout == "generic":
            self.multiply_accumulate(v, "m, n, k", ["m, k", "k, n", "m, n"],
                                     ["parallel", "parallel", "reduction"],
                                     a, b, c, types, (m, n))
        else:
            maps = ""
            if layout != "mk,kn":
                maps = (f"indexing_maps = [affine_map<(m, n, k) -> ({', '.join(a_dims)})>, "
                        f"affine_map<(m, n, k) -> ({', '.join(b_dims)})>, "
                        f"affine_map<(m, n, k) -> (m, n)>] ")
            self.emit(f"{v} = linalg.matmul {maps}ins({a}, {b} : {types}) outs({c} : {ttype((m, n))}) -> {ttype((m, n))}")
        return self.result(v, (m, n))

    def multiply_accumulate(self, v, dims, maps, iterators, a, b, c, types,
                            shape):
        """Emits `v` = a linalg.generic over `dims` that adds a[i] * b[i]
        into c (the operands indexed by `maps`)."""
        affine = ", ".join(f"affine_map<({dims}) -> ({m})>" for m in maps)
        kinds = ", ".join(f'"{i}"' for i in iterators)
        self.emit(f"{v} = linalg.generic {{indexing_maps = [{affine}], "
                  f"iterator_types = [{kinds}]}} "
                  f"ins({a}, {b} : {types}) outs({c} : {ttype(shape)}) {{")
        body(self.emit, ["%x", "%y", "%acc"],
             ["%p = arith.mulf %x, %y : f32", "%s = arith.addf %acc, %p : f32"], "%s")
        self.emit(f"}} -> {ttype(shape)}")

    def batch_matmul(self):
        """C[b, m, n] = A x B or, as torch-mlir writes bmm(a, b^T), a
        generic with B indexed (b, n, k)."""
        bt, m, n, k = self.r.choice(BATCHES), self.dim(), self.dim(), self.dim()
        transposed = self.r.random() < 0.4
        a_shape, c_shape = (bt, m, k), (bt, m, n)
        b_shape = (bt, n, k) if transposed else (bt, k, n)
        a, b, c = self.operand(a_shape), self.operand(b_shape), self.fill(c_shape)
        v = self.name()
        types = f"{ttype(a_shape)}, {ttype(b_shape)}"
        if transposed:
            self.multiply_accumulate(v, "b, m, n, k", ["b, m, k", "b, n, k", "b, m, n"],
                                     ["parallel", "parallel", "parallel", "reduction"],
                                     a, b, c, types, c_shape)
        else:
            self.emit(f"{v} = linalg.batch_matmul ins({a}, {b} : {types}) outs({c} : {ttype(c_shape)}) -> {ttype(c_shape)}")
        return self.result(v, c_shape)

    def bias_act(self):
        """x + bias along rows or columns, then an activation, as one
        linalg.generic (a linear layer's epilogue)."""
        x, (m, n) = self.any_value(2)
        along = self.r.choice([0, 1])
        bias = self.operand(((m, n)[along],))
        v = self.name()
        bias_map = "(i, j) -> (j)" if along else "(i, j) -> (i)"
        self.emit(f"{v} = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, "
                  f"affine_map<{bias_map}>, affine_map<(i, j) -> (i, j)>], "
                  f"iterator_types = [\"parallel\", \"parallel\"]}} "
                  f"ins({x}, {bias} : {ttype((m, n))}, {ttype(((m, n)[along],))}) "
                  f"outs({self.empty((m, n))} : {ttype((m, n))}) {{")
        act = self.r.choice([
            ["%zero = arith.constant 0.0 : f32", "%r = arith.maximumf %s, %zero : f32"],
            ["%r = math.tanh %s : f32"],
            ["%half = arith.constant 0.5 : f32", "%r = arith.mulf %s, %half : f32"],
            ["%r = arith.negf %s : f32"]])
        body(self.emit, ["%x", "%b", "%o"], ["%s = arith.addf %x, %b : f32"] + act, "%r")
        self.emit(f"}} -> {ttype((m, n))}")
        return self.result(v, (m, n))

    def binary(self):
        a, shape = self.any_value(self.r.choice([2, 2, 3]))
        b = self.operand(shape)
        op = self.r.choice(["add", "sub", "mul", "max", "min"])
        v = self.name()
        self.emit(f"{v} = linalg.{op} ins({a}, {b} : {ttype(shape)}, {ttype(shape)}) "
                  f"outs({self.empty(shape)} : {ttype(shape)}) -> {ttype(shape)}")
        return self.result(v, shape)

    def unary(self):
        a, shape = self.any_value(self.r.choice([2, 2, 3]))
        op = self.r.choice(["tanh", "abs", "negf", "square", "exp", "erf"])
        v = self.name()
        self.emit(f"{v} = linalg.{op} ins({a} : {ttype(shape)}) outs({self.empty(shape)} : {ttype(shape)}) -> {ttype(shape)}")
        return self.result(v, shape)

    def reduce(self):
        """Sums or maxima along one dimension of a 2-D or 3-D tensor."""
        a, shape = self.any_value(self.r.choice([2, 2, 3]))
        dim = self.r.randrange(len(shape))
        out = tuple(d for i, d in enumerate(shape) if i != dim)
        add = self.r.random() < 0.6
        init = self.fill(out, "0.0" if add else "0xFF800000")
        v = self.name()
        self.emit(f"{v} = linalg.reduce ins({a} : {ttype(shape)}) outs({init} : {ttype(out)}) dimensions = [{dim}]")
        self.emit("  (%in: f32, %acc: f32) {")
        self.emit(f"    %s = {'arith.addf' if add else 'arith.maximumf'} %in, %acc : f32")
        self.emit("    linalg.yield %s : f32")
        self.emit("  }")
        return self.result(v, out)

    def broadcast(self):
        """A vector along the rows or columns of a matrix, or a matrix along
        a batch."""
        rank = self.r.choice([1, 2])
        a, shape = self.any_value(rank)
        dim = self.r.randrange(rank + 1)
        extent = self.r.choice(BATCHES) if rank == 2 else self.dim()
        out = shape[:dim] + (extent,) + shape[dim:]
        v = self.name()
        self.emit(f"{v} = linalg.broadcast ins({a} : {ttype(shape)}) outs({self.empty(out)} : {ttype(out)}) dimensions = [{dim}]")
        return self.result(v, out)

    def transpose(self):
        a, shape = self.any_value(self.r.choice([2, 3]))
        perm = [1, 0] if len(shape) == 2 else self.r.choice(
            [[0, 2, 1], [1, 0, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]])
        out = tuple(shape[p] for p in perm)
        v = self.name()
        self.emit(f"{v} = linalg.transpose ins({a} : {ttype(shape)}) outs({self.empty(out)} : {ttype(out)}) "
                  f"permutation = [{', '.join(str(p) for p in perm)}]")
        return self.result(v, out)

    def softmax(self):
        a, shape = self.any_value(self.r.choice([2, 3]))
        dim = self.r.choice([len(shape) - 1, self.r.randrange(len(shape))])
        v = self.name()
        self.emit(f"{v} = linalg.softmax dimension({dim}) ins({a} : {ttype(shape)}) "
                  f"outs({self.empty(shape)} : {ttype(shape)}) -> {ttype(shape)}")
        return self.result(v, shape)

    def reshape(self):
        """A matrix whose rows split into a batch, or a batch collapsed into
        rows."""
        if self.r.random() < 0.5:
            a, (b, m, n) = self.any_value(3)
            v = self.name()
            self.emit(f"{v} = tensor.collapse_shape {a} [[0, 1], [2]] : {ttype((b, m, n))} into {ttype((b * m, n))}")
            return self.result(v, (b * m, n))
        a, (m, n) = self.any_value(2)
        factors = [f for f in FACTORS if m % f == 0] or [1]
        f = self.r.choice(factors)
        out = (f, m // f, n)
        v = self.name()
        self.emit(f"{v} = tensor.expand_shape {a} [[0, 1], [2]] output_shape [{f}, {m // f}, {n}] : "
                  f"{ttype((m, n))} into {ttype(out)}")
        return self.result(v, out)

    def slice(self):
        a, shape = self.any_value(2)
        sizes = tuple(self.r.randint(1, d) for d in shape)
        offsets = tuple(self.r.randint(0, d - s) for d, s in zip(shape, sizes))
        v = self.name()
        self.emit(f"{v} = tensor.extract_slice {a}[{offsets[0]}, {offsets[1]}] [{sizes[0]}, {sizes[1]}] [1, 1] : "
                  f"{ttype(shape)} to {ttype(sizes)}")
        return self.result(v, sizes)

    def insert(self):
        """A matrix written into a slice of a larger one."""
        a, small = self.any_value(2)
        big = tuple(d + self.r.choice([0, 1, 3, 8]) for d in small)
        dst = self.operand(big)
        offsets = tuple(self.r.randint(0, b - s) for b, s in zip(big, small))
        v = self.name()
        self.emit(f"{v} = tensor.insert_slice {a} into {dst}[{offsets[0]}, {offsets[1]}] [{small[0]}, {small[1]}] [1, 1] : "
                  f"{ttype(small)} into {ttype(big)}")
        return self.result(v, big)

    def conv(self):
        """An image of 1 to 3 channels (a batch of images when the matrix's
        rows split) convolved with a filter of odd size, stride 1 or 2, its
        output's channels and rows collapsed into a matrix."""
        n, c = self.r.choice([1, 2]), self.r.choice([1, 2, 3])
        h, w = self.r.randint(3, 40), self.r.randint(3, 40)
        kh, kw = self.r.randint(1, min(3, h)), self.r.randint(1, min(3, w))
        f, stride = self.r.choice([1, 2, 5, 8]), self.r.choice([1, 2])
        oh, ow = (h - kh) // stride + 1, (w - kw) // stride + 1
        image, filt, out = (n, c, h, w), (f, c, kh, kw), (n, f, oh, ow)
        x, k = self.operand(image), self.operand(filt)
        init = self.fill(out)
        conv, v = self.name(), self.name()
        self.emit(f"{conv} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, "
                  f"strides = dense<{stride}> : tensor<2xi64>}} ins({x}, {k} : {ttype(image)}, {ttype(filt)}) "
                  f"outs({init} : {ttype(out)}) -> {ttype(out)}")
        self.emit(f"{v} = tensor.collapse_shape {conv} [[0, 1, 2], [3]] : {ttype(out)} into {ttype((n * f * oh, ow))}")
        return self.result(v, (n * f * oh, ow))

    def function(self, count):
        ops = [self.matmul, self.matmul, self.matmul, self.batch_matmul,
               self.bias_act, self.bias_act, self.binary, self.unary,
               self.reduce, self.broadcast, self.transpose, self.softmax,
               self.reshape, self.slice, self.insert, self.conv]
        for _ in range(count):
            self.r.choice(ops)()
        args = ", ".join(f"{v}: {ttype(s)}" for v, s in self.args)
        types = ", ".join(ttype(s) for _, s in self.values)
        results = ", ".join(v for v, _ in self.values)
        return "\n".join([f"func.func @random({args}) -> ({types}) {{"] + self.lines +
                         [f"  return {results} : {types}", "}"]) + "\n"


def dynamic_contraction(seed):
    """A function @dynamic of one contraction with dynamic sizes, and the
    static shapes of its arguments (A, B and C) to call it with."""
    r = random.Random(seed)
    sizes = {d: r.choice(DIMS) for d in "mnk"}
    sizes["b"] = r.choice([None, None] + BATCHES)
    loops = (["b"] if sizes["b"] else []) + ["m", "n", "k"]
    dynamic = {d: r.random() < 0.5 for d in loops}
    if not any(dynamic.values()):
        dynamic[r.choice(loops)] = True
    batch = ["b"] if sizes["b"] else []
    a = batch + (["k", "m"] if r.random() < 0.3 else ["m", "k"])
    b = batch + (["n", "k"] if r.random() < 0.3 else ["k", "n"])
    c = batch + ["m", "n"]
    types = ["tensor<" + "x".join("?" if dynamic[d] else str(sizes[d])
                                  for d in dims) + "xf32>"
             for dims in (a, b, c)]
    maps = ", ".join(f"affine_map<({', '.join(loops)}) -> ({', '.join(dims)})>"
                     for dims in (a, b, c))
    op = "linalg.batch_matmul" if sizes["b"] else "linalg.matmul"
    at, bt, ct = types
    lines = [f"func.func @dynamic(%a: {at}, %b: {bt}, %c: {ct}) -> {ct} {{",
             f"  %d = {op} indexing_maps = [{maps}] ins(%a, %b : {at}, {bt}) "
             f"outs(%c : {ct}) -> {ct}"]
    result = "%d"
    if r.random() < 0.5:
        lines.append(f"  %r = linalg.max ins(%d, %c : {ct}, {ct}) "
                     f"outs(%c : {ct}) -> {ct}")
        result = "%r"
    lines += [f"  return {result} : {ct}", "}", ""]
    shapes = [tuple(sizes[d] for d in dims) for dims in (a, b, c)]
    return "\n".join(lines), shapes


def main():
    seed = int(sys.argv[1])
    if "--dynamic" in sys.argv:
        sys.stdout.write(dynamic_contraction(seed)[0])
        return
    ops = 12
    if "--ops" in sys.argv:
        ops = int(sys.argv[sys.argv.index("--ops") + 1])
    sys.stdout.write(ShapeGen(seed).function(ops))


if __name__ == "__main__":
    main()
