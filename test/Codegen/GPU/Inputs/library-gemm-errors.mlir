// Errors of mp-gpu-library-gemm (test/Codegen/GPU/library-gemm.mlir runs
// this file).

func.func @f32(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %c: memref<4x8xf32>) {
  // expected-error @below {{mp-gpu-library-gemm: marked mp.gpu_gemm = "library" but not a contraction on buffers that cuBLASLt computes (static shapes, f16 or bf16 operands, an f32 accumulator)}}
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  return
}

// -----

// expected-error @below {{mp-gpu-library-gemm: @mp_cuda_gemm is the runtime's; rename this function}}
func.func @mp_cuda_gemm() {
  return
}

func.func @gemm(%a: memref<4x16xf16>, %b: memref<16x8xf16>, %c: memref<4x8xf32>) {
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<4x16xf16>, memref<16x8xf16>) outs(%c : memref<4x8xf32>)
  return
}
