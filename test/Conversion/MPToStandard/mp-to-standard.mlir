// RUN: mp-opt %s --convert-mp-to-standard | FileCheck %s --implicit-check-not=mp.

// CHECK-LABEL: func.func @lower
// CHECK-SAME: (%[[SEED:.*]]: tensor<f32>, %[[SCALE:.*]]: tensor<f32>, %[[T:.*]]: tensor<i32>, %[[G:.*]]: tensor<4xf16>)
// CHECK-NOT: mp.
// CHECK: arith.mulf %[[SEED]], %[[SCALE]] : tensor<f32>
// CHECK: %[[S:.*]] = tensor.extract %[[SCALE]][] : tensor<f32>
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %[[S]] : f32
// CHECK: %[[FALSE:.*]] = linalg.fill ins(%false : i1)
// Unscaling in f32.
// CHECK: linalg.generic {{.*}} ins(%[[G]] : tensor<4xf16>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.mulf %{{.*}}, %[[INV]] : f32
// The finite check reduces into the flag.
// CHECK: %[[FLAG:.*]] = linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%[[G]] : tensor<4xf16>) outs(%[[FALSE]] : tensor<i1>)
// CHECK: math.absf
// CHECK: arith.cmpf olt
// CHECK: arith.ori
// The scale update.
// CHECK: %[[F:.*]] = tensor.extract %[[FLAG]][] : tensor<i1>
// CHECK: arith.cmpi sge, %{{.*}}, %c2000_i32
// CHECK: arith.select %[[F]]
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: tensor.from_elements %{{.*}} : tensor<f32>
// CHECK: tensor.from_elements %{{.*}} : tensor<i32>
func.func @lower(%seed: tensor<f32>, %scale: tensor<f32>, %t: tensor<i32>, %g: tensor<4xf16>)
    -> (tensor<f32>, tensor<4xf32>, tensor<f32>, tensor<i32>) {
  %s = mp.scale_seed %seed, %scale
  %u, %inf = mp.unscale %scale, %g : tensor<4xf16> -> tensor<4xf32>
  %ns, %nt = mp.update_scale %scale, %t, %inf {min_scale = 1.0 : f32}
  return %s, %u, %ns, %nt : tensor<f32>, tensor<4xf32>, tensor<f32>, tensor<i32>
}
