// RUN: mp-opt %s --split-input-file --mp-gpu-merge-launches | FileCheck %s

// Two kernels on different buffers with 256 threads per block: one launch
// of 2 x 3 + 4 blocks. Blocks 0-5 run the first as its block (b mod 2,
// (b / 2) mod 3, b / 6); blocks 6-9 the second as block b - 6 of 4. The
// grid sizes each part sees are its own; the allocation between the two
// moves before the merged launch; workgroup buffers follow in order.
// CHECK-LABEL: func.func @independent
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4xf32>
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C10]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK-SAME: workgroup(%[[W1:.*]] : memref<256xf32, #gpu.address_space<workgroup>>, %[[W2:.*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK-DAG: %[[K4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[K10:.*]] = arith.constant 10 : index
// CHECK-DAG: %[[K2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[K3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[K6:.*]] = arith.constant 6 : index
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[BX]], %[[K6]] : index
// CHECK: scf.if %[[FIRST]] {
// CHECK:   %[[X0:.*]] = arith.remui %[[BX]], %[[K2]] : index
// CHECK:   %[[Q0:.*]] = arith.divui %[[BX]], %[[K2]] : index
// CHECK:   %[[Y0:.*]] = arith.remui %[[Q0]], %[[K3]] : index
// CHECK:   %[[Z0:.*]] = arith.divui %[[BX]], %[[K6]] : index
// CHECK:   memref.store %{{.*}}, %[[W1]][%[[TX]]]
// CHECK:   gpu.barrier
// CHECK:   %[[V:.*]] = memref.load %arg0[%[[X0]], %[[Y0]], %[[Z0]]] : memref<2x3x1xf32>
// CHECK:   memref.store %[[V]], %arg1[%[[X0]], %[[Y0]], %[[Z0]]] : memref<2x3x1xf32>
// CHECK: }
// CHECK: %[[BELOW:.*]] = arith.cmpi ult, %[[BX]], %[[K10]] : index
// CHECK: %[[ABOVE:.*]] = arith.cmpi uge, %[[BX]], %[[K6]] : index
// CHECK: %[[SECOND:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : i1
// CHECK: scf.if %[[SECOND]] {
// CHECK:   %[[L1:.*]] = arith.subi %[[BX]], %[[K6]] : index
// CHECK:   %[[X1:.*]] = arith.remui %[[L1]], %[[K4]] : index
// CHECK:   memref.store %{{.*}}, %[[W2]][%{{.*}}]
// CHECK:   %[[N:.*]] = arith.index_cast %[[K4]] : index to i32
// CHECK:   %[[F:.*]] = arith.sitofp %[[N]] : i32 to f32
// CHECK:   memref.store %[[F]], %[[OUT]][%[[X1]]] : memref<4xf32>
// CHECK: }
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
func.func @independent(%a: memref<2x3x1xf32>, %b: memref<2x3x1xf32>) -> memref<4xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c3, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) workgroup(%w : memref<256xf32, #gpu.address_space<workgroup>>) {
    memref.store %zero, %w[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %v = memref.load %a[%bx, %by, %bz] : memref<2x3x1xf32>
    memref.store %v, %b[%bx, %by, %bz] : memref<2x3x1xf32>
    gpu.terminator
  }
  %out = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>) {
    memref.store %zero, %w[%bz] : memref<8xf32, #gpu.address_space<workgroup>>
    %id = gpu.block_id x
    %n = gpu.grid_dim x
    %f = arith.index_cast %n : index to i32
    %g = arith.sitofp %f : i32 to f32
    memref.store %g, %out[%id] : memref<4xf32>
    gpu.terminator
  }
  return %out : memref<4xf32>
}

// -----

