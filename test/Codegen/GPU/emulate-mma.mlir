// RUN: mp-opt %s --split-input-file --mp-gpu-emulate-mma --mlir-print-local-scope | FileCheck %s

// An m16n8k16 tile, A (M, K) and B (K, N): the operands go to stack buffers
// allocated once at the function's start (both tiles of the loop share
// them), then one trip per k reads A's column (an element per row) and B's
// row (one vector), extends them to f32 and adds their outer product.
// CHECK-LABEL: func.func @row_col
// CHECK-SAME: (%[[A0:.*]]: vector<16x16xf16>, %[[A1:.*]]: vector<16x16xf16>, %[[B:.*]]: vector<16x8xf16>, %[[C:.*]]: vector<16x8xf32>, %[[N:.*]]: index)
// CHECK-DAG: %[[ABUF:.*]] = memref.alloca() : memref<16x16xf16>
// CHECK-DAG: %[[BBUF:.*]] = memref.alloca() : memref<16x8xf16>
// CHECK-NOT: memref.alloca
// CHECK: scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[C]])
// CHECK: vector.transfer_write %[[A0]], %[[ABUF]][%[[Z:.*]], %[[Z]]] {in_bounds = [true, true]}
// CHECK: vector.transfer_write %[[B]], %[[BBUF]][%[[Z]], %[[Z]]] {in_bounds = [true, true]}
// CHECK: %[[R0:.*]] = scf.for %[[K:.*]] = %{{.*}} to %c16{{.*}} step %c1{{.*}} iter_args(%[[S:.*]] = %[[ACC]]) -> (vector<16x8xf32>)
// CHECK: %[[E0:.*]] = memref.load %[[ABUF]][%c0{{.*}}, %[[K]]]
// CHECK-COUNT-15: memref.load %[[ABUF]][%c{{[0-9]+.*}}, %[[K]]]
// CHECK: %[[COL:.*]] = vector.from_elements %[[E0]], {{.*}} : vector<16xf16>
// CHECK: %[[ACOL:.*]] = arith.extf %[[COL]] : vector<16xf16> to vector<16xf32>
// CHECK: %[[ROW:.*]] = vector.transfer_read %[[BBUF]][%[[K]], %c0{{.*}}], %{{.*}} {in_bounds = [true]} : memref<16x8xf16>, vector<8xf16>
// CHECK: %[[BROW:.*]] = arith.extf %[[ROW]] : vector<8xf16> to vector<8xf32>
// CHECK: %[[P:.*]] = vector.outerproduct %[[ACOL]], %[[BROW]], %[[S]] {kind = #vector.kind<add>} : vector<16xf32>, vector<8xf32>
// CHECK: scf.yield %[[P]] : vector<16x8xf32>
// CHECK: vector.transfer_write %[[A1]], %[[ABUF]]
// CHECK: vector.transfer_write %[[B]], %[[BBUF]]
// CHECK: %[[R1:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[R0]])
// CHECK: scf.yield %[[R1]]
// CHECK-NOT: vector.contract
func.func @row_col(%a0: vector<16x16xf16>, %a1: vector<16x16xf16>, %b: vector<16x8xf16>, %c: vector<16x8xf32>, %n: index) -> vector<16x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16x8xf32>) {
    %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a0, %b, %acc : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
    %1 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a1, %b, %0 : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
    scf.yield %1 : vector<16x8xf32>
  }
  return %r : vector<16x8xf32>
}

// -----

// Transposed operands (A stored (K, M), B (N, K)) in bf16: A's row at k is
// one load, B's column one load per element.
// CHECK-LABEL: func.func @transposed
// CHECK-SAME: (%[[A:.*]]: vector<16x16xbf16>, %[[B:.*]]: vector<8x16xbf16>, %[[C:.*]]: vector<16x8xf32>)
// CHECK-DAG: %[[ABUF:.*]] = memref.alloca() : memref<16x16xbf16>
// CHECK-DAG: %[[BBUF:.*]] = memref.alloca() : memref<8x16xbf16>
// CHECK: scf.for %[[K:.*]] = {{.*}} iter_args(%[[S:.*]] = %[[C]])
// CHECK: %[[ROW:.*]] = vector.transfer_read %[[ABUF]][%[[K]], %c0{{.*}}], %{{.*}} {in_bounds = [true]} : memref<16x16xbf16>, vector<16xbf16>
// CHECK: %[[AROW:.*]] = arith.extf %[[ROW]] : vector<16xbf16> to vector<16xf32>
// CHECK-COUNT-8: memref.load %[[BBUF]][%c{{[0-9]+.*}}, %[[K]]]
// CHECK: %[[COL:.*]] = vector.from_elements {{.*}} : vector<8xbf16>
// CHECK: %[[BCOL:.*]] = arith.extf %[[COL]] : vector<8xbf16> to vector<8xf32>
// CHECK: vector.outerproduct %[[AROW]], %[[BCOL]], %[[S]] {kind = #vector.kind<add>}
func.func @transposed(%a: vector<16x16xbf16>, %b: vector<8x16xbf16>, %c: vector<16x8xf32>) -> vector<16x8xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<16x16xbf16>, vector<8x16xbf16> into vector<16x8xf32>
  return %0 : vector<16x8xf32>
}

