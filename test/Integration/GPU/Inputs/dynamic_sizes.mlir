// Graphs of dynamic sizes (emulation.test and lower-to-gpu.mlir, DYNAMIC):
// their contractions are generated GEMMs masked along the dynamic sizes (the
// library calls take static sizes only), their convolutions parallel loops.

// A dense layer, a bias, a softmax over the rows and two sums.
func.func @dense(%x: tensor<?x24xf32>, %w: tensor<24x16xf32>, %b: tensor<16xf32>)
    -> (tensor<?x16xf32>, tensor<?xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x24xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<?x24xf32>, tensor<24x16xf32>) outs(%z : tensor<?x16xf32>) -> tensor<?x16xf32>
  %bb = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<?x16xf32>) dimensions = [0]
  %add = linalg.add ins(%mm, %bb : tensor<?x16xf32>, tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %sm = linalg.softmax dimension(1) ins(%add : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %er = tensor.empty(%n) : tensor<?xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %rows = linalg.reduce ins(%add : tensor<?x16xf32>) outs(%zr : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %ec = tensor.empty() : tensor<16xf32>
  %zc = linalg.fill ins(%zero : f32) outs(%ec : tensor<16xf32>) -> tensor<16xf32>
  %cols = linalg.reduce ins(%sm : tensor<?x16xf32>) outs(%zc : tensor<16xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sm, %rows, %cols : tensor<?x16xf32>, tensor<?xf32>, tensor<16xf32>
}

// A convolution of a batch of images, into zeros.
func.func @conv(%x: tensor<?x2x9x9xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<?x4x7x7xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x2x9x9xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x4x7x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4x7x7xf32>) -> tensor<?x4x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<?x2x9x9xf32>, tensor<4x2x3x3xf32>) outs(%z : tensor<?x4x7x7xf32>) -> tensor<?x4x7x7xf32>
  return %y : tensor<?x4x7x7xf32>
}

// K dynamic: C = A x B of 37 x ? x 61.
func.func @dynamic_k(%a: tensor<37x?xf32>, %b: tensor<?x61xf32>) -> tensor<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %c = linalg.matmul ins(%a, %b : tensor<37x?xf32>, tensor<?x61xf32>) outs(%z : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %c : tensor<37x61xf32>
}

// Every size dynamic, B transposed (A x B^T, as torch-mlir's linear layer)
// and a ReLU after it.
func.func @dynamic_abt(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c0 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%z : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.max ins(%c, %z : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A batch of dynamic size: C[b] = A[b] x B[b] + D[b].
func.func @dynamic_batch(%a: tensor<?x37x29xf32>, %b: tensor<?x29x61xf32>, %d: tensor<?x37x61xf32>) -> tensor<?x37x61xf32> {
  %c = linalg.batch_matmul ins(%a, %b : tensor<?x37x29xf32>, tensor<?x29x61xf32>) outs(%d : tensor<?x37x61xf32>) -> tensor<?x37x61xf32>
  return %c : tensor<?x37x61xf32>
}
