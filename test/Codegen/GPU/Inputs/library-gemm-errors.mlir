// Errors of mp-gpu-library-gemm (test/Codegen/GPU/library-gemm.mlir runs
// this file).

func.func @f64(%a: memref<4x16xf64>, %b: memref<16x8xf64>, %c: memref<4x8xf64>) {
  // expected-error @below {{mp-gpu-library-gemm: marked mp.gpu_gemm = "library" but not a contraction on buffers that cuBLASLt computes (static shapes, f16, bf16 or f32 operands, an f32 accumulator)}}
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<4x16xf64>, memref<16x8xf64>) outs(%c : memref<4x8xf64>)
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
