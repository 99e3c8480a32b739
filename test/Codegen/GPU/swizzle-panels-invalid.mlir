// RUN: mp-opt %s --mp-gpu-swizzle-panels --verify-diagnostics

// wgmma's descriptors describe the swizzled layout: a panel that wgmma
// reads but the swizzle cannot take (here: a transfer read) is an error, not
// a kernel that reads the wrong elements.
func.func @wgmma_panel_with_transfer(%v: vector<8xf16>) -> index {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant 0.0 : f16
  %r = memref.alloca() : memref<index>
  // expected-error @+1 {{mp-gpu-swizzle-panels: a panel that wgmma reads cannot be swizzled (an access of another kind)}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%x1 = %c1, %y1 = %c1, %z1 = %c1)
             workgroup(%p : memref<64x32xf16, #gpu.address_space<workgroup>>) {
    vector.store %v, %p[%tx, %ty] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %t = vector.transfer_read %p[%c0, %c0], %f : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %address = memref.extract_aligned_pointer_as_index %p : memref<64x32xf16, #gpu.address_space<workgroup>> -> index
    memref.store %address, %r[] : memref<index>
    gpu.terminator
  }
  %a = memref.load %r[] : memref<index>
  return %a : index
}
