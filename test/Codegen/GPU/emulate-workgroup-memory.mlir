// RUN: mp-opt %s --mp-gpu-emulate-workgroup-memory | FileCheck %s --implicit-check-not=address_space

// The tiled stage's workgroup buffers become host buffers: every buffer type
// loses its GPU address space (allocations, views, loop-carried buffers);
// other memory spaces are not GPU ones and are not the pass's business.
// CHECK-LABEL: func.func @panels
// CHECK: %[[P:.*]] = memref.alloc() : memref<64x32xf16>
// CHECK: memref.subview %[[P]][0, 0] [32, 32] [1, 1] : memref<64x32xf16> to memref<32x32xf16, strided<[32, 1]>>
// CHECK: vector.store %{{.*}}, %[[P]][%{{.*}}, %{{.*}}] : memref<64x32xf16>, vector<8xf16>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[P]]) -> (memref<64x32xf16>)
// CHECK: memref.dealloc %[[P]] : memref<64x32xf16>
func.func @panels(%a: memref<64x32xf16>, %n: index) -> f16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
  %v = memref.subview %p[0, 0] [32, 32] [1, 1] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<32x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
  %x = vector.load %a[%c0, %c0] : memref<64x32xf16>, vector<8xf16>
  vector.store %x, %p[%c0, %c0] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p) -> (memref<64x32xf16, #gpu.address_space<workgroup>>) {
    scf.yield %q : memref<64x32xf16, #gpu.address_space<workgroup>>
  }
  %e = memref.load %v[%c0, %c0] : memref<32x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
  memref.dealloc %p : memref<64x32xf16, #gpu.address_space<workgroup>>
  return %e : f16
}
