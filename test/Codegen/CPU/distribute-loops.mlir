// RUN: mp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mp-distribute-loops{tile-m=4}))' | FileCheck %s
// RUN: mp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mp-distribute-loops{tile-m=4 min-work=1000000000}))' | FileCheck %s --check-prefix=NONE
// RUN: not mp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mp-distribute-loops{min-work=-1}))' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: mp-distribute-loops: tile-m and tile-n must be positive and min-work not negative

// A contraction splits along whole register blocks: 12544 columns are 784
// blocks of 16, cut into 56 shares of 14 blocks (the least divisor of 784
// from 784 / 64, so at most 64 shares).
// CHECK-LABEL: func.func @im2col_gemm
// CHECK: scf.forall (%[[J:.*]]) = (0) to (12544) step (224) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK:   %[[A:.*]] = tensor.extract_slice %{{.*}}[0, 0] [8, 9] [1, 1]
// CHECK:   %[[B:.*]] = tensor.extract_slice %{{.*}}[0, %[[J]]] [9, 224] [1, 1]
// CHECK:   %[[C:.*]] = tensor.extract_slice %[[O]][0, %[[J]]] [8, 224] [1, 1]
// CHECK:   %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<8x9xf32>, tensor<9x224xf32>) outs(%[[C]] : tensor<8x224xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %[[M]] into %[[O]][0, %[[J]]] [8, 224] [1, 1]
// NONE-LABEL: func.func @im2col_gemm
// NONE-NOT: scf.forall (
// NONE: return
func.func @im2col_gemm(%a: tensor<8x9xf32>, %b: tensor<9x12544xf32>, %c: tensor<8x12544xf32>) -> tensor<8x12544xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<8x9xf32>, tensor<9x12544xf32>) outs(%c : tensor<8x12544xf32>) -> tensor<8x12544xf32>
  return %m : tensor<8x12544xf32>
}

// -----

// Along n as long as it has 8 register blocks, even with more row blocks
// (784 / 4 = 196): each share packs its own 16-column panels and reuses
// them for all 196 row blocks, as the whole contraction did.
// CHECK-LABEL: func.func @weight_gradient
// CHECK: scf.forall (%[[J:.*]]) = (0) to (128) step (16)
// CHECK:   linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<784x64xf32>, tensor<64x16xf32>) outs(%{{.*}} : tensor<784x16xf32>)
// NONE-LABEL: func.func @weight_gradient
// NONE-NOT: scf.forall (
// NONE: return
func.func @weight_gradient(%a: tensor<784x64xf32>, %b: tensor<64x128xf32>, %c: tensor<784x128xf32>) -> tensor<784x128xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<784x64xf32>, tensor<64x128xf32>) outs(%c : tensor<784x128xf32>) -> tensor<784x128xf32>
  return %m : tensor<784x128xf32>
}

// -----

// Fewer column blocks (32 / 16 = 2): along the loop with the most blocks,
// here the rows (1792 / 4 = 448), in 64 shares of 7 blocks.
// CHECK-LABEL: func.func @narrow
// CHECK: scf.forall (%[[I:.*]]) = (0) to (1792) step (28)
// CHECK:   linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<28x32xf32>, tensor<32x32xf32>) outs(%{{.*}} : tensor<28x32xf32>)
// NONE-LABEL: func.func @narrow
// NONE-NOT: scf.forall (
// NONE: return
func.func @narrow(%a: tensor<1792x32xf32>, %b: tensor<32x32xf32>, %c: tensor<1792x32xf32>) -> tensor<1792x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<1792x32xf32>, tensor<32x32xf32>) outs(%c : tensor<1792x32xf32>) -> tensor<1792x32xf32>
  return %m : tensor<1792x32xf32>
}

// -----

// A batched contraction with few column blocks (28 columns: one block) and
// more batches than row blocks splits the batch.
// CHECK-LABEL: func.func @batched
// CHECK: scf.forall (%[[B:.*]]) = (0) to (128) step (2)
// CHECK:   linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x28x16xf32>, tensor<2x16x28xf32>) outs(%{{.*}} : tensor<2x28x28xf32>)
// NONE-LABEL: func.func @batched
// NONE-NOT: scf.forall (
// NONE: return
func.func @batched(%a: tensor<128x28x16xf32>, %b: tensor<128x16x28xf32>, %c: tensor<128x28x28xf32>) -> tensor<128x28x28xf32> {
  %m = linalg.batch_matmul ins(%a, %b : tensor<128x28x16xf32>, tensor<128x16x28xf32>) outs(%c : tensor<128x28x28xf32>) -> tensor<128x28x28xf32>
  return %m : tensor<128x28x28xf32>
}

// -----

// An elementwise op splits along its first loop; an exp costs 8 adds, so
// 32768 of them are enough work (min-work 131072) where 32768 adds are not.
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.forall (%{{.*}}) = (0) to (32768) step (512)
// CHECK:   math.exp
// CHECK-NOT: scf.forall (
// CHECK: arith.addf
// CHECK: return
#id = affine_map<(d0) -> (d0)>
// NONE-LABEL: func.func @elementwise
// NONE-NOT: scf.forall (
// NONE: return
func.func @elementwise(%x: tensor<32768xf32>) -> (tensor<32768xf32>, tensor<32768xf32>) {
  %e = tensor.empty() : tensor<32768xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<32768xf32>) outs(%e : tensor<32768xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<32768xf32>
  %add = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<32768xf32>) outs(%e : tensor<32768xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<32768xf32>
  return %exp, %add : tensor<32768xf32>, tensor<32768xf32>
}

// -----

