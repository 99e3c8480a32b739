// RUN: mp-opt %s --split-input-file --mp-fuse-elementwise | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-fuse-elementwise=recompute | FileCheck %s --check-prefix=RECOMPUTE

// A chain (cast, bias broadcast, add, relu) becomes one generic; the
// broadcast, a named op, is generalized and fused too.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.broadcast
// CHECK: arith.truncf
// CHECK: arith.extf
// CHECK: arith.addf
// CHECK: arith.maximumf
#id = affine_map<(i, j) -> (i, j)>
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf16>) -> tensor<4x8xf16> {
  %e16 = tensor.empty() : tensor<4x8xf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %bb = linalg.broadcast ins(%b : tensor<8xf16>) outs(%e16 : tensor<4x8xf16>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %bb : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %ae = arith.extf %a : f16 to f32
    %ce = arith.extf %c : f16 to f32
    %s = arith.addf %ae, %ce : f32
    %m = arith.maximumf %s, %zero : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// exp feeding a sum: computed inside the reduction.
// CHECK-LABEL: func.func @exp_sum
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: math.exp
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @exp_sum(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Not fused: a result with two uses (its computation would be repeated),
// and a cast feeding a contraction (its f16 operand must stay visible to
// the Tensor Core path).
// CHECK-LABEL: func.func @kept
// CHECK: %[[T:.*]] = linalg.generic
// CHECK: arith.truncf
// CHECK: linalg.generic {{.*}}ins(%[[T]] :
// CHECK: %[[C:.*]] = linalg.generic
// CHECK: arith.truncf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}ins(%[[C]], %arg1 :
#id = affine_map<(i, j) -> (i, j)>
func.func @kept(%x: tensor<4x8xf32>, %w: tensor<8x4xf16>, %y: tensor<4x8xf32>) -> (tensor<4x8xf16>, tensor<4x4xf32>, tensor<4x8xf16>) {
  %e16 = tensor.empty() : tensor<4x8xf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.mulf %a, %a : f16
    linalg.yield %m : f16
  } -> tensor<4x8xf16>
  %c16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %acc = tensor.empty() : tensor<4x4xf32>
  %mm = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%c16, %w : tensor<4x8xf16>, tensor<8x4xf16>) outs(%acc : tensor<4x4xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %sq, %mm, %h : tensor<4x8xf16>, tensor<4x4xf32>, tensor<4x8xf16>
}

// -----

// A generic of two results (an update of a value and its moment), each
// read once by an elementwise op (the selects that keep the old values on
// a skipped step): one generic computes both and selects, writing into the
// producer's outputs, and reads each input once (the operands the readers
// share with it are deduplicated).
// CHECK-LABEL: func.func @readers
// CHECK-SAME: (%[[P:.*]]: tensor<8xf32>, %[[G:.*]]: tensor<8xf32>, %[[M:.*]]: tensor<8xf32>, %[[SKIP:.*]]: tensor<i1>)
// CHECK: %[[E1:.*]] = tensor.empty() {p}
// CHECK: %[[E2:.*]] = tensor.empty() {m}
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-SAME: ins(%[[P]], %[[G]], %[[M]], %[[SKIP]] : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i1>) outs(%[[E1]], %[[E2]] : tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[IP:.*]]: f32, %[[IG:.*]]: f32, %[[IM:.*]]: f32, %[[S:.*]]: i1, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[NM:.*]] = arith.addf %[[IM]], %[[IG]]
// CHECK-NEXT: %[[NP:.*]] = arith.subf %[[IP]], %[[NM]]
// CHECK-NEXT: %[[SP:.*]] = arith.select %[[S]], %[[IP]], %[[NP]]
// CHECK-NEXT: %[[SM:.*]] = arith.select %[[S]], %[[IM]], %[[NM]]
// CHECK: linalg.yield %[[SP]], %[[SM]]
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#0, %[[R]]#1
#id = affine_map<(i) -> (i)>
#scalar = affine_map<(i) -> ()>
func.func @readers(%p: tensor<8xf32>, %g: tensor<8xf32>, %m: tensor<8xf32>, %skip: tensor<i1>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e1 = tensor.empty() {p} : tensor<8xf32>
  %e2 = tensor.empty() {m} : tensor<8xf32>
  %u:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %g, %m : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e1, %e2 : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o1: f32, %o2: f32):
    %nm = arith.addf %c, %b : f32
    %np = arith.subf %a, %nm : f32
    linalg.yield %np, %nm : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  %e3 = tensor.empty() : tensor<8xf32>
  %sp = linalg.generic {indexing_maps = [#scalar, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%skip, %p, %u#0 : tensor<i1>, tensor<8xf32>, tensor<8xf32>) outs(%e3 : tensor<8xf32>) {
  ^bb0(%s: i1, %old: f32, %new: f32, %o: f32):
    %v = arith.select %s, %old, %new : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %e4 = tensor.empty() : tensor<8xf32>
  %sm = linalg.generic {indexing_maps = [#scalar, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%skip, %m, %u#1 : tensor<i1>, tensor<8xf32>, tensor<8xf32>) outs(%e4 : tensor<8xf32>) {
  ^bb0(%s: i1, %old: f32, %new: f32, %o: f32):
    %v = arith.select %s, %old, %new : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %sp, %sm : tensor<8xf32>, tensor<8xf32>
}

// -----

// Not merged: a result that is also returned (the merged op could not give
// both the value and its reader's), and a reader that reads it transposed.
// CHECK-LABEL: func.func @readers_kept
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @readers_transposed
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
func.func @readers_kept(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %u:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%e, %e : tensor<4x4xf32>, tensor<4x4xf32>) {
  ^bb0(%a: f32, %o1: f32, %o2: f32):
    %n = arith.negf %a : f32
    %s = arith.mulf %a, %a : f32
    linalg.yield %n, %s : f32, f32
  } -> (tensor<4x4xf32>, tensor<4x4xf32>)
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u#0 : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  return %r, %u#0, %u#1 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
func.func @readers_transposed(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %u:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%e, %e : tensor<4x4xf32>, tensor<4x4xf32>) {
  ^bb0(%a: f32, %o1: f32, %o2: f32):
    %n = arith.negf %a : f32
    %s = arith.mulf %a, %a : f32
    linalg.yield %n, %s : f32, f32
  } -> (tensor<4x4xf32>, tensor<4x4xf32>)
  %r1 = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u#0 : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  return %r1, %u#1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A softmax's exp, read by its sum and its division. Without recompute it
// stays its own op (written, read twice); with recompute each reader
// computes it from the shifted input (read once by each, as the exp's
// result was), bit for bit the same values.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[EXP:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%[[EXP]] :
// CHECK: linalg.generic {{.*}}ins(%[[EXP]], %{{.*}} :
// RECOMPUTE-LABEL: func.func @softmax
// RECOMPUTE-SAME: (%[[X:.*]]: tensor<4x8xf32>,
// RECOMPUTE: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%[[X]] :
// RECOMPUTE: math.exp
// RECOMPUTE: arith.addf
// RECOMPUTE: linalg.generic {{.*}}ins(%[[X]], %[[SUM]] :
// RECOMPUTE: math.exp
// RECOMPUTE: arith.divf
// RECOMPUTE-NOT: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @softmax(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.divf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

// Not recomputed: a cast that a contraction reads (the contraction would
// read the f32 input in its operand copies, once per tile), and a cast to
// f16 that four ops read (each would read 4 bytes per element for the 2
// that the cast writes and the four read now: 3 x 4 > 5 x 2).
// RECOMPUTE-LABEL: func.func @not_recomputed
// RECOMPUTE-COUNT-8: linalg.generic
// RECOMPUTE-NOT: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
func.func @not_recomputed(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %w: tensor<8x4xf16>) -> (tensor<4x4xf32>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>) {
  %e16 = tensor.empty() : tensor<4x8xf16>
  %c16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %acc = tensor.empty() : tensor<4x4xf32>
  %mm = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%c16, %w : tensor<4x8xf16>, tensor<8x4xf16>) outs(%acc : tensor<4x4xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c16 : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.mulf %a, %a : f16
    linalg.yield %m : f16
  } -> tensor<4x8xf16>
  %t16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t16 : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.negf %a : f16
    linalg.yield %m : f16
  } -> tensor<4x8xf16>
  %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t16 : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = math.absf %a : f16
    linalg.yield %m : f16
  } -> tensor<4x8xf16>
  %r3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t16 : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.mulf %a, %a : f16
    linalg.yield %m : f16
  } -> tensor<4x8xf16>
  %r4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t16 : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.addf %a, %a : f16
    linalg.yield %m : f16
  } -> tensor<4x8xf16>
  return %mm, %sq, %r1, %r2, %r3, %r4 : tensor<4x4xf32>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>
}

