// A gradient function with a parameter (%frozen) that has no gradient.
func.func @grad(%w: tensor<4x4xf32> {mp.param},
                %frozen: tensor<4xf32> {mp.param},
                %x: tensor<2x4xf32> {mp.input}, %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<4x4xf32> {mp.grad_of = 0 : i64}, tensor<2x4xf32> {mp.output}) {
  %l = tensor.empty() : tensor<f32>
  return %l, %w, %x : tensor<f32>, tensor<4x4xf32>, tensor<2x4xf32>
}
