// RUN: mp-opt %s --split-input-file --mp-gpu-split-k | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-gpu-split-k='min-blocks=4 min-k=128' | FileCheck %s --check-prefix=FEW
// RUN: not mp-opt %s --split-input-file --mp-gpu-split-k='min-k=0' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mp-opt %s --split-input-file --mp-gpu-split-k='min-blocks=-1' 2>&1 | FileCheck %s --check-prefix=BAD-BLOCKS
// BAD: error: mp-gpu-split-k: min-blocks=128 min-k=0 is invalid: expected min-blocks >= 0 (0: never split) and min-k >= 1
// BAD-BLOCKS: error: mp-gpu-split-k: min-blocks=-1 min-k=512 is invalid

// A weight gradient (dW = X^T dY over 7168 rows): one 32x64 block. 128
// blocks would need parts of 56 terms, fewer than min-k: the most parts of
// at least 512 terms, 14. The transpose that computes A from X is computed
// over the parts instead (X reshaped, the parts outermost); B, stored with K
// outermost, is only reshaped. The partial products start from zeros, and
// their sum goes into C's initial value.
// The maps: X read as (part, k, m), A and P with the parts outermost, the
// sum over the parts.
// CHECK-DAG: #[[XMAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[AMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[BMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[CMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[DROP:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @weight_gradient
// CHECK-SAME: (%[[X:.*]]: tensor<7168x32xf16>, %[[DY:.*]]: tensor<7168x64xf16>, %[[C:.*]]: tensor<32x64xf32>)
// CHECK: %[[XS:.*]] = tensor.expand_shape %[[X]] {{\[}}[0, 1], [2]] output_shape [14, 512, 32] : tensor<7168x32xf16> into tensor<14x512x32xf16>
// CHECK: %[[A:.*]] = linalg.generic {indexing_maps = [#[[XMAP]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[XS]] : tensor<14x512x32xf16>) outs(%{{.*}} : tensor<14x32x512xf16>)
// CHECK: %[[B:.*]] = tensor.expand_shape %[[DY]] {{\[}}[0, 1], [2]] output_shape [14, 512, 64] : tensor<7168x64xf16> into tensor<14x512x64xf16>
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<14x32x64xf32>)
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[AMAP]], #[[BMAP]], #[[CMAP]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<14x32x512xf16>, tensor<14x512x64xf16>) outs(%[[ZEROS]] : tensor<14x32x64xf32>) attrs =  {mp.gpu_tile = array<i64: 32, 64, 16, 32>}
// CHECK: arith.extf
// CHECK: arith.extf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID3]], #[[DROP]]], iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[P]] : tensor<14x32x64xf32>) outs(%[[C]] : tensor<32x64xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[OUT]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[ADD]]
// CHECK: return %[[SUM]]
// FEW-LABEL: func.func @weight_gradient
// FEW: tensor<4x32x64xf32>
#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @weight_gradient(%x: tensor<7168x32xf16>, %dy: tensor<7168x64xf16>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %e = tensor.empty() : tensor<32x7168xf16>
  %a = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<7168x32xf16>) outs(%e : tensor<32x7168xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<32x7168xf16>
  %r = linalg.matmul {mp.gpu_tile = array<i64: 32, 64, 16, 32>} ins(%a, %dy : tensor<32x7168xf16>, tensor<7168x64xf16>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
// -----

// An operand with K innermost and no producer: copied over the parts by a
// producer the tiled stage fuses into its copies. bf16 too.
// CHECK-LABEL: func.func @copied
// CHECK: %[[AS:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [16, 8, 512] : tensor<16x4096xbf16> into tensor<16x8x512xbf16>
// CHECK: %[[A:.*]] = linalg.generic {{.*}} ins(%[[AS]] : tensor<16x8x512xbf16>) outs(%{{.*}} : tensor<8x16x512xbf16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT: linalg.yield %[[IN]] : bf16
// CHECK: linalg.generic {{.*}} ins(%[[A]], %{{.*}} : tensor<8x16x512xbf16>, tensor<8x512x16xbf16>) outs(%{{.*}} : tensor<8x16x16xf32>) attrs =  {mp.gpu_tile = array<i64: 16, 16, 16, 8>}
// FEW-LABEL: func.func @copied
// FEW: tensor<4x16x16xf32>
func.func @copied(%a: tensor<16x4096xbf16>, %b: tensor<4096x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%a, %b : tensor<16x4096xbf16>, tensor<4096x16xbf16>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

// C set by a fill: the fill moves next to the sum (one loop sets and sums
// after bufferization), none stays before the partial GEMM.
// CHECK-LABEL: func.func @filled
// CHECK-NOT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x16xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8x16x16xf32>)
// CHECK-NOT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x16xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8x16x16xf32>) attrs =  {mp.gpu_tile
// CHECK: %[[C:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x16xf32>)
// CHECK-NEXT: %[[SUM:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8x16x16xf32>) outs(%[[C]] : tensor<16x16xf32>)
// CHECK: return %[[SUM]]
func.func @filled(%a: tensor<4096x16xf16>, %b: tensor<4096x16xf16>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%a, %b : tensor<4096x16xf16>, tensor<4096x16xf16>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

// Left whole: enough blocks (32 x 32 of 64x64), a K with no split into
// parts of at least 256 terms and a multiple of 32 (1000), a batch loop, an
// operand computed with linalg.index (a gather: it cannot be computed over
// the parts), an operand read by another op too, no tiles.
// CHECK-LABEL: func.func @whole
// CHECK-NOT: tensor.expand_shape
// CHECK-COUNT-2: linalg.matmul
// CHECK: linalg.batch_matmul
// CHECK-COUNT-3: linalg.matmul
// CHECK-NOT: linalg.generic {{.*}}reduction
// FEW-LABEL: func.func @whole
// FEW-NOT: tensor.expand_shape
// FEW: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @whole(%a: tensor<2048x4096xf16>, %b: tensor<4096x2048xf16>, %c: tensor<2048x2048xf32>,
                 %a2: tensor<16x1000xf16>, %b2: tensor<1000x16xf16>, %c2: tensor<16x16xf32>,
                 %a3: tensor<2x16x4096xf16>, %b3: tensor<2x4096x16xf16>, %c3: tensor<2x16x16xf32>,
                 %b4: tensor<4096x16xf16>, %a5: tensor<16x4096xf16>)
    -> (tensor<2048x2048xf32>, tensor<16x16xf32>, tensor<2x16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x4096xf16>) {
  %r = linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>} ins(%a, %b : tensor<2048x4096xf16>, tensor<4096x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %r2 = linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%a2, %b2 : tensor<16x1000xf16>, tensor<1000x16xf16>) outs(%c2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r3 = linalg.batch_matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%a3, %b3 : tensor<2x16x4096xf16>, tensor<2x4096x16xf16>) outs(%c3 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %e = tensor.empty() : tensor<16x4096xf16>
  %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<16x4096xf16>) {
  ^bb0(%out: f16):
    %i = linalg.index 1 : index
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f16
    linalg.yield %f : f16
  } -> tensor<16x4096xf16>
  %r4 = linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%g, %b4 : tensor<16x4096xf16>, tensor<4096x16xf16>) outs(%c2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e5 = tensor.empty() : tensor<16x4096xf16>
  %p5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a5 : tensor<16x4096xf16>) outs(%e5 : tensor<16x4096xf16>) {
  ^bb0(%in: f16, %out: f16):
    %n = arith.negf %in : f16
    linalg.yield %n : f16
  } -> tensor<16x4096xf16>
  %r5 = linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%p5, %b4 : tensor<16x4096xf16>, tensor<4096x16xf16>) outs(%c2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r6 = linalg.matmul ins(%a5, %b4 : tensor<16x4096xf16>, tensor<4096x16xf16>) outs(%c2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r, %r2, %r3, %r4, %r5, %r6, %p5 : tensor<2048x2048xf32>, tensor<16x16xf32>, tensor<2x16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x4096xf16>
}
