// A transpose of one head slice of a projection (the q of a q, k, v
// buffer) that a batched GEMM reads: the GEMM computes the transpose in
// its operand copies, which read the slice (2 KB) and not the whole
// 2x16x64 buffer (4 KB). lower-to-gpu.mlir checks the kernel report.
func.func @slice_heads(%p: tensor<2x16x64xf16>, %k: tensor<4x16x16xf16>) -> tensor<4x16x16xf32> {
  %z = arith.constant 0.0 : f32
  %s = tensor.extract_slice %p[0, 0, 32] [2, 16, 32] [1, 1, 1] : tensor<2x16x64xf16> to tensor<2x16x32xf16>
  %x = tensor.expand_shape %s [[0], [1], [2, 3]] output_shape [2, 16, 2, 16] : tensor<2x16x32xf16> into tensor<2x16x2x16xf16>
  %et = tensor.empty() : tensor<2x2x16x16xf16>
  %t = linalg.transpose ins(%x : tensor<2x16x2x16xf16>) outs(%et : tensor<2x2x16x16xf16>) permutation = [0, 2, 1, 3]
  %q = tensor.collapse_shape %t [[0, 1], [2], [3]] : tensor<2x2x16x16xf16> into tensor<4x16x16xf16>
  %e = tensor.empty() : tensor<4x16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %g = linalg.batch_matmul ins(%q, %k : tensor<4x16x16xf16>, tensor<4x16x16xf16>) outs(%f : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  return %g : tensor<4x16x16xf32>
}
