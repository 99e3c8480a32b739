// The whole GPU pipeline on a mixed-precision MLP step (mp-amp-pipeline's
// output): kernels for every op, f16 GEMMs on mma.sync with f32
// accumulation, PTX per chip (sm_80 and sm_90a), host code calling the
// mgpu* runtime.
// RUN: rm -rf %t.ptx %t.bf16.ptx
// RUN: mp-opt %mp_src/examples/mlp_grad.mlir --mp-amp-pipeline --mp-lower-to-gpu=format=isa -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --implicit-check-not=mma.sync.aligned.m16n8k16.row.col.f16
// RUN: mp-opt %mp_src/examples/mlp_grad.mlir --mp-amp-pipeline='policy=bf16' --mp-lower-to-gpu='format=isa chips=sm_80' -o %t.bf16.mlir
// RUN: FileCheck %s --input-file=%t.bf16.mlir --check-prefix=BF16 --implicit-check-not=mma.sync.aligned.m16n8k16.row.col.f32.f16 --implicit-check-not=mma.sync.aligned.m16n8k16.row.col.bf16 --implicit-check-not=sm_90a
// RUN: not mp-opt %s --mp-lower-to-gpu='chips=ampere' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mp-opt %s --mp-lower-to-gpu='ptx-features=ptx80' 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not mp-opt %s --mp-lower-to-gpu='ptx-features=+ptx999' 2>&1 | FileCheck %s --check-prefix=PTX-VERSION
// RUN: not mp-opt %s --mp-lower-to-gpu='format=isa ptx-dir=%t.ptx' 2>&1 | FileCheck %s --check-prefix=PTX-DIR
// RUN: not mp-opt %s --mp-lower-to-gpu='chips=sm_75' 2>&1 | FileCheck %s --check-prefix=CHIP-OLD
// RUN: not mp-opt %s --mp-lower-to-gpu='chips=sm_80,sm_999' 2>&1 | FileCheck %s --check-prefix=CHIP-UNKNOWN
// RUN: not mp-opt %s --mp-lower-to-gpu='chips=sm_86a' 2>&1 | FileCheck %s --check-prefix=CHIP-SUFFIX
// A chip newer than the PTX version asked for gets its own minimum (LLVM
// refuses to emit older PTX for it).
// RUN: mp-opt %mp_src/examples/mlp_grad.mlir --mp-amp-pipeline='policy=bf16' --mp-lower-to-gpu='format=isa chips=sm_80,sm_120a' | FileCheck %s --check-prefix=NEWER
// RUN: not mp-opt %s --mp-lower-to-gpu='wgmma=true chips=sm_80,sm_86' 2>&1 | FileCheck %s --check-prefix=WGMMA-CHIP
// RUN: not mp-opt %s --mp-lower-to-gpu='wgmma=true tile-n=512' 2>&1 | FileCheck %s --check-prefix=WGMMA-TILE
// RUN: not mp-opt %s --mp-lower-to-gpu='tile-k=8' 2>&1 | FileCheck %s --check-prefix=TILE-K

