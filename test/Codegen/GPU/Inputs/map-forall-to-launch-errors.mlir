// A workgroup buffer allocated by each thread, not once per block, is refused.
func.func @nested_buffer(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  scf.forall (%i) = (0) to (1) step (1) {
    scf.forall (%t) in (64) {
      // expected-error @below {{mp-gpu-map-forall-to-launch: expected a workgroup buffer of static shape allocated once per thread block}}
      %buf = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %one, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
