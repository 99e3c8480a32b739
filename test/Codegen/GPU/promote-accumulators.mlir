// RUN: mp-opt %s --split-input-file --mp-gpu-promote-accumulators | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-gpu-promote-accumulators --canonicalize | FileCheck %s --check-prefix=CANON

// A bias gradient's column sum and its unscaling in one kernel: the sum is
// carried in a register from the fill's value, stored once, and the
// unscaling reads it through the collapsed view from the register too.
// CHECK-LABEL: func.func @column_sum
// CHECK: scf.parallel (%[[J:.*]]) =
// CHECK-NEXT: memref.store %[[ZERO:.*]], %[[SUM:.*]][%c0, %[[J]]] : memref<1x128xf32>
// CHECK-NEXT: %[[R:.*]] = scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT: %[[X:.*]] = memref.load %{{.*}} : memref<64x128xf16>
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[X]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[E]], %[[ACC]] : f32
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %[[R]], %[[SUM]][%c0, %[[J]]] : memref<1x128xf32>
// CHECK-NEXT: %[[U:.*]] = arith.mulf %[[R]], %{{.*}} : f32
// CHECK-NEXT: memref.store %[[U]], %{{.*}}[%[[J]]] : memref<128xf32>
// CHECK-NEXT: math.absf %[[R]]
// The sum is only stored into: the canonicalizer erases it.
// CANON-LABEL: func.func @column_sum
// CANON-NOT: memref<1x128xf32>
// CANON: scf.for
// CANON-NOT: memref<1x128xf32>
// CANON: return
func.func @column_sum(%grad: memref<64x128xf16>, %scale: f32)
    -> (memref<128xf32>, memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %sum = memref.alloc() : memref<1x128xf32>
  %flat = memref.collapse_shape %sum [[0, 1]] : memref<1x128xf32> into memref<128xf32>
  %out = memref.alloc() : memref<128xf32>
  %abs = memref.alloc() : memref<128xf32>
  scf.parallel (%j) = (%c0) to (%c128) step (%c1) {
    memref.store %zero, %sum[%c0, %j] : memref<1x128xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %x = memref.load %grad[%i, %j] : memref<64x128xf16>
      %acc = memref.load %sum[%c0, %j] : memref<1x128xf32>
      %e = arith.extf %x : f16 to f32
      %s = arith.addf %e, %acc : f32
      memref.store %s, %sum[%c0, %j] : memref<1x128xf32>
    }
    %v = memref.load %flat[%j] : memref<128xf32>
    %u = arith.mulf %v, %scale : f32
    memref.store %u, %out[%j] : memref<128xf32>
    %w = memref.load %flat[%j] : memref<128xf32>
    %a = math.absf %w : f32
    memref.store %a, %abs[%j] : memref<128xf32>
    scf.reduce
  }
  memref.dealloc %sum : memref<1x128xf32>
  return %out, %abs : memref<128xf32>, memref<128xf32>
}

// -----

