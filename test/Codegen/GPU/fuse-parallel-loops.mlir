// RUN: mp-opt %s --split-input-file --mp-gpu-fuse-parallel-loops | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-gpu-fuse-parallel-loops=merge-independent=false | FileCheck %s --check-prefix=NOMERGE
// RUN: mp-opt %s --split-input-file --mp-gpu-fuse-parallel-loops=nest-max-points=0 | FileCheck %s --check-prefix=NONEST

// A layer norm's mean: the fill, the reduction and the division are one
// loop over the 64x28 points (the fill's unit dimension dropped), in their
// order; the sum never leaves the iteration that computes it.
// CHECK-LABEL: func.func @mean
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%c0, %c0) to (%c64, %c28) step (%c1, %c1) {
// CHECK-NEXT: memref.store %{{.*}}, %[[SUM:.*]][%[[I]], %[[J]], %c0]
// CHECK-NEXT: scf.for %[[K:.*]] = %c0 to %c32
// CHECK-NEXT: memref.load %{{.*}}[%[[I]], %[[J]], %[[K]]]
// CHECK-NEXT: memref.load %[[SUM]][%[[I]], %[[J]], %c0]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store %{{.*}}, %[[SUM]][%[[I]], %[[J]], %c0]
// CHECK-NEXT: }
// CHECK-NEXT: memref.load %[[SUM]][%[[I]], %[[J]], %c0]
// CHECK-NEXT: arith.divf
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]], %c0]
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @mean(%x: memref<64x28x32xf32>) -> memref<64x28x1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c28 = arith.constant 28 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %width = arith.constant 32.0 : f32
  %sum = memref.alloc() : memref<64x28x1xf32>
  %out = memref.alloc() : memref<64x28x1xf32>
  scf.parallel (%i, %j, %u) = (%c0, %c0, %c0) to (%c64, %c28, %c1) step (%c1, %c1, %c1) {
    memref.store %zero, %sum[%i, %j, %u] : memref<64x28x1xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c28) step (%c1, %c1) {
    scf.for %k = %c0 to %c32 step %c1 {
      %v = memref.load %x[%i, %j, %k] : memref<64x28x32xf32>
      %s = memref.load %sum[%i, %j, %c0] : memref<64x28x1xf32>
      %t = arith.addf %v, %s : f32
      memref.store %t, %sum[%i, %j, %c0] : memref<64x28x1xf32>
    }
  }
  %c1_0 = arith.constant 1 : index
  scf.parallel (%i, %j, %u) = (%c0, %c0, %c0) to (%c64, %c28, %c1_0) step (%c1, %c1, %c1) {
    %s = memref.load %sum[%i, %j, %u] : memref<64x28x1xf32>
    %m = arith.divf %s, %width : f32
    memref.store %m, %out[%i, %j, %u] : memref<64x28x1xf32>
  }
  return %out : memref<64x28x1xf32>
}

// -----

// A loop of one point keeps a dimension: it stays a kernel, not scalar code
// on the host.
// CHECK-LABEL: func.func @scalar
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c1) step (%c1)
// CHECK-NEXT: memref.store
func.func @scalar(%out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %c1) step (%c1, %c1) {
    memref.store %zero, %out[] : memref<f32>
  }
  return
}

// -----

// Only reads of the same buffer: fused, whatever the indices. The buffers
// the function allocates are not its arguments.
// CHECK-LABEL: func.func @shared_input
// CHECK: scf.parallel
// CHECK-NOT: scf.parallel
func.func @shared_input(%x: memref<16x16xf32>)
    -> (memref<16x16xf32>, memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<16x16xf32>
  %b = memref.alloc() : memref<16x16xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<16x16xf32>
    memref.store %v, %a[%i, %j] : memref<16x16xf32>
  }
  %t = memref.alloc() : memref<4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    %v = memref.load %x[%j, %i] : memref<16x16xf32>
    memref.store %v, %b[%i, %j] : memref<16x16xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return %a, %b : memref<16x16xf32>, memref<16x16xf32>
}

// -----

// Two arguments may be the same buffer: not fused.
// CHECK-LABEL: func.func @arguments
// CHECK-COUNT-2: scf.parallel
func.func @arguments(%x: memref<16xf32>, %y: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    memref.store %zero, %x[%i] : memref<16xf32>
  }
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %y[%i] : memref<16xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %y[%i] : memref<16xf32>
  }
  return
}

// -----

// Not fused: each of these second loops touches what other iterations of
// the first one wrote (a transpose, a shifted element, a store into the
// same buffer at other elements, a row the first loop writes once per
// column), or the loops differ (bounds, an op with effects between them,
// a copy in a body, another view of the buffer). With the same indices in
// both loops, each pair would be fused (as @same_indices).
// CHECK-LABEL: func.func @same_indices
// CHECK-COUNT-1: scf.parallel
// CHECK-NOT: scf.parallel
func.func @same_indices(%x: memref<16x16xf32>) -> memref<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %t = memref.alloc() : memref<16x16xf32>
  %y = memref.alloc() : memref<16x16xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<16x16xf32>
    memref.store %v, %t[%i, %j] : memref<16x16xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    %v = memref.load %t[%i, %j] : memref<16x16xf32>
    memref.store %v, %y[%i, %j] : memref<16x16xf32>
  }
  return %y : memref<16x16xf32>
}