// The host code launches every kernel on one stream without waiting, and
// returns with them queued (mp-gpu-async-launches with wait-at-return=false:
// the runtime waits after the call); buffers go back to the runtime's pool
// before the kernels that use them are done.
// CHECK: %[[STREAM:.*]] = llvm.call @mgpuStreamCreate()
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @mlp_grad_kernel_0::@mlp_grad_kernel_0
// CHECK-NOT: mgpuStreamSynchronize
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @mlp_grad_kernel_10::@mlp_grad_kernel_10
// CHECK-COUNT-8: llvm.call @_mlir_memref_to_llvm_free
// CHECK-NOT: mgpuStreamSynchronize
// CHECK: llvm.return
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @mlp_grad_kernel_0 [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_80
// CHECK-SAME: #gpu.object<#nvvm.target<chip = "sm_90a", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_90a
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: gpu.module

// bf16 GEMMs take the same Tensor Core path (mp's own bf16 mma.sync), and
// the one chip asked for is the only target.
// BF16: gpu.binary @mlp_grad_kernel_0 [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_80
// BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// CHIP: error: mp-lower-to-gpu: chips=ampere is invalid: expected an NVIDIA architecture such as sm_80 or sm_90a (one of sm_80,
// PTX: error: mp-lower-to-gpu: ptx-features=ptx80 is invalid: expected a PTX ISA version such as +ptx80 (+ptx70 to +ptx90)
// PTX-VERSION: error: mp-lower-to-gpu: ptx-features=+ptx999 is invalid: expected a PTX ISA version such as +ptx80 (+ptx70 to +ptx90)
// PTX-DIR: error: mp-lower-to-gpu: ptx-dir keeps the PTX that format=fatbin assembles; with format=isa the binaries are the PTX
// CHIP-OLD: error: mp-lower-to-gpu: chips=sm_75 is invalid: the Tensor Core kernels need sm_80 or later (mma.sync m16n8k16 of f16 and bf16, cp.async)
// CHIP-UNKNOWN: error: mp-lower-to-gpu: chips=sm_999 is invalid: expected an NVIDIA architecture such as sm_80 or sm_90a (one of sm_80, sm_86, sm_87, sm_89, sm_90(a), sm_100(a), sm_103(a), sm_110(a), sm_120(a), sm_121(a))
// CHIP-SUFFIX: error: mp-lower-to-gpu: chips=sm_86a is invalid: expected an NVIDIA architecture
// NEWER: gpu.binary @mlp_grad_kernel_0 [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80">, {{.*}}assembly = "{{.*}}.version 8.0{{.*}}.target sm_80
// NEWER-SAME: #gpu.object<#nvvm.target<chip = "sm_120a", features = "+ptx87">, {{.*}}assembly = "{{.*}}.version 8.7{{.*}}.target sm_120a
// NEWER: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// WGMMA-CHIP: error: mp-lower-to-gpu: wgmma runs on sm_90a, which chips=sm_80,sm_86 leaves out: add it or compile without wgmma
// TILE-K: error: mp-lower-to-gpu: tile-k=8 is invalid: expected 16, 32 or 64 (K per trip of a Tensor Core GEMM's loop)
// WGMMA-TILE: error: mp-lower-to-gpu: with wgmma, a block is one or two warpgroups computing 64 rows each (tile-m=64 or 128) and 16, 32, 64, 128 or 256 columns (tile-n), not 64x512

// Every kernel assembles for both chips without spilling (on the plain
// build: the sanitizers' build writes the same PTX).
// RUN: %if ptxas && !sanitize %{ %python %S/Inputs/assemble_ptx.py %ptxas %t.ptx %t.mlir | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas && !sanitize %{ %python %S/Inputs/assemble_ptx.py %ptxas %t.bf16.ptx %t.bf16.mlir | FileCheck %s --check-prefix=PTXAS-BF16 %}
// PTXAS-NOT: failed
// PTXAS-NOT: [1-9][0-9]* bytes spilled
// PTXAS: 22 PTX files, 0 failed, 10 GEMM kernels, 0 spilling GEMMs
// PTXAS-BF16-NOT: [1-9][0-9]* bytes spilled
// PTXAS-BF16: 11 PTX files, 0 failed, 5 GEMM kernels, 0 spilling GEMMs

// Reductions to one element, and to few elements of many terms, are a block
// of threads each: partials in registers, a tree over shared memory with a
// barrier per level down to 32 values, then one warp's XOR shuffles
// (mp-gpu-tile-reductions, mp-gpu-subgroup-reduce-to-shuffles); none runs on
// the host, and the fills of their outputs are folded into them (thread 0
// combines the total with the fill's value): one kernel per reduction, but
// @full's sum and maximum of the same input, one kernel for both, and
// @rows_cols' row and column sums, on different buffers, one launch of
// 3 + 5 blocks (mp-gpu-merge-launches).
// A GEMM that computes a transpose of a slice of a buffer reads the slice:
// the copies read it through its view (not folded into the whole buffer),
// and the kernel report counts 2 KB of it and 2 KB of the other operand,
// not the buffer's 4 KB.
// RUN: mp-opt %S/Inputs/slice_heads.mlir --mp-lower-to-gpu='format=isa kernel-report=-' -o /dev/null | FileCheck %s --check-prefix=SLICE
// SLICE: "bytes_moved": 8192,
// SLICE: "per_kernel": [
// SLICE: "bytes_read": 4096,
// SLICE-NEXT: "bytes_written": 4096,
// SLICE: "kind": "mma.sync GEMM",
// RUN: mp-opt %S/../../Integration/GPU/Inputs/reductions.mlir --mp-lower-to-gpu='format=isa kernel-summary' -o %t.red.mlir 2>&1 | FileCheck %s --check-prefix=RED-SUMMARY
// RUN: FileCheck %s --input-file=%t.red.mlir --check-prefix=RED
// RED-SUMMARY: @full: 1 kernels
// RED-SUMMARY: @rows_cols: 1 kernels
// RED: gpu.launch_func <%{{.*}} : !llvm.ptr> @full_kernel_0::@full_kernel_0 blocks in (%[[ONE:.*]], %[[ONE]], %[[ONE]]) threads in (%[[T:.*]], %[[ONE]], %[[ONE]])
// RED: gpu.binary @full_kernel_0 {{.*}}.maxntid 256, 1, 1{{.*}}.shared .align 16 .b8 __wg_full_kernel_{{[0-9_]+}}[1024];{{.*}}add.rn.f32{{.*}}st.shared.b32{{.*}}bar.sync{{.*}}ld.shared.b32{{.*}}[%rd{{[0-9]+}}+512];{{.*}}add.rn.f32{{.*}}bar.sync{{.*}}shfl.sync.bfly.b32{{.*}}, 1, 31, -1;{{.*}}shfl.sync.bfly.b32{{.*}}, 16, 31, -1;
// Contractions of dynamic sizes are tiled GEMMs whose grids the host
// computes from the sizes (the dense layer's ? rows: ceil(rows / 64) blocks
// along y, at least 0), f32 ones on CUDA cores with fused multiply-adds,
// f16 ones on mma.sync; convolutions of dynamic sizes run as parallel loops
// (with mp-gpu-choose-tiles' warning), whose f32 steps are fused
// multiply-adds too, as the CPU backend's (before, each product was
// rounded: mul.rn.f32 then add.rn.f32).
// RUN: mp-opt %S/../../Integration/GPU/Inputs/dynamic_sizes.mlir --mp-lower-to-gpu='format=isa chips=sm_80' 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: mp-opt %S/../../Integration/GPU/Inputs/dynamic_sizes.mlir --mp-amp-pipeline --mp-lower-to-gpu='format=isa chips=sm_80' 2>/dev/null | FileCheck %s --check-prefix=DYNAMIC-F16
// DYNAMIC: dynamic_sizes.mlir:[[#]]:8: warning: mp-gpu-choose-tiles: this convolution has dynamic sizes
// DYNAMIC-NOT: warning
// DYNAMIC-LABEL: llvm.func @dense(
// DYNAMIC: %[[ROWS:.*]] = llvm.sdiv %{{.*}}, %{{.*}} : i64
// DYNAMIC: %[[BLOCKS:.*]] = llvm.intr.smax(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// DYNAMIC: gpu.launch_func <%{{.*}} : !llvm.ptr> @dense_kernel_0::@dense_kernel_0 blocks in (%{{.*}}, %[[BLOCKS]], %{{.*}}) threads in
// DYNAMIC: gpu.binary @dense_kernel_0
// DYNAMIC-NOT: mul.rn.f32
// DYNAMIC: fma.rn.f32
// DYNAMIC-NOT: mul.rn.f32
// DYNAMIC: gpu.binary @dense_kernel_1
// DYNAMIC: gpu.binary @conv_kernel_1
// DYNAMIC-NOT: mul.rn.f32
// DYNAMIC: fma.rn.f32
// DYNAMIC-NOT: mul.rn.f32
// DYNAMIC-F16: gpu.binary @dense_kernel_0 {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// DYNAMIC-F16: gpu.binary @dynamic_k_kernel_0 {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// DYNAMIC-F16: gpu.binary @dynamic_abt_kernel_0 {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// DYNAMIC-F16: gpu.binary @dynamic_batch_kernel_{{[0-9]+}} {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func private @nothing()
