// Signatures mp-run cannot or will not guess inputs for.
func.func @f(%m: memref<4xf32>) {
  return
}
func.func @dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func private @ext(tensor<4xf32>) -> tensor<4xf32>
func.func @calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @ext(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
