// Graphs with dynamic shapes, tensor.pad, memrefs, vectors, unranked tensors
// and scf.forall: nothing crashes, memrefs and unknown region ops are left
// alone, tensor.dim needs no cast, a slice of an f32 accumulator that is only
// stored is not rounded.
// RUN: mp-opt %s --pass-pipeline='builtin.module(mp-amp-pipeline{remarks=true},mp-test-amp-invariants)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --input-file=%t.remarks --check-prefix=REMARK

// REMARK: remark: mp: left in its precision: it has floating-point values that are not f32
// REMARK: remark: mp: 'scf.forall' stays f32: its operand and result types cannot change

// CHECK-LABEL: func.func @edge_cases
// CHECK-DAG: %[[X16:.*]] = arith.truncf %{{.*}} : tensor<?x8xf32> to tensor<?x8xf16>
// CHECK-DAG: %[[PADV:.*]] = arith.constant 0.000000e+00 : f16
// CHECK: %[[P:.*]] = tensor.pad %[[X16]] low[1, 1] high[1, 1]
// CHECK: tensor.yield %[[PADV]] : f16
// CHECK: } : tensor<?x8xf16> to tensor<?x10xf16>
// CHECK: tensor.dim %{{.*}}, %{{.*}} : tensor<?x8xf32>
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[P]], %{{.*}} : tensor<?x10xf16>, tensor<10x8xf16>) outs(%{{.*}} : tensor<?x8xf32>)
// CHECK: math.exp %[[MM]] : tensor<?x8xf32>
// CHECK: outs(%{{.*}} : memref<4x4xf32>)
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: math.tanh %{{.*}} : tensor<*xf32>
// CHECK: scf.forall
// CHECK-NEXT: tensor.extract_slice %[[MM]]{{.*}} : tensor<?x8xf32> to tensor<1x8xf32>
// CHECK-NEXT: scf.forall.in_parallel
func.func @edge_cases(%x: tensor<?x8xf32>, %w: tensor<10x8xf32>, %m: memref<4x4xf32>, %v: vector<4xf32>, %u: tensor<*xf32>, %n: index) -> (tensor<?x8xf32>, vector<4xf32>, tensor<*xf32>) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %p = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<?x8xf32> to tensor<?x10xf32>
  %d = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%d) : tensor<?x8xf32>
  %mm = linalg.matmul ins(%p, %w : tensor<?x10xf32>, tensor<10x8xf32>) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %ex = math.exp %mm : tensor<?x8xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%m : memref<4x4xf32>) {
  ^bb0(%o: f32):
    %t = arith.addf %o, %o : f32
    linalg.yield %t : f32
  }
  %vv = arith.mulf %v, %v : vector<4xf32>
  %uu = math.tanh %u : tensor<*xf32>
  %r = scf.forall (%i) in (%n) shared_outs(%o = %ex) -> (tensor<?x8xf32>) {
    %s = tensor.extract_slice %mm[%i, 0] [1, 8] [1, 1] : tensor<?x8xf32> to tensor<1x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<?x8xf32>
    }
  }
  return %r, %vv, %uu : tensor<?x8xf32>, vector<4xf32>, tensor<*xf32>
}