// -----

// Recomputed: a product of two inputs that two ops read (each reads both
// inputs: 2 x 2 elements per element, against 2 + 1 + 2 now).
// RECOMPUTE-LABEL: func.func @recomputed_product
// RECOMPUTE-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4x8xf32>)
// RECOMPUTE: linalg.generic {{.*}}ins(%[[X]], %[[Y]] :
// RECOMPUTE: arith.mulf
// RECOMPUTE-NEXT: arith.negf
// RECOMPUTE: linalg.generic {{.*}}ins(%[[X]], %[[Y]] :
// RECOMPUTE: arith.mulf
// RECOMPUTE-NEXT: math.exp
// RECOMPUTE-NOT: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
func.func @recomputed_product(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e32 = tensor.empty() : tensor<4x8xf32>
  %xy = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e32 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %n1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xy : tensor<4x8xf32>) outs(%e32 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %n2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xy : tensor<4x8xf32>) outs(%e32 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %n1, %n2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Kept for a GEMM's epilogue: the f16 ReLU gradient of an f32 GEMM result
// (truncf and select, merged into one op) that a transpose and a cast for a
// sum read. Recomputed, both readers would read the f32 result (stored:
// 2 x (4 + 1) + 4 bytes per element); kept, the GEMM's epilogue computes
// it from C in registers and stores it in f16 (1 + 3 x 2). The cast with
// one use still goes into the sum.
// RECOMPUTE-LABEL: func.func @epilogue_kept
// RECOMPUTE-SAME: (%[[A:[^:]+]]: tensor<4x16xf16>, %[[B:[^:]+]]: tensor<16x8xf16>, %[[M:[^:]+]]: tensor<4x8xi1>
// RECOMPUTE: %[[C:.*]] = linalg.matmul
// RECOMPUTE: %[[G:.*]] = linalg.generic {{.*}}ins(%[[M]], %[[C]] : tensor<4x8xi1>, tensor<4x8xf32>)
// RECOMPUTE: arith.truncf
// RECOMPUTE-NEXT: arith.select
// RECOMPUTE: linalg.generic {{.*}}ins(%[[G]] : tensor<4x8xf16>) outs(%{{.*}} : tensor<8x4xf16>)
// RECOMPUTE: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}}ins(%[[G]] : tensor<4x8xf16>)
// RECOMPUTE: arith.extf
// RECOMPUTE-NEXT: arith.addf
// RECOMPUTE-NOT: linalg.generic
// Recomputed when a reader has several uses (it would be the epilogue):
// the GEMM's result is read by both copies of the chain.
// RECOMPUTE-LABEL: func.func @epilogue_reader
// RECOMPUTE: %[[C2:.*]] = linalg.matmul
// RECOMPUTE: linalg.generic {{.*}}ins(%{{.*}}, %[[C2]] : tensor<4x8xi1>, tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf16>)
// RECOMPUTE: linalg.generic {{.*}}ins(%{{.*}}, %[[C2]] : tensor<4x8xi1>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf16>)
// RECOMPUTE: arith.negf
#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
#col = affine_map<(i, j) -> (0, j)>
func.func @epilogue_kept(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>, %mask: tensor<4x8xi1>, %acc: tensor<4x8xf32>) -> (tensor<8x4xf16>, tensor<1x8xf32>) {
  %zero = arith.constant 0.0 : f16
  %c = linalg.matmul ins(%a, %b : tensor<4x16xf16>, tensor<16x8xf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e16 = tensor.empty() : tensor<4x8xf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mask, %h : tensor<4x8xi1>, tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%m: i1, %x: f16, %o: f16):
    %s = arith.select %m, %zero, %x : f16
    linalg.yield %s : f16
  } -> tensor<4x8xf16>
  %et = tensor.empty() : tensor<8x4xf16>
  %gt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4x8xf16>) outs(%et : tensor<8x4xf16>) {
  ^bb0(%x: f16, %o: f16):
    linalg.yield %x : f16
  } -> tensor<8x4xf16>
  %e32 = tensor.empty() : tensor<4x8xf32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4x8xf16>) outs(%e32 : tensor<4x8xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%w : tensor<4x8xf32>) outs(%f : tensor<1x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<1x8xf32>
  return %gt, %sum : tensor<8x4xf16>, tensor<1x8xf32>
}
func.func @epilogue_reader(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>, %mask: tensor<4x8xi1>, %acc: tensor<4x8xf32>) -> (tensor<8x4xf16>, tensor<4x8xf16>, tensor<4x8xf16>) {
  %zero = arith.constant 0.0 : f16
  %c = linalg.matmul ins(%a, %b : tensor<4x16xf16>, tensor<16x8xf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e16 = tensor.empty() : tensor<4x8xf16>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mask, %c : tensor<4x8xi1>, tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%m: i1, %x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    %s = arith.select %m, %zero, %t : f16
    linalg.yield %s : f16
  } -> tensor<4x8xf16>
  %et = tensor.empty() : tensor<8x4xf16>
  %gt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4x8xf16>) outs(%et : tensor<8x4xf16>) {
  ^bb0(%x: f16, %o: f16):
    linalg.yield %x : f16
  } -> tensor<8x4xf16>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.negf %x : f16
    linalg.yield %y : f16
  } -> tensor<4x8xf16>
  return %gt, %n, %n : tensor<8x4xf16>, tensor<4x8xf16>, tensor<4x8xf16>
}

