//===- Passes.td - mp CPU code generation passes -----------*- tablegen -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Passes of the CPU backend (mp-lower-to-cpu). None of them reads or writes
// an mp op or attribute: they prepare linalg on tensors for the host CPU.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CODEGEN_CPU_PASSES_TD
#define MP_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def DecomposeAggregatesPass : Pass<"mp-decompose-aggregates"> {
  let summary = "Decompose aggregate linalg ops (softmax) into generic ops";
  let description = [{
    Rewrites every op implementing `linalg::AggregatedOpInterface` (e.g.
    `linalg.softmax`) into the structured ops it stands for (max reduction,
    subtract, exp, sum reduction, divide), so that loop lowering can handle
    it. Other ops are left alone. Part of `mp-lower-to-cpu`.

    ```mlir
    %0 = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
    // becomes linalg.fill + linalg.generic (max), linalg.generic (sub, exp),
    // linalg.generic (sum), linalg.generic (div)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  let statistics = [
    Statistic<"numDecomposed", "decomposed", "Aggregate ops decomposed">,
  ];
}

def VerifyCpuInputPass : Pass<"mp-verify-cpu-input", "ModuleOp"> {
  let summary = "Reject input a pipeline that lowers linalg cannot compile";
  let description = [{
    Fails with an error at the first op of the `gpu`, `nvgpu` or `nvvm`
    dialects or with a buffer in a GPU address space (a result, a block
    argument, a function's signature, a global): kernels, their workgroup
    memory and Tensor Core instructions
    have no CPU lowering, and would otherwise come out of `mp-lower-to-cpu`
    half converted (a `gpu.launch` whose workgroup buffers the LLVM
    conversion cannot type). GPU code is compiled by `mp-lower-to-gpu`, and
    its tiled stage runs on the CPU through `mp-lower-to-gpu-emulation`.
    Both of those compile linalg on tensors and make their own GPU code, so
    they start with this check as well (`pipeline` names the pipeline in
    the error): a `gpu.launch` given to them would be bufferized and
    retyped into invalid IR. It also fails at a `tensor.expand_shape` or
    `memref.expand_shape` that gives two or more dimensions of one source
    dimension dynamic sizes (`tensor<?xf32>` into `tensor<?x?xf32>`):
    LLVM 22's `expand-strided-metadata` crashes on it, and at a
    `tensor.expand_shape` whose `output_shape` disagrees with its type
    (an SSA value for a static size, or a constant for a dynamic one),
    which bufferizes to an invalid `memref.expand_shape`. First pass of all
    three pipelines.
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string", "\"mp-lower-to-cpu\"",
           "The pipeline the error names">,
  ];
}

def ProtectArgumentsPass : Pass<"mp-protect-arguments", "ModuleOp"> {
  let summary = "Keep bufferization from writing into the caller's tensors";
  let description = [{
    Marks every tensor argument of every public function
    `bufferization.writable = false`, so that one-shot bufferization with
    function boundaries copies an argument before an op writes to it (e.g. an
    elementwise op whose destination is its own input) instead of
    overwriting the caller's buffer. Part of `mp-lower-to-cpu`.

    ```mlir
    func.func @f(%x: tensor<4xf32> {bufferization.writable = false}) ...
    ```
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def KeepEmulatedRoundingsPass : Pass<"mp-keep-emulated-roundings"> {
  let summary = "Keep the f16/bf16 roundings of arith-emulate-unsupported-"
                "floats";
  let description = [{
    `arith-emulate-unsupported-floats` computes each f16 or bf16 op in f32
    between an `arith.extf` and an `arith.truncf` marked
    `fastmath<contract>`, which lets the folder turn
    `extf(truncf(x))` into `x`: a chain of such ops in one loop body (an
    elementwise op fused into another) then skips the rounding of its
    intermediate results, which the ops' types prescribe and which the
    same ops in separate loops (or the GPU, which rounds each op) do. In a
    random graph (3818, bf16), the GPU emulation's sum `(a + b) + c` of
    bf16 values came out one bf16 ulp off the CPU backend's and NumPy's
    per-op rounding in 1912 of 16900 elements. This pass drops `contract`
    from those extensions and truncations (from and to f16 and bf16), so
    that every op's result is rounded to its type. Part of the CPU
    lowering of `mp-lower-to-cpu` and `mp-lower-to-gpu-emulation`, right
    after `arith-emulate-unsupported-floats`.

    ```mlir
    %s = arith.truncf %sum fastmath<contract> : f32 to bf16
    %t = arith.extf %s fastmath<contract> : bf16 to f32
    // becomes
    %s = arith.truncf %sum : f32 to bf16
    %t = arith.extf %s : bf16 to f32
    ```
  }];
}

def MultiplyAddToFmaPass : Pass<"mp-multiply-add-to-fma"> {
  let summary = "Accumulate the contractions and convolutions left to loop "
                "lowering with fused multiply-adds";
  let description = [{
    Rewrites the body of each contraction and convolution whose body is
    `acc + a * b` (the operands possibly extended to the accumulator's
    type) and whose accumulator is f32 as `math.fma(a, b, acc)`, a named
    op as the `linalg.generic` it stands for. Loop lowering then computes
    each step as one fused
    multiply-add, as `vector.contract`'s lowering (the CPU backend's
    register blocks, the GPU emulation's tiles) and the GPU's kernels do.
    Without it an f32 convolution that the CPU backend computes in loops
    rounded each product before adding it, and came out one f32 ulp apart
    from the same convolution on the GPU path (`convs.mlir`, 1.6e-7). It
    changes nothing where the products are exact (f16 and bf16 operands
    multiplied in f32). Other accumulators (f16, f64) are loops on the
    GPU too, whose multiplies and adds round one by one: left alone. On a
    CPU without FMA instructions (`--target-cpu x86-64`) each fused
    multiply-add is a call to libm's `fmaf`, as `vector.contract`'s are:
    the same bits, slower. Part of the CPU lowering of `mp-lower-to-cpu` and
    `mp-lower-to-gpu-emulation`, right before `convert-linalg-to-loops`,
    and of `mp-lower-to-gpu` (and the emulation's kernel stage) right
    before `convert-linalg-to-parallel-loops`: contractions and
    convolutions of dynamic sizes are parallel loops there, which rounded
    each product (`mul.rn.f32`, then `add.rn.f32`).

    ```mlir
    linalg.conv_1d ins(%x, %w : memref<10xf32>, memref<3xf32>)
                   outs(%y : memref<8xf32>)
    // becomes
    linalg.generic {...} ins(%x, %w : memref<10xf32>, memref<3xf32>)
                         outs(%y : memref<8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %0 = math.fma %a, %b, %acc : f32
      linalg.yield %0 : f32
    }
    ```
  }];
  let dependentDialects = ["::mlir::math::MathDialect"];
}

def LLVMBF16AsI16Pass : Pass<"mp-llvm-bf16-as-i16"> {
  let summary = "Load, store, select, carry and pass bf16 values as i16 in "
                "the LLVM dialect";
  let description = [{
    On the LLVM dialect of host code: each `llvm.load` and `llvm.store` of
    bf16 (or a vector of bf16) moves i16 instead, each `llvm.select` of
    bf16 selects i16, and each block argument of bf16 but the entry
    block's becomes i16 (its branches pass bitcasts), with `llvm.bitcast`s
    where bf16 values meet them. The bits are the same; bf16 values then
    exist only between a bitcast and the integer operations that mp's
    conversions are made of (`arith-expand`), which LLVM folds away.
    LLVM 22's x86 backend soft-promotes a bf16 phi or select through f32
    and rounds it back with compiler-rt's `__truncsfbf2`, which a module
    that mp loads cannot resolve (`undefined symbol: __truncsfbf2` without
    AVX512-BF16, such as `--target-cpu x86-64-v3`); with AVX512-BF16
    (znver4), loops that its vectorizers turned into odd-sized vectors of
    bf16 made instruction selection abort ("Do not know how to soft
    promote this operator's operand"). Values of i16 never reach either.
    The GPU emulation's masked operand copies (a bf16 element or zero)
    made such phis (random graphs with layers, bf16, 2026-11-29). A bf16
    value that another block reads (an argument, a bitcast, arithmetic)
    crosses as i16 too, bitcast where it is made and back at the start of
    each block reading it: at `-O0` instruction selection keeps such a
    value in a virtual register, which it soft-promotes the same way. So
    does a bf16 argument or result of a function: each function with a body
    (the module's own, such as the outlined producers that the emulation's
    tile copies call; mp's runtime calls entry points with buffers only)
    takes and returns i16 instead, and its calls pass and receive i16;
    declarations keep their signatures. Last pass of the CPU lowering of
    `mp-lower-to-cpu` and `mp-lower-to-gpu-emulation`.

    ```mlir
    %v = llvm.load %p : !llvm.ptr -> bf16
    // becomes
    %bits = llvm.load %p : !llvm.ptr -> i16
    %v = llvm.bitcast %bits : i16 to bf16
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def UnaliasLoopResultsPass : Pass<"mp-unalias-loop-results"> {
  let summary = "Copy a tensor that an scf.for yields as more than one of "
                "its results";
  let description = [{
    One-Shot Bufferize (LLVM 22, with `allow-return-allocs-from-loops`)
    takes each result of an `scf.for` to share a buffer only with its own
    initial value and with buffers allocated in the loop. A loop that
    yields one tensor as two of its results, itself or through views
    (`tensor.expand_shape`, `collapse_shape`, `extract_slice`, `cast`,
    `reshape`, `bitcast`), returns the same buffer as both, and an op that
    later writes one of them in place overwrites the other: a GEMM
    accumulating into the first result changed the second, which an op
    after it read (a random graph, `emulation.test`; upstream's
    `mlir-opt --one-shot-bufferize` does the same on the example below).
    This pass yields a copy (`bufferization.alloc_tensor() copy(%v)`) in
    each position after the first one that yields a view of the same
    tensor, so that every result has a buffer of its own. `scf.while` and
    `scf.if` need nothing: their bufferization copies such values already.
    Part of `mp-lower-to-cpu` and `mp-lower-to-gpu`, before bufferization.

    ```mlir
    %r:2 = scf.for ... iter_args(%x = %a, %y = %b) -> (tensor<8xf32>, tensor<8xf32>) {
      %f = linalg.fill ins(%s : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %f, %f : tensor<8xf32>, tensor<8xf32>
    }
    // becomes
      %copy = bufferization.alloc_tensor() copy(%f) : tensor<8xf32>
      scf.yield %f, %copy : tensor<8xf32>, tensor<8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
  let statistics = [
    Statistic<"numCopied", "copied", "Loop results yielded as copies">,
  ];
}

def WriteIntoSlicesPass : Pass<"mp-write-into-slices"> {
  let summary = "Let the op that writes a buffer copied into a slice of "
                "another write the slice instead";
  let description = [{
    Bufferization copies each operand of a `tensor.concat`, and each
    `tensor.insert_slice` whose source it could not compute in place, into
    its slice of the destination (`memref.copy %src, %subview`). When
    `%src` is an allocation (or a reshape of one, `memref.collapse_shape`,
    `expand_shape`) that one structured op writes whole (all loops
    parallel, its init not read, written at a permutation of the loops),
    that nothing else reads and that the copy reads in full, that op
    writes the slice itself: through the copy's target, reshaped back to
    the allocation's shape, and the copy, the allocation and its
    deallocations go. The destination must be an allocation of static
    shape, the slice a chain of static `memref.subview`s and reshapes of
    it, and no op between the writer and the copy may touch the slice
    (other slices of a `memref.subview` of static offsets that do not
    overlap it may be). The destination's allocation moves before the
    writer when it comes after it.

    The gradient of a transformer's packed projection to queries, keys
    and values concatenates three transposed gradients: the transposes now
    write their thirds of the concatenation, which no kernel copies any
    more. Part of `mp-lower-to-gpu` and `mp-lower-to-cpu`, after
    bufferization.

    ```mlir
    %t = memref.alloc() : memref<4x8x2xf32>
    linalg.transpose ins(%a : memref<4x2x8xf32>) outs(%t : memref<4x8x2xf32>) permutation = [0, 2, 1]
    %c = memref.collapse_shape %t [[0], [1, 2]] : memref<4x8x2xf32> into memref<4x16xf32>
    %cat = memref.alloc() : memref<4x32xf32>
    %s = memref.subview %cat[0, 0] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1]>>
    memref.copy %c, %s : memref<4x16xf32> to memref<4x16xf32, strided<[32, 1]>>
    // becomes
    %cat = memref.alloc() : memref<4x32xf32>
    %s = memref.subview %cat[0, 0] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1]>>
    %e = memref.expand_shape %s [[0], [1, 2]] output_shape [4, 8, 2] : memref<4x16xf32, strided<[32, 1]>> into memref<4x8x2xf32, strided<[32, 2, 1]>>
    linalg.transpose ins(%a : memref<4x2x8xf32>) outs(%e : memref<4x8x2xf32, strided<[32, 2, 1]>>) permutation = [0, 2, 1]
    ```
  }];
  let statistics = [
    Statistic<"numForwarded", "forwarded",
              "Copies whose source's writer now writes their target">,
  ];
}

def WidenContractionOperandsPass : Pass<"mp-widen-contraction-operands"> {
  let summary = "Widen f16/bf16 contraction and convolution inputs to f32 "
                "once per tensor";
  let description = [{
    For targets without low-precision arithmetic (the CPU backend): a named
    contraction (`linalg.matmul`, `linalg.batch_matmul`...) or convolution
    (`linalg.conv_*`, `linalg.depthwise_conv_*`...) with f16 or bf16 inputs
    and an f32 accumulator gets its inputs widened to f32 by one
    elementwise `linalg.generic` each, and its body rebuilt for f32 inputs.
    The results are bit-identical (the body widened every element before
    multiplying anyway), but the loops no longer convert inside the
    multiply-add chain: a scalar loop's conversions serialize it, and a
    register block of `mp-vectorize-contractions` would convert each
    left-hand element once per 16 columns (the fp16 MLP's gradient call
    went from 0.94 to 0.41 ms, fp32 0.37). Part of `mp-lower-to-cpu`.

    ```mlir
    %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x4x4xf16>, tensor<1x1x3x3xf16>)
                                  outs(%acc : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
    // becomes
    %x32 = linalg.generic ... ins(%x : tensor<1x1x4x4xf16>) { arith.extf } -> tensor<1x1x4x4xf32>
    %w32 = linalg.generic ... ins(%w : tensor<1x1x3x3xf16>) { arith.extf } -> tensor<1x1x3x3xf32>
    %c = linalg.conv_2d_nchw_fchw ins(%x32, %w32 : ...) outs(%acc : tensor<1x1x2x2xf32>)
    ```
  }];
  let options = [
    Option<"keepBF16Convolutions", "keep-bf16-convolutions", "bool",
           /*default=*/"false",
           "Leave convolutions whose inputs are all bf16 and whose "
           "reduction steps are even in number alone, for mp-conv-to-gemm "
           "and mp-pack-bf16-contractions to multiply in bf16 pairs">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PackBF16ContractionsPass : Pass<"mp-pack-bf16-contractions"> {
  let summary = "Put bf16 contractions in the pairwise layout of AVX512-BF16's "
                "dot product";
  let description = [{
    For CPUs with AVX512-BF16 (`vdpbf16ps` adds the products of 16 pairs of
    bf16 elements into 16 f32 lanes: twice the multiply-adds of an f32 FMA
    per instruction). A contraction on tensors (`linalg.matmul`,
    `linalg.batch_matmul`, contraction `linalg.generic`s) with bf16 operands,
    an f32 accumulator, a body computing `acc + ext(a) * ext(b)`, static
    sizes, one m, n and k loop, an even K and N a multiple of 16 becomes a contraction over K/2 pairs: each operand gets a
    trailing dimension of 2 that holds elements 2k and 2k+1 of its
    reduction dimension, the right-hand side's pairs interleaved along N
    (`[K/2][N][2]`). An operand whose reduction dimension is already its
    innermost one is reshaped (`tensor.expand_shape`, no copy); the others
    are copied once into the pair layout. `mp-vectorize-contractions` then
    multiplies each register block with `x86vector.avx512.dot`.

    The sums differ from the widened f32 path in rounding: each instruction
    adds two products into a lane, and it treats bf16 denormals as zero.
    Part of `mp-lower-to-cpu` with `bf16-dot`, which `mp-run` turns on when
    the host CPU has AVX512-BF16.

    ```mlir
    %c = linalg.matmul ins(%a, %b : tensor<64x784xbf16>, tensor<784x128xbf16>)
                       outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
    // becomes
    %a2 = tensor.expand_shape %a [[0], [1, 2]] : tensor<64x784xbf16> into tensor<64x392x2xbf16>
    %b2 = linalg.generic ... ins(%b : tensor<784x128xbf16>) ... -> tensor<392x128x2xbf16>
    %c = linalg.generic {iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
           ins(%a2, %b2 : tensor<64x392x2xbf16>, tensor<392x128x2xbf16>) outs(%acc : tensor<64x128xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numPacked", "packed", "Contractions put in the pair layout">,
  ];
}

def FuseElementwisePass : Pass<"mp-fuse-elementwise"> {
  let summary = "Fuse elementwise producers into their consumers: one loop "
                "nest (one kernel) where there were several";
  let description = [{
    On tensors, fuses each elementwise `linalg.generic` whose result has one
    use into the `linalg.generic` that uses it (upstream's elementwise
    fusion: the producer's body is inlined, its result never written to
    memory), so a chain such as cast, bias, activation, cast becomes one
    kernel (one loop nest on the CPU), and an elementwise op feeding a reduction (the `exp` of a
    softmax, a loss's terms) is computed inside it. The scalar operations
    and their order stay the same. Results with several uses are not
    fused (their computation would be repeated), nor anything into a
    contraction: its f16/bf16 operands stay visible to the Tensor Core path
    (and cuBLASLt).

    First, a generic of several results, each read once by an elementwise
    generic at the same indices (an optimizer's update of a parameter and
    its moments, and the selects that keep the old values on a skipped step
    in mp-lower-to-gpu), takes its readers in: one generic computes the
    results and the readers' values from them, writing into the producer's
    outputs (upstream's fusion would copy the producer into each reader).

    With `recompute` (set by `mp-lower-to-gpu`), a producer with several
    uses is also fused into each of them when recomputing it reads no more
    memory than writing its result and reading it back: an elementwise
    generic of one result, static shapes and at most 8 operations, whose R
    readers each reading its inputs (R x inputs) read no more bytes than
    it and they do now (inputs + result + R x result), none of them a
    contraction (which would read the inputs in its operand copies, once
    per tile). A softmax's `exp` that its sum and its division both read
    is one. On a GPU, computing it twice costs less than the memory
    traffic; the values are the same bit for bit. An input that a GEMM's
    epilogue could compute (the result of a contraction, directly or
    through single-use elementwise ops or reshapes, read by nothing else:
    attention scores split into heads) counts as
    free when the producer is kept, and as stored and read by every
    reader when it is recomputed, unless a reader is itself an
    elementwise op of several uses (which, recomputing the producer,
    would be the epilogue instead) that reads nothing computed after the
    producer (a softmax's exp reads the rows' maxima: no epilogue). The MLP's ReLU gradient, computed from
    an f32 GEMM result and read by the weight gradient's GEMM and the bias
    gradient's sum, is then stored once in f16 by the GEMM's epilogue
    instead of both readers reading the f32 result. A transpose (a copy
    at permuted indices) is fused into every elementwise reader, whatever
    its other readers: the reader reads the transpose's input instead, as
    many bytes, and the transpose stays for the others (a GEMM, whose
    operand copies then compute it). Conversely, such a cheap producer of
    the function's arguments that a transpose and generated contractions
    read (not cuBLASLt's, `mp.gpu_gemm`: a weight's cast to f16 that the
    forward GEMM reads transposed and the input gradient's GEMM as it is)
    is fused into the transpose: the contractions alone read it then, and
    their operand copies compute it (`mp-gpu-tile-contractions`), so that
    neither the cast nor the transpose is a kernel of its own. Part of
    `mp-lower-to-gpu`, before the tiles are chosen,
    and of `mp-lower-to-cpu` (from opt-level 1), where each fused chain is
    one pass over memory instead of one per op.

    ```mlir
    %h = linalg.generic {...} ins(%x : tensor<64x128xf32>) ... { arith.truncf }   // one use
    %r = linalg.generic {...} ins(%h, %b : ...) ... { arith.extf, arith.addf, arith.maximumf }
    // becomes one linalg.generic with truncf, extf, addf and maximumf
    ```
  }];
  let options = [
    Option<"recompute", "recompute", "bool", /*default=*/"false",
           "Also fuse cheap producers with several uses into each of them "
           "(recomputed where read)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def SplitConvolutionPhasesPass : Pass<"mp-split-convolution-phases"> {
  let summary = "Convolutions over an image spread out with zeros (the "
                "input gradient of a strided convolution) as one "
                "convolution per output phase over its nonzero elements";
  let description = [{
    The gradient of a convolution of stride S with respect to its image
    is a convolution of stride 1 over the output gradient spread out with
    zeros (torch-mlir exports it so: a `tensor.insert_slice` with strides S
    into a tensor of zeros). Along a spread dimension, the outputs
    o = S u + r of phase r meet nonzero elements only through the taps
    f = f0 + S t with (r + f0 - offset) % S == 0, at the source's element
    u + t + c. This pass rewrites each convolution on tensors (linalg's
    convolution interface, static shapes) whose image is such an insertion
    as one convolution per combination of phases: the source (zero-padded
    where a phase reads past its edges), the phase's taps (a strided
    `tensor.extract_slice` of the filter) and the phase's outputs (a
    strided slice of the accumulator, inserted back). The same products
    are added in the same order, without the S^2 - 1 products by zero
    in every 2-d tap: for the example CNN's second convolution (stride 2,
    3 x 3), 2.25 taps on average rather than 9.

    Matched: every inserted dimension is either whole (offset 0, stride 1)
    or spread and read at the sum of an output loop and a reduction loop
    (a stride-1, dilation-1 convolution along it) that no other image
    dimension reads; the insertion's destination is zeros (`linalg.fill`
    or a constant). A phase with no outputs or no taps leaves its outputs
    at the accumulator's values. Part of `mp-lower-to-cpu` (not at
    opt-level 0), before `mp-conv-to-gemm`.

    ```mlir
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16x16x16xf32>)
    %img = tensor.insert_slice %dy into %z[0, 0, 1, 1] [64, 16, 7, 7] [1, 1, 2, 2]
    %dx = linalg.conv_2d_nchw_fchw ins(%img, %w : tensor<64x16x16x16xf32>, tensor<8x16x3x3xf32>)
        outs(%acc : tensor<64x8x14x14xf32>)
    // becomes four convolutions, the first (even rows and columns; tap 1):
    %t = tensor.extract_slice %w[0, 0, 1, 1] [8, 16, 1, 1] [1, 1, 2, 2]
    %a = tensor.extract_slice %acc[0, 0, 0, 0] [64, 8, 7, 7] [1, 1, 2, 2]
    %c = linalg.conv_2d_nchw_fchw ins(%dy, %t) outs(%a) -> tensor<64x8x7x7xf32>
    %r = tensor.insert_slice %c into %acc[0, 0, 0, 0] [64, 8, 7, 7] [1, 1, 2, 2]
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numSplit", "split", "Convolutions split into phases">,
  ];
}

def ConvToGemmPass : Pass<"mp-conv-to-gemm"> {
  let summary = "Convolutions as GEMMs that mp-vectorize-contractions "
                "vectorizes (im2col)";
  let description = [{
    Rewrites each convolution on tensors (any op of linalg's convolution
    interface with an image, a filter and an output, static shapes) as a
    contraction `linalg.generic` (the convolution's body) per group of a
    grouped convolution:
    - M: the output channels (loops that index the filter, not the image);
    - N: the pixels, all the other output loops that do not index the
      filter, images and spatial loops together (N x OH x OW of NCHW);
    - K: the reduction loops, in the filter's order.
    The filter (M x K), the image's patches (im2col, K x N: each row is
    contiguous, so the register blocks load vectors of it) and the output's
    initial value (M x N) are gathers: `linalg.generic`s with one loop per
    convolution loop, reading their input through the convolution's own
    map (strides, dilations and groups need no special case, and no index
    needs a division), collapsed to matrices (`tensor.collapse_shape`, a
    view); a filter already stored that way (FCHW) is only collapsed. A
    last `linalg.generic` writes the product back in the output's layout.
    Putting the images among the pixels makes N large (64 x 14 x 14 rather
    than 14 x 14) and a multiple of the register block.

    A convolution is rewritten only when the columns and reduction steps
    of `mp-vectorize-contractions`' register block (`tile-n`, `tile-k`,
    same defaults) divide its N and K, and its image and filter have one
    element type (as after `mp-widen-contraction-operands`); the others
    stay loops. (`mp-vectorize-contractions` shrinks the block for other
    sizes: along the output channels that costs little, every row block
    still reads whole vectors of pixels, so M may be anything; for the
    pixels of a convolution, 49 or 196, the blocks would be too narrow to
    pay for the gathers.) Part of
    `mp-lower-to-cpu` (not at opt-level 0).

    ```mlir
    %o = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, ...}
        ins(%img, %w : tensor<64x1x30x30xf32>, tensor<8x1x3x3xf32>)
        outs(%acc : tensor<64x8x14x14xf32>) -> tensor<64x8x14x14xf32>
    // becomes
    %wm = tensor.collapse_shape %w [[0], [1, 2, 3]] : ... into tensor<8x9xf32>
    %p = linalg.generic {indexing_maps = [(c, kh, kw, n, oh, ow) -> (n, c, oh * 2 + kh, ow * 2 + kw), identity]}
        ins(%img) -> tensor<1x3x3x64x14x14xf32>
    %patches = tensor.collapse_shape %p [[0, 1, 2], [3, 4, 5]] : ... into tensor<9x12544xf32>
    %c = ... %acc gathered to tensor<8x64x14x14xf32>, collapsed to tensor<8x12544xf32>
    %gemm = linalg.generic {iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%wm, %patches) outs(%c) { mulf, addf } -> tensor<8x12544xf32>
    %o = linalg.generic ... ins(expand_shape %gemm : tensor<8x64x14x14xf32>) -> tensor<64x8x14x14xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"tileN", "tile-n", "int64_t",
           /*default=*/"kDefaultTileN",
           "Columns of mp-vectorize-contractions' register block">,
    Option<"tileK", "tile-k", "int64_t",
           /*default=*/"kDefaultTileK",
           "Reduction steps of mp-vectorize-contractions' register block">,
  ];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Convolutions rewritten as GEMMs">,
  ];
}

def FlattenElementwisePass : Pass<"mp-flatten-elementwise"> {
  let summary = "Merge the loops of elementwise linalg.generics that every "
                "operand reads contiguously";
  let description = [{
    An all-parallel `linalg.generic` on tensors whose maps are projected
    permutations runs with its consecutive loops that every operand reads
    contiguously (in order and next to each other, or not at all) merged
    into one, each group as long as it can be, over `tensor.collapse_shape`
    views of its operands, its results expanded back (upstream's
    collapse-dimensions rewrite). LLVM vectorizes the innermost loop it
    gets: a cast or an activation over 64 x 8 x 14 x 14 elements is one
    loop of 100352 rather than 7168 loops of 14, each with a scalar
    remainder (in f16, one conversion at a time); a bias broadcast along
    the channels gets an innermost loop of 14 x 14. A group holds at most
    one loop of dynamic extent (LLVM 22's `expand-strided-metadata`
    crashes on a `memref.expand_shape` with two dynamic sizes in a group).
    Part of `mp-lower-to-cpu` (not at opt-level 0).

    ```mlir
    %r = linalg.generic {indexing_maps = [(n, c, h, w) -> (n, c, h, w), (n, c, h, w) -> (n, c, h, w)], ...}
        ins(%x : tensor<64x8x14x14xf16>) outs(%e : tensor<64x8x14x14xf32>) { arith.extf }
    // becomes
    %c = tensor.collapse_shape %x [[0, 1, 2, 3]] : tensor<64x8x14x14xf16> into tensor<100352xf16>
    %g = linalg.generic {indexing_maps = [(d0) -> (d0), (d0) -> (d0)], ...} ins(%c) ... -> tensor<100352xf32>
    %r = tensor.expand_shape %g [[0, 1, 2, 3]] ... into tensor<64x8x14x14xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numFlattened", "flattened", "Generics run as one loop">,
  ];
}

def DistributeLoopsPass : Pass<"mp-distribute-loops"> {
  let summary = "Split large linalg ops into shares that run on threads "
                "(scf.forall)";
  let description = [{
    Every linalg op on tensors with static sizes, at least one parallel
    loop and at least `min-work` work (the iterations of its loop nest
    times the ops of its body, a math op such as `math.exp` counting 8: a
    contraction's multiply-adds count 2 each) becomes an
    `scf.forall` over shares of one parallel loop, each share a
    `tensor.extract_slice` of the operands that the same op computes;
    `mp-lower-to-cpu` runs the forall on threads (OpenMP). Shares never
    split a reduction, so every result is computed in the same order as
    on one thread: results are bit-identical at any thread count.
    - Contractions that `mp-vectorize-contractions` takes are split along
      whole register blocks (`tile-m` x `tile-n`, as that pass fits them),
      so every share still vectorizes: along n when it has at least 8
      blocks (each share packs its own right-hand panels and reuses them
      for every row block, as the whole contraction did: sgemm 1024^3 took
      51 ms on one thread when split along m, 22 ms along n), else along
      the batch, n or m loop with the most blocks.
    - The contraction's epilogue, an elementwise `linalg.generic` that is
      the only user of its result (bias, activation, the cast to the next
      layer's type), is fused into the same shares (upstream's consumer
      fusion): each share computes it on the columns its GEMM just wrote,
      still in cache, and the layer is one parallel region instead of two
      (the fp32 MLP step +3% on two threads, even on one).
    - Other ops are split along their first parallel loop with more than
      one iteration.
    - A loop is cut into at most 64 equal shares (the static schedule
      gives each thread a contiguous run of them); a loop whose size has
      no divisor that makes at least 2 equal shares is not split.
    Ops already inside an `scf.forall` are left alone. Part of
    `mp-lower-to-cpu` (`parallel=true`, not at opt-level 0).

    ```mlir
    %r = linalg.generic ... ins(%x : tensor<100352xf32>) outs(%e : tensor<100352xf32>)
    // becomes
    %r = scf.forall (%i) = (0) to (100352) step (1568) shared_outs(%o = %e) -> (tensor<100352xf32>) {
      %s = linalg.generic ... ins(%x[%i] : tensor<1568xf32>) outs(%o[%i] : tensor<1568xf32>)
      scf.forall.in_parallel { tensor.parallel_insert_slice %s into %o[%i] [1568] [1] }
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"kDefaultTileM",
           "Rows of mp-vectorize-contractions' register block">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"kDefaultTileN",
           "Columns of mp-vectorize-contractions' register block">,
    Option<"minWork", "min-work", "int64_t",
           /*default=*/"kDefaultMinParallelWork",
           "Work (iterations times body ops) from which an op runs on "
           "threads">,
  ];
  let statistics = [
    Statistic<"numDistributed", "distributed", "Ops split into shares">,
  ];
}

def VectorizeGathersPass : Pass<"mp-vectorize-gathers"> {
  let summary = "Copy the rows of gathers and transposes as vectors";
  let description = [{
    A `linalg.generic` on tensors that copies from another layout: an
    im2col gather of `mp-conv-to-gemm` (`in[n, c, 2 * oh + kh, 2 * ow +
    kw]`), a transpose that keeps the innermost dimension; its body may
    compute on the way with elementwise arithmetic on the input element
    (a cast, a ReLU fused in by `mp-fuse-elementwise`), applied to the row
    vector lane by lane. When its innermost loop reads the input's
    innermost dimension with a constant stride `s` of at most 4, and runs
    for 4 to 64 iterations, every row of the output becomes one
    `vector.transfer_read` of `s * (w - 1) + 1` contiguous elements, a
    `vector.shuffle` that keeps every `s`-th one (none when `s` is 1), and
    one `vector.transfer_write`, in `scf.for` loops over the other
    dimensions. LLVM would otherwise copy these rows element by element:
    they are short (a 3x3 window, 14 output columns), and inside an OpenMP
    share it cannot prove that input and output do not overlap. Other ops
    are left alone. Part of `mp-lower-to-cpu`.

    ```mlir
    %g = linalg.generic {indexing_maps = [affine_map<(kh, n, oh, ow) -> (n, 2 * oh + kh, 2 * ow)>,
                                          affine_map<(kh, n, oh, ow) -> (kh, n, oh, ow)>], ...}
        ins(%x : tensor<64x30x30xf32>) outs(%e : tensor<3x64x14x14xf32>)
    // becomes, per (kh, n, oh):
    %row = vector.transfer_read %x[%n, %h, %c0], %pad {in_bounds = [true]} : tensor<64x30x30xf32>, vector<27xf32>
    %every2 = vector.shuffle %row, %row [0, 2, 4, ..., 26] : vector<27xf32>, vector<27xf32>
    %next = vector.transfer_write %every2, %acc[%kh, %n, %oh, %c0] {in_bounds = [true]} : vector<14xf32>, tensor<3x64x14x14xf32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let statistics = [
    Statistic<"numVectorized", "vectorized", "Gathers and transposes "
              "copied as vector rows">,
  ];
}

def VectorizeReductionsPass : Pass<"mp-vectorize-reductions"> {
  let summary = "Sum rows in vector lanes";
  let description = [{
    A `linalg.generic` on tensors that adds a term of its one input to an
    f32 output (`out + term(in)`, the term lane-wise arith or math ops:
    a bias gradient, the sum of a softmax, an f16 input widened) along an
    innermost reduction loop that reads the input's innermost dimension
    contiguously for at least 32 elements. Trailing reduction loops that
    every operand reads contiguously are merged first (a bias gradient's
    image height and width). Each row is then summed in 16 partial sums,
    one vector read per 16 elements, added up with `vector.reduction` and
    the rest of the row one element at a time, and added to the output
    element, in `scf.for` loops over the other dimensions. LLVM keeps such
    a sum a chain of scalar adds (reassociating it would change the
    result), through memory inside an OpenMP share. The order of the
    additions changes, the same at any thread count. Other ops are left
    alone. Part of `mp-lower-to-cpu`.

    ```mlir
    // out[c] += in[n, c, h, w] over n, h and w (14 x 14): per (n, c), 12
    // vector<16xf32> reads of the row of 196, 4 scalar reads, one update
    // of out[c].
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
  let statistics = [
    Statistic<"numVectorized", "vectorized", "Row sums vectorized">,
  ];
}

def StridedCopiesToLinalgPass : Pass<"mp-strided-copies-to-linalg"> {
  let summary = "Turn buffer copies that are not one block of memory into "
                "linalg.copy";
  let description = [{
    Bufferization writes a padded tensor (`tensor.pad`, the zero border
    of a convolution's input) and a strided insertion (`tensor.insert_slice`
    with strides, a strided convolution's gradient) with `memref.copy` into
    a strided view. LLVM lowers such a copy to a call of the runtime's
    generic `memrefCopy`, which walks the shape element by element and
    calls `memcpy` per innermost row (28 floats for a Fashion-MNIST image).
    Each ranked `memref.copy` whose source or target is not one contiguous
    row-major block becomes `linalg.copy`: loops that LLVM vectorizes.
    Copies between contiguous buffers stay `memref.copy` (one `memcpy`), as
    do unranked ones. Part of `mp-lower-to-cpu`, after bufferization.

    ```mlir
    memref.copy %x, %view : memref<64x28x28xf32> to memref<64x28x28xf32, strided<[900, 30, 1], offset: 31>>
    // becomes
    linalg.copy ins(%x : memref<64x28x28xf32>) outs(%view : memref<64x28x28xf32, strided<[900, 30, 1], offset: 31>>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numCopies", "copies", "memref.copy ops turned into linalg.copy">,
  ];
}

def VectorizeContractionsPass : Pass<"mp-vectorize-contractions"> {
  let summary = "Tile contractions into register blocks and vectorize them";
  let description = [{
    For each contraction on tensors (`linalg.matmul`, `linalg.batch_matmul`,
    contraction `linalg.generic`s) with static sizes: tiles it into
    `tile-m` x `tile-n` x `tile-k` register blocks (loops ordered batch, n,
    m, k); along a loop the block does not divide, the block takes the
    whole loop if it is shorter, else the largest divisor of both (10
    columns: one block of 10; 10 rows with tile-m 4: blocks of 2). Copies
    each `tile-n`-wide panel of the right-hand side into a contiguous
    buffer once per panel when at least 16 row blocks read it (so the
    innermost loop reads memory sequentially and the panel stays in cache
    across the rows), vectorizes each register block to `vector.contract`
    (f16/bf16 operands are widened to the f32 accumulator), and hoists the
    accumulator out of the reduction loop so it lives in registers.
    A contraction of bf16 pairs (`mp-pack-bf16-contractions`) takes blocks
    at most 16 columns wide, each row of a block one
    `x86vector.avx512.dot` per pair of reduction steps.
    Contractions with dynamic sizes keep the scalar loops `mp-lower-to-cpu`
    makes. Part of `mp-lower-to-cpu`.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::x86vector::X86VectorDialect"];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"kDefaultTileM",
           "Rows of a register block">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"kDefaultTileN",
           "Columns of a register block (a multiple of the vector width)">,
    Option<"tileK", "tile-k", "int64_t", /*default=*/"kDefaultTileK",
           "Reduction steps per iteration of the innermost loop">,
  ];
  let statistics = [
    Statistic<"numVectorized", "vectorized", "Contractions vectorized">,
  ];
}

#endif // MP_CODEGEN_CPU_PASSES_TD
