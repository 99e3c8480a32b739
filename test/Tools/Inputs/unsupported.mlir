// Signatures mp-run cannot or will not guess inputs for.
func.func @f(%m: memref<4xf32>) {
  return
}
func.func @dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