// The second kernel reads what the first writes, writes what it reads, or
// writes the same buffer: each stays a launch of its own.
// CHECK-LABEL: func.func @dependent
// CHECK-COUNT-4: gpu.launch blocks
// CHECK-NOT: gpu.launch
func.func @dependent(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4xf32>
  %u = memref.alloc() : memref<2x2xf32>
  // Writes %t.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%bx] : memref<4xf32>
    memref.store %v, %t[%bx] : memref<4xf32>
    gpu.terminator
  }
  // Reads %t through a view.
  %view = memref.expand_shape %t [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %view[%bx, %bx] : memref<2x2xf32>
    memref.store %v, %u[%bx, %bx] : memref<2x2xf32>
    gpu.terminator
  }
  // Writes %view's buffer, which the one before read.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t[%bx] : memref<4xf32>
    gpu.terminator
  }
  // Writes %t as well.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t[%c1] : memref<4xf32>
    gpu.terminator
  }
  memref.dealloc %t : memref<4xf32>
  memref.dealloc %u : memref<2x2xf32>
  return
}

// -----

// Two kernels that read the same buffer (each would read it in full, the
// merged kernel's report would count it once), and a kernel that writes
// an argument next to one that reads another argument (they may be the
// same memory): apart. Three that only read an argument or a 0-d scalar
// they share, and write buffers of their own: merged. (Two blocks each:
// launches of one block that may depend on each other would run one after
// the other, @sequential.)
// CHECK-LABEL: func.func @shared_inputs
// CHECK-COUNT-2: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: %[[C6:.*]] = arith.constant 6 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C6]],
// CHECK: memref.load %arg1[
// CHECK: memref.load %arg2[]
// CHECK: memref.load %arg2[]
// CHECK-NOT: gpu.launch
func.func @shared_inputs(%a: memref<4xf32>, %b: memref<4xf32>, %s: memref<f32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = memref.alloc() : memref<4xf32>
  %u = memref.alloc() : memref<4xf32>
  %v = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%bx] : memref<4xf32>
    memref.store %x, %t[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%bx] : memref<4xf32>
    memref.store %x, %a[%c1] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %b[%bx] : memref<4xf32>
    memref.store %x, %u[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %s[] : memref<f32>
    memref.store %x, %v[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %s[] : memref<f32>
    memref.store %x, %t[%bx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Apart: other threads per block; a GEMM's kernel (its tiles; the kernel
// after it reads what it writes, so that it cannot move up over it, @hop);
// a block and a warp reduction; an op between them that writes memory; a
// call that may touch memory the pass cannot see; a kernel asking for
// global ids (the kernel after it reads what it writes).
// CHECK-LABEL: func.func @apart
// CHECK-COUNT-10: gpu.launch blocks
// CHECK-NOT: gpu.launch
func.func private @opaque(memref<4xf32>)
func.func @apart(%a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %t0 = memref.alloc() : memref<4xf32>
  %t1 = memref.alloc() : memref<4xf32>
  %t2 = memref.alloc() : memref<4xf32>
  %t3 = memref.alloc() : memref<4xf32>
  %t4 = memref.alloc() : memref<4xf32>
  %t5 = memref.alloc() : memref<4xf32>
  %t6 = memref.alloc() : memref<4xf32>
  %t7 = memref.alloc() : memref<4xf32>
  %t8 = memref.alloc() : memref<4xf32>
  %t9 = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t0[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t1[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t2[%bx] : memref<4xf32>
    gpu.terminator
  } {mp.gpu_tile = array<i64: 16, 8, 16, 8>}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %x = memref.load %t2[%bx] : memref<4xf32>
    memref.store %x, %t3[%bx] : memref<4xf32>
    gpu.terminator
  } {mp.gpu_reduction = "block"}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t4[%bx] : memref<4xf32>
    gpu.terminator
  } {mp.gpu_reduction = "warp"}
  memref.copy %a, %t9 : memref<4xf32> to memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t5[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    func.call @opaque(%t6) : (memref<4xf32>) -> ()
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t7[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %g = gpu.global_id x
    memref.store %zero, %t8[%g] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %x = memref.load %t8[%bx] : memref<4xf32>
    memref.store %x, %t9[%bx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Three independent kernels, the middle one a block reduction: one launch
// of 1 + 2 + 3 blocks, reported as the block reduction it holds.
// CHECK-LABEL: func.func @three
// CHECK: %[[C6:.*]] = arith.constant 6 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C6]],
// CHECK-COUNT-3: scf.if
// CHECK: } {mp.gpu_reduction = "block"}
// CHECK-NOT: gpu.launch
func.func @three() -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %t0 = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t0[%bx] : memref<4xf32>
    gpu.terminator
  }
  %t1 = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t1[%bx] : memref<4xf32>
    gpu.terminator
  } {mp.gpu_reduction = "block"}
  %t2 = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t2[%bx] : memref<4xf32>
    gpu.terminator
  }
  return %t0, %t1, %t2 : memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// Launches on both sides of an op whose region holds launches: each block
// is merged once; the nested launches merge among themselves, those around
// the scf.if stay apart (the scf.if between them may touch memory).
// CHECK-LABEL: func.func @nested
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: scf.if
// CHECK:   %[[C2:.*]] = arith.constant 2 : index
// CHECK:   gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C2]],
// CHECK-NOT: gpu.launch
// CHECK: }
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NOT: gpu.launch
func.func @nested(%c: i1) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %t0 = memref.alloc() : memref<4xf32>
  %t1 = memref.alloc() : memref<4xf32>
  %t2 = memref.alloc() : memref<4xf32>
  %t3 = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t0[%bx] : memref<4xf32>
    gpu.terminator
  }
  scf.if %c {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      memref.store %zero, %t1[%bx] : memref<4xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      memref.store %zero, %t2[%bx] : memref<4xf32>
      gpu.terminator
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %t3[%bx] : memref<4xf32>
    gpu.terminator
  }
  memref.dealloc %t0 : memref<4xf32>
  memref.dealloc %t1 : memref<4xf32>
  memref.dealloc %t2 : memref<4xf32>
  memref.dealloc %t3 : memref<4xf32>
  return
}

// -----

// A kernel moves up to the kernel it joins over the launches between that
// touch nothing it touches, and over deallocations; the allocation of its
// buffer moves with it. Not over a GEMM's kernel that writes what it reads.
// CHECK-LABEL: func.func @hop
// CHECK: %[[T:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[D:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[U:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C4]],
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK: memref.store %{{.*}}, %[[U]]
// CHECK: gpu.launch blocks
// CHECK: } {mp.gpu_tile
// CHECK-NEXT: memref.dealloc %[[D]]
// CHECK: gpu.launch blocks
// CHECK: } {mp.gpu_tile
// CHECK-NEXT: %[[W:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: gpu.launch blocks
// CHECK: memref.store %{{.*}}, %[[W]]
// CHECK-NOT: gpu.launch
func.func @hop(%a: memref<4xf32>, %b: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4xf32>
  %d = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%bx] : memref<4xf32>
    memref.store %x, %t[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %x = memref.load %t[%bx] : memref<4xf32>
    memref.store %x, %d[%bx] : memref<4xf32>
    gpu.terminator
  } {mp.gpu_tile = array<i64: 16, 8, 16, 8>}
  memref.dealloc %d : memref<4xf32>
  %u = memref.alloc() : memref<4xf32>
  // Touches nothing that the GEMM's kernel touches.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %x = memref.load %b[%bx] : memref<4xf32>
    memref.store %x, %u[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    memref.store %zero, %b[%bx] : memref<4xf32>
    gpu.terminator
  } {mp.gpu_tile = array<i64: 16, 8, 16, 8>}
  %w = memref.alloc() : memref<4xf32>
  // Reads what the GEMM's kernel before it writes.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %x = memref.load %b[%bx] : memref<4xf32>
    memref.store %x, %w[%bx] : memref<4xf32>
    gpu.terminator
  }
  return %t, %u, %w : memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// Kernels of one thread block each that depend on each other through 0-d
