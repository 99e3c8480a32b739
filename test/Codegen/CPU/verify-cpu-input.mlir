// RUN: mp-opt %s --split-input-file --verify-diagnostics --mp-verify-cpu-input
// RUN: sed "s|// expected-error.*||" %s | not mp-opt --split-input-file --mp-lower-to-cpu -o /dev/null 2>&1 | FileCheck %s
// RUN: sed "s|// expected-error.*||" %s | not mp-opt --split-input-file --mp-lower-to-gpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: sed "s|// expected-error.*||" %s | not mp-opt --split-input-file --mp-lower-to-gpu-emulation -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMU

// GPU code given to the CPU pipeline is an error at its first GPU op (a
// launch with workgroup buffers used to come out half converted); host code
// passes. The GPU pipelines make their own GPU code from linalg and refuse
// it the same way (mp-lower-to-gpu crashed bufferizing a launch with
// workgroup buffers, the emulation made it invalid).
// GPU: error: mp-lower-to-gpu: 'gpu.launch' is GPU code, which mp-lower-to-gpu does not take
// GPU: error: mp-lower-to-gpu: 'nvgpu.ldmatrix' is GPU code
// GPU: error: mp-lower-to-gpu: 'func.func' has a buffer in GPU memory
// GPU: error: mp-lower-to-gpu: this expand_shape splits one dimension into dimensions 1, 2 of dynamic size
// GPU: error: mp-lower-to-gpu: this expand_shape's output_shape gives dimension 2 a dynamic size where its type has size 64
// GPU: error: mp-lower-to-gpu: this expand_shape's output_shape gives dimension 0 size 4 where its type has a dynamic size
// GPU-NOT: error
// EMU: error: mp-lower-to-gpu-emulation: 'gpu.launch' is GPU code, which mp-lower-to-gpu-emulation does not take
// EMU: error: mp-lower-to-gpu-emulation: 'nvgpu.ldmatrix' is GPU code
// EMU: error: mp-lower-to-gpu-emulation: 'func.func' has a buffer in GPU memory
// EMU: error: mp-lower-to-gpu-emulation: this expand_shape splits one dimension into dimensions 1, 2 of dynamic size
// EMU: error: mp-lower-to-gpu-emulation: this expand_shape's output_shape gives dimension 2 a dynamic size where its type has size 64
// EMU: error: mp-lower-to-gpu-emulation: this expand_shape's output_shape gives dimension 0 size 4 where its type has a dynamic size
// EMU-NOT: error
// CHECK: error: mp-lower-to-cpu: 'gpu.launch' is GPU code, which mp-lower-to-cpu does not take: it compiles linalg on tensors (the output of mp-amp-pipeline or mp-train-pipeline); mp-lower-to-gpu makes GPU code from that, and mp-lower-to-gpu-emulation runs its tiled stage on the CPU
// CHECK: error: mp-lower-to-cpu: 'nvgpu.ldmatrix' is GPU code
// CHECK: error: mp-lower-to-cpu: 'func.func' has a buffer in GPU memory
// CHECK: error: mp-lower-to-cpu: this expand_shape splits one dimension into dimensions 1, 2 of dynamic size
// CHECK: error: mp-lower-to-cpu: this expand_shape's output_shape gives dimension 2 a dynamic size where its type has size 64
// CHECK: error: mp-lower-to-cpu: this expand_shape's output_shape gives dimension 0 size 4 where its type has a dynamic size
// CHECK-NOT: error
func.func @kernel(%v: vector<8xf16>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{mp-lower-to-cpu: 'gpu.launch' is GPU code, which mp-lower-to-cpu does not take: it compiles linalg on tensors (the output of mp-amp-pipeline or mp-train-pipeline); mp-lower-to-gpu makes GPU code from that, and mp-lower-to-gpu-emulation runs its tiled stage on the CPU}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%x1 = %c1, %y1 = %c1, %z1 = %c1)
             workgroup(%a : memref<64x32xf16, #gpu.address_space<workgroup>>) {
    vector.store %v, %a[%tx, %ty] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.terminator
  }
  return
}

// -----

func.func @fragment(%a: memref<64x32xf16, 3>, %i: index) -> vector<4x2xf16> {
  // expected-error @+1 {{mp-lower-to-cpu: 'nvgpu.ldmatrix' is GPU code}}
  %f = nvgpu.ldmatrix %a[%i, %i] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, 3> -> vector<4x2xf16>
  return %f : vector<4x2xf16>
}

// -----

// Buffers in GPU memory are GPU code too, even in a declaration's signature
// (the LLVM conversion failed on them with errors that had no location).
// expected-error @+1 {{mp-lower-to-cpu: 'func.func' has a buffer in GPU memory ('memref<64x32xf16, #gpu.address_space<workgroup>>'), that is GPU code, which mp-lower-to-cpu does not take}}
func.func private @use(memref<64x32xf16, #gpu.address_space<workgroup>>)

// -----

// An expand_shape into two dynamic sizes of one source dimension crashed
// LLVM 22's expand-strided-metadata in all three pipelines; one dynamic
// size a group passes.
func.func @two_dynamic(%x: tensor<4x?xf32>, %y: tensor<?xf32>, %a: index, %b: index) -> (tensor<4x?x?xf32>, tensor<?x8xf32>) {
  // expected-error @+1 {{mp-lower-to-cpu: this expand_shape splits one dimension into dimensions 1, 2 of dynamic size, which LLVM 22's memref lowering (expand-strided-metadata) cannot take: give all but one of them static sizes}}
  %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, %a, %b] : tensor<4x?xf32> into tensor<4x?x?xf32>
  %f = tensor.expand_shape %y [[0, 1]] output_shape [%a, 8] : tensor<?xf32> into tensor<?x8xf32>
  return %e, %f : tensor<4x?x?xf32>, tensor<?x8xf32>
}

// -----

// An output_shape that does not agree with the type (an SSA value where the
// type says 64, a constant where it says ?) passes tensor.expand_shape's
// verifier, and bufferized into a memref.expand_shape that fails its own
// (found by the pipeline fuzzer).
func.func @value_for_static(%x: tensor<4x?xf32>, %a: index, %b: index) -> tensor<4x?x64xf32> {
  // expected-error @+1 {{mp-lower-to-cpu: this expand_shape's output_shape gives dimension 2 a dynamic size where its type has size 64, which bufferizes to an invalid memref.expand_shape: make them agree}}
  %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, %a, %b] : tensor<4x?xf32> into tensor<4x?x64xf32>
  return %e : tensor<4x?x64xf32>
}

// -----

func.func @constant_for_dynamic(%y: tensor<?xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{mp-lower-to-cpu: this expand_shape's output_shape gives dimension 0 size 4 where its type has a dynamic size, which bufferizes to an invalid memref.expand_shape: make them agree}}
  %f = tensor.expand_shape %y [[0, 1]] output_shape [4, 8] : tensor<?xf32> into tensor<?x8xf32>
  return %f : tensor<?x8xf32>
}

// -----

func.func @one_dynamic(%y: tensor<?xf32>, %a: index) -> tensor<?x8xf32> {
  %f = tensor.expand_shape %y [[0, 1]] output_shape [%a, 8] : tensor<?xf32> into tensor<?x8xf32>
  return %f : tensor<?x8xf32>
}

// -----

func.func @host(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
