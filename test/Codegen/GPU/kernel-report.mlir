// RUN: mp-opt %s --mp-gpu-name-kernels --mp-gpu-kernel-report='summary report=%t.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --input-file=%t.json
// RUN: mp-opt %s --mp-gpu-kernel-report='report=-' | FileCheck %s --check-prefix=STDOUT
// RUN: mp-opt %s --mp-gpu-kernel-report='dot=-' -o /dev/null | FileCheck %s --check-prefix=DOT
// RUN: not mp-opt %s --mp-gpu-kernel-report='dot=/dev/full' 2>&1 | FileCheck %s --check-prefix=DOT-FULL
// RUN: not mp-opt %s --mp-gpu-kernel-report='report=/dev/full' 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not mp-opt %s --mp-gpu-kernel-report='report=%t.missing/r.json' 2>&1 | FileCheck %s --check-prefix=MISSING

// Two kernels: one reads %in (an argument, 256 B) and writes %tmp (allocated
// and not returned: 128 B of activations); one reads %tmp and writes half
// of %out through a subview made outside it (64 B). Moved: 256 + 128 + 128
// + 64; activations: 128 + 128; no results. `buffers` lists %tmp: where
// it is allocated, written by kernel 0, read by kernel 1. The second launch
// is marked as a warp reduction (mp.gpu_reduction, which
// mp-gpu-tile-reductions sets): its kind says so.
// SUMMARY: mp-gpu-kernel-report: @two_kernels: 2 kernels (0 GEMMs on mma.sync), 576 bytes moved, 256 bytes of activations, 0 bytes of results
// CHECK: "activation_bytes": 256,
// CHECK-NEXT: "buffers": [
// CHECK-NEXT: {
// CHECK-NEXT: "bytes_read": 128,
// CHECK-NEXT: "bytes_written": 128,
// CHECK-NEXT: "kind": "activation",
// CHECK-NEXT: "location": "{{.*}}kernel-report.mlir:[[@LINE+70]]:10",
// CHECK-NEXT: "read_by": [
// CHECK-NEXT: "kernel 1"
// CHECK-NEXT: ],
// CHECK-NEXT: "type": "memref<64xf16>",
// CHECK-NEXT: "written_by": [
// CHECK-NEXT: "kernel 0"
// CHECK-NEXT: ]
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK-NEXT: "bytes_moved": 576,
// CHECK-NEXT: "f32_gemm_kernels": 0,
// CHECK-NEXT: "function": "two_kernels",
// CHECK-NEXT: "gemm_kernels": 0,
// CHECK-NEXT: "kernels": 2,
// CHECK-NEXT: "library_calls": [],
// CHECK-NEXT: "library_convs": 0,
// CHECK-NEXT: "library_gemms": 0,
// CHECK-NEXT: "per_kernel": [
// CHECK: "activation_bytes": 128,
// CHECK-NEXT: "block": [
// CHECK-NEXT: 32,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "bytes_read": 256,
// CHECK-NEXT: "bytes_written": 128,
// CHECK-NEXT: "grid": [
// CHECK-NEXT: 2,
// CHECK: "kind": "parallel loops",
// CHECK-NEXT: "location": "{{.*}}kernel-report.mlir:[[@LINE+41]]:3"
// CHECK-NEXT: "name": "two_kernels_kernel_0",
// CHECK-NEXT: "ops": [
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+39]]:10",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+39]]:10",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+39]]:10",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+39]]:5",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+39]]:5"
// CHECK-NEXT: ],
// CHECK-NEXT: "result_bytes": 0,
// CHECK-NEXT: "shared_bytes": 0
// CHECK: "bytes_read": 128,
// CHECK-NEXT: "bytes_written": 64,
// CHECK: "kind": "warp reduction",
// The second kernel reads what the first wrote: one edge between their
// clusters; each op of a kernel is a node in its cluster.
// DOT: digraph kernels {
// DOT: subgraph cluster_f0 {
// DOT-NEXT: label="@two_kernels";
// DOT-NEXT: subgraph cluster_f0_k0 {
// DOT-NEXT: style=filled; fillcolor="lightgrey";
// DOT-NEXT: label="kernel 0: parallel loops, 384 B";
// DOT-NEXT: f0_k0_0 [label="kernel-report.mlir:[[@LINE+20]]:10"];
// DOT-COUNT-4: f0_k0_{{[1-4]}} [label=
// DOT-NEXT: }
// DOT-NEXT: subgraph cluster_f0_k1 {
// DOT: label="kernel 1: warp reduction, 192 B";
// DOT-COUNT-3: f0_k1_{{[0-2]}} [label=
// DOT-NEXT: }
// DOT-NEXT: f0_k0_0 -> f0_k1_0 [ltail=cluster_f0_k0, lhead=cluster_f0_k1];
// DOT-NEXT: }
// (@library_calls follows, at the end of this file.)
// DOT-FULL: error: mp-gpu-kernel-report: cannot write dot file '/dev/full': No space left on device
// STDOUT: "functions": [
// FULL: error: mp-gpu-kernel-report: cannot write report file '/dev/full': No space left on device
// MISSING: error: mp-gpu-kernel-report: cannot write report file '{{.*}}.missing/r.json'
func.func @two_kernels(%in: memref<64xf32>, %out: memref<64xf16>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %tmp = memref.alloc() : memref<64xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %i = affine.apply affine_map<(b, t) -> (b * 32 + t)>(%bx, %tx)
    %v = memref.load %in[%i] : memref<64xf32>
    %h = arith.truncf %v : f32 to f16
    memref.store %h, %tmp[%i] : memref<64xf16>
    gpu.terminator
  }
  %half = memref.subview %out[0] [32] [1] : memref<64xf16> to memref<32xf16, strided<[1]>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %tmp[%tx] : memref<64xf16>
    memref.store %v, %half[%tx] : memref<32xf16, strided<[1]>>
    gpu.terminator
  } {mp.gpu_reduction = "warp"}
  memref.dealloc %tmp : memref<64xf16>
  return
}

