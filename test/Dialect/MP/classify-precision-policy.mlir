// Policy files: JSON and YAML, with errors that name the file and line.
// RUN: mp-opt %s --mp-classify-precision='policy=%S/Inputs/policy.json' | FileCheck %s --check-prefix=JSON
// RUN: mp-opt %s --mp-classify-precision='policy=%S/Inputs/policy.yaml' | FileCheck %s --check-prefix=YAML
// RUN: not mp-opt %s --mp-classify-precision='policy=%S/Inputs/bad-syntax.json' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not mp-opt %s --mp-classify-precision='policy=%S/Inputs/bad-key.json' 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not mp-opt %s --mp-classify-precision='policy=%S/Inputs/bad-precision.json' 2>&1 | FileCheck %s --check-prefix=PREC
// RUN: not mp-opt %s --mp-classify-precision='policy=%S/Inputs/two-lists.json' 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not mp-opt %s --mp-classify-precision='policy=%S/Inputs/duplicate-key.json' 2>&1 | FileCheck %s --check-prefix=DUP
// RUN: not mp-opt %s --mp-classify-precision='policy=%S/Inputs/remove-missing.yaml' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: mp-opt %s --mp-classify-precision='policy=%S/Inputs/unknown-op.yaml' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// Reads are capped and writes checked: an endless policy file and a report
// that cannot be written are errors, not a hang or an abort.
// RUN: not mp-opt %s --mp-classify-precision='policy=/dev/zero' 2>&1 | FileCheck %s --check-prefix=ENDLESS
// RUN: not mp-opt %s --mp-classify-precision='report=/dev/full' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// A report on stdout (report=-) leaves stdout open for the IR after it.
// RUN: mp-opt %s --mp-classify-precision='report=-' | FileCheck %s --check-prefix=STDOUT
// STDOUT: "ops":
// STDOUT: func.func @f
// ENDLESS: error: mp-classify-precision: cannot read policy file '/dev/zero': larger than 1048576 bytes
// FULL: error: mp-classify-precision: cannot write report file '/dev/full': No space left on device

// JSON-LABEL: func.func @f
// JSON: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<bf16>}
// JSON: linalg.add {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f32>}
// JSON: linalg.div {mp.class = #mp.class<deny>, mp.precision = #mp.precision<f32>}
// YAML-LABEL: func.func @f
// YAML: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// YAML: linalg.add {mp.precision = #mp.precision<f32>}
// SYNTAX: error: mp-classify-precision: {{.*}}bad-syntax.json:4:3: Expected , between entries!
// KEY: error: mp-classify-precision: {{.*}}bad-key.json:3:3: unknown key 'colour'
// PREC: error: mp-classify-precision: {{.*}}bad-precision.json:3:16: unsupported precision; expected f16 or bf16 (fp8 is not supported yet)
// TWO: error: mp-classify-precision: {{.*}}two-lists.json:2:3: op 'linalg.matmul' is in two precision lists ('allow' and 'deny')
// The file format is as strict as the pass options: duplicate keys and
// removing an op that is not in a list are errors, an op name that is not
// registered a warning (a typo in a loaded dialect, or an unknown dialect).
// DUP: error: mp-classify-precision: {{.*}}duplicate-key.json:3:3: duplicated mapping key 'base'
// MISSING: error: mp-classify-precision: {{.*}}remove-missing.yaml:1:1: remove: 'linalg.matmul' is not in the infer list
// UNKNOWN: warning: mp-classify-precision: the deny list of policy '{{.*}}unknown-op.yaml' names 'linalg.dvi', which is not a registered op; it only matches ops of that exact name
// UNKNOWN: warning: mp-classify-precision: the deny list of policy '{{.*}}unknown-op.yaml' names 'mydialect.norm', which is not a registered op
// UNKNOWN-NOT: warning
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.add ins(%0, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = linalg.div ins(%1, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
