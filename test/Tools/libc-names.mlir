// A graph function named like a libc function is not bound to it (nor it to
// us): only the packed entry points are exported from the shared object.
// RUN: mp-run %s --entry random --random-inputs | FileCheck %s
// RUN: mp-run %s --entry exp --random-inputs | FileCheck %s --check-prefix=EXP
// CHECK: out0   f32[4]             min 2 max 2
// EXP: out0   f32[4]

func.func @random(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %0 = arith.mulf %x, %two : tensor<4xf32>
  %1 = arith.subf %0, %x : tensor<4xf32>
  %2 = arith.divf %1, %x : tensor<4xf32>
  %3 = arith.addf %2, %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
func.func @exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