// Library calls: what they read and write comes from their address
// arguments (the buffers whose aligned pointers they are). The cuBLASLt
// call reads A (an activation the kernel wrote, 256 B) and B (an argument,
// 256 B) and writes D (256 B; not read: beta = 0); the cuDNN backward-data
// call (kind 1) reads y (D) and w (B) and writes x (A). Edges: the kernel
// to the GEMM (A), the GEMM to the convolution (D). D is returned: its
// bytes are results (256 written, 256 read), A's activations (256 written
// by the kernel, 256 read by cuBLASLt, 256 written by cuDNN); `buffers`
// lists both, A first (more bytes), with who reads and writes each.
// SUMMARY: mp-gpu-kernel-report: @library_calls: 1 kernels (0 GEMMs on mma.sync, 1 cuBLASLt calls, 1 cuDNN calls), 1792 bytes moved, 768 bytes of activations, 512 bytes of results
// CHECK: "activation_bytes": 768,
// CHECK-NEXT: "buffers": [
// CHECK-NEXT: {
// CHECK-NEXT: "bytes_read": 256,
// CHECK-NEXT: "bytes_written": 512,
// CHECK-NEXT: "kind": "activation",
// CHECK-NEXT: "location": "{{.*}}kernel-report.mlir:[[@LINE+60]]:8",
// CHECK-NEXT: "read_by": [
// CHECK-NEXT: "library call 0"
// CHECK-NEXT: ],
// CHECK-NEXT: "type": "memref<8x16xf16>",
// CHECK-NEXT: "written_by": [
// CHECK-NEXT: "kernel 0",
// CHECK-NEXT: "library call 1"
// CHECK-NEXT: ]
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "bytes_read": 256,
// CHECK-NEXT: "bytes_written": 256,
// CHECK-NEXT: "kind": "result",
// CHECK-NEXT: "location": "{{.*}}kernel-report.mlir:[[@LINE+51]]:8",
// CHECK-NEXT: "read_by": [
// CHECK-NEXT: "library call 1"
// CHECK-NEXT: ],
// CHECK-NEXT: "type": "memref<8x8xf32>",
// CHECK-NEXT: "written_by": [
// CHECK-NEXT: "library call 0"
// CHECK-NEXT: ]
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK-LABEL: "function": "library_calls",
// CHECK: "library_calls": [
// CHECK-NEXT: {
// CHECK-NEXT: "activation_bytes": 256,
// CHECK-NEXT: "bytes_read": 512,
// CHECK-NEXT: "bytes_written": 256,
// CHECK-NEXT: "index": 0,
// CHECK-NEXT: "library": "cuBLASLt",
// CHECK-NEXT: "location": "{{.*}}kernel-report.mlir:[[@LINE+44]]:3",
// CHECK: "result_bytes": 256
// CHECK: "activation_bytes": 256,
// CHECK-NEXT: "bytes_read": 512,
// CHECK-NEXT: "bytes_written": 256,
// CHECK-NEXT: "index": 1,
// CHECK-NEXT: "library": "cuDNN",
// CHECK: "result_bytes": 256
// CHECK: "per_kernel": [
// CHECK: "result_bytes": 512,
// DOT-NEXT: subgraph cluster_f1 {
// DOT-NEXT: label="@library_calls";
// DOT-NEXT: subgraph cluster_f1_k0 {
// DOT: subgraph cluster_f1_l0 {
// DOT-NEXT: style=filled; fillcolor="lightblue";
// DOT-NEXT: label="library call 0: cuBLASLt, 768 B";
// DOT: subgraph cluster_f1_l1 {
// DOT-NEXT: style=filled; fillcolor="lightblue";
// DOT-NEXT: label="library call 1: cuDNN, 768 B";
// DOT: f1_k0_0 -> f1_l0_0 [ltail=cluster_f1_k0, lhead=cluster_f1_l0];
// DOT-NEXT: f1_l0_0 -> f1_l1_0 [ltail=cluster_f1_l0, lhead=cluster_f1_l1];
// DOT-NEXT: }
func.func private @mp_cuda_gemm(i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f32, i32, i64)
func.func private @mp_cuda_conv(i32, i32, i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
func.func @library_calls(%b: memref<16x8xf16>) -> memref<8x8xf32> {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f16
  %a = memref.alloc() : memref<8x16xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    memref.store %zero, %a[%bx, %tx] : memref<8x16xf16>
    gpu.terminator
  }
  %d = memref.alloc() : memref<8x8xf32>
  %pa = memref.extract_aligned_pointer_as_index %a : memref<8x16xf16> -> index
  %ia = arith.index_cast %pa : index to i64
  %pb = memref.extract_aligned_pointer_as_index %b : memref<16x8xf16> -> index
  %ib = arith.index_cast %pb : index to i64
  %pd = memref.extract_aligned_pointer_as_index %d : memref<8x8xf32> -> index
  %id = arith.index_cast %pd : index to i64
  %t = arith.constant 0 : i32
  %kind = arith.constant 1 : i32
  %n = arith.constant 1 : i64
  %beta = arith.constant 0.0 : f32
  call @mp_cuda_gemm(%t, %n, %n, %n, %n, %ia, %n, %n, %n, %ib, %n, %n, %n, %id, %n, %n, %n, %beta, %t, %n) : (i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f32, i32, i64) -> ()
  call @mp_cuda_conv(%t, %kind, %t, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %n, %ia, %ib, %id) : (i32, i32, i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
  return %d : memref<8x8xf32>
}

// A tiled contraction's launch (it keeps its tiles) without mma is an f32
// GEMM on CUDA cores (mp-gpu-tile-contractions' 4 x 4 elements per thread).
// SUMMARY: mp-gpu-kernel-report: @f32_gemm: 1 kernels (0 GEMMs on mma.sync, 1 f32 GEMMs on CUDA cores), 512 bytes moved, 0 bytes of activations, 0 bytes of results
// CHECK-LABEL: "function": "f32_gemm",
// CHECK: "kind": "f32 GEMM on CUDA cores",
// CHECK: "tile": [
// CHECK-NEXT: 64,
// CHECK-NEXT: 64,
// CHECK-NEXT: 4,
// CHECK-NEXT: 4
// DOT: subgraph cluster_f2 {
// DOT-NEXT: label="@f32_gemm";
// DOT-NEXT: subgraph cluster_f2_k0 {
// DOT-NEXT: style=filled; fillcolor="khaki";
// DOT-NEXT: label="kernel 0: f32 GEMM on CUDA cores, 512 B";
func.func @f32_gemm(%a: memref<8x8xf32>, %c: memref<8x8xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx, %tx] : memref<8x8xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %c[%tx, %tx] : memref<8x8xf32>
    gpu.terminator
  } {mp.gpu_tile = array<i64: 64, 64, 4, 4>}
  return
}