// CHECK-LABEL: func.func @transpose
// CHECK-COUNT-2: scf.parallel
func.func @transpose(%x: memref<16x16xf32>) -> memref<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %t = memref.alloc() : memref<16x16xf32>
  %y = memref.alloc() : memref<16x16xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<16x16xf32>
    memref.store %v, %t[%i, %j] : memref<16x16xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    %v = memref.load %t[%j, %i] : memref<16x16xf32>
    memref.store %v, %y[%i, %j] : memref<16x16xf32>
  }
  return %y : memref<16x16xf32>
}

// CHECK-LABEL: func.func @shifted
// CHECK-COUNT-2: scf.parallel
func.func @shifted() -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %x = memref.alloc() : memref<17xf32>
  %y = memref.alloc() : memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %x[%i] : memref<17xf32>
  }
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %n = arith.addi %i, %c1 : index
    %v = memref.load %x[%n] : memref<17xf32>
    memref.store %v, %y[%i] : memref<16xf32>
  }
  return %y : memref<16xf32>
}

// Two stores and no load: upstream's scf-parallel-loop-fusion would fuse
// these, and iteration (j, i) would overwrite what (i, j) stored.
// CHECK-LABEL: func.func @stores_elsewhere
// CHECK-COUNT-2: scf.parallel
func.func @stores_elsewhere(%x: memref<16x16xf32>) -> memref<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<16x16xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    memref.store %zero, %y[%i, %j] : memref<16x16xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<16x16xf32>
    memref.store %v, %y[%j, %i] : memref<16x16xf32>
  }
  return %y : memref<16x16xf32>
}

// The first loop writes row i of %t column by column (an inner loop), the
// second reads column 1 of row i: row i is reached by iteration i of each
// loop alone (both index it with %i), so iteration i of the fused loop
// reads what the first body wrote just before.
// CHECK-LABEL: func.func @same_row
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[T:.*]][%[[I]], %{{.*}}]
// CHECK: memref.load %[[T]][%[[I]], %c1]
// CHECK-NOT: scf.parallel
func.func @same_row(%x: memref<16xf32>) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %t = memref.alloc() : memref<16x2xf32>
  %y = memref.alloc() : memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %x[%i] : memref<16xf32>
    scf.for %k = %c0 to %c2 step %c1 {
      memref.store %v, %t[%i, %k] : memref<16x2xf32>
    }
  }
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %t[%i, %c1] : memref<16x2xf32>
    memref.store %v, %y[%i] : memref<16xf32>
  }
  return %y : memref<16xf32>
}

// The second loop reads the next row (i + 1), which another iteration of
// the first loop writes: the loops stay apart.
// CHECK-LABEL: func.func @next_row
// CHECK-COUNT-2: scf.parallel
func.func @next_row(%x: memref<17xf32>) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %t = memref.alloc() : memref<17xf32>
  %y = memref.alloc() : memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %x[%i] : memref<17xf32>
    memref.store %v, %t[%i] : memref<17xf32>
  }
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %n = arith.addi %i, %c1 : index
    %v = memref.load %t[%n] : memref<17xf32>
    memref.store %v, %y[%i] : memref<16xf32>
  }
  return %y : memref<16xf32>
}

// CHECK-LABEL: func.func @row_per_column
// CHECK-COUNT-2: scf.parallel
func.func @row_per_column(%x: memref<16x16xf32>) -> memref<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = memref.alloc() : memref<16x1xf32>
  %y = memref.alloc() : memref<16x16xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<16x16xf32>
    memref.store %v, %r[%i, %c0] : memref<16x1xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    %v = memref.load %r[%i, %c0] : memref<16x1xf32>
    memref.store %v, %y[%i, %j] : memref<16x16xf32>
  }
  return %y : memref<16x16xf32>
}

// CHECK-LABEL: func.func @bounds
// CHECK-COUNT-2: scf.parallel
func.func @bounds() -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    memref.store %zero, %x[%i] : memref<16xf32>
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<16xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%i] : memref<16xf32>
  }
  return %x : memref<16xf32>
}

// CHECK-LABEL: func.func @effect_between
// CHECK-COUNT-2: scf.parallel
func.func @effect_between(%s: memref<f32>) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    memref.store %zero, %x[%i] : memref<16xf32>
  }
  memref.store %zero, %s[] : memref<f32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %x[%i] : memref<16xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%i] : memref<16xf32>
  }
  return %x : memref<16xf32>
}

// CHECK-LABEL: func.func @copy_in_body
// CHECK-COUNT-2: scf.parallel
func.func @copy_in_body(%a: memref<4xf32>) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    memref.store %zero, %x[%i] : memref<16xf32>
  }
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %b = memref.subview %x[0] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1]>>
    memref.copy %a, %b : memref<4xf32> to memref<4xf32, strided<[1]>>
  }
  return %x : memref<16xf32>
}

// The second loop reads what the first one wrote through another view of
// the buffer (a layer norm's mean, collapsed): the same element in the same
// iteration, 16 x 1 element i being the collapsed buffer's element i.
// CHECK-LABEL: func.func @view
// CHECK: %[[X:.*]] = memref.alloc() : memref<16x1xf32>
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[X]]
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK-NEXT: memref.store %{{.*}}, %[[X]][%[[I]], %c0]
// CHECK-NEXT: memref.load %[[FLAT]][%[[I]]]
// CHECK-NEXT: memref.store
// CHECK-NEXT: scf.reduce
// CHECK-NOT: scf.parallel
func.func @view() -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<16x1xf32>
  %y = memref.alloc() : memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    memref.store %zero, %x[%i, %c0] : memref<16x1xf32>
  }
  %flat = memref.collapse_shape %x [[0, 1]] : memref<16x1xf32> into memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %flat[%i] : memref<16xf32>
    memref.store %v, %y[%i] : memref<16xf32>
  }
  return %y : memref<16xf32>
}