// -----

// Kept for a GEMM's epilogue as well when it reads the GEMM's result
// through a reshape (attention scores split into heads): the epilogue
// reads C through a view of its buffer. Recomputed, the negation and the
// sum would each read C in f32.
// RECOMPUTE-LABEL: func.func @epilogue_kept_reshaped
// RECOMPUTE: %[[C:.*]] = linalg.matmul
// RECOMPUTE: %[[CE:.*]] = tensor.expand_shape %[[C]]
// RECOMPUTE: %[[G:.*]] = linalg.generic {{.*}}ins(%{{.*}}, %[[CE]] : tensor<2x2x8xi1>, tensor<2x2x8xf32>)
// RECOMPUTE: arith.truncf
// RECOMPUTE-NEXT: arith.select
// RECOMPUTE: linalg.generic {{.*}}ins(%[[G]] : tensor<2x2x8xf16>)
// RECOMPUTE-NEXT: ^bb0
// RECOMPUTE-NEXT: arith.negf
// RECOMPUTE: linalg.generic {{.*}}ins(%[[G]] : tensor<2x2x8xf16>)
// RECOMPUTE-NEXT: ^bb0
// RECOMPUTE-NEXT: arith.extf
#id3 = affine_map<(i, j, k) -> (i, j, k)>
#row3 = affine_map<(i, j, k) -> (j, k)>
func.func @epilogue_kept_reshaped(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>, %mask: tensor<2x2x8xi1>, %acc: tensor<4x8xf32>) -> (tensor<2x2x8xf16>, tensor<2x8xf32>) {
  %zero = arith.constant 0.0 : f16
  %c = linalg.matmul ins(%a, %b : tensor<4x16xf16>, tensor<16x8xf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %ce = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 2, 8] : tensor<4x8xf32> into tensor<2x2x8xf32>
  %e16 = tensor.empty() : tensor<2x2x8xf16>
  %g = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mask, %ce : tensor<2x2x8xi1>, tensor<2x2x8xf32>) outs(%e16 : tensor<2x2x8xf16>) {
  ^bb0(%m: i1, %x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    %s = arith.select %m, %zero, %t : f16
    linalg.yield %s : f16
  } -> tensor<2x2x8xf16>
  %n = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<2x2x8xf16>) outs(%e16 : tensor<2x2x8xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.negf %x : f16
    linalg.yield %y : f16
  } -> tensor<2x2x8xf16>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%g : tensor<2x2x8xf16>) outs(%f : tensor<2x8xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    %r = arith.addf %y, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  return %n, %sum : tensor<2x2x8xf16>, tensor<2x8xf32>
}

