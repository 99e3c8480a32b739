// RUN: mp-opt %s --split-input-file --mp-gpu-map-parallel-loops --canonicalize | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-gpu-map-parallel-loops='block-size=128' --canonicalize | FileCheck %s --check-prefix=B128
// RUN: not mp-opt %s --mp-gpu-map-parallel-loops='block-size=2048' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: mp-gpu-map-parallel-loops: block-size=2048 is invalid: expected 1 to 1024 threads

// 1000 points: 4 blocks of 256 threads, the last block masked.
// CHECK-LABEL: func.func @add
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: %[[IN:.*]] = arith.cmpi slt
// CHECK: scf.if %[[IN]]
// CHECK: arith.addf
// CHECK-NOT: scf.parallel
// B128: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c1, %{{.*}} = %c1) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c128,
func.func @add(%a: memref<1000xf32>, %b: memref<1000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    %x = memref.load %a[%i] : memref<1000xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %b[%i] : memref<1000xf32>
  }
  return
}

// -----

// A row-wise sum: rows on blocks (y), the row's 37 columns one per thread
// of the x dimension; the reduction loop inside stays sequential in f32.
// With a loop in each thread, the short rows are not collapsed: 5 blocks.
// CHECK-LABEL: func.func @rows
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c5, %{{.*}} = %c1) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: scf.for
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
func.func @rows(%x: memref<5x37x9xf32>, %out: memref<5x37xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %c37 = arith.constant 37 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c5, %c37) step (%c1, %c1) {
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %k = %c0 to %c9 step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %x[%i, %j, %k] : memref<5x37x9xf32>
      %n = arith.addf %acc, %v : f32
      scf.yield %n : f32
    }
    memref.store %sum, %out[%i, %j] : memref<5x37xf32>
  }
  return
}

// -----

// Four parallel dimensions (attention's batch, head, query, key) become one
// grid dimension, not launches in a host loop: 64*2*28*28 = 100352 points in
// 392 blocks of 256 threads, each point's indices recovered from its
// position.
// CHECK-LABEL: func.func @scores
// CHECK-NOT: scf.for
// CHECK-NOT: scf.parallel
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c392, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: arith.remsi
// CHECK: arith.divsi
// CHECK: memref.store
// CHECK-NOT: gpu.launch
func.func @scores(%x: memref<64x2x28x28xf32>, %y: memref<64x2x28x28xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c28 = arith.constant 28 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%b, %h, %i, %j) = (%c0, %c0, %c0, %c0) to (%c64, %c2, %c28, %c28) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %x[%b, %h, %i, %j] : memref<64x2x28x28xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %y[%b, %h, %i, %j] : memref<64x2x28x28xf32>
    scf.reduce
  }
  return
}

// -----

// A layer norm's elementwise part over 64x28x32: rows of 32 points, shorter
// than a block, so the nest is one dimension of 57344 points, 224 full
// blocks of 256 threads (not 64x28 blocks with 32 threads at work each);
// with blocks of 128, 448.
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT: scf.parallel
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c224, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: arith.remsi
// CHECK: arith.divsi
// CHECK: memref.store
// CHECK-NOT: gpu.launch
// B128-LABEL: func.func @short_rows
// B128: gpu.launch blocks({{.*}}) in (%{{.*}} = %c448, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c128,
func.func @short_rows(%x: memref<64x28x32xf32>, %y: memref<64x28x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c28 = arith.constant 28 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%b, %i, %j) = (%c0, %c0, %c0) to (%c64, %c28, %c32) step (%c1, %c1, %c1) {
    %v = memref.load %x[%b, %i, %j] : memref<64x28x32xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %y[%b, %i, %j] : memref<64x28x32xf32>
    scf.reduce
  }
  return
}

// -----

// Rows of 300 points with blocks of 256: the innermost dimension is not
// shorter than a block, so rows stay on y (2 blocks of x per row).
// CHECK-LABEL: func.func @long_rows
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c3, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256,
// CHECK-NOT: arith.remsi
func.func @long_rows(%x: memref<3x300xf32>, %y: memref<3x300xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c300 = arith.constant 300 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c300) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<3x300xf32>
    memref.store %v, %y[%i, %j] : memref<3x300xf32>
    scf.reduce
  }
  return
}
