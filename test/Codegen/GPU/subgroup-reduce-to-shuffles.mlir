// RUN: mp-opt %s --split-input-file --mp-gpu-subgroup-reduce-to-shuffles --verify-diagnostics | FileCheck %s --implicit-check-not=gpu.subgroup_reduce

// A warp's sum: five XOR shuffles (offsets 1, 2, 4, 8, 16 over 32 lanes),
// each lane adding its partner's value to its own.
// CHECK-LABEL: func.func @warp_sum
// CHECK-SAME: (%[[V:.*]]: f32)
// CHECK-DAG: %[[W:.*]] = arith.constant 32 : i32
// CHECK-DAG: %[[O1:.*]] = arith.constant 1 : i32
// CHECK: %[[S1:.*]], %{{.*}} = gpu.shuffle xor %[[V]], %[[O1]], %[[W]] : f32
// CHECK: %[[A1:.*]] = arith.addf %[[V]], %[[S1]] : f32
// CHECK: %[[S2:.*]], %{{.*}} = gpu.shuffle xor %[[A1]], %{{.*}}, %[[W]] : f32
// CHECK: %[[A2:.*]] = arith.addf %[[A1]], %[[S2]] : f32
// CHECK: gpu.shuffle xor %[[A2]]
// CHECK: arith.addf
// CHECK: gpu.shuffle xor
// CHECK: arith.addf
// CHECK: gpu.shuffle xor
// CHECK: %[[R:.*]] = arith.addf
// CHECK: return %[[R]]
func.func @warp_sum(%v: f32) -> f32 {
  %r = gpu.subgroup_reduce add %v uniform : (f32) -> f32
  return %r : f32
}

// -----

// An i1 (a finite check's OR) travels in 32-bit shuffles.
// CHECK-LABEL: func.func @warp_any
// CHECK: arith.extui %{{.*}} : i1 to i32
// CHECK: gpu.shuffle xor %{{.*}} : i32
// CHECK: arith.trunci %{{.*}} : i32 to i1
// CHECK: arith.ori
func.func @warp_any(%v: i1) -> i1 {
  %r = gpu.subgroup_reduce or %v uniform : (i1) -> i1
  return %r : i1
}

// -----

// An f64 does not fit a 32-bit shuffle (mp-gpu-tile-reductions does not make
// these).
func.func @wide(%v: f64) -> f64 {
  // expected-error @below {{mp-gpu-subgroup-reduce-to-shuffles: cannot lower this reduction to 32-bit shuffles}}
  %r = gpu.subgroup_reduce add %v uniform : (f64) -> f64
  return %r : f64
}
