//===- Passes.td - mp conversion passes --------------------*- tablegen -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CONVERSION_PASSES_TD
#define MP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMPToStandardPass : Pass<"convert-mp-to-standard"> {
  let summary = "Lower the mp dialect's ops to arith, linalg, math and tensor";
  let description = [{
    A dialect conversion that marks the whole mp dialect illegal, so any mp
    op left after it is an error at that op's location:

    * `mp.scale_seed` becomes `arith.mulf` on `tensor<f32>`;
    * `mp.unscale` becomes one `linalg.generic` per gradient multiplying by
      `1 / scale` in f32 (after `arith.extf` of f16/bf16 values), and one
      reduction per gradient that ORs `!(|x| < inf)` (true for inf and NaN)
      into a single `tensor<i1>` flag chained through all gradients;
    * `mp.update_scale` becomes scalar arith on the extracted values with
      `arith.select` (PyTorch GradScaler's rule, Megatron-LM's hysteresis,
      the optional bounds), rebuilt with `tensor.from_elements`.

    mp's attributes (`mp.param`, `mp.state`...) are not ops and stay, and so
    do the collectives (`mp.all_reduce`, `mp.world_size`), which
    `convert-mp-to-runtime` lowers after bufferization. Part of
    `mp-lower-to-cpu`; every backend runs it first.

    ```mlir
    %s = mp.scale_seed %seed, %scale
    // becomes
    %s = arith.mulf %seed, %scale : tensor<f32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertMPToRuntimePass : Pass<"convert-mp-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Lower the collectives on buffers to calls of the runtime";
  let description = [{
    Runs after bufferization, when `mp.all_reduce` reduces a buffer in
    place:

    * `mp.all_reduce KIND %buf : memref<...xT>` becomes
      `func.call @mp_all_reduce(%address, %count, %dtype, %kind)`: the
      buffer's aligned address and element count as `i64`, the runtime's
      `mp_dtype` number of `T` (0 f32, 1 f16, 2 bf16, 4 i1) and the kind
      (0 sum, 1 max) as `i32`;
    * `mp.world_size` becomes `func.call @mp_world_size() : () -> i32`.

    The pass declares both functions in the module (private, resolved when
    the runtime loads the compiled module). A buffer with a non-identity
    layout is an error at the op (bufferizing `mp.all_reduce` never makes
    one). Part of `mp-lower-to-cpu` and of the GPU pipelines.

    With `cuda-stream`, for code whose kernels run on the CUDA backend's
    stream (`mp-lower-to-gpu`), the all-reduce calls `@mp_cuda_all_reduce`
    instead (same arguments), declared `mp.gpu_stream_ordered`: the runtime
    puts the reduction (NCCL) on the stream after the kernels launched
    before it, so mp-gpu-async-launches waits for nothing before the call.

    ```mlir
    mp.all_reduce sum %buf : memref<4xf32>
    // becomes
    %p = memref.extract_aligned_pointer_as_index %buf : memref<4xf32> -> index
    func.call @mp_all_reduce(%address, %count, %c0_i32, %c0_i32)
        : (i64, i64, i32, i32) -> ()
    ```
  }];
  let options = [
    Option<"cudaStream", "cuda-stream", "bool", /*default=*/"false",
           "Call the CUDA backend's stream-ordered all-reduce "
           "(mp_cuda_all_reduce, NCCL) rather than the host one">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::mp::MPDialect"];
}

#endif // MP_CONVERSION_PASSES_TD
