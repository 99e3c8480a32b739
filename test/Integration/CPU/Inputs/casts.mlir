// Casts between f32 and f16/bf16 over tensors of any length.
func.func @f32_to_f16(%x: tensor<?xf32>) -> tensor<?xf16> {
  %0 = arith.truncf %x : tensor<?xf32> to tensor<?xf16>
  return %0 : tensor<?xf16>
}
func.func @f16_to_f32(%x: tensor<?xf16>) -> tensor<?xf32> {
  %0 = arith.extf %x : tensor<?xf16> to tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @f32_to_bf16(%x: tensor<?xf32>) -> tensor<?xbf16> {
  %0 = arith.truncf %x : tensor<?xf32> to tensor<?xbf16>
  return %0 : tensor<?xbf16>
}
func.func @bf16_to_f32(%x: tensor<?xbf16>) -> tensor<?xf32> {
  %0 = arith.extf %x : tensor<?xbf16> to tensor<?xf32>
  return %0 : tensor<?xf32>
}