// -----

// Kept for a GEMM's epilogue although a reader is an elementwise op of
// several uses: that reader (a softmax's exp, which a GEMM and the sum
// read) also reads the rows' maxima of the producer's result, computed
// after it, so it cannot be the epilogue. Recomputed, the maxima and the
// exp would each read the f32 scores.
// RECOMPUTE-LABEL: func.func @epilogue_kept_softmax
// RECOMPUTE: %[[C:.*]] = linalg.matmul
// RECOMPUTE: %[[P:.*]] = linalg.generic {{.*}}ins(%[[C]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf16>)
// RECOMPUTE: %[[M:.*]] = linalg.generic {{.*}}ins(%[[P]] : tensor<4x8xf16>) outs(%{{.*}} : tensor<4x1xf16>)
// RECOMPUTE: %[[E:.*]] = linalg.generic {{.*}}ins(%[[P]], %[[M]] : tensor<4x8xf16>, tensor<4x1xf16>)
// RECOMPUTE: linalg.generic {{.*}}ins(%[[E]] : tensor<4x8xf16>)
// RECOMPUTE: linalg.matmul ins(%[[E]], %{{.*}} : tensor<4x8xf16>, tensor<8x4xf16>)
#ids = affine_map<(i, j) -> (i, j)>
#rows = affine_map<(i, j) -> (i, 0)>
func.func @epilogue_kept_softmax(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>, %acc: tensor<4x8xf32>, %v: tensor<8x4xf16>) -> (tensor<4x4xf32>, tensor<4x1xf32>) {
  %quarter = arith.constant 0.25 : f16
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f32
  %c = linalg.matmul ins(%a, %b : tensor<4x16xf16>, tensor<16x8xf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e16 = tensor.empty() : tensor<4x8xf16>
  %p = linalg.generic {indexing_maps = [#ids, #ids], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    %q = arith.mulf %t, %quarter : f16
    linalg.yield %q : f16
  } -> tensor<4x8xf16>
  %em = tensor.empty() : tensor<4x1xf16>
  %fm = linalg.fill ins(%ninf : f16) outs(%em : tensor<4x1xf16>) -> tensor<4x1xf16>
  %m = linalg.generic {indexing_maps = [#ids, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf16>) outs(%fm : tensor<4x1xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %o : f16
    linalg.yield %y : f16
  } -> tensor<4x1xf16>
  %e = linalg.generic {indexing_maps = [#ids, #rows, #ids], iterator_types = ["parallel", "parallel"]}
      ins(%p, %m : tensor<4x8xf16>, tensor<4x1xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %d = arith.subf %x, %y : f16
    %x2 = math.exp %d : f16
    linalg.yield %x2 : f16
  } -> tensor<4x8xf16>
  %es = tensor.empty() : tensor<4x1xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#ids, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<4x8xf16>) outs(%fs : tensor<4x1xf32>) {
  ^bb0(%x: f16, %o: f32):
    %w = arith.extf %x : f16 to f32
    %y = arith.addf %w, %o : f32
    linalg.yield %y : f32
  } -> tensor<4x1xf32>
  %z4 = tensor.empty() : tensor<4x4xf32>
  %r = linalg.matmul ins(%e, %v : tensor<4x8xf16>, tensor<8x4xf16>) outs(%z4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r, %s : tensor<4x4xf32>, tensor<4x1xf32>
}

// -----

// On a tie, kept for the epilogue: the scale of the rounded scores (2
// bytes per element from the rounding, which the epilogue would compute,
// read by 2 readers: 2 x 2 + 2 recomputed, 0 + 3 x 2 kept) is merged with
// the rounding and stored once. Recomputed, it would rely on the rounding
// being stored, which its own readers might then recompute from the f32
// result.
// RECOMPUTE-LABEL: func.func @epilogue_kept_on_tie
// RECOMPUTE: %[[C:.*]] = linalg.matmul
// RECOMPUTE: %[[P:.*]] = linalg.generic {{.*}}ins(%[[C]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf16>)
// RECOMPUTE-NEXT: ^bb0
// RECOMPUTE-NEXT: arith.truncf
// RECOMPUTE-NEXT: arith.mulf
// RECOMPUTE: linalg.generic {{.*}}ins(%[[P]] : tensor<4x8xf16>) outs(%{{.*}} : tensor<4x1xf16>)
// RECOMPUTE-NOT: arith.mulf
// RECOMPUTE: linalg.generic {{.*}}ins(%[[P]], %{{.*}} : tensor<4x8xf16>, tensor<4x1xf16>)
// RECOMPUTE-NOT: arith.mulf
// RECOMPUTE: return
#idt = affine_map<(i, j) -> (i, j)>
#rowt = affine_map<(i, j) -> (i, 0)>
func.func @epilogue_kept_on_tie(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>, %acc: tensor<4x8xf32>, %v: tensor<8x4xf16>) -> (tensor<4x4xf32>, tensor<4x1xf32>) {
  %quarter = arith.constant 0.25 : f16
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f32
  %c = linalg.matmul ins(%a, %b : tensor<4x16xf16>, tensor<16x8xf16>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e16 = tensor.empty() : tensor<4x8xf16>
  %h = linalg.generic {indexing_maps = [#idt, #idt], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %p = linalg.generic {indexing_maps = [#idt, #idt], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%x: f16, %o: f16):
    %q = arith.mulf %x, %quarter : f16
    linalg.yield %q : f16
  } -> tensor<4x8xf16>
  %em = tensor.empty() : tensor<4x1xf16>
  %fm = linalg.fill ins(%ninf : f16) outs(%em : tensor<4x1xf16>) -> tensor<4x1xf16>
  %m = linalg.generic {indexing_maps = [#idt, #rowt], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf16>) outs(%fm : tensor<4x1xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %o : f16
    linalg.yield %y : f16
  } -> tensor<4x1xf16>
  %e = linalg.generic {indexing_maps = [#idt, #rowt, #idt], iterator_types = ["parallel", "parallel"]}
      ins(%p, %m : tensor<4x8xf16>, tensor<4x1xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %d = arith.subf %x, %y : f16
    %x2 = math.exp %d : f16
    linalg.yield %x2 : f16
  } -> tensor<4x8xf16>
  %es = tensor.empty() : tensor<4x1xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#idt, #rowt], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<4x8xf16>) outs(%fs : tensor<4x1xf32>) {
  ^bb0(%x: f16, %o: f32):
    %w = arith.extf %x : f16 to f32
    %y = arith.addf %w, %o : f32
    linalg.yield %y : f32
  } -> tensor<4x1xf32>
  %z4 = tensor.empty() : tensor<4x4xf32>
  %r = linalg.matmul ins(%e, %v : tensor<4x8xf16>, tensor<8x4xf16>) outs(%z4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r, %s : tensor<4x4xf32>, tensor<4x1xf32>
}

// -----

// A transpose that a contraction and an elementwise op read: with
// recompute, the elementwise op reads the transpose's input at the
// transposed indices (as many bytes), and the transpose stays for the
// contraction alone (whose operand copies compute it on the GPU). Without
// recompute, it has two uses and stays.
// CHECK-LABEL: func.func @transpose_read_twice
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: linalg.generic
// RECOMPUTE-LABEL: func.func @transpose_read_twice
// RECOMPUTE-SAME: (%[[X:[^:]*]]: tensor<8x4xf16>
// RECOMPUTE: %[[T:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<8x4xf16>)
// RECOMPUTE: linalg.generic {{.*}} ins(%[[T]], %{{.*}} : tensor<4x8xf16>, tensor<8x4xf16>)
// RECOMPUTE: linalg.generic {indexing_maps = [#[[MAP:.*]], #{{.*}}], {{.*}} ins(%[[X]] : tensor<8x4xf16>)
// RECOMPUTE: arith.negf
// RECOMPUTE-NOT: linalg.generic
func.func @transpose_read_twice(%x: tensor<8x4xf16>, %w: tensor<8x4xf16>) -> (tensor<4x4xf32>, tensor<4x8xf16>) {
  %e16 = tensor.empty() : tensor<4x8xf16>
  %t = linalg.transpose ins(%x : tensor<8x4xf16>) outs(%e16 : tensor<4x8xf16>) permutation = [1, 0]
  %acc = tensor.empty() : tensor<4x4xf32>
  %mm = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%t, %w : tensor<4x8xf16>, tensor<8x4xf16>) outs(%acc : tensor<4x4xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.negf %a : f16
    linalg.yield %m : f16
  } -> tensor<4x8xf16>
  return %mm, %n : tensor<4x4xf32>, tensor<4x8xf16>
}

// -----

// A weight's cast to f16 that a GEMM reads transposed (the forward layer)
// and another as it is (the input's gradient): with recompute, the
// transpose computes the cast from the f32 weight and the second GEMM
// alone reads the cast, so that on the GPU both GEMMs' operand copies
// compute them (no kernel of their own). A cast of a computed value (%n,
// which the function returns: its kernel writes the cast as well) stays
// where it is, read through the transpose. Without recompute, the cast has two uses and stays.
// CHECK-LABEL: func.func @weight_cast_transposed
// CHECK: %[[C:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf16>)
// CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<4x8xf16>) outs(%{{.*}} : tensor<8x4xf16>)
// RECOMPUTE-LABEL: func.func @weight_cast_transposed
// RECOMPUTE-SAME: (%[[W:[^:]*]]: tensor<4x8xf32>, %{{[^:]*}}: tensor<2x8xf16>, %{{[^:]*}}: tensor<2x4xf16>, %[[X:[^:]*]]: tensor<4x8xf32>)
// RECOMPUTE: %[[C:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf16>)
// RECOMPUTE: arith.truncf
// RECOMPUTE: %[[WT:.*]] = linalg.generic {indexing_maps = [#[[PERM:.*]], #{{.*}}], {{.*}} ins(%[[W]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf16>)
// RECOMPUTE: arith.truncf
// RECOMPUTE: linalg.matmul ins(%{{.*}}, %[[WT]] :
// RECOMPUTE: linalg.matmul ins(%{{.*}}, %[[C]] :
// RECOMPUTE: %[[N:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// RECOMPUTE: arith.negf
// RECOMPUTE: %[[H:.*]] = linalg.generic {{.*}} ins(%[[N]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf16>)
// RECOMPUTE: arith.truncf
// RECOMPUTE: linalg.generic {{.*}} ins(%[[H]] : tensor<4x8xf16>) outs(%{{.*}} : tensor<8x4xf16>)
func.func @weight_cast_transposed(%w: tensor<4x8xf32>, %x: tensor<2x8xf16>, %dy: tensor<2x4xf16>, %v: tensor<4x8xf32>)
    -> (tensor<2x4xf32>, tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf16>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x8xf32>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %et = tensor.empty() : tensor<8x4xf16>
  %ct = linalg.transpose ins(%c : tensor<4x8xf16>) outs(%et : tensor<8x4xf16>) permutation = [1, 0]
  %e24 = tensor.empty() : tensor<2x4xf32>
  %z24 = linalg.fill ins(%zero : f32) outs(%e24 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.matmul ins(%x, %ct : tensor<2x8xf16>, tensor<8x4xf16>) outs(%z24 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %e28 = tensor.empty() : tensor<2x8xf32>
  %z28 = linalg.fill ins(%zero : f32) outs(%e28 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %dx = linalg.matmul ins(%dy, %c : tensor<2x4xf16>, tensor<4x8xf16>) outs(%z28 : tensor<2x8xf32>) -> tensor<2x8xf32>
  // The same with the cast of a computed value.
  %ef = tensor.empty() : tensor<4x8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%v : tensor<4x8xf32>) outs(%ef : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<4x8xf32>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %ht = linalg.transpose ins(%h : tensor<4x8xf16>) outs(%et : tensor<8x4xf16>) permutation = [1, 0]
  %y2 = linalg.matmul ins(%x, %ht : tensor<2x8xf16>, tensor<8x4xf16>) outs(%z24 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %dx2 = linalg.matmul ins(%dy, %h : tensor<2x4xf16>, tensor<4x8xf16>) outs(%z28 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y, %dx, %y2, %dx2, %n : tensor<2x4xf32>, tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x8xf32>, tensor<4x8xf32>
}