// buffers (a step's overflow flag cleared, set by a finite check and read
// by the loss scale's update, over a GEMM's kernel that touches neither) run
// one after the other in one block, a barrier between them. Apart: one that
// shares a buffer of more elements with them (the kernel report would
// count it once), one with other threads per block.
// CHECK-LABEL: func.func @sequential
// CHECK: %[[FLAG:.*]] = memref.alloc() : memref<i1>
// CHECK: %[[SCALE:.*]] = memref.alloc() : memref<f32>
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[ONE:c1[_0-9]*]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads({{.*}}) in (%{{.*}} = %[[FOUR:c4[_0-9]*]],
// CHECK-NOT: arith.cmpi ult
// CHECK: memref.store %false, %[[FLAG]]{{\[}}]
// CHECK: gpu.barrier
// CHECK: memref.load %arg0[
// CHECK: memref.store %true, %[[FLAG]]{{\[}}]
// CHECK: gpu.barrier
// CHECK: memref.load %[[FLAG]]{{\[}}]
// CHECK: memref.store %{{.*}}, %[[SCALE]]{{\[}}]
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK: } {mp.gpu_tile
// CHECK: gpu.launch blocks
// CHECK: memref.load %arg0[
// CHECK: gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.*}} = %c8,
// CHECK-NOT: gpu.launch
func.func @sequential(%g: memref<4xf32>, %s: memref<f32>, %c: memref<4xf32>) -> (memref<i1>, memref<f32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %false = arith.constant false
  %true = arith.constant true
  %inf = arith.constant 0x7F800000 : f32
  %half = arith.constant 0.5 : f32
  %flag = memref.alloc() : memref<i1>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %false, %flag[] : memref<i1>
    }
    gpu.terminator
  }
  %d = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %c[%tx] : memref<4xf32>
    memref.store %x, %d[%tx] : memref<4xf32>
    gpu.terminator
  } {mp.gpu_tile = array<i64: 16, 8, 16, 8>}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %g[%tx] : memref<4xf32>
    %a = math.absf %x : f32
    %finite = arith.cmpf olt, %a, %inf : f32
    %overflow = arith.xori %finite, %true : i1
    scf.if %overflow {
      memref.store %true, %flag[] : memref<i1>
    }
    gpu.terminator
  }
  %scale = memref.alloc() : memref<f32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %f = memref.load %flag[] : memref<i1>
      %old = memref.load %s[] : memref<f32>
      %less = arith.mulf %old, %half : f32
      %new = arith.select %f, %less, %old : f32
      memref.store %new, %scale[] : memref<f32>
    }
    gpu.terminator
  }
  %e = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %g[%tx] : memref<4xf32>
    memref.store %x, %e[%tx] : memref<4xf32>
    gpu.terminator
  }
  %o = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %scale[] : memref<f32>
    %in = arith.cmpi ult, %tx, %c4 : index
    scf.if %in {
      memref.store %x, %o[%tx] : memref<4xf32>
    }
    gpu.terminator
  }
  return %flag, %scale, %d, %e, %o : memref<i1>, memref<f32>, memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// Finite checks in kernels of several blocks: two that only store `true` in
