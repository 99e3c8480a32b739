// The whole GPU pipeline on a mixed-precision MLP step (mp-amp-pipeline's
// output): kernels for every op, f16 GEMMs on mma.sync with f32
// accumulation, PTX per chip (sm_80 and sm_90a), host code calling the
// mgpu* runtime.
// RUN: mp-opt %mp_src/examples/mlp_grad.mlir --mp-amp-pipeline --mp-lower-to-gpu=format=isa -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --implicit-check-not=mma.sync.aligned.m16n8k16.row.col.f16
// RUN: mp-opt %mp_src/examples/mlp_grad.mlir --mp-amp-pipeline='policy=bf16' --mp-lower-to-gpu='format=isa chips=sm_80' | FileCheck %s --check-prefix=BF16 --implicit-check-not=mma.sync --implicit-check-not=sm_90a
// RUN: not mp-opt %s --mp-lower-to-gpu='chips=ampere' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mp-opt %s --mp-lower-to-gpu='ptx-features=ptx80' 2>&1 | FileCheck %s --check-prefix=PTX

// CHECK: gpu.launch_func @mlp_grad_kernel
// CHECK: gpu.binary @mlp_grad_kernel [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_80
// CHECK-SAME: #gpu.object<#nvvm.target<chip = "sm_90a", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_90a
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: gpu.module

// bf16 has no Tensor Core lowering yet: its GEMMs run as f32-accumulating
// loops, and the one chip asked for is the only target.
// BF16: gpu.binary @mlp_grad_kernel [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_80
// BF16-NOT: sm_90a
// BF16-NOT: mma.sync

// CHIP: error: mp-lower-to-gpu: chips=ampere is invalid: expected an NVIDIA architecture such as sm_80 or sm_90a
// PTX: error: mp-lower-to-gpu: ptx-features=ptx80 is invalid: expected a PTX ISA version such as +ptx80

// Every kernel assembles for both chips without spilling.
// RUN: %if ptxas %{ %numpy_python %S/Inputs/assemble_ptx.py %t.mlir %t.ptx %ptxas | FileCheck %s --check-prefix=PTXAS %}
// PTXAS-NOT: failed
// PTXAS-NOT: [1-9][0-9]* bytes spilled
// PTXAS: 80 PTX files, 0 failed
func.func private @nothing()
