// RUN: mp-opt %s --split-input-file --mp-gpu-merge-chip-variants --verify-diagnostics | FileCheck %s --implicit-check-not=mp.gpu_chip_variants --implicit-check-not=gpu.binary

// The variant's objects follow the module's, and the variant goes; other
// binaries stay as they are.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.binary @mm_kernel [#gpu.object<#nvvm.target<chip = "sm_80">, "mma.sync">, #gpu.object<#nvvm.target<chip = "sm_90a">, "wgmma">]
// CHECK: gpu.binary @other [#gpu.object<#nvvm.target<chip = "sm_80">, "other">]
module attributes {gpu.container_module, mp.gpu_chip_variants = {mm_kernel_sm_90a = @mm_kernel}} {
  gpu.binary @mm_kernel [#gpu.object<#nvvm.target<chip = "sm_80">, "mma.sync">]
  gpu.binary @mm_kernel_sm_90a [#gpu.object<#nvvm.target<chip = "sm_90a">, "wgmma">]
  gpu.binary @other [#gpu.object<#nvvm.target<chip = "sm_80">, "other">]
}

// -----

// Without variants nothing changes.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.binary @plain
module attributes {gpu.container_module} {
  gpu.binary @plain [#gpu.object<#nvvm.target<chip = "sm_80">, "plain">]
}

// -----

// expected-error @+1 {{mp-gpu-merge-chip-variants: no gpu.binary @mm_kernel_sm_90a (run gpu-module-to-binary first)}}
module attributes {gpu.container_module, mp.gpu_chip_variants = {mm_kernel_sm_90a = @mm_kernel}} {
  gpu.binary @mm_kernel [#gpu.object<#nvvm.target<chip = "sm_80">, "mma.sync">]
  gpu.module @mm_kernel_sm_90a [#nvvm.target<chip = "sm_90a">] {
  }
}
