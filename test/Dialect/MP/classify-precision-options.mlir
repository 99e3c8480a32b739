// Bad options and policies: one clear error line, non-zero exit.
// RUN: not mp-opt %s --mp-classify-precision='policy=fp99' 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: mp-classify-precision: cannot read policy file 'fp99': No such file or directory (built-in policies: fp16, bf16)

// RUN: not mp-opt %s --mp-classify-precision='level=fastest' 2>&1 | FileCheck %s --check-prefix=LEVEL
// LEVEL: for the --level option: Cannot find option named 'fastest'!

// RUN: not mp-opt %s --mp-classify-precision='deny-add=linalg.matmul' 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: error: mp-classify-precision: op 'linalg.matmul' is in two precision lists ('allow' and 'deny'); remove it from one, e.g. with allow-remove=linalg.matmul

// RUN: not mp-opt %s --mp-classify-precision='infer-remove=linalg.matmul' 2>&1 | FileCheck %s --check-prefix=REMOVE
// REMOVE: error: mp-classify-precision: infer-remove: 'linalg.matmul' is not in the infer list

// RUN: mp-opt %s --mp-classify-precision='allow-add=mydialect.gemm' 2>&1 | FileCheck %s --check-prefix=UNREG
// UNREG: warning: mp-classify-precision: allow-add: 'mydialect.gemm' is not a registered op; it only matches ops of that exact name

// RUN: mp-opt %s --mp-classify-precision='remarks=true' 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: mp: 'func.call' is in no precision list; the op stays f32
// REMARK: remark: mp: left in its precision: it has floating-point values that are not f32

func.func private @ext(tensor<4xf32>) -> tensor<4xf32>
func.func @f(%a: tensor<4xf32>, %d: f64) -> (tensor<4xf32>, f64) {
  %0 = func.call @ext(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = arith.addf %d, %d : f64
  return %0, %1 : tensor<4xf32>, f64
}
