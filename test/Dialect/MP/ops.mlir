// RUN: mp-opt %s | mp-opt | FileCheck %s
// The loss-scaling ops round-trip.

// CHECK-LABEL: func.func @loss_scaling
// CHECK: %[[S:.*]] = mp.scale_seed %{{.*}}, %{{.*}}
// CHECK: %[[U:.*]]:2, %[[INF:.*]] = mp.unscale %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x4xf16>, tensor<4xf32> -> tensor<4x4xf32>, tensor<4xf32>
// CHECK: mp.update_scale %{{.*}}, %{{.*}}, %[[INF]] {backoff_factor = 2.500000e-01 : f32, growth_interval = 100 : i32, max_scale = 1.000000e+06 : f32}
func.func @loss_scaling(%seed: tensor<f32>, %scale: tensor<f32>, %t: tensor<i32>, %dw: tensor<4x4xf16>, %db: tensor<4xf32>)
    -> (tensor<f32>, tensor<4x4xf32>, tensor<4xf32>, tensor<f32>, tensor<i32>) {
  %s = mp.scale_seed %seed, %scale
  %g0, %g1, %inf = mp.unscale %scale, %dw, %db : tensor<4x4xf16>, tensor<4xf32> -> tensor<4x4xf32>, tensor<4xf32>
  %ns, %nt = mp.update_scale %scale, %t, %inf {backoff_factor = 0.25 : f32, growth_interval = 100 : i32, max_scale = 1.0e6 : f32}
  return %s, %g0, %g1, %ns, %nt : tensor<f32>, tensor<4x4xf32>, tensor<4xf32>, tensor<f32>, tensor<i32>
}
