// mlp: exported by scripts/export-torch.py (batch 256, seed 0) from examples/torch/models.py.
// Parameters in order: #0 fc1.weight (128, 784), #1 fc1.bias (128,), #2 fc2.weight (10, 128), #3 fc2.bias (10,)
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
#map4 = affine_map<(d0) -> (d0)>
#map5 = affine_map<(d0) -> ()>
#map6 = affine_map<() -> ()>
#map7 = affine_map<(d0, d1) -> (0, d1)>
#map8 = affine_map<(d0, d1) -> ()>
module {
  func.func @mlp_grad(%arg0: tensor<128x784xf32> {mp.param}, %arg1: tensor<128xf32> {mp.param}, %arg2: tensor<10x128xf32> {mp.param}, %arg3: tensor<10xf32> {mp.param}, %arg4: tensor<256x1x28x28xf32> {mp.input}, %arg5: tensor<256x10xf32> {mp.input}, %arg6: tensor<f32> {mp.grad_seed}) -> (tensor<f32> {mp.loss}, tensor<128x784xf32> {mp.grad_of = 0 : i64}, tensor<128xf32> {mp.grad_of = 1 : i64}, tensor<10x128xf32> {mp.grad_of = 2 : i64}, tensor<10xf32> {mp.grad_of = 3 : i64}, tensor<256x10xf32> {mp.output}) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant 2.560000e+02 : f32
    %collapsed = tensor.collapse_shape %arg4 [[0], [1, 2, 3]] : tensor<256x1x28x28xf32> into tensor<256x784xf32>
    %0 = tensor.empty() : tensor<784x128xf32>
    %transposed = linalg.transpose ins(%arg0 : tensor<128x784xf32>) outs(%0 : tensor<784x128xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<256x128xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<256x128xf32>) -> tensor<256x128xf32>
    %3 = linalg.matmul ins(%collapsed, %transposed : tensor<256x784xf32>, tensor<784x128xf32>) outs(%2 : tensor<256x128xf32>) -> tensor<256x128xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg1, %3 : tensor<128xf32>, tensor<256x128xf32>) outs(%1 : tensor<256x128xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %58 = arith.addf %in, %in_8 : f32
      linalg.yield %58 : f32
    } -> tensor<256x128xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<256x128xf32>) outs(%1 : tensor<256x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.cmpf ugt, %in, %cst : f32
      %59 = arith.select %58, %in, %cst : f32
      linalg.yield %59 : f32
    } -> tensor<256x128xf32>
    %6 = tensor.empty() : tensor<128x10xf32>
    %transposed_3 = linalg.transpose ins(%arg2 : tensor<10x128xf32>) outs(%6 : tensor<128x10xf32>) permutation = [1, 0] 
    %7 = tensor.empty() : tensor<256x10xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<256x10xf32>) -> tensor<256x10xf32>
    %9 = linalg.matmul ins(%5, %transposed_3 : tensor<256x128xf32>, tensor<128x10xf32>) outs(%8 : tensor<256x10xf32>) -> tensor<256x10xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg3, %9 : tensor<10xf32>, tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %58 = arith.addf %in, %in_8 : f32
      linalg.yield %58 : f32
    } -> tensor<256x10xf32>
    %11 = tensor.empty() : tensor<256xi64>
    %12 = linalg.fill ins(%c0_i64 : i64) outs(%11 : tensor<256xi64>) -> tensor<256xi64>
    %13 = tensor.empty() : tensor<256xf32>
    %14 = linalg.fill ins(%cst_0 : f32) outs(%13 : tensor<256xf32>) -> tensor<256xf32>
    %15:2 = linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "reduction"]} ins(%10 : tensor<256x10xf32>) outs(%14, %12 : tensor<256xf32>, tensor<256xi64>) {
    ^bb0(%in: f32, %out: f32, %out_8: i64):
      %58 = linalg.index 1 : index
      %59 = arith.index_cast %58 : index to i64
      %60 = arith.maximumf %in, %out : f32
      %61 = arith.cmpf ogt, %in, %out : f32
      %62 = arith.select %61, %59, %out_8 : i64
      linalg.yield %60, %62 : f32, i64
    } -> (tensor<256xf32>, tensor<256xi64>)
    %expanded = tensor.expand_shape %15#0 [[0, 1]] output_shape [256, 1] : tensor<256xf32> into tensor<256x1xf32>
    %16 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel"]} ins(%10, %expanded : tensor<256x10xf32>, tensor<256x1xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %58 = arith.subf %in, %in_8 : f32
      linalg.yield %58 : f32
    } -> tensor<256x10xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = math.exp %in : f32
      linalg.yield %58 : f32
    } -> tensor<256x10xf32>
    %18 = tensor.empty() : tensor<256x1xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<256x1xf32>) -> tensor<256x1xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "reduction"]} ins(%17 : tensor<256x10xf32>) outs(%19 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.addf %in, %out : f32
      linalg.yield %58 : f32
    } -> tensor<256x1xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%20 : tensor<256x1xf32>) outs(%18 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = math.log %in : f32
      linalg.yield %58 : f32
    } -> tensor<256x1xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel"]} ins(%16, %21 : tensor<256x10xf32>, tensor<256x1xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %58 = arith.subf %in, %in_8 : f32
      linalg.yield %58 : f32
    } -> tensor<256x10xf32>
    %23 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg5, %22 : tensor<256x10xf32>, tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %58 = arith.mulf %in, %in_8 : f32
      linalg.yield %58 : f32
    } -> tensor<256x10xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%13 : tensor<256xf32>) -> tensor<256xf32>
    %25 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "reduction"]} ins(%23 : tensor<256x10xf32>) outs(%24 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.addf %in, %out : f32
      linalg.yield %58 : f32
    } -> tensor<256xf32>
    %26 = tensor.empty() : tensor<f32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<f32>) -> tensor<f32>
    %28 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["reduction"]} ins(%25 : tensor<256xf32>) outs(%27 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.addf %in, %out : f32
      linalg.yield %58 : f32
    } -> tensor<f32>
    %29 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = []} ins(%28 : tensor<f32>) outs(%26 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.divf %in, %cst_2 : f32
      linalg.yield %58 : f32
    } -> tensor<f32>
    %30 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = []} ins(%29 : tensor<f32>) outs(%26 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.negf %in : f32
      linalg.yield %58 : f32
    } -> tensor<f32>
    %31 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = []} ins(%arg6 : tensor<f32>) outs(%26 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.negf %in : f32
      linalg.yield %58 : f32
    } -> tensor<f32>
    %32 = linalg.generic {indexing_maps = [#map5, #map4], iterator_types = ["parallel"]} ins(%31 : tensor<f32>) outs(%13 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256xf32>
    %33 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel"]} ins(%32 : tensor<256xf32>) outs(%13 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.divf %in, %cst_2 : f32
      linalg.yield %58 : f32
    } -> tensor<256xf32>
    %34 = linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%33 : tensor<256xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x10xf32>
    %35 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%34, %arg5 : tensor<256x10xf32>, tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %58 = arith.mulf %in, %in_8 : f32
      linalg.yield %58 : f32
    } -> tensor<256x10xf32>
    %36 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%22 : tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = math.exp %in : f32
      linalg.yield %58 : f32
    } -> tensor<256x10xf32>
    %37 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "reduction"]} ins(%35 : tensor<256x10xf32>) outs(%19 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.addf %in, %out : f32
      linalg.yield %58 : f32
    } -> tensor<256x1xf32>
    %38 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel"]} ins(%36, %37 : tensor<256x10xf32>, tensor<256x1xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %58 = arith.mulf %in, %in_8 : f32
      linalg.yield %58 : f32
    } -> tensor<256x10xf32>
    %39 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%35, %38 : tensor<256x10xf32>, tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %58 = arith.subf %in, %in_8 : f32
      linalg.yield %58 : f32
    } -> tensor<256x10xf32>
    %40 = linalg.matmul ins(%39, %arg2 : tensor<256x10xf32>, tensor<10x128xf32>) outs(%2 : tensor<256x128xf32>) -> tensor<256x128xf32>
    %41 = tensor.empty() : tensor<10x256xf32>
    %transposed_4 = linalg.transpose ins(%39 : tensor<256x10xf32>) outs(%41 : tensor<10x256xf32>) permutation = [1, 0] 
    %42 = tensor.empty() : tensor<10x128xf32>
    %43 = linalg.fill ins(%cst : f32) outs(%42 : tensor<10x128xf32>) -> tensor<10x128xf32>
    %44 = linalg.matmul ins(%transposed_4, %5 : tensor<10x256xf32>, tensor<256x128xf32>) outs(%43 : tensor<10x128xf32>) -> tensor<10x128xf32>
    %45 = tensor.empty() : tensor<1x10xf32>
    %46 = linalg.fill ins(%cst : f32) outs(%45 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %47 = linalg.generic {indexing_maps = [#map1, #map7], iterator_types = ["reduction", "parallel"]} ins(%39 : tensor<256x10xf32>) outs(%46 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.addf %in, %out : f32
      linalg.yield %58 : f32
    } -> tensor<1x10xf32>
    %collapsed_5 = tensor.collapse_shape %47 [[0, 1]] : tensor<1x10xf32> into tensor<10xf32>
    %48 = tensor.empty() : tensor<256x128xi1>
    %49 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<256x128xf32>) outs(%48 : tensor<256x128xi1>) {
    ^bb0(%in: f32, %out: i1):
      %58 = arith.cmpf ole, %in, %cst : f32
      linalg.yield %58 : i1
    } -> tensor<256x128xi1>
    %50 = linalg.generic {indexing_maps = [#map1, #map8, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%49, %cst_1, %40 : tensor<256x128xi1>, tensor<f32>, tensor<256x128xf32>) outs(%1 : tensor<256x128xf32>) {
    ^bb0(%in: i1, %in_8: f32, %in_9: f32, %out: f32):
      %58 = arith.select %in, %in_8, %in_9 : f32
      linalg.yield %58 : f32
    } -> tensor<256x128xf32>
    %51 = tensor.empty() : tensor<128x256xf32>
    %transposed_6 = linalg.transpose ins(%50 : tensor<256x128xf32>) outs(%51 : tensor<128x256xf32>) permutation = [1, 0] 
    %52 = tensor.empty() : tensor<128x784xf32>
    %53 = linalg.fill ins(%cst : f32) outs(%52 : tensor<128x784xf32>) -> tensor<128x784xf32>
    %54 = linalg.matmul ins(%transposed_6, %collapsed : tensor<128x256xf32>, tensor<256x784xf32>) outs(%53 : tensor<128x784xf32>) -> tensor<128x784xf32>
    %55 = tensor.empty() : tensor<1x128xf32>
    %56 = linalg.fill ins(%cst : f32) outs(%55 : tensor<1x128xf32>) -> tensor<1x128xf32>
    %57 = linalg.generic {indexing_maps = [#map1, #map7], iterator_types = ["reduction", "parallel"]} ins(%50 : tensor<256x128xf32>) outs(%56 : tensor<1x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %58 = arith.addf %in, %out : f32
      linalg.yield %58 : f32
    } -> tensor<1x128xf32>
    %collapsed_7 = tensor.collapse_shape %57 [[0, 1]] : tensor<1x128xf32> into tensor<128xf32>
    return %30, %54, %collapsed_7, %44, %collapsed_5, %10 : tensor<f32>, tensor<128x784xf32>, tensor<128xf32>, tensor<10x128xf32>, tensor<10xf32>, tensor<256x10xf32>
  }
}
