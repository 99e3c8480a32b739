#!/usr/bin/env python3
"""Random fp32 training-like graphs in upstream MLIR, for testing mp.

Each seed gives one function mixing contractions, named and generic linalg
ops (random elementwise bodies, reductions), tensor-level arith/math,
softmax, layout ops, constants (some beyond the f16 range), scf.for loops
with carried tensors, scf.if, calls to an unknown function and f64 values.
Only the Python standard library is needed.

Tensors are N x N and N (8 unless `size` says otherwise; N even, at least
8: a reshape splits the rows in two, slices take 4 x 4). With `layers`,
also convolutions (an N x N image padded by 1, a 3 x 3 filter sliced from
another matrix) and batch matmuls (batch 2). With `torch`, also what
torch-mlir emits and the graphs above lack: column sums, a row max with its
index (keepdim, an i64 second result), a causal mask (`linalg.index`), a
gather (`tensor.extract` at computed indices), `tensor.concat`, a strided
convolution of two channels, 2 x 2 and padded 3 x 3 max pools, a batched
`A x B^T` generic, transposed `linalg.matmul`s, a dropout mask (`i1` to
f32), GELU (`erf`) and a layer norm; and every value the body computes is
a result. Without `layers`
and `torch`, a seed gives the graph it always gave.

Usage: random_graph.py SEED [--ops N] [--no-calls] [--size N] [--layers]
                       [--torch]
"""
import random
import sys

MAPS = """#mp_id = affine_map<(i, j) -> (i, j)>
#mp_row = affine_map<(i, j) -> (i)>
#mp_col = affine_map<(i, j) -> (j)>
#mp_mk = affine_map<(m, n, k) -> (m, k)>
#mp_kn = affine_map<(m, n, k) -> (k, n)>
#mp_mn = affine_map<(m, n, k) -> (m, n)>
"""
TORCH_MAPS = """#mp_keep = affine_map<(i, j) -> (i, 0)>
#mp_bmk = affine_map<(b, m, n, k) -> (b, m, k)>
#mp_bnk = affine_map<(b, m, n, k) -> (b, n, k)>
#mp_bmn = affine_map<(b, m, n, k) -> (b, m, n)>
"""