// A row's maximum and its index (torch's max with indices), and a 2-d sum
// into one element: every accumulator is carried, the inner loop's first.
// CHECK-LABEL: func.func @argmax_and_total
// CHECK: %[[M0:.*]] = memref.load %[[MAX:.*]][%[[ROW:.*]]] : memref<64xf32>
// CHECK-NEXT: %[[I0:.*]] = memref.load %[[IDX:.*]][%[[ROW]]] : memref<64xi64>
// CHECK-NEXT: %[[R:.*]]:2 = scf.for %{{.*}} iter_args(%{{.*}} = %[[M0]], %{{.*}} = %[[I0]]) -> (f32, i64) {
// CHECK-NOT: memref.store
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-DAG: memref.store %[[R]]#0, %[[MAX]][%[[ROW]]]
// CHECK-DAG: memref.store %[[R]]#1, %[[IDX]][%[[ROW]]]
// CHECK: %[[T0:.*]] = memref.load %[[TOTAL:.*]][] : memref<f32>
// CHECK-NEXT: %[[OUTER:.*]] = scf.for %{{.*}} iter_args(%[[T:.*]] = %[[T0]]) -> (f32) {
// CHECK-NEXT: %[[INNER:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[T]]) -> (f32) {
// CHECK: scf.yield %[[INNER]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %[[OUTER]], %[[TOTAL]][] : memref<f32>
func.func @argmax_and_total(%x: memref<64x28xf32>, %row: index)
    -> (memref<64xf32>, memref<64xi64>, memref<f32>) {
  %max = memref.alloc() : memref<64xf32>
  %idx = memref.alloc() : memref<64xi64>
  %total = memref.alloc() : memref<f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c28 = arith.constant 28 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c28 step %c1 {
    %v = memref.load %x[%row, %k] : memref<64x28xf32>
    %m = memref.load %max[%row] : memref<64xf32>
    %i = memref.load %idx[%row] : memref<64xi64>
    %gt = arith.cmpf ogt, %v, %m : f32
    %nm = arith.maximumf %v, %m : f32
    %ki = arith.index_cast %k : index to i64
    %ni = arith.select %gt, %ki, %i : i64
    memref.store %nm, %max[%row] : memref<64xf32>
    memref.store %ni, %idx[%row] : memref<64xi64>
  }
  scf.for %r = %c0 to %c64 step %c1 {
    scf.for %k = %c0 to %c28 step %c1 {
      %v = memref.load %x[%r, %k] : memref<64x28xf32>
      %t = memref.load %total[] : memref<f32>
      %s = arith.addf %t, %v : f32
      memref.store %s, %total[] : memref<f32>
    }
  }
  return %max, %idx, %total : memref<64xf32>, memref<64xi64>, memref<f32>
}

// -----

// Left alone: the loop also writes a buffer that may be the accumulator
// (two arguments), its indices change in the loop, it may run no
// iteration, or it holds a barrier. A fresh allocation is none of the
// function's arguments: that one is carried.
// CHECK-LABEL: func.func @left_alone
// CHECK: scf.for
// CHECK-NEXT: memref.load %[[ARG:.*]][%[[ROW:.*]]] : memref<64xf32>
// CHECK: memref.store %{{.*}}, %[[ARG]][%[[ROW]]] : memref<64xf32>
// CHECK-COUNT-3: memref.store %{{.*}}, %[[ACC:.*]][%{{.*}}] : memref<64xf32>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args
// CHECK: memref.store %[[R]], %[[ACC]][%[[ROW]]] : memref<64xf32>
// CHECK-NOT: iter_args
// CHECK: return
func.func @left_alone(%x: memref<64xf32>, %arg: memref<64xf32>,
                      %other: memref<64xf32>, %row: index, %n: index)
    -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c28 = arith.constant 28 : index
  %one = arith.constant 1.0 : f32
  %acc = memref.alloc() : memref<64xf32>
  scf.for %k = %c0 to %c28 step %c1 {
    %a = memref.load %arg[%row] : memref<64xf32>
    %s = arith.addf %a, %one : f32
    memref.store %s, %arg[%row] : memref<64xf32>
    memref.store %s, %other[%k] : memref<64xf32>
  }
  scf.for %k = %c0 to %c28 step %c1 {
    %a = memref.load %acc[%k] : memref<64xf32>
    %v = memref.load %x[%k] : memref<64xf32>
    %s = arith.addf %a, %v : f32
    memref.store %s, %acc[%k] : memref<64xf32>
  }
  scf.for %k = %c0 to %n step %c1 {
    %a = memref.load %acc[%row] : memref<64xf32>
    %v = memref.load %x[%k] : memref<64xf32>
    %s = arith.addf %a, %v : f32
    memref.store %s, %acc[%row] : memref<64xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c28, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %c28 step %c1 {
      %a = memref.load %acc[%row] : memref<64xf32>
      %v = memref.load %x[%k] : memref<64xf32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %acc[%row] : memref<64xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  scf.for %k = %c0 to %c28 step %c1 {
    %a = memref.load %acc[%row] : memref<64xf32>
    %v = memref.load %x[%k] : memref<64xf32>
    %s = arith.addf %a, %v : f32
    memref.store %s, %acc[%row] : memref<64xf32>
    memref.store %v, %other[%k] : memref<64xf32>
  }
  return %acc : memref<64xf32>
}

// -----

// A load after the loop keeps its load when a store that may write the
// same element (another row of the buffer) or a barrier comes between.
// CHECK-LABEL: func.func @not_forwarded
// CHECK: %[[R:.*]] = scf.for
// CHECK: memref.store %[[R]], %[[ACC:.*]][%[[ROW:.*]]] : memref<64xf32>
// CHECK-NEXT: memref.store %{{.*}}, %[[ACC]][%{{.*}}] : memref<64xf32>
// CHECK-NEXT: %[[V:.*]] = memref.load %[[ACC]][%[[ROW]]] : memref<64xf32>
// CHECK: %[[R2:.*]] = scf.for
// CHECK: memref.store %[[R2]], %[[ACC]][%[[ROW]]] : memref<64xf32>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[W:.*]] = memref.load %[[ACC]][%[[ROW]]] : memref<64xf32>
// CHECK: return %[[V]], %[[W]]
func.func @not_forwarded(%x: memref<64xf32>, %row: index, %row2: index)
    -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c28 = arith.constant 28 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<64xf32>
  scf.for %k = %c0 to %c28 step %c1 {
    %a = memref.load %acc[%row] : memref<64xf32>
    %v = memref.load %x[%k] : memref<64xf32>
    %s = arith.addf %a, %v : f32
    memref.store %s, %acc[%row] : memref<64xf32>
  }
  memref.store %zero, %acc[%row2] : memref<64xf32>
  %v = memref.load %acc[%row] : memref<64xf32>
  scf.for %k = %c0 to %c28 step %c1 {
    %a = memref.load %acc[%row] : memref<64xf32>
    %y = memref.load %x[%k] : memref<64xf32>
    %s = arith.addf %a, %y : f32
    memref.store %s, %acc[%row] : memref<64xf32>
  }
  gpu.barrier
  %w = memref.load %acc[%row] : memref<64xf32>
  memref.dealloc %acc : memref<64xf32>
  return %v, %w : f32, f32
}

