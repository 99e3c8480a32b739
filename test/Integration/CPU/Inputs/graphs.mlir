// Graphs for the numeric tests: each function has a NumPy reference of the
// same name in numerics.py. Sizes are odd on purpose.

func.func @matmul(%a: tensor<17x33xf32>, %b: tensor<33x9xf32>) -> tensor<17x9xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<17x9xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<17x9xf32>) -> tensor<17x9xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<17x33xf32>, tensor<33x9xf32>) outs(%z : tensor<17x9xf32>) -> tensor<17x9xf32>
  return %0 : tensor<17x9xf32>
}

func.func @batch_matmul(%a: tensor<3x7x13xf32>, %b: tensor<3x13x5xf32>) -> tensor<3x7x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x7x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x7x5xf32>) -> tensor<3x7x5xf32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<3x7x13xf32>, tensor<3x13x5xf32>) outs(%z : tensor<3x7x5xf32>) -> tensor<3x7x5xf32>
  return %0 : tensor<3x7x5xf32>
}

// 2-D convolution, NHWC x HWCF, stride 2, 11x13 image, 3x3 kernel.
func.func @conv2d(%x: tensor<2x11x13x3xf32>, %f: tensor<3x3x3x5xf32>) -> tensor<2x5x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x6x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x6x5xf32>) -> tensor<2x5x6x5xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %f : tensor<2x11x13x3xf32>, tensor<3x3x3x5xf32>) outs(%z : tensor<2x5x6x5xf32>) -> tensor<2x5x6x5xf32>
  return %0 : tensor<2x5x6x5xf32>
}

// Depthwise convolution, NHWC x HWC, stride 1, dilation 2.
func.func @depthwise_conv(%x: tensor<1x9x9x4xf32>, %f: tensor<3x3x4xf32>) -> tensor<1x5x5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : tensor<1x9x9x4xf32>, tensor<3x3x4xf32>) outs(%z : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  return %0 : tensor<1x5x5x4xf32>
}

func.func @softmax(%x: tensor<6x19xf32>) -> tensor<6x19xf32> {
  %e = tensor.empty() : tensor<6x19xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<6x19xf32>) outs(%e : tensor<6x19xf32>) -> tensor<6x19xf32>
  return %0 : tensor<6x19xf32>
}

// Row sums and row maxima.
func.func @reductions(%x: tensor<7x23xf32>) -> (tensor<7xf32>, tensor<7xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  %sum = linalg.reduce ins(%x : tensor<7x23xf32>) outs(%z : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %max = linalg.reduce ins(%x : tensor<7x23xf32>) outs(%m : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sum, %max : tensor<7xf32>, tensor<7xf32>
}

// Layer norm over rows with a learned scale and shift.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @layernorm(%x: tensor<5x24xf32>, %g: tensor<24xf32>, %b: tensor<24xf32>) -> tensor<5x24xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %inv = arith.constant 0.041666668 : f32
  %e = tensor.empty() : tensor<5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x24xf32>) outs(%z : tensor<5xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
  } -> tensor<5xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<5xf32>) outs(%e : tensor<5xf32>) {
    ^bb0(%s: f32, %o: f32):
      %m = arith.mulf %s, %inv : f32
      linalg.yield %m : f32
  } -> tensor<5xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<5x24xf32>, tensor<5xf32>) outs(%z : tensor<5xf32>) {
    ^bb0(%v: f32, %m: f32, %acc: f32):
      %d = arith.subf %v, %m : f32
      %d2 = arith.mulf %d, %d : f32
      %a = arith.addf %d2, %acc : f32
      linalg.yield %a : f32
  } -> tensor<5xf32>
  %ex = tensor.empty() : tensor<5x24xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %g, %b : tensor<5x24xf32>, tensor<5xf32>, tensor<5xf32>, tensor<24xf32>, tensor<24xf32>)
      outs(%ex : tensor<5x24xf32>) {
    ^bb0(%v: f32, %m: f32, %q: f32, %gg: f32, %bb: f32, %o: f32):
      %var = arith.mulf %q, %inv : f32
      %ve = arith.addf %var, %eps : f32
      %r = math.rsqrt %ve : f32
      %d = arith.subf %v, %m : f32
      %n = arith.mulf %d, %r : f32
      %s = arith.mulf %n, %gg : f32
      %t = arith.addf %s, %bb : f32
      linalg.yield %t : f32
  } -> tensor<5x24xf32>
  return %y : tensor<5x24xf32>
}

// Elementwise math on tensors (arith/math ops, not linalg).
func.func @elementwise(%x: tensor<31xf32>, %y: tensor<31xf32>) -> tensor<31xf32> {
  %0 = arith.mulf %x, %y : tensor<31xf32>
  %1 = math.tanh %0 : tensor<31xf32>
  %2 = math.exp %x : tensor<31xf32>
  %3 = arith.addf %1, %2 : tensor<31xf32>
  return %3 : tensor<31xf32>
}

// exp and log over 1000 elements: loops that LLVM vectorizes into calls of
// glibc's libmvec (16 or 8 lanes per call), and a scalar rest.
func.func @softplus(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %one = arith.constant dense<1.0> : tensor<1000xf32>
  %0 = math.exp %x : tensor<1000xf32>
  %1 = arith.addf %0, %one : tensor<1000xf32>
  %2 = math.log %1 : tensor<1000xf32>
  return %2 : tensor<1000xf32>
}

// A loop: h <- tanh(h W) three times.
func.func @loop(%h0: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %h0) -> (tensor<4x8xf32>) {
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %m = linalg.matmul ins(%h, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
    %t = linalg.tanh ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %t : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// A loop that yields one tensor as two results (itself, then a view of it),
// and GEMMs that accumulate into the first result in place: each result
// must keep its own buffer (mp-unalias-loop-results).
func.func @loop_results(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>, %s: f32) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<8x8xf32>
  %l:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x, %b = %w) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %f = linalg.fill ins(%s : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %f, %f : tensor<8x8xf32>, tensor<8x8xf32>
  }
  %m = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%l#0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sum = linalg.add ins(%l#1, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %k:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x, %b = %w3) -> (tensor<8x8xf32>, tensor<2x4x8xf32>) {
    %f = linalg.fill ins(%s : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %v = tensor.expand_shape %f [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
    scf.yield %f, %v : tensor<8x8xf32>, tensor<2x4x8xf32>
  }
  %m2 = linalg.matmul ins(%w, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%k#0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e3 = tensor.empty() : tensor<2x4x8xf32>
  %twice = linalg.add ins(%k#1, %k#1 : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%e3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %m, %sum, %m2, %twice : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>
}
