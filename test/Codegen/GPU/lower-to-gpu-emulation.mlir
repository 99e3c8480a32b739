// RUN: mp-opt %s --mp-lower-to-gpu-emulation --mlir-print-ir-after=scf-forall-to-for -o %t.mlir 2>&1 | FileCheck %s --check-prefix=TILED --implicit-check-not=scf.forall
// RUN: FileCheck %s --input-file=%t.mlir --implicit-check-not=scf. --implicit-check-not=vector.contract --implicit-check-not=memref.alloc
// RUN: not mp-opt %s --mp-lower-to-gpu-emulation='warp-m=24' 2>&1 | FileCheck %s --check-prefix=BAD

// The GPU pipeline's tiled stage on the CPU: a 37x61x29 f16 matmul in one
// 64x64 block whose tiles of A (64x32), B (32x64) and C (64x64) are copied
// into the block's buffers (host buffers here: their workgroup address space
// dropped) with zeros past the operands' edges, the foralls of blocks, of the
// copying threads and of warps as sequential loops around the m16n8k16
// contracts of the K step (one masked step of 32: its loop folds away), C's
// part inside C copied back; then lowered like mp-lower-to-cpu with C
// wrappers.
// TILED: func.func @odd
// TILED: scf.for %{{.*}} = %{{.*}} to %c37{{.*}} step %c64
// TILED: scf.for %{{.*}} = %{{.*}} to %c61{{.*}} step %c64
// TILED: %[[A:.*]] = memref.alloc() : memref<64x32xf16>
// TILED: %[[B:.*]] = memref.alloc() : memref<32x64xf16>
// TILED: %[[C:.*]] = memref.alloc() : memref<64x64xf32>
// TILED: scf.for %{{.*}} = %{{.*}} to %c2{{.*}} step %c1
// TILED: scf.for %{{.*}} = %{{.*}} to %c64{{.*}} step %c1
// TILED: memref.store %{{.*}}, %[[C]]
// TILED: memref.store %{{.*}}, %[[A]]
// TILED: memref.store %{{.*}}, %[[B]]
// TILED: scf.for %{{.*}} = %{{.*}} to %c64{{.*}} step %c32
// TILED: scf.for %{{.*}} = %{{.*}} to %c64{{.*}} step %c32
// TILED-COUNT-16: vector.contract {{.*}} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
// TILED: memref.load %[[C]]
// TILED-DAG: memref.dealloc %[[A]] :
// TILED-DAG: memref.dealloc %[[B]] :
// TILED-DAG: memref.dealloc %[[C]] :
// CHECK: llvm.func @odd
// CHECK: llvm.func @_mlir_ciface_odd
// BAD: error: mp-lower-to-gpu: tile-m=64 tile-n=64 warp-m=24 warp-n=32 is invalid
func.func @odd(%a: tensor<37x29xf16>, %b: tensor<29x61xf16>, %c: tensor<37x61xf32>) -> tensor<37x61xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<37x29xf16>, tensor<29x61xf16>) outs(%c : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %r : tensor<37x61xf32>
}