// -----

// Through the view, iteration i reads element i of 8 x 2, which iteration
// i / 2 wrote (element (i / 2, 0) is the collapsed buffer's element i - i
// mod 2): not the same element, so the loops stay apart.
// CHECK-LABEL: func.func @view_other_element
// CHECK-COUNT-2: scf.parallel
func.func @view_other_element() -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<8x2xf32>
  %y = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %zero, %x[%i, %c0] : memref<8x2xf32>
  }
  %flat = memref.collapse_shape %x [[0, 1]] : memref<8x2xf32> into memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %flat[%i] : memref<16xf32>
    memref.store %v, %y[%i] : memref<8xf32>
  }
  return %y : memref<8xf32>
}

// -----

// The same offset in every iteration (j does not index the buffer), but
// iterations (i, 0) and (i, 1) both write element i: the second loop's
// iteration (i, 1) would read it before (i, 1) of the first loop wrote it
// in another order, so the loops stay apart.
// CHECK-LABEL: func.func @view_not_injective
// CHECK-COUNT-2: scf.parallel
func.func @view_not_injective(%in: memref<8x2xf32>) -> memref<8x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %x = memref.alloc() : memref<8x1xf32>
  %y = memref.alloc() : memref<8x2xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c2) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<8x2xf32>
    memref.store %v, %x[%i, %c0] : memref<8x1xf32>
  }
  %flat = memref.collapse_shape %x [[0, 1]] : memref<8x1xf32> into memref<8xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c2) step (%c1, %c1) {
    %v = memref.load %flat[%i] : memref<8xf32>
    memref.store %v, %y[%i, %j] : memref<8x2xf32>
  }
  return %y : memref<8x2xf32>
}

// -----

// A tensor.concat's copies into its three slices of one buffer: the
// slices share no element (their columns 0-31, 32-63, 64-95), so the
// copies are one loop.
// CHECK-LABEL: func.func @concat
// CHECK: scf.parallel
// CHECK-COUNT-3: memref.store
// CHECK-NOT: scf.parallel
func.func @concat(%a: memref<4x32xf32>, %b: memref<4x32xf32>, %c: memref<4x32xf32>) -> memref<4x96xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %out = memref.alloc() : memref<4x96xf32>
  %s0 = memref.subview %out[0, 0] [4, 32] [1, 1] : memref<4x96xf32> to memref<4x32xf32, strided<[96, 1]>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c32) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x32xf32>
    memref.store %v, %s0[%i, %j] : memref<4x32xf32, strided<[96, 1]>>
  }
  %s1 = memref.subview %out[0, 32] [4, 32] [1, 1] : memref<4x96xf32> to memref<4x32xf32, strided<[96, 1], offset: 32>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c32) step (%c1, %c1) {
    %v = memref.load %b[%i, %j] : memref<4x32xf32>
    memref.store %v, %s1[%i, %j] : memref<4x32xf32, strided<[96, 1], offset: 32>>
  }
  %s2 = memref.subview %out[0, 64] [4, 32] [1, 1] : memref<4x96xf32> to memref<4x32xf32, strided<[96, 1], offset: 64>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c32) step (%c1, %c1) {
    %v = memref.load %c[%i, %j] : memref<4x32xf32>
    memref.store %v, %s2[%i, %j] : memref<4x32xf32, strided<[96, 1], offset: 64>>
  }
  return %out : memref<4x96xf32>
}

// -----

// Slices that overlap (columns 0-31 and 16-47): the loops stay apart.
// CHECK-LABEL: func.func @overlapping_slices
// CHECK-COUNT-2: scf.parallel
func.func @overlapping_slices(%a: memref<4x32xf32>) -> memref<4x48xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %out = memref.alloc() : memref<4x48xf32>
  %s0 = memref.subview %out[0, 0] [4, 32] [1, 1] : memref<4x48xf32> to memref<4x32xf32, strided<[48, 1]>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c32) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x32xf32>
    memref.store %v, %s0[%i, %j] : memref<4x32xf32, strided<[48, 1]>>
  }
  %s1 = memref.subview %out[0, 16] [4, 32] [1, 1] : memref<4x48xf32> to memref<4x32xf32, strided<[48, 1], offset: 16>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c32) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x32xf32>
    memref.store %v, %s1[%i, %j] : memref<4x32xf32, strided<[48, 1], offset: 16>>
  }
  return %out : memref<4x48xf32>
}

// -----