// -----

// Two loops that mp-gpu-fuse-parallel-loops fused (a gradient, then its
// cast to f16 for a GEMM, at the same point): the cast takes the value the
// iteration stored. A load after a store into a buffer that may alias it
// (an argument) keeps its load.
// CHECK-LABEL: func.func @fused_loops
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[Y:.*]]: memref<4x8xf32>, %[[ARG:.*]]: memref<4x8xf32>)
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK: %[[G:.*]] = arith.addf
// CHECK: memref.store %[[G]], %[[GRAD:.*]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NOT: memref.load %[[GRAD]]
// CHECK: %[[H:.*]] = arith.truncf %[[G]] : f32 to f16
// CHECK: memref.store %[[H]]
// CHECK: memref.store %{{.*}}, %[[ARG]][%[[I]], %[[J]]]
// CHECK: memref.store %{{.*}}, %[[Y]][%[[I]], %[[J]]]
// CHECK: %[[L:.*]] = memref.load %[[ARG]][%[[I]], %[[J]]]
// CHECK: arith.truncf %[[L]]
func.func @fused_loops(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %arg: memref<4x8xf32>) -> (memref<4x8xf32>, memref<4x8xf16>, memref<4x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %grad = memref.alloc() : memref<4x8xf32>
  %half = memref.alloc() : memref<4x8xf16>
  %half2 = memref.alloc() : memref<4x8xf16>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x8xf32>
    %g = arith.addf %v, %v : f32
    memref.store %g, %grad[%i, %j] : memref<4x8xf32>
    %r = memref.load %grad[%i, %j] : memref<4x8xf32>
    %h = arith.truncf %r : f32 to f16
    memref.store %h, %half[%i, %j] : memref<4x8xf16>
    memref.store %g, %arg[%i, %j] : memref<4x8xf32>
    memref.store %g, %y[%i, %j] : memref<4x8xf32>
    %a = memref.load %arg[%i, %j] : memref<4x8xf32>
    %h2 = arith.truncf %a : f32 to f16
    memref.store %h2, %half2[%i, %j] : memref<4x8xf16>
    scf.reduce
  }
  return %grad, %half, %half2 : memref<4x8xf32>, memref<4x8xf16>, memref<4x8xf16>
}
