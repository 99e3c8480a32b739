// transformer: exported by scripts/export-torch.py (batch 256, seed 0) from examples/torch/models.py.
// Parameters in order: #0 pos (28, 32), #1 embed.weight (32, 28), #2 embed.bias (32,), #3 norm1.weight (32,), #4 norm1.bias (32,), #5 qkv.weight (96, 32), #6 qkv.bias (96,), #7 proj.weight (32, 32), #8 proj.bias (32,), #9 norm2.weight (32,), #10 norm2.bias (32,), #11 mlp1.weight (64, 32), #12 mlp1.bias (64,), #13 mlp2.weight (32, 64), #14 mlp2.bias (32,), #15 head.weight (10, 32), #16 head.bias (10,)
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map6 = affine_map<(d0, d1, d2) -> (d2)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map10 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map11 = affine_map<(d0, d1) -> (d0)>
#map12 = affine_map<(d0, d1) -> (d0, 0)>
#map13 = affine_map<(d0) -> (d0)>
#map14 = affine_map<(d0) -> ()>
#map15 = affine_map<() -> ()>
#map16 = affine_map<(d0, d1) -> (0, d1)>
#map17 = affine_map<(d0, d1, d2) -> ()>
#map18 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
module {
  func.func @transformer_grad(%arg0: tensor<28x32xf32> {mp.param}, %arg1: tensor<32x28xf32> {mp.param}, %arg2: tensor<32xf32> {mp.param}, %arg3: tensor<32xf32> {mp.param}, %arg4: tensor<32xf32> {mp.param}, %arg5: tensor<96x32xf32> {mp.param}, %arg6: tensor<96xf32> {mp.param}, %arg7: tensor<32x32xf32> {mp.param}, %arg8: tensor<32xf32> {mp.param}, %arg9: tensor<32xf32> {mp.param}, %arg10: tensor<32xf32> {mp.param}, %arg11: tensor<64x32xf32> {mp.param}, %arg12: tensor<64xf32> {mp.param}, %arg13: tensor<32x64xf32> {mp.param}, %arg14: tensor<32xf32> {mp.param}, %arg15: tensor<10x32xf32> {mp.param}, %arg16: tensor<10xf32> {mp.param}, %arg17: tensor<256x1x28x28xf32> {mp.input}, %arg18: tensor<256x10xf32> {mp.input}, %arg19: tensor<f32> {mp.grad_seed}) -> (tensor<f32> {mp.loss}, tensor<28x32xf32> {mp.grad_of = 0 : i64}, tensor<32x28xf32> {mp.grad_of = 1 : i64}, tensor<32xf32> {mp.grad_of = 2 : i64}, tensor<32xf32> {mp.grad_of = 3 : i64}, tensor<32xf32> {mp.grad_of = 4 : i64}, tensor<96x32xf32> {mp.grad_of = 5 : i64}, tensor<96xf32> {mp.grad_of = 6 : i64}, tensor<32x32xf32> {mp.grad_of = 7 : i64}, tensor<32xf32> {mp.grad_of = 8 : i64}, tensor<32xf32> {mp.grad_of = 9 : i64}, tensor<32xf32> {mp.grad_of = 10 : i64}, tensor<64x32xf32> {mp.grad_of = 11 : i64}, tensor<64xf32> {mp.grad_of = 12 : i64}, tensor<32x64xf32> {mp.grad_of = 13 : i64}, tensor<32xf32> {mp.grad_of = 14 : i64}, tensor<10x32xf32> {mp.grad_of = 15 : i64}, tensor<10xf32> {mp.grad_of = 16 : i64}, tensor<256x10xf32> {mp.output}) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant 1.000000e-05 : f64
    %cst_3 = arith.constant 3.200000e+01 : f32
    %cst_4 = arith.constant 4.000000e+00 : f32
    %cst_5 = arith.constant 2.800000e+01 : f32
    %cst_6 = arith.constant 2.560000e+02 : f32
    %0 = tensor.empty() : tensor<28x32xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<32x28xf32>) outs(%0 : tensor<28x32xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %arg17 [[0, 1, 2], [3]] : tensor<256x1x28x28xf32> into tensor<7168x28xf32>
    %1 = tensor.empty() : tensor<7168x32xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<7168x32xf32>) -> tensor<7168x32xf32>
    %3 = linalg.matmul ins(%collapsed, %transposed : tensor<7168x28xf32>, tensor<28x32xf32>) outs(%2 : tensor<7168x32xf32>) -> tensor<7168x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg2, %3 : tensor<32xf32>, tensor<7168x32xf32>) outs(%1 : tensor<7168x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<7168x32xf32>
    %expanded = tensor.expand_shape %4 [[0, 1], [2]] output_shape [256, 28, 32] : tensor<7168x32xf32> into tensor<256x28x32xf32>
    %5 = tensor.empty() : tensor<256x28x32xf32>
    %6 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %arg0 : tensor<256x28x32xf32>, tensor<28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %7 = tensor.empty() : tensor<256x28x1xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<256x28x1xf32>) -> tensor<256x28x1xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%6 : tensor<256x28x32xf32>) outs(%8 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %10 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<256x28x1xf32>) outs(%7 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_3 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %collapsed_7 = tensor.collapse_shape %10 [[0], [1, 2]] : tensor<256x28x1xf32> into tensor<256x28xf32>
    %11 = linalg.generic {indexing_maps = [#map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_7 : tensor<256x28xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x28x32xf32>
    %12 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %11 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %13 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12, %12 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %14 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%13 : tensor<256x28x32xf32>) outs(%8 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %15 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14 : tensor<256x28x1xf32>) outs(%7 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_3 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %16 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<256x28x1xf32>) outs(%7 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.truncf %cst_2 : f64 to f32
      %207 = arith.addf %in, %206 : f32
      linalg.yield %207 : f32
    } -> tensor<256x28x1xf32>
    %17 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16 : tensor<256x28x1xf32>) outs(%7 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = math.rsqrt %in : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %collapsed_8 = tensor.collapse_shape %17 [[0], [1, 2]] : tensor<256x28x1xf32> into tensor<256x28xf32>
    %18 = linalg.generic {indexing_maps = [#map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_8 : tensor<256x28xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x28x32xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12, %18 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %20 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %arg3 : tensor<256x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %21 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %arg4 : tensor<256x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %22 = tensor.empty() : tensor<32x96xf32>
    %transposed_9 = linalg.transpose ins(%arg5 : tensor<96x32xf32>) outs(%22 : tensor<32x96xf32>) permutation = [1, 0] 
    %collapsed_10 = tensor.collapse_shape %21 [[0, 1], [2]] : tensor<256x28x32xf32> into tensor<7168x32xf32>
    %23 = tensor.empty() : tensor<7168x96xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<7168x96xf32>) -> tensor<7168x96xf32>
    %25 = linalg.matmul ins(%collapsed_10, %transposed_9 : tensor<7168x32xf32>, tensor<32x96xf32>) outs(%24 : tensor<7168x96xf32>) -> tensor<7168x96xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg6, %25 : tensor<96xf32>, tensor<7168x96xf32>) outs(%23 : tensor<7168x96xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<7168x96xf32>
    %expanded_11 = tensor.expand_shape %26 [[0, 1], [2]] output_shape [256, 28, 96] : tensor<7168x96xf32> into tensor<256x28x96xf32>
    %extracted_slice = tensor.extract_slice %expanded_11[0, 0, 0] [256, 28, 32] [1, 1, 1] : tensor<256x28x96xf32> to tensor<256x28x32xf32>
    %extracted_slice_12 = tensor.extract_slice %expanded_11[0, 0, 32] [256, 28, 32] [1, 1, 1] : tensor<256x28x96xf32> to tensor<256x28x32xf32>
    %extracted_slice_13 = tensor.extract_slice %expanded_11[0, 0, 64] [256, 28, 32] [1, 1, 1] : tensor<256x28x96xf32> to tensor<256x28x32xf32>
    %expanded_14 = tensor.expand_shape %extracted_slice [[0], [1], [2, 3]] output_shape [256, 28, 2, 16] : tensor<256x28x32xf32> into tensor<256x28x2x16xf32>
    %27 = tensor.empty() : tensor<256x2x28x16xf32>
    %transposed_15 = linalg.transpose ins(%expanded_14 : tensor<256x28x2x16xf32>) outs(%27 : tensor<256x2x28x16xf32>) permutation = [0, 2, 1, 3] 
    %expanded_16 = tensor.expand_shape %extracted_slice_12 [[0], [1], [2, 3]] output_shape [256, 28, 2, 16] : tensor<256x28x32xf32> into tensor<256x28x2x16xf32>
    %28 = tensor.empty() : tensor<256x2x16x28xf32>
    %transposed_17 = linalg.transpose ins(%expanded_16 : tensor<256x28x2x16xf32>) outs(%28 : tensor<256x2x16x28xf32>) permutation = [0, 2, 3, 1] 
    %collapsed_18 = tensor.collapse_shape %transposed_15 [[0, 1], [2], [3]] : tensor<256x2x28x16xf32> into tensor<512x28x16xf32>
    %collapsed_19 = tensor.collapse_shape %transposed_17 [[0, 1], [2], [3]] : tensor<256x2x16x28xf32> into tensor<512x16x28xf32>
    %29 = tensor.empty() : tensor<512x28x28xf32>
    %30 = linalg.fill ins(%cst : f32) outs(%29 : tensor<512x28x28xf32>) -> tensor<512x28x28xf32>
    %31 = linalg.batch_matmul ins(%collapsed_18, %collapsed_19 : tensor<512x28x16xf32>, tensor<512x16x28xf32>) outs(%30 : tensor<512x28x28xf32>) -> tensor<512x28x28xf32>
    %expanded_20 = tensor.expand_shape %31 [[0, 1], [2], [3]] output_shape [256, 2, 28, 28] : tensor<512x28x28xf32> into tensor<256x2x28x28xf32>
    %32 = tensor.empty() : tensor<256x2x28x28xf32>
    %33 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_20 : tensor<256x2x28x28xf32>) outs(%32 : tensor<256x2x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_4 : f32
      linalg.yield %206 : f32
    } -> tensor<256x2x28x28xf32>
    %34 = tensor.empty() : tensor<256x2x28xi64>
    %35 = linalg.fill ins(%c0_i64 : i64) outs(%34 : tensor<256x2x28xi64>) -> tensor<256x2x28xi64>
    %36 = tensor.empty() : tensor<256x2x28xf32>
    %37 = linalg.fill ins(%cst_0 : f32) outs(%36 : tensor<256x2x28xf32>) -> tensor<256x2x28xf32>
    %38:2 = linalg.generic {indexing_maps = [#map7, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%33 : tensor<256x2x28x28xf32>) outs(%37, %35 : tensor<256x2x28xf32>, tensor<256x2x28xi64>) {
    ^bb0(%in: f32, %out: f32, %out_80: i64):
      %206 = linalg.index 3 : index
      %207 = arith.index_cast %206 : index to i64
      %208 = arith.maximumf %in, %out : f32
      %209 = arith.cmpf ogt, %in, %out : f32
      %210 = arith.select %209, %207, %out_80 : i64
      linalg.yield %208, %210 : f32, i64
    } -> (tensor<256x2x28xf32>, tensor<256x2x28xi64>)
    %expanded_21 = tensor.expand_shape %38#0 [[0], [1], [2, 3]] output_shape [256, 2, 28, 1] : tensor<256x2x28xf32> into tensor<256x2x28x1xf32>
    %39 = linalg.generic {indexing_maps = [#map7, #map9, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33, %expanded_21 : tensor<256x2x28x28xf32>, tensor<256x2x28x1xf32>) outs(%32 : tensor<256x2x28x28xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x2x28x28xf32>
    %40 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39 : tensor<256x2x28x28xf32>) outs(%32 : tensor<256x2x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = math.exp %in : f32
      linalg.yield %206 : f32
    } -> tensor<256x2x28x28xf32>
    %41 = tensor.empty() : tensor<256x2x28x1xf32>
    %42 = linalg.fill ins(%cst : f32) outs(%41 : tensor<256x2x28x1xf32>) -> tensor<256x2x28x1xf32>
    %43 = linalg.generic {indexing_maps = [#map7, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%40 : tensor<256x2x28x28xf32>) outs(%42 : tensor<256x2x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x2x28x1xf32>
    %44 = linalg.generic {indexing_maps = [#map7, #map9, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40, %43 : tensor<256x2x28x28xf32>, tensor<256x2x28x1xf32>) outs(%32 : tensor<256x2x28x28xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.divf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x2x28x28xf32>
    %expanded_22 = tensor.expand_shape %extracted_slice_13 [[0], [1], [2, 3]] output_shape [256, 28, 2, 16] : tensor<256x28x32xf32> into tensor<256x28x2x16xf32>
    %transposed_23 = linalg.transpose ins(%expanded_22 : tensor<256x28x2x16xf32>) outs(%27 : tensor<256x2x28x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_24 = tensor.collapse_shape %44 [[0, 1], [2], [3]] : tensor<256x2x28x28xf32> into tensor<512x28x28xf32>
    %collapsed_25 = tensor.collapse_shape %transposed_23 [[0, 1], [2], [3]] : tensor<256x2x28x16xf32> into tensor<512x28x16xf32>
    %45 = tensor.empty() : tensor<512x28x16xf32>
    %46 = linalg.fill ins(%cst : f32) outs(%45 : tensor<512x28x16xf32>) -> tensor<512x28x16xf32>
    %47 = linalg.batch_matmul ins(%collapsed_24, %collapsed_25 : tensor<512x28x28xf32>, tensor<512x28x16xf32>) outs(%46 : tensor<512x28x16xf32>) -> tensor<512x28x16xf32>
    %expanded_26 = tensor.expand_shape %47 [[0, 1], [2], [3]] output_shape [256, 2, 28, 16] : tensor<512x28x16xf32> into tensor<256x2x28x16xf32>
    %48 = tensor.empty() : tensor<256x28x2x16xf32>
    %transposed_27 = linalg.transpose ins(%expanded_26 : tensor<256x2x28x16xf32>) outs(%48 : tensor<256x28x2x16xf32>) permutation = [0, 2, 1, 3] 
    %49 = tensor.empty() : tensor<32x32xf32>
    %transposed_28 = linalg.transpose ins(%arg7 : tensor<32x32xf32>) outs(%49 : tensor<32x32xf32>) permutation = [1, 0] 
    %collapsed_29 = tensor.collapse_shape %transposed_27 [[0, 1], [2, 3]] : tensor<256x28x2x16xf32> into tensor<7168x32xf32>
    %50 = linalg.matmul ins(%collapsed_29, %transposed_28 : tensor<7168x32xf32>, tensor<32x32xf32>) outs(%2 : tensor<7168x32xf32>) -> tensor<7168x32xf32>
    %51 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg8, %50 : tensor<32xf32>, tensor<7168x32xf32>) outs(%1 : tensor<7168x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<7168x32xf32>
    %expanded_30 = tensor.expand_shape %51 [[0, 1], [2]] output_shape [256, 28, 32] : tensor<7168x32xf32> into tensor<256x28x32xf32>
    %52 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %expanded_30 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %53 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%52 : tensor<256x28x32xf32>) outs(%8 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %54 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%53 : tensor<256x28x1xf32>) outs(%7 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_3 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %collapsed_31 = tensor.collapse_shape %54 [[0], [1, 2]] : tensor<256x28x1xf32> into tensor<256x28xf32>
    %55 = linalg.generic {indexing_maps = [#map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_31 : tensor<256x28xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x28x32xf32>
    %56 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%52, %55 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %57 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56, %56 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %58 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%57 : tensor<256x28x32xf32>) outs(%8 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %59 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%58 : tensor<256x28x1xf32>) outs(%7 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_3 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %60 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%59 : tensor<256x28x1xf32>) outs(%7 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.truncf %cst_2 : f64 to f32
      %207 = arith.addf %in, %206 : f32
      linalg.yield %207 : f32
    } -> tensor<256x28x1xf32>
    %61 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60 : tensor<256x28x1xf32>) outs(%7 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = math.rsqrt %in : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %collapsed_32 = tensor.collapse_shape %61 [[0], [1, 2]] : tensor<256x28x1xf32> into tensor<256x28xf32>
    %62 = linalg.generic {indexing_maps = [#map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_32 : tensor<256x28xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x28x32xf32>
    %63 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56, %62 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %64 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63, %arg9 : tensor<256x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %65 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%64, %arg10 : tensor<256x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %66 = tensor.empty() : tensor<32x64xf32>
    %transposed_33 = linalg.transpose ins(%arg11 : tensor<64x32xf32>) outs(%66 : tensor<32x64xf32>) permutation = [1, 0] 
    %collapsed_34 = tensor.collapse_shape %65 [[0, 1], [2]] : tensor<256x28x32xf32> into tensor<7168x32xf32>
    %67 = tensor.empty() : tensor<7168x64xf32>
    %68 = linalg.fill ins(%cst : f32) outs(%67 : tensor<7168x64xf32>) -> tensor<7168x64xf32>
    %69 = linalg.matmul ins(%collapsed_34, %transposed_33 : tensor<7168x32xf32>, tensor<32x64xf32>) outs(%68 : tensor<7168x64xf32>) -> tensor<7168x64xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg12, %69 : tensor<64xf32>, tensor<7168x64xf32>) outs(%67 : tensor<7168x64xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<7168x64xf32>
    %expanded_35 = tensor.expand_shape %70 [[0, 1], [2]] output_shape [256, 28, 64] : tensor<7168x64xf32> into tensor<256x28x64xf32>
    %71 = tensor.empty() : tensor<256x28x64xf32>
    %72 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_35 : tensor<256x28x64xf32>) outs(%71 : tensor<256x28x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.cmpf ugt, %in, %cst : f32
      %207 = arith.select %206, %in, %cst : f32
      linalg.yield %207 : f32
    } -> tensor<256x28x64xf32>
    %73 = tensor.empty() : tensor<64x32xf32>
    %transposed_36 = linalg.transpose ins(%arg13 : tensor<32x64xf32>) outs(%73 : tensor<64x32xf32>) permutation = [1, 0] 
    %collapsed_37 = tensor.collapse_shape %72 [[0, 1], [2]] : tensor<256x28x64xf32> into tensor<7168x64xf32>
    %74 = linalg.matmul ins(%collapsed_37, %transposed_36 : tensor<7168x64xf32>, tensor<64x32xf32>) outs(%2 : tensor<7168x32xf32>) -> tensor<7168x32xf32>
    %75 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg14, %74 : tensor<32xf32>, tensor<7168x32xf32>) outs(%1 : tensor<7168x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<7168x32xf32>
    %expanded_38 = tensor.expand_shape %75 [[0, 1], [2]] output_shape [256, 28, 32] : tensor<7168x32xf32> into tensor<256x28x32xf32>
    %76 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%52, %expanded_38 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %77 = tensor.empty() : tensor<256x32xf32>
    %78 = linalg.fill ins(%cst : f32) outs(%77 : tensor<256x32xf32>) -> tensor<256x32xf32>
    %79 = linalg.generic {indexing_maps = [#map2, #map10], iterator_types = ["parallel", "reduction", "parallel"]} ins(%76 : tensor<256x28x32xf32>) outs(%78 : tensor<256x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x32xf32>
    %80 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%79 : tensor<256x32xf32>) outs(%77 : tensor<256x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_5 : f32
      linalg.yield %206 : f32
    } -> tensor<256x32xf32>
    %81 = tensor.empty() : tensor<32x10xf32>
    %transposed_39 = linalg.transpose ins(%arg15 : tensor<10x32xf32>) outs(%81 : tensor<32x10xf32>) permutation = [1, 0] 
    %82 = tensor.empty() : tensor<256x10xf32>
    %83 = linalg.fill ins(%cst : f32) outs(%82 : tensor<256x10xf32>) -> tensor<256x10xf32>
    %84 = linalg.matmul ins(%80, %transposed_39 : tensor<256x32xf32>, tensor<32x10xf32>) outs(%83 : tensor<256x10xf32>) -> tensor<256x10xf32>
    %85 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg16, %84 : tensor<10xf32>, tensor<256x10xf32>) outs(%82 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x10xf32>
    %86 = tensor.empty() : tensor<256xi64>
    %87 = linalg.fill ins(%c0_i64 : i64) outs(%86 : tensor<256xi64>) -> tensor<256xi64>
    %88 = tensor.empty() : tensor<256xf32>
    %89 = linalg.fill ins(%cst_0 : f32) outs(%88 : tensor<256xf32>) -> tensor<256xf32>
    %90:2 = linalg.generic {indexing_maps = [#map1, #map11, #map11], iterator_types = ["parallel", "reduction"]} ins(%85 : tensor<256x10xf32>) outs(%89, %87 : tensor<256xf32>, tensor<256xi64>) {
    ^bb0(%in: f32, %out: f32, %out_80: i64):
      %206 = linalg.index 1 : index
      %207 = arith.index_cast %206 : index to i64
      %208 = arith.maximumf %in, %out : f32
      %209 = arith.cmpf ogt, %in, %out : f32
      %210 = arith.select %209, %207, %out_80 : i64
      linalg.yield %208, %210 : f32, i64
    } -> (tensor<256xf32>, tensor<256xi64>)
    %expanded_40 = tensor.expand_shape %90#0 [[0, 1]] output_shape [256, 1] : tensor<256xf32> into tensor<256x1xf32>
    %91 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel"]} ins(%85, %expanded_40 : tensor<256x10xf32>, tensor<256x1xf32>) outs(%82 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x10xf32>
    %92 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%91 : tensor<256x10xf32>) outs(%82 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = math.exp %in : f32
      linalg.yield %206 : f32
    } -> tensor<256x10xf32>
    %93 = tensor.empty() : tensor<256x1xf32>
    %94 = linalg.fill ins(%cst : f32) outs(%93 : tensor<256x1xf32>) -> tensor<256x1xf32>
    %95 = linalg.generic {indexing_maps = [#map1, #map12], iterator_types = ["parallel", "reduction"]} ins(%92 : tensor<256x10xf32>) outs(%94 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x1xf32>
    %96 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%95 : tensor<256x1xf32>) outs(%93 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = math.log %in : f32
      linalg.yield %206 : f32
    } -> tensor<256x1xf32>
    %97 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel"]} ins(%91, %96 : tensor<256x10xf32>, tensor<256x1xf32>) outs(%82 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x10xf32>
    %98 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg18, %97 : tensor<256x10xf32>, tensor<256x10xf32>) outs(%82 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x10xf32>
    %99 = linalg.fill ins(%cst : f32) outs(%88 : tensor<256xf32>) -> tensor<256xf32>
    %100 = linalg.generic {indexing_maps = [#map1, #map11], iterator_types = ["parallel", "reduction"]} ins(%98 : tensor<256x10xf32>) outs(%99 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256xf32>
    %101 = tensor.empty() : tensor<f32>
    %102 = linalg.fill ins(%cst : f32) outs(%101 : tensor<f32>) -> tensor<f32>
    %103 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["reduction"]} ins(%100 : tensor<256xf32>) outs(%102 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<f32>
    %104 = linalg.generic {indexing_maps = [#map15, #map15], iterator_types = []} ins(%103 : tensor<f32>) outs(%101 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_6 : f32
      linalg.yield %206 : f32
    } -> tensor<f32>
    %105 = linalg.generic {indexing_maps = [#map15, #map15], iterator_types = []} ins(%104 : tensor<f32>) outs(%101 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.negf %in : f32
      linalg.yield %206 : f32
    } -> tensor<f32>
    %106 = linalg.generic {indexing_maps = [#map15, #map15], iterator_types = []} ins(%arg19 : tensor<f32>) outs(%101 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.negf %in : f32
      linalg.yield %206 : f32
    } -> tensor<f32>
    %107 = linalg.generic {indexing_maps = [#map14, #map13], iterator_types = ["parallel"]} ins(%106 : tensor<f32>) outs(%88 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256xf32>
    %108 = linalg.generic {indexing_maps = [#map13, #map13], iterator_types = ["parallel"]} ins(%107 : tensor<256xf32>) outs(%88 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_6 : f32
      linalg.yield %206 : f32
    } -> tensor<256xf32>
    %109 = linalg.generic {indexing_maps = [#map11, #map1], iterator_types = ["parallel", "parallel"]} ins(%108 : tensor<256xf32>) outs(%82 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x10xf32>
    %110 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%109, %arg18 : tensor<256x10xf32>, tensor<256x10xf32>) outs(%82 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x10xf32>
    %111 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%97 : tensor<256x10xf32>) outs(%82 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = math.exp %in : f32
      linalg.yield %206 : f32
    } -> tensor<256x10xf32>
    %112 = linalg.generic {indexing_maps = [#map1, #map12], iterator_types = ["parallel", "reduction"]} ins(%110 : tensor<256x10xf32>) outs(%94 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x1xf32>
    %113 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel"]} ins(%111, %112 : tensor<256x10xf32>, tensor<256x1xf32>) outs(%82 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x10xf32>
    %114 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%110, %113 : tensor<256x10xf32>, tensor<256x10xf32>) outs(%82 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x10xf32>
    %115 = linalg.matmul ins(%114, %arg15 : tensor<256x10xf32>, tensor<10x32xf32>) outs(%78 : tensor<256x32xf32>) -> tensor<256x32xf32>
    %116 = tensor.empty() : tensor<10x256xf32>
    %transposed_41 = linalg.transpose ins(%114 : tensor<256x10xf32>) outs(%116 : tensor<10x256xf32>) permutation = [1, 0] 
    %117 = tensor.empty() : tensor<10x32xf32>
    %118 = linalg.fill ins(%cst : f32) outs(%117 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %119 = linalg.matmul ins(%transposed_41, %80 : tensor<10x256xf32>, tensor<256x32xf32>) outs(%118 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %120 = tensor.empty() : tensor<1x10xf32>
    %121 = linalg.fill ins(%cst : f32) outs(%120 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %122 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%114 : tensor<256x10xf32>) outs(%121 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<1x10xf32>
    %collapsed_42 = tensor.collapse_shape %122 [[0, 1]] : tensor<1x10xf32> into tensor<10xf32>
    %123 = linalg.generic {indexing_maps = [#map10, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%115 : tensor<256x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x28x32xf32>
    %124 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%123 : tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_5 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %collapsed_43 = tensor.collapse_shape %124 [[0, 1], [2]] : tensor<256x28x32xf32> into tensor<7168x32xf32>
    %125 = linalg.matmul ins(%collapsed_43, %arg13 : tensor<7168x32xf32>, tensor<32x64xf32>) outs(%68 : tensor<7168x64xf32>) -> tensor<7168x64xf32>
    %126 = tensor.empty() : tensor<32x7168xf32>
    %transposed_44 = linalg.transpose ins(%collapsed_43 : tensor<7168x32xf32>) outs(%126 : tensor<32x7168xf32>) permutation = [1, 0] 
    %127 = linalg.fill ins(%cst : f32) outs(%66 : tensor<32x64xf32>) -> tensor<32x64xf32>
    %128 = linalg.matmul ins(%transposed_44, %collapsed_37 : tensor<32x7168xf32>, tensor<7168x64xf32>) outs(%127 : tensor<32x64xf32>) -> tensor<32x64xf32>
    %129 = tensor.empty() : tensor<1x32xf32>
    %130 = linalg.fill ins(%cst : f32) outs(%129 : tensor<1x32xf32>) -> tensor<1x32xf32>
    %131 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%collapsed_43 : tensor<7168x32xf32>) outs(%130 : tensor<1x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<1x32xf32>
    %collapsed_45 = tensor.collapse_shape %131 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
    %expanded_46 = tensor.expand_shape %125 [[0, 1], [2]] output_shape [256, 28, 64] : tensor<7168x64xf32> into tensor<256x28x64xf32>
    %132 = tensor.empty() : tensor<256x28x64xi1>
    %133 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%72 : tensor<256x28x64xf32>) outs(%132 : tensor<256x28x64xi1>) {
    ^bb0(%in: f32, %out: i1):
      %206 = arith.cmpf ole, %in, %cst : f32
      linalg.yield %206 : i1
    } -> tensor<256x28x64xi1>
    %134 = linalg.generic {indexing_maps = [#map2, #map17, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%133, %cst_1, %expanded_46 : tensor<256x28x64xi1>, tensor<f32>, tensor<256x28x64xf32>) outs(%71 : tensor<256x28x64xf32>) {
    ^bb0(%in: i1, %in_80: f32, %in_81: f32, %out: f32):
      %206 = arith.select %in, %in_80, %in_81 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x64xf32>
    %collapsed_47 = tensor.collapse_shape %134 [[0, 1], [2]] : tensor<256x28x64xf32> into tensor<7168x64xf32>
    %135 = linalg.matmul ins(%collapsed_47, %arg11 : tensor<7168x64xf32>, tensor<64x32xf32>) outs(%2 : tensor<7168x32xf32>) -> tensor<7168x32xf32>
    %136 = tensor.empty() : tensor<64x7168xf32>
    %transposed_48 = linalg.transpose ins(%collapsed_47 : tensor<7168x64xf32>) outs(%136 : tensor<64x7168xf32>) permutation = [1, 0] 
    %137 = linalg.fill ins(%cst : f32) outs(%73 : tensor<64x32xf32>) -> tensor<64x32xf32>
    %138 = linalg.matmul ins(%transposed_48, %collapsed_34 : tensor<64x7168xf32>, tensor<7168x32xf32>) outs(%137 : tensor<64x32xf32>) -> tensor<64x32xf32>
    %139 = tensor.empty() : tensor<1x64xf32>
    %140 = linalg.fill ins(%cst : f32) outs(%139 : tensor<1x64xf32>) -> tensor<1x64xf32>
    %141 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%collapsed_47 : tensor<7168x64xf32>) outs(%140 : tensor<1x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<1x64xf32>
    %collapsed_49 = tensor.collapse_shape %141 [[0, 1]] : tensor<1x64xf32> into tensor<64xf32>
    %expanded_50 = tensor.expand_shape %135 [[0, 1], [2]] output_shape [256, 28, 32] : tensor<7168x32xf32> into tensor<256x28x32xf32>
    %142 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%52, %54 : tensor<256x28x32xf32>, tensor<256x28x1xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %143 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%142, %61 : tensor<256x28x32xf32>, tensor<256x28x1xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %144 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_50, %arg9 : tensor<256x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %145 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%144 : tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.mulf %in, %cst_3 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %146 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%144 : tensor<256x28x32xf32>) outs(%8 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %147 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%144, %143 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %148 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%147 : tensor<256x28x32xf32>) outs(%8 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %149 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%143, %148 : tensor<256x28x32xf32>, tensor<256x28x1xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %150 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%145, %146 : tensor<256x28x32xf32>, tensor<256x28x1xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %151 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%150, %149 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %152 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%61 : tensor<256x28x1xf32>) outs(%7 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_3 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %153 = linalg.generic {indexing_maps = [#map4, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%152, %151 : tensor<256x28x1xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %154 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_50, %143 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %155 = tensor.empty() : tensor<32xf32>
    %156 = linalg.fill ins(%cst : f32) outs(%155 : tensor<32xf32>) -> tensor<32xf32>
    %157 = linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["reduction", "reduction", "parallel"]} ins(%154 : tensor<256x28x32xf32>) outs(%156 : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<32xf32>
    %158 = linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["reduction", "reduction", "parallel"]} ins(%expanded_50 : tensor<256x28x32xf32>) outs(%156 : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<32xf32>
    %159 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%124, %153 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %collapsed_51 = tensor.collapse_shape %159 [[0, 1], [2]] : tensor<256x28x32xf32> into tensor<7168x32xf32>
    %160 = linalg.matmul ins(%collapsed_51, %arg7 : tensor<7168x32xf32>, tensor<32x32xf32>) outs(%2 : tensor<7168x32xf32>) -> tensor<7168x32xf32>
    %transposed_52 = linalg.transpose ins(%collapsed_51 : tensor<7168x32xf32>) outs(%126 : tensor<32x7168xf32>) permutation = [1, 0] 
    %161 = linalg.fill ins(%cst : f32) outs(%49 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %162 = linalg.matmul ins(%transposed_52, %collapsed_29 : tensor<32x7168xf32>, tensor<7168x32xf32>) outs(%161 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %163 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%collapsed_51 : tensor<7168x32xf32>) outs(%130 : tensor<1x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<1x32xf32>
    %collapsed_53 = tensor.collapse_shape %163 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
    %expanded_54 = tensor.expand_shape %160 [[0, 1], [2, 3]] output_shape [256, 28, 2, 16] : tensor<7168x32xf32> into tensor<256x28x2x16xf32>
    %transposed_55 = linalg.transpose ins(%expanded_54 : tensor<256x28x2x16xf32>) outs(%27 : tensor<256x2x28x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_56 = tensor.collapse_shape %transposed_55 [[0, 1], [2], [3]] : tensor<256x2x28x16xf32> into tensor<512x28x16xf32>
    %transposed_57 = linalg.transpose ins(%collapsed_24 : tensor<512x28x28xf32>) outs(%29 : tensor<512x28x28xf32>) permutation = [0, 2, 1] 
    %164 = linalg.batch_matmul ins(%transposed_57, %collapsed_56 : tensor<512x28x28xf32>, tensor<512x28x16xf32>) outs(%46 : tensor<512x28x16xf32>) -> tensor<512x28x16xf32>
    %165 = tensor.empty() : tensor<512x16x28xf32>
    %transposed_58 = linalg.transpose ins(%collapsed_25 : tensor<512x28x16xf32>) outs(%165 : tensor<512x16x28xf32>) permutation = [0, 2, 1] 
    %166 = linalg.batch_matmul ins(%collapsed_56, %transposed_58 : tensor<512x28x16xf32>, tensor<512x16x28xf32>) outs(%30 : tensor<512x28x28xf32>) -> tensor<512x28x28xf32>
    %expanded_59 = tensor.expand_shape %164 [[0, 1], [2], [3]] output_shape [256, 2, 28, 16] : tensor<512x28x16xf32> into tensor<256x2x28x16xf32>
    %expanded_60 = tensor.expand_shape %166 [[0, 1], [2], [3]] output_shape [256, 2, 28, 28] : tensor<512x28x28xf32> into tensor<256x2x28x28xf32>
    %transposed_61 = linalg.transpose ins(%expanded_59 : tensor<256x2x28x16xf32>) outs(%48 : tensor<256x28x2x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_62 = tensor.collapse_shape %transposed_61 [[0], [1], [2, 3]] : tensor<256x28x2x16xf32> into tensor<256x28x32xf32>
    %167 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_60, %44 : tensor<256x2x28x28xf32>, tensor<256x2x28x28xf32>) outs(%32 : tensor<256x2x28x28xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x2x28x28xf32>
    %168 = linalg.generic {indexing_maps = [#map7, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%167 : tensor<256x2x28x28xf32>) outs(%42 : tensor<256x2x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x2x28x1xf32>
    %169 = linalg.generic {indexing_maps = [#map7, #map9, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%44, %168 : tensor<256x2x28x28xf32>, tensor<256x2x28x1xf32>) outs(%32 : tensor<256x2x28x28xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x2x28x28xf32>
    %170 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%167, %169 : tensor<256x2x28x28xf32>, tensor<256x2x28x28xf32>) outs(%32 : tensor<256x2x28x28xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x2x28x28xf32>
    %171 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%170 : tensor<256x2x28x28xf32>) outs(%32 : tensor<256x2x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_4 : f32
      linalg.yield %206 : f32
    } -> tensor<256x2x28x28xf32>
    %collapsed_63 = tensor.collapse_shape %171 [[0, 1], [2], [3]] : tensor<256x2x28x28xf32> into tensor<512x28x28xf32>
    %transposed_64 = linalg.transpose ins(%collapsed_18 : tensor<512x28x16xf32>) outs(%165 : tensor<512x16x28xf32>) permutation = [0, 2, 1] 
    %172 = linalg.fill ins(%cst : f32) outs(%165 : tensor<512x16x28xf32>) -> tensor<512x16x28xf32>
    %173 = linalg.batch_matmul ins(%transposed_64, %collapsed_63 : tensor<512x16x28xf32>, tensor<512x28x28xf32>) outs(%172 : tensor<512x16x28xf32>) -> tensor<512x16x28xf32>
    %transposed_65 = linalg.transpose ins(%collapsed_19 : tensor<512x16x28xf32>) outs(%45 : tensor<512x28x16xf32>) permutation = [0, 2, 1] 
    %174 = linalg.batch_matmul ins(%collapsed_63, %transposed_65 : tensor<512x28x28xf32>, tensor<512x28x16xf32>) outs(%46 : tensor<512x28x16xf32>) -> tensor<512x28x16xf32>
    %expanded_66 = tensor.expand_shape %173 [[0, 1], [2], [3]] output_shape [256, 2, 16, 28] : tensor<512x16x28xf32> into tensor<256x2x16x28xf32>
    %expanded_67 = tensor.expand_shape %174 [[0, 1], [2], [3]] output_shape [256, 2, 28, 16] : tensor<512x28x16xf32> into tensor<256x2x28x16xf32>
    %transposed_68 = linalg.transpose ins(%expanded_66 : tensor<256x2x16x28xf32>) outs(%48 : tensor<256x28x2x16xf32>) permutation = [0, 3, 1, 2] 
    %collapsed_69 = tensor.collapse_shape %transposed_68 [[0], [1], [2, 3]] : tensor<256x28x2x16xf32> into tensor<256x28x32xf32>
    %transposed_70 = linalg.transpose ins(%expanded_67 : tensor<256x2x28x16xf32>) outs(%48 : tensor<256x28x2x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_71 = tensor.collapse_shape %transposed_70 [[0], [1], [2, 3]] : tensor<256x28x2x16xf32> into tensor<256x28x32xf32>
    %concat = tensor.concat dim(2) %collapsed_71, %collapsed_69, %collapsed_62 : (tensor<256x28x32xf32>, tensor<256x28x32xf32>, tensor<256x28x32xf32>) -> tensor<256x28x96xf32>
    %collapsed_72 = tensor.collapse_shape %concat [[0, 1], [2]] : tensor<256x28x96xf32> into tensor<7168x96xf32>
    %175 = linalg.matmul ins(%collapsed_72, %arg5 : tensor<7168x96xf32>, tensor<96x32xf32>) outs(%2 : tensor<7168x32xf32>) -> tensor<7168x32xf32>
    %176 = tensor.empty() : tensor<96x7168xf32>
    %transposed_73 = linalg.transpose ins(%collapsed_72 : tensor<7168x96xf32>) outs(%176 : tensor<96x7168xf32>) permutation = [1, 0] 
    %177 = tensor.empty() : tensor<96x32xf32>
    %178 = linalg.fill ins(%cst : f32) outs(%177 : tensor<96x32xf32>) -> tensor<96x32xf32>
    %179 = linalg.matmul ins(%transposed_73, %collapsed_10 : tensor<96x7168xf32>, tensor<7168x32xf32>) outs(%178 : tensor<96x32xf32>) -> tensor<96x32xf32>
    %180 = tensor.empty() : tensor<1x96xf32>
    %181 = linalg.fill ins(%cst : f32) outs(%180 : tensor<1x96xf32>) -> tensor<1x96xf32>
    %182 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%collapsed_72 : tensor<7168x96xf32>) outs(%181 : tensor<1x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<1x96xf32>
    %collapsed_74 = tensor.collapse_shape %182 [[0, 1]] : tensor<1x96xf32> into tensor<96xf32>
    %expanded_75 = tensor.expand_shape %175 [[0, 1], [2]] output_shape [256, 28, 32] : tensor<7168x32xf32> into tensor<256x28x32xf32>
    %183 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %10 : tensor<256x28x32xf32>, tensor<256x28x1xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %184 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%183, %17 : tensor<256x28x32xf32>, tensor<256x28x1xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %185 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_75, %arg3 : tensor<256x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %186 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%185 : tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.mulf %in, %cst_3 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %187 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%185 : tensor<256x28x32xf32>) outs(%8 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %188 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%185, %184 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %189 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%188 : tensor<256x28x32xf32>) outs(%8 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %190 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%184, %189 : tensor<256x28x32xf32>, tensor<256x28x1xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %191 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%186, %187 : tensor<256x28x32xf32>, tensor<256x28x1xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %192 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%191, %190 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.subf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %193 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%17 : tensor<256x28x1xf32>) outs(%7 : tensor<256x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.divf %in, %cst_3 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x1xf32>
    %194 = linalg.generic {indexing_maps = [#map4, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%193, %192 : tensor<256x28x1xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %195 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_75, %184 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.mulf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %196 = linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["reduction", "reduction", "parallel"]} ins(%195 : tensor<256x28x32xf32>) outs(%156 : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<32xf32>
    %197 = linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["reduction", "reduction", "parallel"]} ins(%expanded_75 : tensor<256x28x32xf32>) outs(%156 : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<32xf32>
    %198 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%159, %194 : tensor<256x28x32xf32>, tensor<256x28x32xf32>) outs(%5 : tensor<256x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %206 = arith.addf %in, %in_80 : f32
      linalg.yield %206 : f32
    } -> tensor<256x28x32xf32>
    %199 = tensor.empty() : tensor<1x28x32xf32>
    %200 = linalg.fill ins(%cst : f32) outs(%199 : tensor<1x28x32xf32>) -> tensor<1x28x32xf32>
    %201 = linalg.generic {indexing_maps = [#map2, #map18], iterator_types = ["reduction", "parallel", "parallel"]} ins(%198 : tensor<256x28x32xf32>) outs(%200 : tensor<1x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<1x28x32xf32>
    %collapsed_76 = tensor.collapse_shape %201 [[0, 1], [2]] : tensor<1x28x32xf32> into tensor<28x32xf32>
    %collapsed_77 = tensor.collapse_shape %198 [[0, 1], [2]] : tensor<256x28x32xf32> into tensor<7168x32xf32>
    %transposed_78 = linalg.transpose ins(%collapsed_77 : tensor<7168x32xf32>) outs(%126 : tensor<32x7168xf32>) permutation = [1, 0] 
    %202 = tensor.empty() : tensor<32x28xf32>
    %203 = linalg.fill ins(%cst : f32) outs(%202 : tensor<32x28xf32>) -> tensor<32x28xf32>
    %204 = linalg.matmul ins(%transposed_78, %collapsed : tensor<32x7168xf32>, tensor<7168x28xf32>) outs(%203 : tensor<32x28xf32>) -> tensor<32x28xf32>
    %205 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%collapsed_77 : tensor<7168x32xf32>) outs(%130 : tensor<1x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %206 = arith.addf %in, %out : f32
      linalg.yield %206 : f32
    } -> tensor<1x32xf32>
    %collapsed_79 = tensor.collapse_shape %205 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
    return %105, %collapsed_76, %204, %collapsed_79, %196, %197, %179, %collapsed_74, %162, %collapsed_53, %157, %158, %138, %collapsed_49, %128, %collapsed_45, %119, %collapsed_42, %85 : tensor<f32>, tensor<28x32xf32>, tensor<32x28xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>, tensor<256x10xf32>
  }
}
