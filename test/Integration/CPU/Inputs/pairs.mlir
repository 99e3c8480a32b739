// Contractions that mp-pack-bf16-contractions puts in bf16 pairs (even K,
// N a multiple of 16) when mixed to bf16, in the layouts the examples use.

// A x B, row-major: the left-hand side reshaped, the right-hand side copied.
func.func @pairs_matmul(%a: tensor<24x40xf32>, %b: tensor<40x48xf32>) -> tensor<24x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<24x48xf32>) -> tensor<24x48xf32>
  %c = linalg.matmul ins(%a, %b : tensor<24x40xf32>, tensor<40x48xf32>) outs(%z : tensor<24x48xf32>) -> tensor<24x48xf32>
  return %c : tensor<24x48xf32>
}

// A^T x B (a weight gradient: K is the batch) and x x W^T (torch's
// linear): both operands copied into pairs.
func.func @pairs_transposed(%a: tensor<20x24xf32>, %b: tensor<20x32xf32>, %w: tensor<16x20xf32>) -> (tensor<24x32xf32>, tensor<24x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<24x32xf32>) -> tensor<24x32xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<20x24xf32>, tensor<20x32xf32>) outs(%z : tensor<24x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<24x32xf32>
  %e2 = tensor.empty() : tensor<24x16xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<24x16xf32>) -> tensor<24x16xf32>
  %t = tensor.empty() : tensor<24x20xf32>
  %at = linalg.transpose ins(%a : tensor<20x24xf32>) outs(%t : tensor<24x20xf32>) permutation = [1, 0]
  %l = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%at, %w : tensor<24x20xf32>, tensor<16x20xf32>) outs(%z2 : tensor<24x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<24x16xf32>
  return %c, %l : tensor<24x32xf32>, tensor<24x16xf32>
}

// A batch of 3.
func.func @pairs_batch(%a: tensor<3x8x6xf32>, %b: tensor<3x6x32xf32>) -> tensor<3x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x8x32xf32>) -> tensor<3x8x32xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x8x6xf32>, tensor<3x6x32xf32>) outs(%z : tensor<3x8x32xf32>) -> tensor<3x8x32xf32>
  return %c : tensor<3x8x32xf32>
}
