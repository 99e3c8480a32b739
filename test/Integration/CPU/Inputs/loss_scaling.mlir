// One loss-scaling step: unscale two gradients (one f16), check them for
// inf/NaN, update the scale (min 1, max 2^24, growth interval 3).
func.func @step(%scale: tensor<f32>, %tracker: tensor<i32>, %g: tensor<5xf16>, %h: tensor<2x3xf32>, %seed: tensor<f32>)
    -> (tensor<5xf32>, tensor<2x3xf32>, tensor<i1>, tensor<f32>, tensor<i32>, tensor<f32>) {
  %s = mp.scale_seed %seed, %scale
  %ug, %uh, %inf = mp.unscale %scale, %g, %h : tensor<5xf16>, tensor<2x3xf32> -> tensor<5xf32>, tensor<2x3xf32>
  %ns, %nt = mp.update_scale %scale, %tracker, %inf {growth_interval = 3 : i32, min_scale = 1.0 : f32, max_scale = 16777216.0 : f32}
  return %ug, %uh, %inf, %ns, %nt, %s : tensor<5xf32>, tensor<2x3xf32>, tensor<i1>, tensor<f32>, tensor<i32>, tensor<f32>
}
