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

// The collectives round-trip, on tensors and on buffers.
// CHECK-LABEL: func.func @collectives
// CHECK: %[[N:.*]] = mp.world_size : i32
// CHECK: %[[S:.*]] = mp.all_reduce sum %{{.*}} : tensor<4x4xf16> -> tensor<4x4xf16>
// CHECK: %[[F:.*]] = mp.all_reduce max %{{.*}} : tensor<i1> -> tensor<i1>
// CHECK: mp.all_reduce sum %{{.*}} : memref<8xbf16>
// CHECK: return %[[N]], %[[S]], %[[F]]
func.func @collectives(%g: tensor<4x4xf16>, %flag: tensor<i1>, %buf: memref<8xbf16>)
    -> (i32, tensor<4x4xf16>, tensor<i1>) {
  %n = mp.world_size : i32
  %s = mp.all_reduce sum %g : tensor<4x4xf16> -> tensor<4x4xf16>
  %f = mp.all_reduce max %flag : tensor<i1> -> tensor<i1>
  mp.all_reduce sum %buf : memref<8xbf16>
  return %n, %s, %f : i32, tensor<4x4xf16>, tensor<i1>
}

// A collective has a side effect on the communicator: neither an unused one
// nor a repeated one goes away.
// RUN: mp-opt %s --canonicalize --cse | FileCheck %s --check-prefix=KEEP
// KEEP-LABEL: func.func @kept
// KEEP-COUNT-2: mp.all_reduce sum
func.func @kept(%g: tensor<4xf32>) -> tensor<4xf32> {
  %a = mp.all_reduce sum %g : tensor<4xf32> -> tensor<4xf32>
  %b = mp.all_reduce sum %g : tensor<4xf32> -> tensor<4xf32>
  return %g : tensor<4xf32>
}
