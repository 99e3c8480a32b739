//===- Passes.td - mp transformation passes ----------------*- tablegen -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_DIALECT_MP_TRANSFORMS_PASSES_TD
#define MP_DIALECT_MP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VerifyTrainingContractPass
    : Pass<"mp-verify-training-contract", "ModuleOp"> {
  let summary = "Check the roles of gradient functions";
  let description = [{
    For every function that uses a training-contract attribute (see the mp
    dialect and docs/Training.md): each argument is exactly one of
    `mp.param` (an f32 tensor), `mp.input`, `mp.grad_seed` (one, a
    `tensor<f32>`); each result exactly one of `mp.loss` (one, a
    `tensor<f32>`), `mp.grad_of = N` (N names an `mp.param` argument, at most
    one gradient per parameter, of the parameter's type) or `mp.output`.
    Every breach is an error at the offending argument (results: at the
    function); a parameter without a gradient is a warning. The IR is not
    changed.

    ```mlir
    func.func @loss_grad(%w: tensor<4x4xf32> {mp.param}, %x: tensor<2x4xf32> {mp.input},
                         %seed: tensor<f32> {mp.grad_seed})
        -> (tensor<f32> {mp.loss}, tensor<4x4xf32> {mp.grad_of = 0 : i64})
    ```
  }];
}

def LossScalingPass : Pass<"mp-loss-scaling", "ModuleOp"> {
  let summary = "Scale the backward seed, unscale and check the gradients";
  let description = [{
    Rewrites every gradient function (docs/Training.md) so its gradients do
    not underflow in f16: the seed is multiplied by the loss scale
    (`mp.scale_seed`), and the returned gradients are unscaled in f32 and
    checked for inf/NaN together (`mp.unscale`); the function gains an
    `mp.found_inf` result. The loss itself is not scaled.

    * `mode=dynamic` (PyTorch GradScaler): the scale is state threaded by the
      runtime: new arguments `%scale {mp.state = <init-scale>,
      mp.loss_scale}`, `%tracker {mp.state = 0 : i32}` (and a hysteresis
      counter when `hysteresis > 1`), updated by `mp.update_scale` and
      returned as `mp.updates` results.
    * `mode=static static-scale=<S>`: a constant scale S, still unscaled and
      checked.
    * `mode=none`: the function is left as it is.
    * `mode=auto`: what `policy` says (a built-in name or a policy file,
      loaded when the pass runs): dynamic for `fp16`, none for `bf16` and
      for `policy=none`.

    Gradients returned through `arith.extf` from f16/bf16 are unscaled from
    their low-precision values (`mp.unscale` widens them itself).
  }];
  let options = [
    Option<"mode", "mode", "::mlir::mp::LossScaleMode",
           /*default=*/"::mlir::mp::LossScaleMode::Dynamic",
           "How the loss is scaled",
           "::mlir::mp::clEnumValues(::mlir::mp::symbolizeLossScaleMode, "
           "::mlir::mp::getMaxEnumValForLossScaleMode())">,
    Option<"staticScale", "static-scale", "double", /*default=*/"65536.0",
           "The scale of mode=static">,
    Option<"policy", "policy", "std::string", /*default=*/"\"fp16\"",
           "With mode=auto: the AMP policy (fp16, bf16, a policy file, or "
           "none) whose loss_scaling decides">,
    Option<"initScale", "init-scale", "double", /*default=*/"65536.0",
           "Initial dynamic scale (PyTorch: 2^16)">,
    Option<"growthFactor", "growth-factor", "double", /*default=*/"2.0",
           "Factor applied after growth-interval clean steps">,
    Option<"backoffFactor", "backoff-factor", "double", /*default=*/"0.5",
           "Factor applied on overflow">,
    Option<"growthInterval", "growth-interval", "int32_t", /*default=*/"2000",
           "Clean steps before the scale grows">,
    Option<"hysteresis", "hysteresis", "int32_t", /*default=*/"1",
           "Overflows in a row before the scale backs off (Megatron-LM)">,
    Option<"minScale", "min-scale", "double", /*default=*/"0.0",
           "Lower bound of the dynamic scale (0: none, as in PyTorch)">,
    Option<"maxScale", "max-scale", "double", /*default=*/"0.0",
           "Upper bound of the dynamic scale (0: none)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::mp::MPDialect"];
  let statistics = [
    Statistic<"numFunctions", "functions", "Gradient functions scaled">,
  ];
}

def MakeTrainStepPass : Pass<"mp-make-train-step", "ModuleOp"> {
  let summary = "Wrap each gradient function into a complete training step";
  let description = [{
    For every gradient function `@f` (after `mp-loss-scaling`, if any) adds
    `@f_step`: it takes the gradient function's arguments (fp32 master
    parameters, inputs, seed, loss-scale state) followed by one optimizer
    state per parameter and slot (`mp.state = 0.0 : f32`) and, for Adam, the
    step count; it calls `@f`, optionally clips the gradients by their
    global norm (after unscaling, as `torch.nn.utils.clip_grad_norm_`), and
    updates every parameter and optimizer state in f32 with PyTorch's
    equations. When `@f` reports an overflow (`mp.found_inf`), parameters
    and optimizer state are returned unchanged bit for bit (the update is
    not computed). Results: the new parameters and states (`mp.updates = N`),
    then `@f`'s loss, flag, scale updates and outputs.

    Optimizers: `sgd` (`p -= lr * (g + wd p)`), `momentum` (PyTorch SGD with
    momentum, optionally Nesterov), `adam` and `adamw` (bias-corrected, L2
    or decoupled weight decay).

    With `accumulate=K`, every `mp.input` gains a leading dimension K and the
    step calls `@f` on each micro-batch in an `scf.for` with the same
    parameters and loss scale; loss and gradients are averaged, the overflow
    flags ORed, and the loss scale updated once for the whole step.

    With `data-parallel`, each rank of a data-parallel run computes the
    gradients of its shard of the global batch and the step combines them
    before the update, with `mp.all_reduce`: every gradient is replaced by
    its mean over the ranks (`sum * (1 / mp.world_size)`), the loss by its
    mean, and the overflow flag by its OR, so all ranks skip the same steps
    and update the loss scale alike (once, after the reduction; as with
    `accumulate`, the loss scale must be the only state of `@f`). With
    `allreduce-type=f16` or `bf16` the gradients travel compressed:
    `trunc(g * (scale / N))` in the loss scale's range (PyTorch's DDP
    compression hooks divide by N before compressing too), summed, then
    widened and unscaled by `mp.unscale`, whose finite check also catches a
    sum that overflowed; f16 needs loss scaling. Works with `accumulate`
    (micro-batches first, then the ranks).
  }];
  let options = [
    Option<"optimizer", "optimizer", "::mlir::mp::Optimizer",
           /*default=*/"::mlir::mp::Optimizer::SGD", "The optimizer",
           "::mlir::mp::clEnumValues(::mlir::mp::symbolizeOptimizer, "
           "::mlir::mp::getMaxEnumValForOptimizer())">,
    Option<"lr", "lr", "double", /*default=*/"1e-3", "Learning rate">,
    Option<"momentum", "momentum", "double", /*default=*/"0.9",
           "Momentum of the momentum optimizer">,
    Option<"nesterov", "nesterov", "bool", /*default=*/"false",
           "Nesterov momentum">,
    Option<"beta1", "beta1", "double", /*default=*/"0.9", "Adam beta1">,
    Option<"beta2", "beta2", "double", /*default=*/"0.999", "Adam beta2">,
    Option<"eps", "eps", "double", /*default=*/"1e-8", "Adam epsilon">,
    Option<"weightDecay", "weight-decay", "double", /*default=*/"-1.0",
           "Weight decay (-1: PyTorch's default, 0.01 for adamw and 0 "
           "otherwise)">,
    Option<"clipNorm", "clip-norm", "double", /*default=*/"0.0",
           "Clip gradients to this global L2 norm (0: no clipping)">,
    Option<"accumulate", "accumulate", "int64_t", /*default=*/"1",
           "Micro-batches per step: inputs gain a leading dimension of this "
           "size; loss and gradients are their means, the loss scale is "
           "updated once">,
    Option<"dataParallel", "data-parallel", "bool", /*default=*/"false",
           "Average gradients and loss, and OR the overflow flag, over the "
           "ranks of a data-parallel run before the update">,
    Option<"allreduceType", "allreduce-type", "::mlir::mp::AllReduceType",
           /*default=*/"::mlir::mp::AllReduceType::f32",
           "Precision of the gradients' all-reduce with data-parallel",
           "::mlir::mp::clEnumValues(::mlir::mp::symbolizeAllReduceType, "
           "::mlir::mp::getMaxEnumValForAllReduceType())">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ClassifyPrecisionPass : Pass<"mp-classify-precision", "ModuleOp"> {
  let summary = "Classify ops into allow/deny/infer/clear and paint precisions";
  let description = [{
    Analysis only: classifies every op of every function with a precision
    policy and paints the graph with TensorFlow's AMP algorithm, extended to
    `scf` regions (see docs/Classification.md). The result is written as
    attributes that `mp-insert-casts` consumes:

    * `mp.class = #mp.class<...>` on every classified op;
    * `mp.precision = #mp.precision<...>` on every op with f32 values (an
      array with one precision per carried value on `scf.for`, `scf.while`,
      `scf.if`, `scf.index_switch` and `scf.execute_region`);
    * `mp.accumulator` on accumulating ops with `low-precision-accumulation`;
    * `mp.precision` on each function with `low-precision-boundaries`: its
      f32 arguments used only in low precision, and results produced in low
      precision, change type (and so do calls to it in the module).

    The policy is `fp16`, `bf16` or the path of a JSON/YAML policy file
    (docs/Policies.md); the `*-add`/`*-remove` options edit its lists. An op in
    two lists is an error. `mp.override = #mp.precision<...>` on an op forces
    its precision; on a function or region op it applies to every op inside.

    Example:
    ```mlir
    // mp-opt --mp-classify-precision='policy=fp16'
    %0 = linalg.matmul {mp.class = #mp.class<allow>,
                        mp.precision = #mp.precision<f16>} ins(...) outs(...)
    %1 = linalg.exp {mp.class = #mp.class<deny>,
                     mp.precision = #mp.precision<f32>} ins(%0 ...) outs(...)
    ```

    With `report=FILE` the pass writes a JSON report (per op: location, op,
    class, precision, reason; a summary with ops per precision, planned
    casts, low-precision share of contraction FLOPs and activation bytes),
    with `dot=FILE` a Graphviz view of the coloured graph, and with
    `summary=true` a table on stderr.
  }];
  let dependentDialects = ["::mlir::mp::MPDialect"];
  let options = [
    Option<"policy", "policy", "std::string", /*default=*/"\"fp16\"",
           "Precision policy: fp16, bf16, or the path of a JSON/YAML file">,
    Option<"level", "level", "::mlir::mp::PolicyLevel",
           /*default=*/"::mlir::mp::PolicyLevel::FromPolicy",
           "The painting level (policy: the one the policy gives)",
           "::mlir::mp::clEnumValues(::mlir::mp::symbolizePolicyLevel, "
           "::mlir::mp::getMaxEnumValForPolicyLevel())">,
    ListOption<"allowAdd", "allow-add", "std::string",
               "Op names to add to the allow list">,
    ListOption<"allowRemove", "allow-remove", "std::string",
               "Op names to remove from the allow list">,
    ListOption<"denyAdd", "deny-add", "std::string",
               "Op names to add to the deny list">,
    ListOption<"denyRemove", "deny-remove", "std::string",
               "Op names to remove from the deny list">,
    ListOption<"inferAdd", "infer-add", "std::string",
               "Op names to add to the infer list">,
    ListOption<"inferRemove", "infer-remove", "std::string",
               "Op names to remove from the infer list">,
    ListOption<"clearAdd", "clear-add", "std::string",
               "Op names to add to the clear list">,
    ListOption<"clearRemove", "clear-remove", "std::string",
               "Op names to remove from the clear list">,
    Option<"lowPrecisionAccumulation", "low-precision-accumulation", "bool",
           /*default=*/"false",
           "Accumulate contractions, convolutions and sums that go low in the "
           "low-precision type instead of f32">,
    Option<"lowPrecisionBoundaries", "low-precision-boundaries", "bool",
           /*default=*/"false",
           "Let function arguments and results take the low-precision type "
           "where all their uses want it (changes signatures and calls)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark on each op left in its precision (unknown op or "
           "non-f32 types)">,
    Option<"reportFile", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of every decision to this file ('-' for "
           "stdout)">,
    Option<"dotFile", "dot", "std::string", /*default=*/"\"\"",
           "Write a Graphviz (DOT) view of the painted graph to this file">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Print a summary table to stderr">,
  ];
  let statistics = [
    Statistic<"numLowOps", "low-precision-ops", "Ops painted low precision">,
    Statistic<"numF32Ops", "f32-ops", "Ops kept in f32">,
  ];
}

def InsertCastsPass : Pass<"mp-insert-casts", "ModuleOp"> {
  let summary = "Retype ops painted low and insert casts at the boundaries";
  let description = [{
    Applies the precisions written by `mp-classify-precision`: ops painted
    low are retyped in place (contractions and convolutions get low-precision
    inputs and keep their f32 accumulator; elementwise bodies compute in the
    low type; constants are converted at compile time), carried values of
    `scf` ops change type together, and `arith.truncf`/`arith.extf` are
    inserted where a value meets a use of another precision: one cast per
    value and type, placed right after the value's definition (so casts of
    values defined outside a loop stay outside it). Function signatures are
    unchanged unless the function carries `mp.precision`
    (`low-precision-boundaries`). The `mp.class`, `mp.precision` and `mp.accumulator` attributes
    are removed.

    ```mlir
    // before (after mp-classify-precision)
    %0 = linalg.matmul {mp.precision = #mp.precision<f16>}
           ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>)
    // after
    %a16 = arith.truncf %a : tensor<4x8xf32> to tensor<4x8xf16>
    %b16 = arith.truncf %b : tensor<8x16xf32> to tensor<8x16xf16>
    %0 = linalg.matmul ins(%a16, %b16 : tensor<4x8xf16>, tensor<8x16xf16>)
           outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numCasts", "casts", "Casts inserted">,
    Statistic<"numRetyped", "retyped-values", "Values whose type changed">,
  ];
}

def OptimizeCastsPass : Pass<"mp-optimize-casts", "ModuleOp"> {
  let summary = "Remove redundant casts and move casts to cheap places";
  let description = [{
    Cleans up `arith.truncf`/`arith.extf` in any graph (whether mp inserted
    them or not):

    * `truncf(extf(x))` back to the type of `x` folds to `x`;
    * casts of constants are folded at compile time (unless they overflow);
    * identical casts of one value are merged into one, placed right after
      the value's definition, which also moves casts of loop-invariant values
      out of `scf.for`/`scf.while` loops;
    * a cast of a broadcast (`linalg.broadcast` or a broadcasting
      `linalg.generic`) becomes a broadcast of the cast input, and a cast
      before `tensor.extract_slice`/`tensor.extract` moves after it, so
      casts convert the smaller tensor.

    `extf(truncf(x))` is kept: it rounds, and removing it would change
    results.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numRemoved", "casts-removed", "Casts removed">,
    Statistic<"numMoved", "casts-moved", "Casts moved to a smaller tensor">,
  ];
}

def UpdateStateInPlacePass : Pass<"mp-update-state-in-place", "ModuleOp"> {
  let summary = "Write the updated parameters and optimizer state into the "
                "buffers of the state they update (buffer donation)";
  let description = [{
    For every public function with results marked `mp.updates = i` (a
    training step of `mp-make-train-step`): where such a result is
    computed by an elementwise linalg op (all loops parallel) that reads
    argument `i` at the element it writes, into a `tensor.empty` whose
    value its body never reads, possibly through the branches of an
    `scf.if` (the step's skip-on-overflow), the op writes into argument
    `i` instead, and argument `i` gets `bufferization.writable = true`.
    One-shot bufferization then updates the parameter, the Adam moments or
    the momentum in the argument's buffer (it copies first only where
    something reads the old value afterwards), the function returns that
    buffer, and the runtime hands it back without a copy: a training step
    allocates and copies no state (JAX's `donate_argnums`, IREE's tied
    operands). The caller's argument is consumed: after the call it holds
    the updated value. Run after `mp-protect-arguments` (which marks every
    argument read-only) and before bufferization; part of
    `mp-lower-to-cpu`.

    ```mlir
    func.func @step(%p: tensor<128xf32> {mp.param, bufferization.writable = false}, %g: tensor<128xf32> ...)
        -> (tensor<128xf32> {mp.updates = 0 : i64}) {
      %e = tensor.empty() : tensor<128xf32>
      %new = linalg.generic ... ins(%p, %g : ...) outs(%e : tensor<128xf32>) { p - lr * g }
    // becomes
    func.func @step(%p: tensor<128xf32> {mp.param, bufferization.writable = true}, ...)
      %new = linalg.generic ... ins(%p, %g : ...) outs(%p : tensor<128xf32>) { p - lr * g }
    ```
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
  let statistics = [
    Statistic<"numUpdatedInPlace", "updated-in-place",
              "Results written into the argument they update">,
  ];
}

def ReturnStateInPlacePass : Pass<"mp-return-state-in-place", "ModuleOp"> {
  let summary = "Return the state that a step updated in place as the "
                "argument's own buffer, not a clone";
  let description = [{
    After bufferization and buffer deallocation: a public function's result
    marked `mp.updates = i` that returns `bufferization.clone` of argument
    `i` (deallocation clones every argument a function returns, so that the
    caller owns its results) returns argument `i` itself, and the clone is
    erased. With `mp-update-state-in-place` before bufferization, that is
    how a training step returns the parameters and optimizer state it
    updated in the arguments' buffers: no allocation and no copy. The
    runtime hands such a result to the caller as a view of the argument
    (`mp_entry_call`). Part of `mp-lower-to-cpu`.

    ```mlir
    %c = bufferization.clone %arg0 : memref<128xf32> to memref<128xf32>
    return %c : memref<128xf32>   // result attribute {mp.updates = 0}
    // becomes
    return %arg0 : memref<128xf32>
    ```
  }];
  let statistics = [
    Statistic<"numReturnedInPlace", "returned-in-place",
              "Clones of updated arguments removed">,
  ];
}

#endif // MP_DIALECT_MP_TRANSFORMS_PASSES_TD