// A producer that mp-gpu-tile-contractions outlined into a function, which
// the kernel calls per element: what it reads counts as the kernel's reads
// (%h, 64 B of activations, through a view made in the callee), and its ops
// as the kernel's.
// SUMMARY: mp-gpu-kernel-report: @outlined_producer: 1 kernels (0 GEMMs on mma.sync), 128 bytes moved, 128 bytes of activations, 0 bytes of results
// CHECK-LABEL: "function": "outlined_producer",
// CHECK: "bytes_read": 64,
// CHECK-NEXT: "bytes_written": 64,
// CHECK: "ops": [
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+20]]:10",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+8]]:11",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+8]]:8",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+8]]:8",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+17]]:5",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+17]]:5"
// CHECK-NEXT: ],
// CHECK-NEXT: "result_bytes": 0,
func.func private @outlined_producer_compute(%i: index, %h: memref<4x8xf16>) -> f16 {
  %flat = memref.collapse_shape %h [[0, 1]] : memref<4x8xf16> into memref<32xf16>
  %v = memref.load %flat[%i] : memref<32xf16>
  %r = arith.negf %v : f16
  return %r : f16
}
func.func @outlined_producer(%x: memref<32xf16>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %h = memref.alloc() : memref<4x8xf16>
  %out = memref.alloc() : memref<32xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = func.call @outlined_producer_compute(%tx, %h) : (index, memref<4x8xf16>) -> f16
    memref.store %v, %out[%tx] : memref<32xf16>
    gpu.terminator
  }
  memref.dealloc %h : memref<4x8xf16>
  memref.dealloc %out : memref<32xf16>
  return
}
