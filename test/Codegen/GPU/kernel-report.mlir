// RUN: mp-opt %s --mp-gpu-name-kernels --mp-gpu-kernel-report='summary report=%t.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --input-file=%t.json
// RUN: mp-opt %s --mp-gpu-kernel-report='report=-' | FileCheck %s --check-prefix=STDOUT
// RUN: mp-opt %s --mp-gpu-kernel-report='dot=-' -o /dev/null | FileCheck %s --check-prefix=DOT
// RUN: not mp-opt %s --mp-gpu-kernel-report='dot=/dev/full' 2>&1 | FileCheck %s --check-prefix=DOT-FULL
// RUN: not mp-opt %s --mp-gpu-kernel-report='report=/dev/full' 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not mp-opt %s --mp-gpu-kernel-report='report=%t.missing/r.json' 2>&1 | FileCheck %s --check-prefix=MISSING

// Two kernels: one reads %in (an argument, 256 B) and writes %tmp (allocated:
// 128 B of activations); one reads %tmp and writes half of %out through a
// subview made outside it (64 B). Moved: 256 + 128 + 128 + 64; activations:
// 128 + 128.
// SUMMARY: mp-gpu-kernel-report: @two_kernels: 2 kernels (0 GEMMs on mma.sync), 576 bytes moved, 256 bytes of activations
// CHECK: "activation_bytes": 256,
// CHECK-NEXT: "bytes_moved": 576,
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
// CHECK-NEXT: "location": "{{.*}}kernel-report.mlir:[[@LINE+39]]:3"
// CHECK-NEXT: "name": "two_kernels_kernel_0",
// CHECK-NEXT: "ops": [
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+37]]:10",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+37]]:10",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+37]]:10",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+37]]:5",
// CHECK-NEXT: "{{.*}}kernel-report.mlir:[[@LINE+37]]:5"
// CHECK-NEXT: ],
// CHECK-NEXT: "shared_bytes": 0
// CHECK: "bytes_read": 128,
// CHECK-NEXT: "bytes_written": 64,
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
// DOT: label="kernel 1: parallel loops, 192 B";
// DOT-COUNT-3: f0_k1_{{[0-2]}} [label=
// DOT-NEXT: }
// DOT-NEXT: f0_k0_0 -> f0_k1_0 [ltail=cluster_f0_k0, lhead=cluster_f0_k1];
// DOT-NEXT: }
// DOT-NEXT: }
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
  }
  memref.dealloc %tmp : memref<64xf16>
  return
}