class Gen:
    def __init__(self, seed, calls=True, size=8, layers=False, torch=False):
        if size < 8 or size % 2:
            raise ValueError(f"size {size}: expected an even number, at least 8")
        self.r = random.Random(seed)
        self.calls = calls
        self.layers = layers
        self.torch = torch
        self.size = size
        self.mat = f"tensor<{size}x{size}xf32>"
        self.vec = f"tensor<{size}xf32>"
        self.n = 0
        self.lines = []
        self.indent = "  "

    def name(self, prefix="v"):
        self.n += 1
        return f"%{prefix}{self.n}"

    def emit(self, text):
        self.lines.append(self.indent + text)

    def empty(self, ty):
        e = self.name("e")
        self.emit(f"{e} = tensor.empty() : {ty}")
        return e

    def zero_fill(self, ty):
        z = self.name("c")
        self.emit(f"{z} = arith.constant 0.0 : f32")
        f = self.name("z")
        self.emit(f"{f} = linalg.fill ins({z} : f32) outs({self.empty(ty)} : {ty}) -> {ty}")
        return f

    def pad(self, dst, src, value, src_type, dst_type):
        """`src` padded by 1 on both sides of its last two dimensions."""
        self.emit(f"{dst} = tensor.pad {src} low[0, 0, 1, 1] high[0, 0, 1, 1] {{")
        self.emit("^bb0(%p0: index, %p1: index, %p2: index, %p3: index):")
        self.emit(f"  tensor.yield {value} : f32")
        self.emit(f"}} : {src_type} to {dst_type}")

    def sum_or_max(self, v, a, init, dim, body):
        """`v` = the sums (arith.addf) or maxima of `a` along `dim`."""
        self.emit(f"{v} = linalg.reduce ins({a} : {self.mat}) outs({init} : {self.vec}) dimensions = [{dim}]")
        self.emit("  (%in: f32, %acc: f32) {")
        self.emit(f"    %s = {body} %in, %acc : f32")
        self.emit("    linalg.yield %s : f32")
        self.emit("  }")

    def batch_operands(self, p):
        """A matrix of the pool split into a batch of 2 and another
        broadcast to it: their names, those of the product and its matrix,
        and the types."""
        a, b = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        n, h = self.size, self.size // 2
        rows, both = f"tensor<2x{h}x{n}xf32>", f"tensor<2x{n}x{n}xf32>"
        a3, b3, c3, v = (self.name() for _ in range(4))
        self.emit(f"{a3} = tensor.expand_shape {a} [[0, 1], [2]] output_shape [2, {h}, {n}] : {self.mat} into {rows}")
        self.emit(f"{b3} = linalg.broadcast ins({b} : {self.mat}) outs({self.empty(both)} : {both}) dimensions = [0]")
        return a3, b3, c3, v, rows, both

    def max_pool_into(self, names, src, src_type, window, dst, at):
        """A max pool of stride 2 of `src` inserted into the matrix `dst` at
        offsets `at`; `names` those of -inf, the pool's init, the pool, its
        matrix and the result."""
        ninf, init, m, c, v = names
        h = self.size // 2
        out, flat = f"tensor<1x1x{h}x{h}xf32>", f"tensor<{h}x{h}xf32>"
        self.emit(f"{init} = linalg.fill ins({ninf} : f32) outs({self.empty(out)} : {out}) -> {out}")
        win = self.empty(f"tensor<{window}x{window}xf32>")
        self.emit(f"{m} = linalg.pooling_nchw_max {{dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}} "
                  f"ins({src}, {win} : {src_type}, tensor<{window}x{window}xf32>) outs({init} : {out}) -> {out}")
        self.emit(f"{c} = tensor.collapse_shape {m} [[0, 1, 2], [3]] : {out} into {flat}")
        self.emit(f"{v} = tensor.insert_slice {c} into {dst}[{at}] [{h}, {h}] [1, 1] : {flat} into {self.mat}")
        return "mat", v

    # ---- op emitters: take a pool {kind: [values]} and return (kind, value)
    def matmul(self, p):
        a, b = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        init = self.zero_fill(self.mat) if self.r.random() < 0.7 else self.r.choice(p["mat"])
        v = self.name()
        self.emit(f"{v} = linalg.matmul ins({a}, {b} : {self.mat}, {self.mat}) outs({init} : {self.mat}) -> {self.mat}")
        return "mat", v

    def generic_matmul(self, p):
        a, b = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        init = self.zero_fill(self.mat)
        v = self.name()
        self.emit(f"{v} = linalg.generic {{indexing_maps = [#mp_mk, #mp_kn, #mp_mn], "
                  f"iterator_types = [\"parallel\", \"parallel\", \"reduction\"]}} "
                  f"ins({a}, {b} : {self.mat}, {self.mat}) outs({init} : {self.mat}) {{")
        self.emit("^bb0(%x: f32, %y: f32, %acc: f32):")
        self.emit("  %m = arith.mulf %x, %y : f32")
        self.emit("  %s = arith.addf %acc, %m : f32")
        self.emit("  linalg.yield %s : f32")
        self.emit(f"}} -> {self.mat}")
        return "mat", v

    def conv(self, p):
        a, b = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        n = self.size
        image, padded = f"tensor<1x1x{n}x{n}xf32>", f"tensor<1x1x{n + 2}x{n + 2}xf32>"
        x, xp, zero, f, f4, c, v = (self.name() for _ in range(7))
        self.emit(f"{x} = tensor.expand_shape {a} [[0, 1, 2], [3]] output_shape [1, 1, {n}, {n}] : {self.mat} into {image}")
        self.emit(f"{zero} = arith.constant 0.0 : f32")
        self.pad(xp, x, zero, image, padded)
        self.emit(f"{f} = tensor.extract_slice {b}[0, 0] [3, 3] [1, 1] : {self.mat} to tensor<3x3xf32>")
        self.emit(f"{f4} = tensor.expand_shape {f} [[0, 1, 2], [3]] output_shape [1, 1, 3, 3] : tensor<3x3xf32> into tensor<1x1x3x3xf32>")
        init = self.zero_fill(image)
        self.emit(f"{c} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}} "
                  f"ins({xp}, {f4} : {padded}, tensor<1x1x3x3xf32>) outs({init} : {image}) -> {image}")
        self.emit(f"{v} = tensor.collapse_shape {c} [[0, 1, 2], [3]] : {image} into {self.mat}")
        return "mat", v

    def batch_matmul(self, p):
        a3, b3, c3, v, rows, both = self.batch_operands(p)
        init = self.zero_fill(rows)
        self.emit(f"{c3} = linalg.batch_matmul ins({a3}, {b3} : {rows}, {both}) outs({init} : {rows}) -> {rows}")
        self.emit(f"{v} = tensor.collapse_shape {c3} [[0, 1], [2]] : {rows} into {self.mat}")
        return "mat", v

    def named_binary(self, p):
        op = self.r.choice(["add", "sub", "mul", "div", "max", "min"])
        a, b = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        v = self.name()
        self.emit(f"{v} = linalg.{op} ins({a}, {b} : {self.mat}, {self.mat}) outs({self.empty(self.mat)} : {self.mat}) -> {self.mat}")
        return "mat", v

    def named_unary(self, p):
        op = self.r.choice(["exp", "log", "tanh", "abs", "negf", "sqrt", "rsqrt",
                            "reciprocal", "erf", "square", "floor"])
        a = self.r.choice(p["mat"])
        v = self.name()
        self.emit(f"{v} = linalg.{op} ins({a} : {self.mat}) outs({self.empty(self.mat)} : {self.mat}) -> {self.mat}")
        return "mat", v

    def tensor_arith(self, p):
        a, b = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        v = self.name()
        if self.r.random() < 0.6:
            op = self.r.choice(["arith.addf", "arith.mulf", "arith.subf", "arith.maximumf"])
            self.emit(f"{v} = {op} {a}, {b} : {self.mat}")
        else:
            op = self.r.choice(["math.exp", "math.tanh", "math.sqrt", "math.absf"])
            self.emit(f"{v} = {op} {a} : {self.mat}")
        return "mat", v

    def transpose(self, p):
        a = self.r.choice(p["mat"])
        v = self.name()
        self.emit(f"{v} = linalg.transpose ins({a} : {self.mat}) outs({self.empty(self.mat)} : {self.mat}) permutation = [1, 0]")
        return "mat", v

    def broadcast(self, p):
        a = self.r.choice(p["vec"])
        v = self.name()
        dim = self.r.choice([0, 1])
        self.emit(f"{v} = linalg.broadcast ins({a} : {self.vec}) outs({self.empty(self.mat)} : {self.mat}) dimensions = [{dim}]")
        return "mat", v

    def reduce(self, p):
        a = self.r.choice(p["mat"])
        v = self.name()
        add = self.r.random() < 0.6
        init = self.zero_fill(self.vec)
        self.sum_or_max(v, a, init, 1, "arith.addf" if add else "arith.maximumf")
        return "vec", v

    def generic_elementwise(self, p):
        ins = [(self.r.choice(p["mat"]), "#mp_id", self.mat)]
        if self.r.random() < 0.5:
            ins.append((self.r.choice(p["vec"]), self.r.choice(["#mp_row", "#mp_col"]), self.vec))
        if self.r.random() < 0.5:
            ins.append((self.r.choice(p["mat"]), "#mp_id", self.mat))
        captured = self.r.choice(p["scal"]) if self.r.random() < 0.3 else None
        v = self.name()
        maps = ", ".join(m for _, m, _ in ins) + ", #mp_id"
        self.emit(f"{v} = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} ins({', '.join(x for x, _, _ in ins)} : "
                  f"{', '.join(t for _, _, t in ins)}) outs({self.empty(self.mat)} : {self.mat}) {{")
        args = [f"%a{i}" for i in range(len(ins))]
        self.emit("^bb0(" + ", ".join(f"{a}: f32" for a in args) + ", %o: f32):")
        live = list(args) + ([captured] if captured else [])
        k = 0
        for _ in range(self.r.randint(1, 4)):
            k += 1
            res = f"%t{k}"
            kind = self.r.random()
            if kind < 0.55:
                op = self.r.choice(["arith.addf", "arith.mulf", "arith.subf", "arith.maximumf", "arith.divf"])
                self.emit(f"  {res} = {op} {self.r.choice(live)}, {self.r.choice(live)} : f32")
            elif kind < 0.75:
                op = self.r.choice(["math.tanh", "math.exp", "math.absf", "arith.negf"])
                self.emit(f"  {res} = {op} {self.r.choice(live)} : f32")
            elif kind < 0.9:
                c = f"%k{k}"
                self.emit(f"  {c} = arith.constant {self.r.choice(['0.5', '2.0', '-1.0', '1.0e-3'])} : f32")
                self.emit(f"  {res} = arith.mulf {self.r.choice(live)}, {c} : f32")
            else:
                cnd = f"%p{k}"
                self.emit(f"  {cnd} = arith.cmpf ogt, {self.r.choice(live)}, {self.r.choice(live)} : f32")
                self.emit(f"  {res} = arith.select {cnd}, {self.r.choice(live)}, {self.r.choice(live)} : f32")
            live.append(res)
        self.emit(f"  linalg.yield {live[-1]} : f32")
        self.emit(f"}} -> {self.mat}")
        return "mat", v

    def softmax(self, p):
        a = self.r.choice(p["mat"])
        v = self.name()
        self.emit(f"{v} = linalg.softmax dimension(1) ins({a} : {self.mat}) outs({self.empty(self.mat)} : {self.mat}) -> {self.mat}")
        return "mat", v

    def scalar(self, p):
        a, b = self.r.choice(p["scal"]), self.r.choice(p["scal"])
        v = self.name()
        if self.r.random() < 0.5:
            self.emit(f"{v} = arith.mulf {a}, {b} : f32")
        else:
            self.emit(f"{v} = math.exp {a} : f32")
        return "scal", v

    def fill(self, p):
        a = self.r.choice(p["scal"])
        v = self.name()
        self.emit(f"{v} = linalg.fill ins({a} : f32) outs({self.empty(self.mat)} : {self.mat}) -> {self.mat}")
        return "mat", v

    def constant(self, p):
        vals = [self.r.choice([0.25, -1.5, 3.0, 1.0e-3, 7.0e4]) for _ in range(self.size)]
        v = self.name()
        body = ", ".join(f"{x:e}" for x in vals)
        self.emit(f"{v} = arith.constant dense<[{body}]> : {self.vec}")
        return "vec", v

    def reshape(self, p):
        a = self.r.choice(p["mat"])
        x, v = self.name(), self.name()
        self.emit(f"{x} = tensor.expand_shape {a} [[0, 1], [2]] output_shape [2, {self.size // 2}, {self.size}] : {self.mat} into tensor<2x{self.size // 2}x{self.size}xf32>")
        self.emit(f"{v} = tensor.collapse_shape {x} [[0, 1], [2]] : tensor<2x{self.size // 2}x{self.size}xf32> into {self.mat}")
        return "mat", v

    def slices(self, p):
        a, b = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        s, v = self.name(), self.name()
        self.emit(f"{s} = tensor.extract_slice {a}[0, 0] [4, 4] [1, 1] : {self.mat} to tensor<4x4xf32>")
        self.emit(f"{v} = tensor.insert_slice {s} into {b}[4, 4] [4, 4] [1, 1] : tensor<4x4xf32> into {self.mat}")
        return "mat", v

    # ---- torch-mlir's ops (with `torch`)
    def column_sum(self, p):
        a = self.r.choice(p["mat"])
        v = self.name()
        self.sum_or_max(v, a, self.zero_fill(self.vec), 0, "arith.addf")
        return "vec", v

    def max_with_index(self, p):
        """torch.max(x, dim=1, keepdim=True): the row maxima and their first
        index; returns the maxima or the indices as f32."""
        a = self.r.choice(p["mat"])
        n = self.size
        keep, keepi = f"tensor<{n}x1xf32>", f"tensor<{n}x1xi64>"
        ninf, zero, mx, ix, r, v = (self.name() for _ in range(6))
        self.emit(f"{ninf} = arith.constant 0xFF800000 : f32")
        self.emit(f"{zero} = arith.constant 0 : i64")
        self.emit(f"{mx} = linalg.fill ins({ninf} : f32) outs({self.empty(keep)} : {keep}) -> {keep}")
        self.emit(f"{ix} = linalg.fill ins({zero} : i64) outs({self.empty(keepi)} : {keepi}) -> {keepi}")
        self.emit(f"{r}:2 = linalg.generic {{indexing_maps = [#mp_id, #mp_keep, #mp_keep], iterator_types = "
                  f"[\"parallel\", \"reduction\"]}} ins({a} : {self.mat}) outs({mx}, {ix} : {keep}, {keepi}) {{")
        self.emit("^bb0(%in: f32, %m: f32, %i: i64):")
        self.emit("  %j = linalg.index 1 : index")
        self.emit("  %j64 = arith.index_cast %j : index to i64")
        self.emit("  %max = arith.maximumf %in, %m : f32")
        self.emit("  %gt = arith.cmpf ogt, %in, %m : f32")
        self.emit("  %sel = arith.select %gt, %j64, %i : i64")
        self.emit("  linalg.yield %max, %sel : f32, i64")
        self.emit(f"}} -> ({keep}, {keepi})")
        if self.r.random() < 0.5:
            self.emit(f"{v} = tensor.collapse_shape {r}#0 [[0, 1]] : {keep} into {self.vec}")
            return "vec", v
        c = self.name()
        self.emit(f"{c} = tensor.collapse_shape {r}#1 [[0, 1]] : {keepi} into tensor<{n}xi64>")
        self.emit(f"{v} = arith.sitofp {c} : tensor<{n}xi64> to {self.vec}")
        return "vec", v

    def causal_mask(self, p):
        a = self.r.choice(p["mat"])
        v = self.name()
        fill = self.r.choice(["0xFF800000", "-1.0e+09", "-1.0e+04"])
        self.emit(f"{v} = linalg.generic {{indexing_maps = [#mp_id, #mp_id], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} ins({a} : {self.mat}) outs({self.empty(self.mat)} : {self.mat}) {{")
        self.emit("^bb0(%x: f32, %o: f32):")
        self.emit("  %i = linalg.index 0 : index")
        self.emit("  %j = linalg.index 1 : index")
        self.emit("  %above = arith.cmpi ugt, %j, %i : index")
        self.emit(f"  %masked = arith.constant {fill} : f32")
        self.emit("  %r = arith.select %above, %masked, %x : f32")
        self.emit("  linalg.yield %r : f32")
        self.emit(f"}} -> {self.mat}")
        return "mat", v

    def gather(self, p):
        """Rows gathered at computed indices, as torch-mlir's embedding
        lowers: `tensor.extract` of a captured tensor in a generic."""
        a = self.r.choice(p["mat"])
        v = self.name()
        step = self.r.choice([1, 3, 5])
        self.emit(f"{v} = linalg.generic {{indexing_maps = [#mp_id], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} outs({self.empty(self.mat)} : {self.mat}) {{")
        self.emit("^bb0(%o: f32):")
        self.emit("  %i = linalg.index 0 : index")
        self.emit("  %j = linalg.index 1 : index")
        self.emit(f"  %step = arith.constant {step} : index")
        self.emit(f"  %n = arith.constant {self.size} : index")
        self.emit("  %t = arith.muli %i, %step : index")
        self.emit("  %u = arith.addi %t, %j : index")
        self.emit("  %row = arith.remui %u, %n : index")
        self.emit(f"  %e = tensor.extract {a}[%row, %j] : {self.mat}")
        self.emit("  linalg.yield %e : f32")
        self.emit(f"}} -> {self.mat}")
        return "mat", v

    def concat(self, p):
        a, b = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        n, h = self.size, self.size // 2
        s1, s2, v = self.name(), self.name(), self.name()
        if self.r.random() < 0.5:
            half = f"tensor<{n}x{h}xf32>"
            self.emit(f"{s1} = tensor.extract_slice {a}[0, 0] [{n}, {h}] [1, 1] : {self.mat} to {half}")
            self.emit(f"{s2} = tensor.extract_slice {b}[0, {h}] [{n}, {h}] [1, 1] : {self.mat} to {half}")
            dim = 1
        else:
            half = f"tensor<{h}x{n}xf32>"
            self.emit(f"{s1} = tensor.extract_slice {a}[{h}, 0] [{h}, {n}] [1, 1] : {self.mat} to {half}")
            self.emit(f"{s2} = tensor.extract_slice {b}[0, 0] [{h}, {n}] [1, 1] : {self.mat} to {half}")
            dim = 0
        self.emit(f"{v} = tensor.concat dim({dim}) {s1}, {s2} : ({half}, {half}) -> {self.mat}")
        return "mat", v

    def strided_conv(self, p):
        """Two channels (the matrix's row halves), a 3 x 3 filter of two
        output channels, padding 1, stride 2; the result inserted into a
        matrix."""
        a, b, dst = (self.r.choice(p["mat"]) for _ in range(3))
        n, h = self.size, self.size // 2
        oh, ow = (h - 1) // 2 + 1, h
        image, padded = f"tensor<1x2x{h}x{n}xf32>", f"tensor<1x2x{h + 2}x{n + 2}xf32>"
        out = f"tensor<1x2x{oh}x{ow}xf32>"
        x, xp, zero, f6, f4, ft, c, c2, v = (self.name() for _ in range(9))
        self.emit(f"{x} = tensor.expand_shape {a} [[0, 1, 2], [3]] output_shape [1, 2, {h}, {n}] : {self.mat} into {image}")
        self.emit(f"{zero} = arith.constant 0.0 : f32")
        self.pad(xp, x, zero, image, padded)
        self.emit(f"{f6} = tensor.extract_slice {b}[0, 0] [6, 6] [1, 1] : {self.mat} to tensor<6x6xf32>")
        self.emit(f"{f4} = tensor.expand_shape {f6} [[0, 1], [2, 3]] output_shape [2, 3, 2, 3] : tensor<6x6xf32> into tensor<2x3x2x3xf32>")
        self.emit(f"{ft} = linalg.transpose ins({f4} : tensor<2x3x2x3xf32>) outs({self.empty('tensor<2x2x3x3xf32>')} : tensor<2x2x3x3xf32>) permutation = [0, 2, 1, 3]")
        init = self.zero_fill(out)
        self.emit(f"{c} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}} "
                  f"ins({xp}, {ft} : {padded}, tensor<2x2x3x3xf32>) outs({init} : {out}) -> {out}")
        flat = f"tensor<{2 * oh}x{ow}xf32>"
        self.emit(f"{c2} = tensor.collapse_shape {c} [[0, 1, 2], [3]] : {out} into {flat}")
        self.emit(f"{v} = tensor.insert_slice {c2} into {dst}[0, 0] [{2 * oh}, {ow}] [1, 1] : {flat} into {self.mat}")
        return "mat", v

    def max_pool(self, p):
        a, dst = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        n, h = self.size, self.size // 2
        image = f"tensor<1x1x{n}x{n}xf32>"
        x, ninf, init, m, c, v = (self.name() for _ in range(6))
        self.emit(f"{x} = tensor.expand_shape {a} [[0, 1, 2], [3]] output_shape [1, 1, {n}, {n}] : {self.mat} into {image}")
        self.emit(f"{ninf} = arith.constant 0xFF800000 : f32")
        return self.max_pool_into((ninf, init, m, c, v), x, image, 2, dst,
                                  f"{h}, 0")

    def batch_matmul_transposed(self, p):
        """torch's bmm(a, b.transpose(1, 2)) as torch-mlir writes it: a
        generic contraction over K with B indexed (b, n, k)."""
        a3, b3, c3, v, rows, both = self.batch_operands(p)
        init = self.zero_fill(rows)
        self.emit(f"{c3} = linalg.generic {{indexing_maps = [#mp_bmk, #mp_bnk, #mp_bmn], iterator_types = "
                  f"[\"parallel\", \"parallel\", \"parallel\", \"reduction\"]}} "
                  f"ins({a3}, {b3} : {rows}, {both}) outs({init} : {rows}) {{")
        self.emit("^bb0(%x: f32, %y: f32, %acc: f32):")
        self.emit("  %m = arith.mulf %x, %y : f32")
        self.emit("  %s = arith.addf %acc, %m : f32")
        self.emit("  linalg.yield %s : f32")
        self.emit(f"}} -> {rows}")
        self.emit(f"{v} = tensor.collapse_shape {c3} [[0, 1], [2]] : {rows} into {self.mat}")
        return "mat", v

    def transposed_matmul(self, p):
        """linalg.matmul with indexing maps: A^T x B or A x B^T."""
        a, b = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        maps = self.r.choice([("(k, m)", "(k, n)"), ("(m, k)", "(n, k)")])
        init = self.zero_fill(self.mat)
        v = self.name()
        self.emit(f"{v} = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> {maps[0]}>, "
                  f"affine_map<(m, n, k) -> {maps[1]}>, affine_map<(m, n, k) -> (m, n)>] "
                  f"ins({a}, {b} : {self.mat}, {self.mat}) outs({init} : {self.mat}) -> {self.mat}")
        return "mat", v

    def dropout(self, p):
        """A keep mask (a compare, i1 to f32: exact in f16 and bf16) times
        the input, scaled."""
        a, b = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        mask = f"tensor<{self.size}x{self.size}xi1>"
        zero, k, f, v = self.name(), self.name(), self.name(), self.name()
        self.emit(f"{zero} = arith.constant dense<0.25> : {self.mat}")
        self.emit(f"{k} = arith.cmpf ogt, {b}, {zero} : {self.mat}")
        self.emit(f"{f} = arith.uitofp {k} : {mask} to {self.mat}")
        self.emit(f"{v} = linalg.generic {{indexing_maps = [#mp_id, #mp_id, #mp_id], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} ins({a}, {f} : {self.mat}, {self.mat}) outs({self.empty(self.mat)} : {self.mat}) {{")
        self.emit("^bb0(%x: f32, %m: f32, %o: f32):")
        self.emit("  %kept = arith.mulf %x, %m : f32")
        self.emit("  %scale = arith.constant 1.25 : f32")
        self.emit("  %r = arith.mulf %kept, %scale : f32")
        self.emit("  linalg.yield %r : f32")
        self.emit(f"}} -> {self.mat}")
        return "mat", v

    def gelu(self, p):
        a = self.r.choice(p["mat"])
        v = self.name()
        self.emit(f"{v} = linalg.generic {{indexing_maps = [#mp_id, #mp_id], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} ins({a} : {self.mat}) outs({self.empty(self.mat)} : {self.mat}) {{")
        self.emit("^bb0(%x: f32, %o: f32):")
        self.emit("  %c = arith.constant 0.707106769 : f32")
        self.emit("  %half = arith.constant 0.5 : f32")
        self.emit("  %one = arith.constant 1.0 : f32")
        self.emit("  %s = arith.mulf %x, %c : f32")
        self.emit("  %e = math.erf %s : f32")
        self.emit("  %t = arith.addf %e, %one : f32")
        self.emit("  %h = arith.mulf %x, %half : f32")
        self.emit("  %r = arith.mulf %h, %t : f32")
        self.emit("  linalg.yield %r : f32")
        self.emit(f"}} -> {self.mat}")
        return "mat", v

    def layer_norm(self, p):
        """torch-mlir's layer norm over rows: mean and variance as keepdim
        sums, rsqrt, then the normalized rows."""
        a = self.r.choice(p["mat"])
        n = self.size
        keep = f"tensor<{n}x1xf32>"
        s1, mean, d, s2, v = (self.name() for _ in range(5))
        sums = []
        for src, body in ((a, "%in"), (None, "%sq")):
            init = self.zero_fill(keep)
            out = self.name()
            src = src or d
            self.emit(f"{out} = linalg.generic {{indexing_maps = [#mp_id, #mp_keep], iterator_types = "
                      f"[\"parallel\", \"reduction\"]}} ins({src} : {self.mat}) outs({init} : {keep}) {{")
            self.emit("^bb0(%in: f32, %acc: f32):")
            if body == "%sq":
                self.emit("  %sq = arith.mulf %in, %in : f32")
            self.emit(f"  %s = arith.addf {body}, %acc : f32")
            self.emit("  linalg.yield %s : f32")
            self.emit(f"}} -> {keep}")
            sums.append(out)
            if src is a:
                self.emit(f"{d} = linalg.generic {{indexing_maps = [#mp_id, #mp_keep, #mp_id], iterator_types = "
                          f"[\"parallel\", \"parallel\"]}} ins({a}, {out} : {self.mat}, {keep}) outs({self.empty(self.mat)} : {self.mat}) {{")
                self.emit("^bb0(%x: f32, %s: f32, %o: f32):")
                self.emit(f"  %n = arith.constant {float(n):e} : f32")
                self.emit("  %m = arith.divf %s, %n : f32")
                self.emit("  %r = arith.subf %x, %m : f32")
                self.emit("  linalg.yield %r : f32")
                self.emit(f"}} -> {self.mat}")
        self.emit(f"{v} = linalg.generic {{indexing_maps = [#mp_id, #mp_keep, #mp_id], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} ins({d}, {sums[1]} : {self.mat}, {keep}) outs({self.empty(self.mat)} : {self.mat}) {{")
        self.emit("^bb0(%x: f32, %s: f32, %o: f32):")
        self.emit(f"  %n = arith.constant {float(n):e} : f32")
        self.emit("  %eps = arith.constant 1.0e-05 : f32")
        self.emit("  %var = arith.divf %s, %n : f32")
        self.emit("  %ve = arith.addf %var, %eps : f32")
        self.emit("  %rs = math.rsqrt %ve : f32")
        self.emit("  %r = arith.mulf %x, %rs : f32")
        self.emit("  linalg.yield %r : f32")
        self.emit(f"}} -> {self.mat}")
        return "mat", v

    def padded_pool(self, p):
        """A 3 x 3 max pool of stride 2 over an image padded by 1 with -inf
        (torch-mlir's max_pool2d with padding)."""
        a, dst = self.r.choice(p["mat"]), self.r.choice(p["mat"])
        n, h = self.size, self.size // 2
        image, padded = f"tensor<1x1x{n}x{n}xf32>", f"tensor<1x1x{n + 2}x{n + 2}xf32>"
        x, ninf, xp, init, m, c, v = (self.name() for _ in range(7))
        self.emit(f"{x} = tensor.expand_shape {a} [[0, 1, 2], [3]] output_shape [1, 1, {n}, {n}] : {self.mat} into {image}")
        self.emit(f"{ninf} = arith.constant 0xFF800000 : f32")
        self.pad(xp, x, ninf, image, padded)
        return self.max_pool_into((ninf, init, m, c, v), xp, padded, 3, dst,
                                  f"0, {h}")

    def call(self, p):
        a = self.r.choice(p["mat"])
        v = self.name()
        self.emit(f"{v} = func.call @ext({a}) : ({self.mat}) -> {self.mat}")
        return "mat", v

    def f64(self, p):
        v = self.name()
        self.emit(f"{v} = arith.addf %fd, %fd : tensor<{self.size}xf64>")
        return None, v

    def loop(self, p, depth):
        carried = [self.r.choice(p["mat"]) for _ in range(self.r.randint(1, 2))]
        res = self.name("l")
        iters = [self.name("it") for _ in carried]
        c0, c1, c3 = self.name("i"), self.name("i"), self.name("i")
        self.emit(f"{c0} = arith.constant 0 : index")
        self.emit(f"{c1} = arith.constant 1 : index")
        self.emit(f"{c3} = arith.constant 3 : index")
        types = ", ".join([self.mat] * len(carried))
        iv = self.name("iv")
        self.emit(f"{res}:{len(carried)} = scf.for {iv} = {c0} to {c3} step {c1} iter_args("
                  + ", ".join(f"{i} = {c}" for i, c in zip(iters, carried)) + f") -> ({types}) {{")
        inner = {k: list(v) for k, v in p.items()}
        inner["mat"] += iters
        outs = self.block(inner, self.r.randint(2, 5), depth + 1, len(carried))
        self.emit(f"  scf.yield {', '.join(outs)} : {types}")
        self.emit("}")
        return [("mat", f"{res}#{i}") for i in range(len(carried))]

    def while_loop(self, p, depth):
        init = self.r.choice(p["mat"])
        res, h, n, c = self.name("w"), self.name("wh"), self.name("wn"), self.name("wc")
        lim, zero = self.name("k"), self.name("k")
        self.emit(f"{lim} = arith.constant 3.0 : f32")
        self.emit(f"{res}:2 = scf.while ({h} = {init}, {n} = {lim}) : ({self.mat}, f32) -> ({self.mat}, f32) {{")
        self.emit(f"  {zero} = arith.constant 0.0 : f32")
        self.emit(f"  {c} = arith.cmpf ogt, {n}, {zero} : f32")
        self.emit(f"  scf.condition({c}) {h}, {n} : {self.mat}, f32")
        self.emit("} do {")
        h2, n2, one, m = self.name("wh"), self.name("wn"), self.name("k"), self.name("wm")
        self.emit(f"^bb0({h2}: {self.mat}, {n2}: f32):")
        inner = {k: list(v) for k, v in p.items()}
        inner["mat"].append(h2)
        outs = self.block(inner, self.r.randint(2, 4), depth + 1, 1)
        self.emit(f"  {one} = arith.constant 1.0 : f32")
        self.emit(f"  {m} = arith.subf {n2}, {one} : f32")
        self.emit(f"  scf.yield {outs[0]}, {m} : {self.mat}, f32")
        self.emit("}")
        return [("mat", f"{res}#0")]

    def branch(self, p, depth):
        a, b = self.r.choice(p["scal"]), self.r.choice(p["scal"])
        c, v = self.name("b"), self.name()
        self.emit(f"{c} = arith.cmpf olt, {a}, {b} : f32")
        self.emit(f"{v} = scf.if {c} -> ({self.mat}) {{")
        outs = self.block({k: list(x) for k, x in p.items()}, self.r.randint(1, 3), depth + 1, 1)
        self.emit(f"  scf.yield {outs[0]} : {self.mat}")
        self.emit("} else {")
        outs = self.block({k: list(x) for k, x in p.items()}, self.r.randint(1, 3), depth + 1, 1)
        self.emit(f"  scf.yield {outs[0]} : {self.mat}")
        self.emit("}")
        return [("mat", v)]

    def block(self, pool, count, depth, nresults):
        saved = self.indent
        self.indent += "  "
        simple = [self.matmul, self.matmul, self.generic_matmul, self.named_binary,
                  self.named_binary, self.named_unary, self.tensor_arith, self.transpose,
                  self.broadcast, self.reduce, self.generic_elementwise,
                  self.generic_elementwise, self.softmax, self.scalar, self.fill,
                  self.constant, self.reshape, self.slices, self.f64]
        if self.calls:
            simple.append(self.call)
        if self.layers:
            simple += [self.conv, self.batch_matmul]
        if self.torch:
            simple += [self.column_sum, self.max_with_index, self.causal_mask,
                       self.gather, self.concat, self.strided_conv,
                       self.max_pool, self.batch_matmul_transposed,
                       self.transposed_matmul, self.dropout, self.gelu,
                       self.layer_norm, self.padded_pool]
        produced = []
        for _ in range(count):
            if depth < 2 and self.r.random() < 0.08:
                new = self.r.choice([self.loop, self.loop, self.while_loop,
                                     self.branch])(pool, depth)
            else:
                new = [self.r.choice(simple)(pool)]
            for kind, v in new:
                if kind:
                    pool[kind].append(v)
                    if kind == "mat":
                        produced.append(v)
        self.indent = saved
        mats = produced or pool["mat"]
        return [self.r.choice(mats) for _ in range(nresults)]

    def function(self, count):
        pool = {"mat": ["%fx", "%fw", "%fu"], "vec": ["%fb"], "scal": ["%fs", "%ft"]}
        self.indent = ""
        body_start = len(self.lines)
        outs = self.block(pool, count, 0, 2)
        body = self.lines[body_start:]
        del self.lines[body_start:]
        vec = self.r.choice(pool["vec"])
        results = [(outs[0], self.mat), (outs[1], self.mat), (vec, self.vec)]
        if self.torch:
            # Every value the function body computes is a result: no op is
            # dead, each is compared.
            results = ([(v, self.mat) for v in pool["mat"][3:]] +
                       [(v, self.vec) for v in pool["vec"][1:]]) or results
        types = ", ".join(t for _, t in results)
        header = (f"func.func private @ext({self.mat}) -> {self.mat}\n"
                  f"func.func @random(%fx: {self.mat}, %fw: {self.mat}, %fu: {self.mat}, %fb: {self.vec}, "
                  f"%fs: f32, %ft: f32, %fd: tensor<{self.size}xf64>) -> ({types}) {{")
        maps = MAPS + (TORCH_MAPS if self.torch else "")
        return "\n".join([maps + header] + body +
                         [f"  return {', '.join(v for v, _ in results)} : {types}", "}"]) + "\n"


def main():
    seed = int(sys.argv[1])
    ops = 40
    if "--ops" in sys.argv:
        ops = int(sys.argv[sys.argv.index("--ops") + 1])
    size = 8
    if "--size" in sys.argv:
        size = int(sys.argv[sys.argv.index("--size") + 1])
    sys.stdout.write(Gen(seed, calls="--no-calls" not in sys.argv,
                         size=size, layers="--layers" in sys.argv,
                         torch="--torch" in sys.argv).function(ops))


if __name__ == "__main__":
    main()