// A gradient's finite check and its unscaling (mp-gpu-tile-reductions makes
// the check a loop that sets the flag) are one loop, which reads the
// gradient once; the next gradient's, of the same shape, joins it: both
// loops only set the flag to true, so their order does not matter.
// CHECK-LABEL: func.func @checks
// CHECK-SAME: (%[[G1:.*]]: memref<64x32xf32>, %[[G2:.*]]: memref<64x32xf32>, %[[FLAG:.*]]: memref<i1>,
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NEXT: %[[X1:.*]] = memref.load %[[G1]][%[[I]], %[[J]]]
// CHECK: scf.if
// CHECK-NEXT: memref.store %true, %[[FLAG]][]
// CHECK: arith.mulf %[[X1]]
// CHECK: memref.store
// CHECK: %[[X2:.*]] = memref.load %[[G2]][%[[I]], %[[J]]]
// CHECK: scf.if
// CHECK-NEXT: memref.store %true, %[[FLAG]][]
// CHECK: arith.mulf %[[X2]]
// CHECK: memref.store
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @checks(%g1: memref<64x32xf32>, %g2: memref<64x32xf32>, %flag: memref<i1>, %inv: f32) -> (memref<64x32xf32>, memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %true = arith.constant true
  %inf = arith.constant 0x7F800000 : f32
  %u1 = memref.alloc() : memref<64x32xf32>
  %u2 = memref.alloc() : memref<64x32xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
    %x = memref.load %g1[%i, %j] : memref<64x32xf32>
    %a = math.absf %x : f32
    %bad = arith.cmpf ult, %a, %inf : f32
    scf.if %bad {
      memref.store %true, %flag[] : memref<i1>
    }
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
    %x = memref.load %g1[%i, %j] : memref<64x32xf32>
    %u = arith.mulf %x, %inv : f32
    memref.store %u, %u1[%i, %j] : memref<64x32xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
    %x = memref.load %g2[%i, %j] : memref<64x32xf32>
    %a = math.absf %x : f32
    %bad = arith.cmpf ult, %a, %inf : f32
    scf.if %bad {
      memref.store %true, %flag[] : memref<i1>
    }
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
    %x = memref.load %g2[%i, %j] : memref<64x32xf32>
    %u = arith.mulf %x, %inv : f32
    memref.store %u, %u2[%i, %j] : memref<64x32xf32>
  }
  return %u1, %u2 : memref<64x32xf32>, memref<64x32xf32>
}

// -----

// Not fused: the second loop reads the flag the first one sets, and the
// third sets it to false, not true.
// CHECK-LABEL: func.func @flag_read
// CHECK-COUNT-3: scf.parallel
func.func @flag_read(%g: memref<64xf32>, %flag: memref<i1>, %out: memref<64xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %true = arith.constant true
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %x = memref.load %g[%i] : memref<64xf32>
    %neg = arith.cmpf olt, %x, %zero : f32
    scf.if %neg {
      memref.store %true, %flag[] : memref<i1>
    }
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %f = memref.load %flag[] : memref<i1>
    memref.store %f, %out[%i] : memref<64xi1>
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %x = memref.load %g[%i] : memref<64xf32>
    %pos = arith.cmpf ogt, %x, %zero : f32
    scf.if %pos {
      memref.store %false, %flag[] : memref<i1>
    }
  }
  return
}

// -----

// Loops over other points whose accesses commute (different buffers but a
// scalar both read) run one after the other in one loop: point p of the
// 8x16 + 10 points is point p of the first (row p / 16, column p mod 16)
// if p < 128, else point p - 128 of the second. Each buffer is read and
// written as before. merge-independent=false leaves them apart.
// CHECK-LABEL: func.func @independent
// CHECK-SAME: (%[[X:.*]]: memref<8x16xf32>, %[[Y:.*]]: memref<10xf32>, %[[S:.*]]: memref<f32>)
// CHECK: %[[C138:.*]] = arith.constant 138 : index
// CHECK: scf.parallel (%[[P:.*]]) = (%{{.*}}) to (%[[C138]])
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi ult, %[[P]], %[[C128]] : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[COL:.*]] = arith.remui %[[P]], %[[C16]] : index
// CHECK-NEXT: %[[ROW:.*]] = arith.divui %[[P]], %[[C16]] : index
// CHECK: memref.load %[[X]][%{{.*}}, %{{.*}}] : memref<8x16xf32>
// CHECK: } else {
// CHECK-NEXT: %[[Q:.*]] = arith.subi %[[P]], %[[C128]] : index
// CHECK: memref.load %[[Y]][%{{.*}}] : memref<10xf32>
// CHECK: }
// CHECK-NEXT: scf.reduce
// CHECK-NOT: scf.parallel
// CHECK: return
// NOMERGE-LABEL: func.func @independent
// NOMERGE-COUNT-2: scf.parallel
func.func @independent(%x: memref<8x16xf32>, %y: memref<10xf32>, %s: memref<f32>) -> (memref<8x16xf32>, memref<10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<8x16xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c16) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<8x16xf32>
    %k = memref.load %s[] : memref<f32>
    %m = arith.mulf %v, %k : f32
    memref.store %m, %a[%i, %j] : memref<8x16xf32>
  }
  %b = memref.alloc() : memref<10xf32>
  scf.parallel (%i) = (%c0) to (%c10) step (%c1) {
    %v = memref.load %y[%i] : memref<10xf32>
    %k = memref.load %s[] : memref<f32>
    %m = arith.addf %v, %k : f32
    memref.store %m, %b[%i] : memref<10xf32>
  }
  return %a, %b : memref<8x16xf32>, memref<10xf32>
}

// -----

// Not merged: both loops read %x (each kernel would read it once, the
// merged one once for both: the bytes moved would change), and the third
// writes what the second reads (at other points: not fused either).
// CHECK-LABEL: func.func @dependent
// CHECK-COUNT-3: scf.parallel
func.func @dependent(%x: memref<16xf32>, %y: memref<8xf32>) -> (memref<16xf32>, memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<16xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %x[%i] : memref<16xf32>
    memref.store %v, %a[%i] : memref<16xf32>
  }
  %b = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<16xf32>
    memref.store %v, %b[%i] : memref<8xf32>
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %y[%i] : memref<8xf32>
    memref.store %v, %x[%i] : memref<16xf32>
  }
  return %a, %b : memref<16xf32>, memref<8xf32>
}

// -----

