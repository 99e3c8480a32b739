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

// -----

// The blocks' forall may run to a dynamic size, the warps' and threads'
// foralls in it may not: a block's threads are fixed at the launch.
func.func @dynamic_threads(%out: memref<?xf32>, %n: index) {
  %one = arith.constant 1.0 : f32
  // expected-error @below {{mp-gpu-map-forall-to-launch: expected static steps, and nested foralls of static trip counts mapped to warps or threads}}
  scf.forall (%i) = (0) to (%n) step (64) {
    scf.forall (%t) in (%n) {
      memref.store %one, %out[%t] : memref<?xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
