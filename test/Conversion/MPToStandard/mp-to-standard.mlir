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

// Hysteresis (Megatron-LM): an overflow decrements the counter and backs off
// only once it is used up; a growth step resets it to H. max_scale clamps.
// CHECK-LABEL: func.func @hysteresis
// CHECK-SAME: (%[[SCALE:.*]]: tensor<f32>, %[[T:.*]]: tensor<i32>, %[[F:.*]]: tensor<i1>, %[[H:.*]]: tensor<i32>)
// CHECK: %[[S:.*]] = tensor.extract %[[SCALE]][] : tensor<f32>
// CHECK: %[[FOUND:.*]] = tensor.extract %[[F]][] : tensor<i1>
// CHECK: %[[DUE:.*]] = arith.cmpi sge, %{{.*}}, %c100_i32 : i32
// CHECK: %[[GROWN:.*]] = arith.mulf %[[S]], %{{.*}} : f32
// CHECK: %[[BACKED:.*]] = arith.mulf %[[S]], %{{.*}} : f32
// CHECK: %[[HV:.*]] = tensor.extract %[[H]][] : tensor<i32>
// CHECK: %[[DEC:.*]] = arith.subi %[[HV]], %{{.*}} : i32
// CHECK: %[[USED:.*]] = arith.cmpi sle, %[[DEC]], %{{.*}} : i32
// CHECK: %[[BACKOFF:.*]] = arith.select %[[USED]], %[[BACKED]], %[[S]] : f32
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[CLEANH:.*]] = arith.select %[[DUE]], %[[C3]], %[[HV]] : i32
// CHECK: %[[NEXTH:.*]] = arith.select %[[FOUND]], %[[DEC]], %[[CLEANH]] : i32
// CHECK: %[[NH:.*]] = tensor.from_elements %[[NEXTH]] : tensor<i32>
// CHECK: %[[NEW:.*]] = arith.select %[[FOUND]], %[[BACKOFF]], %{{.*}} : f32
// CHECK: %[[MAX:.*]] = arith.constant 1.024000e+03 : f32
// CHECK: %[[CLAMPED:.*]] = arith.minimumf %[[NEW]], %[[MAX]] : f32
// CHECK: %[[NS:.*]] = tensor.from_elements %[[CLAMPED]] : tensor<f32>
// CHECK: return %[[NS]], %{{.*}}, %[[NH]]
func.func @hysteresis(%scale: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>, %h: tensor<i32>)
    -> (tensor<f32>, tensor<i32>, tensor<i32>) {
  %ns, %nt, %nh = mp.update_scale %scale, %t, %f hysteresis %h : tensor<i32> {growth_interval = 100 : i32, hysteresis = 3 : i32, max_scale = 1024.0 : f32}
  return %ns, %nt, %nh : tensor<f32>, tensor<i32>, tensor<i32>
}