// Not merged: as one kernel, the two loops would take more than 4096 bytes
// of parameters (50 buffers of rank 4, 88 bytes each), which ptxas refuses
// for PTX before 8.1 (an Adam step's updates of many parameters).
// CHECK-LABEL: func.func @too_many_parameters
// CHECK-COUNT-2: scf.parallel
func.func @too_many_parameters(%a0: memref<2x2x2x2xf32>, %a1: memref<2x2x2x2xf32>, %a2: memref<2x2x2x2xf32>, %a3: memref<2x2x2x2xf32>, %a4: memref<2x2x2x2xf32>, %a5: memref<2x2x2x2xf32>, %a6: memref<2x2x2x2xf32>, %a7: memref<2x2x2x2xf32>, %a8: memref<2x2x2x2xf32>, %a9: memref<2x2x2x2xf32>, %a10: memref<2x2x2x2xf32>, %a11: memref<2x2x2x2xf32>, %a12: memref<2x2x2x2xf32>, %a13: memref<2x2x2x2xf32>, %a14: memref<2x2x2x2xf32>, %a15: memref<2x2x2x2xf32>, %a16: memref<2x2x2x2xf32>, %a17: memref<2x2x2x2xf32>, %a18: memref<2x2x2x2xf32>, %a19: memref<2x2x2x2xf32>, %a20: memref<2x2x2x2xf32>, %a21: memref<2x2x2x2xf32>, %a22: memref<2x2x2x2xf32>, %a23: memref<2x2x2x2xf32>, %a24: memref<2x2x2x2xf32>, %a25: memref<2x2x2x2xf32>, %a26: memref<2x2x2x2xf32>, %a27: memref<2x2x2x2xf32>, %a28: memref<2x2x2x2xf32>, %a29: memref<2x2x2x2xf32>, %a30: memref<2x2x2x2xf32>, %a31: memref<2x2x2x2xf32>, %a32: memref<2x2x2x2xf32>, %a33: memref<2x2x2x2xf32>, %a34: memref<2x2x2x2xf32>, %a35: memref<2x2x2x2xf32>, %a36: memref<2x2x2x2xf32>, %a37: memref<2x2x2x2xf32>, %a38: memref<2x2x2x2xf32>, %a39: memref<2x2x2x2xf32>, %a40: memref<2x2x2x2xf32>, %a41: memref<2x2x2x2xf32>, %a42: memref<2x2x2x2xf32>, %a43: memref<2x2x2x2xf32>, %a44: memref<2x2x2x2xf32>, %a45: memref<2x2x2x2xf32>, %a46: memref<2x2x2x2xf32>, %a47: memref<2x2x2x2xf32>, %a48: memref<2x2x2x2xf32>, %a49: memref<2x2x2x2xf32>) -> (memref<2xf32>, memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %x = memref.alloc() : memref<2xf32>
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %s0 = arith.constant 0.0 : f32
    %v0 = memref.load %a0[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t0 = arith.addf %s0, %v0 : f32
    %v1 = memref.load %a1[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t1 = arith.addf %t0, %v1 : f32
    %v2 = memref.load %a2[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t2 = arith.addf %t1, %v2 : f32
    %v3 = memref.load %a3[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t3 = arith.addf %t2, %v3 : f32
    %v4 = memref.load %a4[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t4 = arith.addf %t3, %v4 : f32
    %v5 = memref.load %a5[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t5 = arith.addf %t4, %v5 : f32
    %v6 = memref.load %a6[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t6 = arith.addf %t5, %v6 : f32
    %v7 = memref.load %a7[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t7 = arith.addf %t6, %v7 : f32
    %v8 = memref.load %a8[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t8 = arith.addf %t7, %v8 : f32
    %v9 = memref.load %a9[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t9 = arith.addf %t8, %v9 : f32
    %v10 = memref.load %a10[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t10 = arith.addf %t9, %v10 : f32
    %v11 = memref.load %a11[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t11 = arith.addf %t10, %v11 : f32
    %v12 = memref.load %a12[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t12 = arith.addf %t11, %v12 : f32
    %v13 = memref.load %a13[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t13 = arith.addf %t12, %v13 : f32
    %v14 = memref.load %a14[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t14 = arith.addf %t13, %v14 : f32
    %v15 = memref.load %a15[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t15 = arith.addf %t14, %v15 : f32
    %v16 = memref.load %a16[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t16 = arith.addf %t15, %v16 : f32
    %v17 = memref.load %a17[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t17 = arith.addf %t16, %v17 : f32
    %v18 = memref.load %a18[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t18 = arith.addf %t17, %v18 : f32
    %v19 = memref.load %a19[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t19 = arith.addf %t18, %v19 : f32
    %v20 = memref.load %a20[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t20 = arith.addf %t19, %v20 : f32
    %v21 = memref.load %a21[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t21 = arith.addf %t20, %v21 : f32
    %v22 = memref.load %a22[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t22 = arith.addf %t21, %v22 : f32
    %v23 = memref.load %a23[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t23 = arith.addf %t22, %v23 : f32
    %v24 = memref.load %a24[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t24 = arith.addf %t23, %v24 : f32
    %v25 = memref.load %a25[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t25 = arith.addf %t24, %v25 : f32
    %v26 = memref.load %a26[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t26 = arith.addf %t25, %v26 : f32
    %v27 = memref.load %a27[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t27 = arith.addf %t26, %v27 : f32
    %v28 = memref.load %a28[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t28 = arith.addf %t27, %v28 : f32
    %v29 = memref.load %a29[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t29 = arith.addf %t28, %v29 : f32
    memref.store %t29, %x[%i] : memref<2xf32>
  }
  %y = memref.alloc() : memref<2xf32>
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    %s0 = arith.constant 0.0 : f32
    %v30 = memref.load %a30[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t30 = arith.addf %s0, %v30 : f32
    %v31 = memref.load %a31[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t31 = arith.addf %t30, %v31 : f32
    %v32 = memref.load %a32[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t32 = arith.addf %t31, %v32 : f32
    %v33 = memref.load %a33[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t33 = arith.addf %t32, %v33 : f32
    %v34 = memref.load %a34[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t34 = arith.addf %t33, %v34 : f32
    %v35 = memref.load %a35[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t35 = arith.addf %t34, %v35 : f32
    %v36 = memref.load %a36[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t36 = arith.addf %t35, %v36 : f32
    %v37 = memref.load %a37[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t37 = arith.addf %t36, %v37 : f32
    %v38 = memref.load %a38[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t38 = arith.addf %t37, %v38 : f32
    %v39 = memref.load %a39[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t39 = arith.addf %t38, %v39 : f32
    %v40 = memref.load %a40[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t40 = arith.addf %t39, %v40 : f32
    %v41 = memref.load %a41[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t41 = arith.addf %t40, %v41 : f32
    %v42 = memref.load %a42[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t42 = arith.addf %t41, %v42 : f32
    %v43 = memref.load %a43[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t43 = arith.addf %t42, %v43 : f32
    %v44 = memref.load %a44[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t44 = arith.addf %t43, %v44 : f32
    %v45 = memref.load %a45[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t45 = arith.addf %t44, %v45 : f32
    %v46 = memref.load %a46[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t46 = arith.addf %t45, %v46 : f32
    %v47 = memref.load %a47[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t47 = arith.addf %t46, %v47 : f32
    %v48 = memref.load %a48[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t48 = arith.addf %t47, %v48 : f32
    %v49 = memref.load %a49[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t49 = arith.addf %t48, %v49 : f32
    memref.store %t49, %y[%i] : memref<2xf32>
  }
  return %x, %y : memref<2xf32>, memref<2xf32>
}

// -----

// Not fused either, for the same reason: two loops over the same points,
// the second reading what the first wrote at the same element.
// CHECK-LABEL: func.func @too_many_parameters_to_fuse
// CHECK-COUNT-2: scf.parallel
func.func @too_many_parameters_to_fuse(%a0: memref<2x2x2x2xf32>, %a1: memref<2x2x2x2xf32>, %a2: memref<2x2x2x2xf32>, %a3: memref<2x2x2x2xf32>, %a4: memref<2x2x2x2xf32>, %a5: memref<2x2x2x2xf32>, %a6: memref<2x2x2x2xf32>, %a7: memref<2x2x2x2xf32>, %a8: memref<2x2x2x2xf32>, %a9: memref<2x2x2x2xf32>, %a10: memref<2x2x2x2xf32>, %a11: memref<2x2x2x2xf32>, %a12: memref<2x2x2x2xf32>, %a13: memref<2x2x2x2xf32>, %a14: memref<2x2x2x2xf32>, %a15: memref<2x2x2x2xf32>, %a16: memref<2x2x2x2xf32>, %a17: memref<2x2x2x2xf32>, %a18: memref<2x2x2x2xf32>, %a19: memref<2x2x2x2xf32>, %a20: memref<2x2x2x2xf32>, %a21: memref<2x2x2x2xf32>, %a22: memref<2x2x2x2xf32>, %a23: memref<2x2x2x2xf32>, %a24: memref<2x2x2x2xf32>, %a25: memref<2x2x2x2xf32>, %a26: memref<2x2x2x2xf32>, %a27: memref<2x2x2x2xf32>, %a28: memref<2x2x2x2xf32>, %a29: memref<2x2x2x2xf32>, %a30: memref<2x2x2x2xf32>, %a31: memref<2x2x2x2xf32>, %a32: memref<2x2x2x2xf32>, %a33: memref<2x2x2x2xf32>, %a34: memref<2x2x2x2xf32>, %a35: memref<2x2x2x2xf32>, %a36: memref<2x2x2x2xf32>, %a37: memref<2x2x2x2xf32>, %a38: memref<2x2x2x2xf32>, %a39: memref<2x2x2x2xf32>, %a40: memref<2x2x2x2xf32>, %a41: memref<2x2x2x2xf32>, %a42: memref<2x2x2x2xf32>, %a43: memref<2x2x2x2xf32>, %a44: memref<2x2x2x2xf32>, %a45: memref<2x2x2x2xf32>, %a46: memref<2x2x2x2xf32>, %a47: memref<2x2x2x2xf32>, %a48: memref<2x2x2x2xf32>, %a49: memref<2x2x2x2xf32>) -> memref<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = memref.alloc() : memref<2xf32>
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %s0 = arith.constant 0.0 : f32
    %v0 = memref.load %a0[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t0 = arith.addf %s0, %v0 : f32
    %v1 = memref.load %a1[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t1 = arith.addf %t0, %v1 : f32
    %v2 = memref.load %a2[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t2 = arith.addf %t1, %v2 : f32
    %v3 = memref.load %a3[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t3 = arith.addf %t2, %v3 : f32
    %v4 = memref.load %a4[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t4 = arith.addf %t3, %v4 : f32
    %v5 = memref.load %a5[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t5 = arith.addf %t4, %v5 : f32
    %v6 = memref.load %a6[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t6 = arith.addf %t5, %v6 : f32
    %v7 = memref.load %a7[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t7 = arith.addf %t6, %v7 : f32
    %v8 = memref.load %a8[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t8 = arith.addf %t7, %v8 : f32
    %v9 = memref.load %a9[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t9 = arith.addf %t8, %v9 : f32
    %v10 = memref.load %a10[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t10 = arith.addf %t9, %v10 : f32
    %v11 = memref.load %a11[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t11 = arith.addf %t10, %v11 : f32
    %v12 = memref.load %a12[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t12 = arith.addf %t11, %v12 : f32
    %v13 = memref.load %a13[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t13 = arith.addf %t12, %v13 : f32
    %v14 = memref.load %a14[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t14 = arith.addf %t13, %v14 : f32
    %v15 = memref.load %a15[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t15 = arith.addf %t14, %v15 : f32
    %v16 = memref.load %a16[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t16 = arith.addf %t15, %v16 : f32
    %v17 = memref.load %a17[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t17 = arith.addf %t16, %v17 : f32
    %v18 = memref.load %a18[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t18 = arith.addf %t17, %v18 : f32
    %v19 = memref.load %a19[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t19 = arith.addf %t18, %v19 : f32
    %v20 = memref.load %a20[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t20 = arith.addf %t19, %v20 : f32
    %v21 = memref.load %a21[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t21 = arith.addf %t20, %v21 : f32
    %v22 = memref.load %a22[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t22 = arith.addf %t21, %v22 : f32
    %v23 = memref.load %a23[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t23 = arith.addf %t22, %v23 : f32
    %v24 = memref.load %a24[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t24 = arith.addf %t23, %v24 : f32
    %v25 = memref.load %a25[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t25 = arith.addf %t24, %v25 : f32
    %v26 = memref.load %a26[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t26 = arith.addf %t25, %v26 : f32
    %v27 = memref.load %a27[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t27 = arith.addf %t26, %v27 : f32
    %v28 = memref.load %a28[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t28 = arith.addf %t27, %v28 : f32
    %v29 = memref.load %a29[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t29 = arith.addf %t28, %v29 : f32
    memref.store %t29, %x[%i] : memref<2xf32>
  }
  %y = memref.alloc() : memref<2xf32>
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %s0 = memref.load %x[%i] : memref<2xf32>
    %v30 = memref.load %a30[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t30 = arith.addf %s0, %v30 : f32
    %v31 = memref.load %a31[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t31 = arith.addf %t30, %v31 : f32
    %v32 = memref.load %a32[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t32 = arith.addf %t31, %v32 : f32
    %v33 = memref.load %a33[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t33 = arith.addf %t32, %v33 : f32
    %v34 = memref.load %a34[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t34 = arith.addf %t33, %v34 : f32
    %v35 = memref.load %a35[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t35 = arith.addf %t34, %v35 : f32
    %v36 = memref.load %a36[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t36 = arith.addf %t35, %v36 : f32
    %v37 = memref.load %a37[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t37 = arith.addf %t36, %v37 : f32
    %v38 = memref.load %a38[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t38 = arith.addf %t37, %v38 : f32
    %v39 = memref.load %a39[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t39 = arith.addf %t38, %v39 : f32
    %v40 = memref.load %a40[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t40 = arith.addf %t39, %v40 : f32
    %v41 = memref.load %a41[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t41 = arith.addf %t40, %v41 : f32
    %v42 = memref.load %a42[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t42 = arith.addf %t41, %v42 : f32
    %v43 = memref.load %a43[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t43 = arith.addf %t42, %v43 : f32
    %v44 = memref.load %a44[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t44 = arith.addf %t43, %v44 : f32
    %v45 = memref.load %a45[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t45 = arith.addf %t44, %v45 : f32
    %v46 = memref.load %a46[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t46 = arith.addf %t45, %v46 : f32
    %v47 = memref.load %a47[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t47 = arith.addf %t46, %v47 : f32
    %v48 = memref.load %a48[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t48 = arith.addf %t47, %v48 : f32
    %v49 = memref.load %a49[%c0, %c0, %c0, %i] : memref<2x2x2x2xf32>
    %t49 = arith.addf %t48, %v49 : f32
    memref.store %t49, %y[%i] : memref<2xf32>
  }
  return %y : memref<2xf32>
}

// -----

// A loss over 64 rows of 10 classes: the rows' maxima and sums of
// exponentials (one loop over the rows), the log-softmax over 64 x 10 (640
// points, at most nest-max-points), the per-row loss. One loop over the 64
// rows: in each, the maximum and the sum, then the 10 classes of the row in
// sequence (an scf.for), then the row's loss, which reads them.
// CHECK-LABEL: func.func @loss_rows
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c64) step (%c1) {
// CHECK: memref.store %{{.*}}, %[[MAX:.*]][%[[I]]] : memref<64xf32>
// CHECK: memref.store %{{.*}}, %[[SUM:.*]][%[[I]], %c0] : memref<64x1xf32>
// CHECK: scf.for %[[J:.*]] = %c0 to %c10 step %c1 {
// CHECK: memref.load %{{.*}}[%[[I]], %c0] : memref<64x1xf32>
// CHECK: memref.store %{{.*}}, %[[LSM:.*]][%[[I]], %[[J]]] : memref<64x10xf32>
// CHECK: }
// CHECK: scf.for %[[K:.*]] = %c0 to %c10
// CHECK: memref.load %[[LSM]][%[[I]], %[[K]]]
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
// NONEST-LABEL: func.func @loss_rows
// NONEST-COUNT-3: scf.parallel
func.func @loss_rows(%x: memref<64x10xf32>, %y: memref<64x10xf32>) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %max = memref.alloc() : memref<64xf32>
  %max2 = memref.expand_shape %max [[0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
  %sum = memref.alloc() : memref<64x1xf32>
  %lsm = memref.alloc() : memref<64x10xf32>
  %loss = memref.alloc() : memref<64xf32>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %ninf, %max[%i] : memref<64xf32>
    scf.for %k = %c0 to %c10 step %c1 {
      %v = memref.load %x[%i, %k] : memref<64x10xf32>
      %m = memref.load %max[%i] : memref<64xf32>
      %n = arith.maximumf %v, %m : f32
      memref.store %n, %max[%i] : memref<64xf32>
    }
    memref.store %zero, %sum[%i, %c0] : memref<64x1xf32>
    scf.for %k = %c0 to %c10 step %c1 {
      %v = memref.load %x[%i, %k] : memref<64x10xf32>
      %m = memref.load %max2[%i, %c0] : memref<64x1xf32>
      %s = memref.load %sum[%i, %c0] : memref<64x1xf32>
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %a = arith.addf %e, %s : f32
      memref.store %a, %sum[%i, %c0] : memref<64x1xf32>
    }
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c10) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<64x10xf32>
    %m = memref.load %max2[%i, %c0] : memref<64x1xf32>
    %s = memref.load %sum[%i, %c0] : memref<64x1xf32>
    %l = math.log %s : f32
    %d = arith.subf %v, %m : f32
    %r = arith.subf %d, %l : f32
    memref.store %r, %lsm[%i, %j] : memref<64x10xf32>
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %loss[%i] : memref<64xf32>
    scf.for %k = %c0 to %c10 step %c1 {
      %t = memref.load %y[%i, %k] : memref<64x10xf32>
      %l = memref.load %lsm[%i, %k] : memref<64x10xf32>
      %a = memref.load %loss[%i] : memref<64xf32>
      %p = arith.mulf %t, %l : f32
      %q = arith.addf %p, %a : f32
      memref.store %q, %loss[%i] : memref<64xf32>
    }
  }
  return %loss : memref<64xf32>
}

// -----

// Rows of 40 (more than 32 a row in sequence), 16384 x 10 = 163840 points
// (more than nest-max-points, 131072), or a row index not at the same
// position (the second loop reads column i of the first's rows): the loops
// stay apart.
// CHECK-LABEL: func.func @nest_refused
// CHECK-COUNT-2: scf.parallel
// CHECK-LABEL: func.func @nest_too_many_points
// CHECK-COUNT-2: scf.parallel
// CHECK-LABEL: func.func @nest_other_position
// CHECK-COUNT-2: scf.parallel
func.func @nest_refused(%x: memref<64x40xf32>) -> memref<64x40xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<64xf32>
  %y = memref.alloc() : memref<64x40xf32>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %r[%i] : memref<64xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c40) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<64x40xf32>
    %m = memref.load %r[%i] : memref<64xf32>
    %s = arith.addf %v, %m : f32
    memref.store %s, %y[%i, %j] : memref<64x40xf32>
  }
  return %y : memref<64x40xf32>
}
func.func @nest_too_many_points(%x: memref<16384x10xf32>) -> memref<16384x10xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c16384 = arith.constant 16384 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<16384xf32>
  %y = memref.alloc() : memref<16384x10xf32>
  scf.parallel (%i) = (%c0) to (%c16384) step (%c1) {
    memref.store %zero, %r[%i] : memref<16384xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16384, %c10) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<16384x10xf32>
    %m = memref.load %r[%i] : memref<16384xf32>
    %s = arith.addf %v, %m : f32
    memref.store %s, %y[%i, %j] : memref<16384x10xf32>
  }
  return %y : memref<16384x10xf32>
}
func.func @nest_other_position(%x: memref<10x10xf32>) -> memref<10x10xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %y = memref.alloc() : memref<10x10xf32>
  %t = memref.alloc() : memref<10x10xf32>
  scf.parallel (%i) = (%c0) to (%c10) step (%c1) {
    scf.for %k = %c0 to %c10 step %c1 {
      %v = memref.load %x[%i, %k] : memref<10x10xf32>
      memref.store %v, %t[%i, %k] : memref<10x10xf32>
    }
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c10, %c10) step (%c1, %c1) {
    %v = memref.load %t[%j, %i] : memref<10x10xf32>
    memref.store %v, %y[%i, %j] : memref<10x10xf32>
  }
  return %y : memref<10x10xf32>
}

// -----

// Bounds whose span does not fit in 64 bits: the loops have no constant
// number of points (no overflow), nothing is fused or merged.
// CHECK-LABEL: func.func @huge_bounds
// CHECK-COUNT-2: scf.parallel
func.func @huge_bounds(%x: memref<?xf32>, %y: memref<?xf32>, %v: f32) {
  %lo = arith.constant -9223372036854775808 : index
  %hi = arith.constant 9223372036854775807 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%lo) to (%hi) step (%c1) {
    memref.store %v, %x[%i] : memref<?xf32>
  }
  scf.parallel (%i, %j) = (%lo, %lo) to (%hi, %hi) step (%c1, %c1) {
    memref.store %v, %y[%i] : memref<?xf32>
  }
  return
}

// -----

// RUN: not mp-opt %s --split-input-file --mp-gpu-fuse-parallel-loops=nest-max-points=-1 2>&1 | FileCheck %s --check-prefix=BAD-NEST
// BAD-NEST: error: mp-gpu-fuse-parallel-loops: nest-max-points=-1 is invalid: expected 0 (no nested fusion) or more
func.func @bad_option() {
  return
}
