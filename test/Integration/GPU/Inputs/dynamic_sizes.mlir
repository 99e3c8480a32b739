// Graphs whose batch is a dynamic size (emulation.test, DYNAMIC): neither
// the generated GEMMs nor the library calls take them, so their
// contractions and convolutions run as parallel loops.

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
