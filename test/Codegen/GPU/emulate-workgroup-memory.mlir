// RUN: mp-opt %s --split-input-file --verify-diagnostics --mp-gpu-emulate-workgroup-memory | FileCheck %s --implicit-check-not=address_space

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

// -----

// Buffers passed to functions: the function types, declarations included,
// lose the address space with the values (they kept it, and the calls no
// longer verified), and so do type attributes (a global).
// CHECK-LABEL: memref.global "private" @staged : memref<16xf32>
// CHECK-LABEL: func.func private @use(memref<64x32xf16, strided<[33, 1]>>)
// CHECK-LABEL: func.func @calls
// CHECK-SAME: (%[[P:.*]]: memref<64x32xf16, strided<[33, 1]>>) -> memref<16xf32>
// CHECK: call @use(%[[P]]) : (memref<64x32xf16, strided<[33, 1]>>) -> ()
// CHECK: %[[G:.*]] = memref.get_global @staged : memref<16xf32>
// CHECK: return %[[G]] : memref<16xf32>
memref.global "private" @staged : memref<16xf32, #gpu.address_space<workgroup>>
func.func private @use(memref<64x32xf16, strided<[33, 1]>, #gpu.address_space<workgroup>>)
func.func @calls(%p: memref<64x32xf16, strided<[33, 1]>, #gpu.address_space<workgroup>>) -> memref<16xf32, #gpu.address_space<workgroup>> {
  call @use(%p) : (memref<64x32xf16, strided<[33, 1]>, #gpu.address_space<workgroup>>) -> ()
  %g = memref.get_global @staged : memref<16xf32, #gpu.address_space<workgroup>>
  return %g : memref<16xf32, #gpu.address_space<workgroup>>
}

// -----

// GPU code that needs GPU memory is not the tiled stage: an error, not a
// launch or copy retyped into invalid IR.
func.func @kernel(%v: vector<8xf16>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{mp-gpu-emulate-workgroup-memory: 'gpu.launch' needs its buffers in GPU memory, which the emulation makes host buffers: run the pass on the tiled stage (mp-gpu-tile-contractions), before the kernel stage of mp-lower-to-gpu}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%x1 = %c1, %y1 = %c1, %z1 = %c1)
             workgroup(%a : memref<64x32xf16, #gpu.address_space<workgroup>>) {
    vector.store %v, %a[%tx, %ty] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.terminator
  }
  return
}

// -----

func.func @copy(%src: memref<64x64xf16>, %i: index) {
  %p = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'nvgpu.device_async_copy' needs its buffers in GPU memory}}
  %t = nvgpu.device_async_copy %src[%i, %i], %p[%i, %i], 8 : memref<64x64xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
  return
}
