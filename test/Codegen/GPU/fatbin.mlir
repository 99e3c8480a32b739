// mp-gpu-fatbin: the PTX objects of each gpu.binary (one per chip) become one
// fatbin with SASS for every chip and the PTX of sm_80 (the sm_90a PTX is
// architecture-specific: later GPUs cannot JIT-compile it).
// RUN: %if ptxas %{ mp-opt %s --split-input-file --mp-gpu-fatbin='cuda-toolkit=%cuda_toolkit' -o %t.mlir %}
// RUN: %if ptxas %{ FileCheck %s --input-file=%t.mlir %}
// RUN: %if ptxas %{ %python %S/Inputs/fatbin_contents.py %t.mlir | FileCheck %s --check-prefix=CONTENTS %}
// RUN: not mp-opt %s --split-input-file --mp-gpu-fatbin='cuda-toolkit=/nonexistent' 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// With kernel-report=FILE each kernel named in the report gets its
// registers and spilled bytes per chip, as ptxas -v printed them, and a
// kernel launched with dynamic shared memory those bytes as its
// shared_bytes (the report's sum of its buffers was 98304); a file that is
// not a report is an error.
// RUN: printf '{"functions": [{"function": "f", "per_kernel": [{"index": 0, "name": "k", "shared_bytes": 98304}, {"index": 1, "name": "other", "shared_bytes": 1024}]}]}' > %t.report.json
// RUN: %if ptxas %{ mp-opt %s --split-input-file --mp-gpu-fatbin='cuda-toolkit=%cuda_toolkit kernel-report=%t.report.json' -o /dev/null %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=REPORT --input-file=%t.report.json %}
// RUN: echo '[1, 2]' > %t.not-report.json
// RUN: %if ptxas %{ not mp-opt %s --split-input-file --mp-gpu-fatbin='cuda-toolkit=%cuda_toolkit kernel-report=%t.not-report.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT-REPORT %}
// REPORT: "name": "k",
// REPORT-NEXT: "registers": {
// REPORT-NEXT: "sm_80": {{[0-9]+}},
// REPORT-NEXT: "sm_90a": {{[0-9]+}}
// REPORT-NEXT: },
// REPORT-NEXT: "shared_bytes": 65536,
// REPORT-NEXT: "spill_bytes": {
// REPORT-NEXT: "sm_80": 0,
// REPORT-NEXT: "sm_90a": 0
// REPORT-NEXT: }
// REPORT: "name": "other",
// REPORT-NEXT: "shared_bytes": 1024
// REPORT-NEXT: }
// NOT-REPORT: error: mp-gpu-fatbin: '{{.*}}not-report.json' is not a report of mp-gpu-kernel-report
// With ptx-dir=DIR the PTX it assembled stays there, one file per binary
// and chip, which ptxas assembles again; a directory it cannot create is an
// error.
// RUN: rm -rf %t.ptx
// RUN: %if ptxas %{ mp-opt %s --split-input-file --mp-gpu-fatbin='cuda-toolkit=%cuda_toolkit ptx-dir=%t.ptx' -o /dev/null %}
// RUN: %if ptxas %{ ls %t.ptx | FileCheck %s --check-prefix=PTX-DIR %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=PTX-FILE --input-file=%t.ptx/kernels.sm_90a.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx/kernels.sm_90a.ptx -o /dev/null %}
// RUN: %if ptxas %{ not mp-opt %s --split-input-file --mp-gpu-fatbin='cuda-toolkit=%cuda_toolkit ptx-dir=/dev/null/ptx' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX-DIR-BAD %}
// PTX-DIR: kernels.sm_80.ptx
// PTX-DIR-NEXT: kernels.sm_90a.ptx
// PTX-FILE: .target sm_90a
// PTX-FILE: .entry k()
// PTX-DIR-BAD: error: mp-gpu-fatbin: cannot create '/dev/null/ptx': Not a directory
// fatbinary's --image3 splits its fields at commas: the tools read files of
// the scratch directory, so a ptx-dir with a comma works (it failed with
// "fatbinary fatal : ... is not in 'keyword=value' format"), and a scratch
// directory with one (TMPDIR) is an error that says so.
// RUN: rm -rf %t,comma.ptx %t,tmp && mkdir %t,tmp
// RUN: %if ptxas %{ mp-opt %s --split-input-file --mp-gpu-fatbin='cuda-toolkit=%cuda_toolkit ptx-dir=%t,comma.ptx' -o /dev/null %}
// RUN: %if ptxas %{ ls %t,comma.ptx | FileCheck %s --check-prefix=PTX-DIR %}
// RUN: %if ptxas %{ env TMPDIR=%t,tmp not mp-opt %s --split-input-file --mp-gpu-fatbin='cuda-toolkit=%cuda_toolkit' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TMP-COMMA %}
// TMP-COMMA: error: mp-gpu-fatbin: the scratch directory '{{.*}},tmp/mp-fatbin-{{.*}}' has a comma, which fatbinary cannot take in a file name: set TMPDIR to a directory without one
// RUN: %if ptxas %{ mp-opt %S/Inputs/fatbin-errors.mlir --split-input-file --verify-diagnostics --mp-gpu-fatbin="cuda-toolkit=%cuda_toolkit" %}

// CHECK-LABEL: llvm.mlir.global external constant @_mp_gpu_targets("SASS for sm_80, sm_90a and PTX for sm_80\00")
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_80">, properties = {mp.ptx = ["sm_80"], mp.sass = ["sm_80", "sm_90a"]}, "P\ED
// CONTENTS: 1 fatbins: sass sm_80, ptx sm_80, sass sm_90a
// TOOLKIT: error: mp-gpu-fatbin: cannot run '/nonexistent/bin/ptxas': set cuda-toolkit to a CUDA toolkit or use format=isa
module attributes {gpu.container_module} {
  gpu.binary @kernels [
    #gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".version 8.0\0A.target sm_80\0A.address_size 64\0A.visible .entry k() { ret; }\0A">,
    #gpu.object<#nvvm.target<chip = "sm_90a">, assembly = ".version 8.0\0A.target sm_90a\0A.address_size 64\0A.visible .entry k() { ret; }\0A">
  ]
  func.func @launch() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 65536 : i32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes
    return
  }
}

// -----

// A module without binaries is left alone: no _mp_gpu_targets.
// CHECK-LABEL: func.func @host
// CHECK-NOT: _mp_gpu_targets
func.func @host() {
  return
}
