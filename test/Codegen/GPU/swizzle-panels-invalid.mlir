// RUN: mp-opt %s --mp-gpu-swizzle-panels --verify-diagnostics

// wgmma's descriptors describe the swizzled layout: a panel that wgmma
// reads but the swizzle cannot take (here: a transfer read) is an error, not
// a kernel that reads the wrong elements.
gpu.module @kernels {
  // expected-error @+1 {{mp-gpu-swizzle-panels: a panel that wgmma reads cannot be swizzled (an access of another kind)}}
  gpu.func @wgmma_panel_with_transfer(%v: vector<8xf16>, %r: memref<index>)
      workgroup(%p : memref<64x32xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %f = arith.constant 0.0 : f16
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    vector.store %v, %p[%tx, %ty] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %t = vector.transfer_read %p[%c0, %c0], %f : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %address = memref.extract_aligned_pointer_as_index %p : memref<64x32xf16, #gpu.address_space<workgroup>> -> index
    memref.store %address, %r[] : memref<index>
    gpu.return
  }
}