// the same flag (in any order of their blocks, the flag ends the same) are
// one launch of 2 + 3 blocks; a third that reads the flag stays apart, and
// so does a fourth that stores `false` in it. (The flag is the function's:
// an argument might be the memory the kernels read.)
// CHECK-LABEL: func.func @flag_setters
// CHECK: %[[FLAG:.*]] = memref.alloc() : memref<i1>
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C5]],
// CHECK-COUNT-2: memref.store %true, %[[FLAG]][] : memref<i1>
// CHECK: gpu.terminator
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2,
// CHECK: memref.load %[[FLAG]][] : memref<i1>
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2,
// CHECK: memref.store %false, %[[FLAG]][] : memref<i1>
// CHECK-NOT: gpu.launch
func.func @flag_setters(%a: memref<4xf32>, %b: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<i1>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %true = arith.constant true
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4xf32>
  %u = memref.alloc() : memref<4xf32>
  %v = memref.alloc() : memref<4xf32>
  %flag = memref.alloc() : memref<i1>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%bx] : memref<4xf32>
    memref.store %x, %t[%bx] : memref<4xf32>
    %bad = arith.cmpf uno, %x, %x : f32
    scf.if %bad {
      memref.store %true, %flag[] : memref<i1>
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %b[%bx] : memref<4xf32>
    memref.store %x, %u[%bx] : memref<4xf32>
    %bad = arith.cmpf uno, %x, %x : f32
    scf.if %bad {
      memref.store %true, %flag[] : memref<i1>
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %f = memref.load %flag[] : memref<i1>
    %x = arith.select %f, %zero, %zero : f32
    memref.store %x, %v[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %false, %flag[] : memref<i1>
    gpu.terminator
  }
  return %t, %u, %v, %flag : memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<i1>
}