// -----

// A CUDA-core tile in f32 (K = 8): no extension.
// CHECK-LABEL: func.func @simt
// CHECK: scf.for %{{.*}} = %{{.*}} to %c8{{.*}} step
// CHECK-NOT: arith.extf
// CHECK: vector.outerproduct {{.*}} : vector<4xf32>, vector<4xf32>
func.func @simt(%a: vector<4x8xf32>, %b: vector<8x4xf32>, %c: vector<4x4xf32>) -> vector<4x4xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  return %0 : vector<4x4xf32>
}

// -----

// Other contractions are left to upstream's lowering: another kind, a
// transposed accumulator, a batch loop, integers.
// CHECK-LABEL: func.func @others
// CHECK-NOT: scf.for
// CHECK-NOT: memref.alloca
// CHECK-COUNT-4: vector.contract
func.func @others(%a: vector<16x16xf16>, %b: vector<16x8xf16>, %c: vector<16x8xf32>, %ct: vector<8x16xf32>, %ba: vector<2x4x4xf32>, %bb: vector<2x4x4xf32>, %bc: vector<2x4x4xf32>, %ia: vector<4x4xi32>, %ic: vector<4x4xi32>) -> (vector<16x8xf32>, vector<8x16xf32>, vector<2x4x4xf32>, vector<4x4xi32>) {
  %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maximumf>} %a, %b, %c : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
  %1 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %ct : vector<16x16xf16>, vector<16x8xf16> into vector<8x16xf32>
  %2 = vector.contract {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ba, %bb, %bc : vector<2x4x4xf32>, vector<2x4x4xf32> into vector<2x4x4xf32>
  %3 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ia, %ia, %ic : vector<4x4xi32>, vector<4x4xi32> into vector<4x4xi32>
  return %0, %1, %2, %3 : vector<16x8xf32>, vector<8x16xf32>, vector<2x4x4xf32>, vector<4x4xi32>
}

// -----

// Fragments read from a block's buffers just before the contraction are
// read there again by the loop (no copy): A's column k as one load per row
// at the fragment's offsets, B's row k as one transfer_read; the fragments'
// own reads go. A write (to any buffer) between a read and the contraction
// keeps that operand's copy (B here).
// CHECK-LABEL: func.func @from_buffers
// CHECK-SAME: (%[[A:.*]]: memref<64x32xf16>, %[[B:.*]]: memref<32x64xf16>, %[[C:.*]]: vector<16x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[X:.*]]: f16)
// CHECK: %[[BBUF:.*]] = memref.alloca() : memref<16x8xf16>
// CHECK-NOT: memref.alloca
// CHECK: %[[BFRAG:.*]] = vector.transfer_read %[[B]][%c0{{.*}}, %[[J]]]
// CHECK: memref.store %[[X]], %[[B]]
// CHECK: vector.transfer_write %[[BFRAG]], %[[BBUF]]
// CHECK: %[[R0:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[S:.*]] = %[[C]])
// CHECK: memref.load %[[A]][%[[I]], %[[K]]] : memref<64x32xf16>
// CHECK: %[[ROW1:.*]] = arith.addi %[[I]], %c1{{.*}} : index
// CHECK: memref.load %[[A]][%[[ROW1]], %[[K]]] : memref<64x32xf16>
// CHECK-COUNT-14: memref.load %[[A]]
// CHECK: vector.transfer_read %[[BBUF]][%[[K]], %c0{{.*}}]
// CHECK: vector.outerproduct
// CHECK: scf.for %[[K2:.*]] = {{.*}} iter_args(%{{.*}} = %[[R0]])
// CHECK-COUNT-16: memref.load %[[A]]
// CHECK: %[[ROW:.*]] = arith.addi %c16{{.*}}, %[[K2]] : index
// CHECK: vector.transfer_read %[[B]][%[[ROW]], %[[J]]], %{{.*}} {in_bounds = [true]} : memref<32x64xf16>, vector<8xf16>
// CHECK-NOT: vector.transfer_read %[[A]]
// CHECK-NOT: vector.contract
func.func @from_buffers(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %c: vector<16x8xf32>, %i: index, %j: index, %x: f16) -> vector<16x8xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f16
  %b0 = vector.transfer_read %b[%c0, %j], %pad {in_bounds = [true, true]} : memref<32x64xf16>, vector<16x8xf16>
  memref.store %x, %b[%c0, %c0] : memref<32x64xf16>
  %a0 = vector.transfer_read %a[%i, %c0], %pad {in_bounds = [true, true]} : memref<64x32xf16>, vector<16x16xf16>
  %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a0, %b0, %c : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
  %a1 = vector.transfer_read %a[%i, %c16], %pad {in_bounds = [true, true]} : memref<64x32xf16>, vector<16x16xf16>
  %b1 = vector.transfer_read %b[%c16, %j], %pad {in_bounds = [true, true]} : memref<32x64xf16>, vector<16x8xf16>
  %1 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a1, %b1, %0 : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
  return %1 : vector<16x8xf32>
}