// A column sum: the only parallel loop is the innermost, split in shares of
// at least 16 columns (a cache line each), never along the reduction.
// CHECK-LABEL: func.func @column_sum
// CHECK: scf.forall (%[[J:.*]]) = (0) to (96) step (16)
// CHECK:   tensor.extract_slice %{{.*}}[0, %[[J]]] [1792, 16] [1, 1]
// CHECK:   linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
// NONE-LABEL: func.func @column_sum
// NONE-NOT: scf.forall (
// NONE: return
func.func @column_sum(%x: tensor<1792x96xf32>, %acc: tensor<96xf32>) -> tensor<96xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<1792x96xf32>) outs(%acc : tensor<96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<96xf32>
  return %s : tensor<96xf32>
}

// -----

// Not split: a size with no divisor that makes equal shares (131071 is
// prime), dynamic sizes, and ops already inside an scf.forall.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-1: scf.forall (
// CHECK-NOT: scf.forall (
#id = affine_map<(d0) -> (d0)>
func.func @left_alone(%x: tensor<131071xf32>, %d: tensor<?xf32>, %y: tensor<262144xf32>) -> (tensor<131071xf32>, tensor<?xf32>, tensor<262144xf32>) {
  %e = tensor.empty() : tensor<131071xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<131071xf32>) outs(%e : tensor<131071xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<131071xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : tensor<?xf32>
  %ed = tensor.empty(%n) : tensor<?xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%d : tensor<?xf32>) outs(%ed : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %ey = tensor.empty() : tensor<262144xf32>
  %f = scf.forall (%i) = (0) to (262144) step (131072) shared_outs(%o = %ey) -> tensor<262144xf32> {
    %s = tensor.extract_slice %y[%i] [131072] [1] : tensor<262144xf32> to tensor<131072xf32>
    %so = tensor.extract_slice %o[%i] [131072] [1] : tensor<262144xf32> to tensor<131072xf32>
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s : tensor<131072xf32>) outs(%so : tensor<131072xf32>) {
    ^bb0(%in: f32, %out: f32):
      %r = math.exp %in : f32
      linalg.yield %r : f32
    } -> tensor<131072xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%i] [131072] [1] : tensor<131072xf32> into tensor<262144xf32>
    }
  }
  return %p, %q, %f : tensor<131071xf32>, tensor<?xf32>, tensor<262144xf32>
}

// -----

// An op without inputs (no contraction: nothing to read) is split along its
// first loop like any elementwise op.
// CHECK-LABEL: func.func @no_inputs
// CHECK: scf.forall
// CHECK: linalg.index 0
// NONE-LABEL: func.func @no_inputs
// NONE-NOT: scf.forall
func.func @no_inputs(%o: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%o : tensor<512x512xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  } -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}

// -----

// The elementwise consumer of a split contraction (bias, ReLU, the cast to
// f16) runs in the contraction's shares, right after each share's GEMM, on
// the columns it just computed: one parallel region for the layer, and the
// consumer reads the share's output while it is in cache. Its result is the
// loop's second one; no separate loop over the whole output is left.
// CHECK-LABEL: func.func @epilogue
// CHECK-SAME: %[[BIAS:[^:]+]]: tensor<128xf32>
// CHECK: %[[R:.*]]:2 = scf.forall (%[[J:.*]]) = (0) to (128) step (16) shared_outs(%[[O:.*]] = %{{.*}}, %[[E:.*]] = %{{.*}})
// CHECK:   %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x784xf32>, tensor<784x16xf32>) outs(%{{.*}} : tensor<64x16xf32>)
// CHECK:   %[[BS:.*]] = tensor.extract_slice %[[BIAS]][%[[J]]] [16] [1]
// CHECK:   %[[ES:.*]] = tensor.extract_slice %[[E]][0, %[[J]]] [64, 16] [1, 1]
// CHECK:   %[[A:.*]] = linalg.generic {{.*}} ins(%[[BS]], %[[M]] : tensor<16xf32>, tensor<64x16xf32>) outs(%[[ES]] : tensor<64x16xf16>)
// CHECK:     arith.maximumf
// CHECK:     arith.truncf
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %[[M]] into %[[O]][0, %[[J]]] [64, 16] [1, 1]
// CHECK:     tensor.parallel_insert_slice %[[A]] into %[[E]][0, %[[J]]] [64, 16] [1, 1]
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#1
#bias = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @epilogue(%x: tensor<64x784xf32>, %w: tensor<784x128xf32>, %b: tensor<128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf16> {
  %m = linalg.matmul ins(%x, %w : tensor<64x784xf32>, tensor<784x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  %e = tensor.empty() : tensor<64x128xf16>
  %zero = arith.constant 0.0 : f32
  %a = linalg.generic {indexing_maps = [#bias, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b, %m : tensor<128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf16>) {
    ^bb0(%bi: f32, %v: f32, %o: f16):
      %s = arith.addf %v, %bi : f32
      %r = arith.maximumf %s, %zero : f32
      %h = arith.truncf %r : f32 to f16
      linalg.yield %h : f16
    } -> tensor<64x128xf16>
  return %a : tensor<64x128xf16>
}

// -----

// A consumer that reduces (a row sum) is not fused: its loops are split on
// their own.
// CHECK-LABEL: func.func @reduced
// CHECK: %[[R:.*]] = scf.forall (%{{.*}}) = (0) to (128) step (16) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<64x128xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<{{.*}}x128xf32>)
#id2 = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @reduced(%x: tensor<64x784xf32>, %w: tensor<784x128xf32>, %c: tensor<64x128xf32>, %s: tensor<64xf32>) -> tensor<64xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<64x784xf32>, tensor<784x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<64x128xf32>) outs(%s : tensor<64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %a = arith.addf %v, %o : f32
      linalg.yield %a : f32
    } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
