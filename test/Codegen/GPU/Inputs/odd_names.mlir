// A function whose name is no PTX identifier (name-kernels.mlir, ISA).
func.func @"x,y"(%a: tensor<32x32xf16>, %b: tensor<32x32xf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x32xf16>, tensor<32x32xf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
