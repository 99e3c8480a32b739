//===- Passes.td - mp GPU code generation passes -----------*- tablegen -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Passes of the NVIDIA GPU backend (mp-lower-to-gpu). They work on buffers
// (after one-shot bufferization; the tile choice before it): contractions with
// f16 or bf16 operands and an f32 accumulator become a target-independent
// tiled stage (scf.forall over thread blocks and warps, vector.contract on
// 16x8x16 tiles) lowered to mma.sync; everything else becomes parallel
// loops mapped to blocks and threads.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CODEGEN_GPU_PASSES_TD
#define MP_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GPUChooseTilesPass : Pass<"mp-gpu-choose-tiles"> {
  let summary = "Choose the block and warp (or thread) tiles of generated "
                "GEMMs";
  let description = [{
    For each contraction on tensors that `mp-gpu-tile-contractions` takes
    (f16 or bf16 operands, an f32 accumulator, static shapes): chooses its
    tiles and records them as `mp.gpu_tile = array<i64: tile-m, tile-n,
    warp-m, warp-n>`. A small GEMM gets the smallest tile of 16, 32, ...
    rows up to `warp-m` that covers M, else `tile-m`; columns likewise from
    8 up to `warp-n`: a 10-class output takes one 16-column tile, not a
    64-column block. A small tile is split into warps of half its rows (and
    columns) where the halves are still mma tiles (16 rows, 8 columns):
    more warps per block, and fewer accumulators per lane (a 28x28 batch of
    attention scores is 4 warps of 16x16, not one of 32x32). With
    `large-tiles` (M,N,WARP_M,WARP_N), a contraction that has at least
    `large-min-blocks` blocks of them (batch x ceil(M / their M) x ceil(N /
    their N)) takes them: `mp-lower-to-gpu` gives wgmma's blocks of two
    warpgroups (128,128,16,128) to the GEMMs with 256 such blocks or more
    (on an H200, 1.4x faster than one warpgroup's 64 x 64 at 2048 to 8192,
    slower at 1024: 64 blocks). Sizes the tiles do not divide (1x1, 37x61x29) need
    nothing more: the tiled stage copies the operands' tiles into its
    buffers with zeros past their edges and writes only the part of C
    inside C. A contraction of f32 operands (and accumulator), which CUDA
    cores compute, gets blocks of the smallest power of two from 4 rows
    that covers M, at most 64, columns likewise, in threads of 4 x 4
    elements: `array<i64: tile-m, tile-n, 4, 4>` (`simt-block` and
    `simt-thread`: the largest block and a thread's tile, square), the
    Tensor Core options aside. A dynamic size (`tensor<?x29xf16>`) counts
    as a large one: a whole block (`tile-m`, `tile-n` or `simt-block`)
    along it, and `large-tiles` only where M, N and the batch are static.
    A convolution of dynamic sizes gets no tiles and a warning at the op:
    neither the implicit GEMMs nor cuDNN's calls take dynamic sizes, so it
    runs as parallel loops on CUDA cores.
    Part of `mp-lower-to-gpu`, before bufferization.

    ```mlir
    %c = linalg.matmul ins(%a, %b : tensor<37x29xf16>, tensor<29x61xf16>)
                       outs(%acc : tensor<37x61xf32>) -> tensor<37x61xf32>
    // becomes
    %c = linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>}
                       ins(%a, %b : tensor<37x29xf16>, tensor<29x61xf16>)
                       outs(%acc : tensor<37x61xf32>) -> tensor<37x61xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"64",
           "Rows of C per thread block (mp-gpu-tile-contractions' tile-m)">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"64",
           "Columns of C per thread block (mp-gpu-tile-contractions' "
           "tile-n)">,
    Option<"warpM", "warp-m", "int64_t", /*default=*/"32",
           "Rows of C per warp (mp-gpu-tile-contractions' warp-m)">,
    Option<"warpN", "warp-n", "int64_t", /*default=*/"32",
           "Columns of C per warp (mp-gpu-tile-contractions' warp-n)">,
    ListOption<"largeTiles", "large-tiles", "int64_t",
               "Tiles (M,N,WARP_M,WARP_N) for contractions that have at "
               "least large-min-blocks blocks of them; none if empty">,
    Option<"largeMinBlocks", "large-min-blocks", "int64_t",
           /*default=*/"256",
           "Blocks of large-tiles (batch included) from which a "
           "contraction takes them">,
    Option<"simtBlock", "simt-block", "int64_t", /*default=*/"64",
           "f32 GEMMs on CUDA cores: the most rows (and columns) of C per "
           "thread block (simt-thread times a power of two)">,
    Option<"simtThread", "simt-thread", "int64_t", /*default=*/"4",
           "f32 GEMMs on CUDA cores: rows (and columns) of C per thread">,
  ];
  let statistics = [
    Statistic<"numChosen", "chosen", "Contractions given tiles">,
    Statistic<"numLarge", "large", "Contractions given large-tiles">,
  ];
}

def GPUConvToGemmPass : Pass<"mp-gpu-conv-to-gemm"> {
  let summary = "Convolutions as generated GEMMs (implicit GEMM)";
  let description = [{
    Rewrites each convolution on tensors (any op of linalg's convolution
    interface with an image, a filter and an output, static shapes, a
    multiply-accumulate body) whose image and filter are both f16, both
    bf16 or both f32 and whose accumulator is f32 as a GEMM that the
    generated kernels take (Tensor Cores for f16 and bf16, CUDA cores for
    f32): the output seen as a (batch x) M x N matrix, the reduction
    loops (input channels and the filter's window) as K.
    - The output's loops are grouped: the channels (loops that index the
      filter, not the image), the pixels (the spatial loops, with the
      batch loops next to them as in NHWC) and at most one batch group
      (the other loops: N in NCHW, the groups of a grouped convolution).
      Each group must be contiguous in the output, which is collapsed
      accordingly (`tensor.collapse_shape`, a view), and the batch first;
      other convolutions (a depthwise one with a multiplier stores its
      groups between the pixels and the channels) stay parallel loops.
    - The image's patches (im2col) and the filter become gathers: a
      `linalg.generic` reading its input through an affine map (the
      convolution's own map composed with the delinearized GEMM loops:
      strides, dilations and groups need no special case) into a
      (batch x) rows x K tensor. `mp-gpu-tile-contractions` computes such a
      producer in its operand copies, so neither is written to memory.
    - The contraction is a `linalg.generic` with the convolution's body:
      M is the group the output stores first (the channels in NCHW, the
      pixels in NHWC), both operands are K-innermost.
    Part of `mp-lower-to-gpu`'s tensor stage, before
    elementwise fusion (which then fuses a cast of the image into its
    gather).

    ```mlir
    %o = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, ...}
        ins(%img, %w : tensor<64x8x16x16xf16>, tensor<16x8x3x3xf16>)
        outs(%acc : tensor<64x16x7x7xf32>) -> tensor<64x16x7x7xf32>
    // becomes
    %patches = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) ->
        (d0, d2 floordiv 9, (d1 floordiv 7) * 2 + (d2 floordiv 3) mod 3,
         d1 * 2 + d2 - (d1 floordiv 7) * 14 - (d2 floordiv 3) * 3)>,
        affine_map<(d0, d1, d2) -> (d0, d1, d2)>]}
        ins(%img : tensor<64x8x16x16xf16>) outs(%e0 : tensor<64x49x72xf16>)
    %filter = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) ->
        (d1, d2 floordiv 9, (d2 mod 9) floordiv 3, d2 mod 3)>, ...]}
        ins(%w : tensor<16x8x3x3xf16>) outs(%e1 : tensor<64x16x72xf16>)
    %c = tensor.collapse_shape %acc [[0], [1], [2, 3]]
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
        affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>,
        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], ...}
        ins(%filter, %patches ...) outs(%c : tensor<64x16x49xf32>)
    %o = tensor.expand_shape %g [[0], [1], [2, 3]] ...
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Convolutions rewritten as GEMMs">,
  ];
}

def GPUDeviceScalarsPass : Pass<"mp-gpu-device-scalars"> {
  let summary = "Compute with 0-d tensors' elements in kernels, not on the "
                "host";
  let description = [{
    A training step reads scalars out of 0-d tensors (the loss scale, the
    growth tracker, the overflow flag) and computes with them. On the GPU
    those tensors stay in device memory, so every `tensor.extract` would be
    a host round trip per step. This pass moves such scalar code into linalg
    ops that take the 0-d tensors as operands (the kernels then read them):
    - a `tensor.from_elements` of a 0-d tensor whose element is computed
      (pure scalar ops, constants) from elements of 0-d tensors becomes a
      0-d `linalg.generic` of those tensors (the loss-scale update);
    - a `linalg.generic` on tensors whose body uses such a computed scalar
      takes the 0-d tensors as operands (broadcast to every iteration) and
      computes it in its body (the scaled gradient seed);
    - an `scf.if` on an element of a 0-d `i1` tensor (the step's overflow
      flag: skip the update) whose branches compute tensors of static shape
      without side effects computes both branches and chooses each result
      that differs elementwise (`arith.select` in a `linalg.generic` reading
      the flag), which `mp-fuse-elementwise` then fuses with the update:
      the skip decision is taken on the device, and a skipped step keeps
      the parameters' bits.
    Part of `mp-lower-to-gpu`'s tensor stage.

    ```mlir
    %skip = tensor.extract %found_inf[] : tensor<i1>
    %p = scf.if %skip -> (tensor<10xf32>) {
      scf.yield %param : tensor<10xf32>
    } else {
      %new = linalg.generic ... ins(%param, %grad ...)   // the update
      scf.yield %new : tensor<10xf32>
    }
    // becomes
    %new = linalg.generic ... ins(%param, %grad ...)
    %p = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, ...]}
        ins(%found_inf, %param, %new : tensor<i1>, tensor<10xf32>, tensor<10xf32>) ...
      { arith.select %in, %in_0, %in_1 : f32 }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def GPUFoldTransposesPass : Pass<"mp-gpu-fold-transposes"> {
  let summary = "Make contractions read a transposed operand from the "
                "transpose's input";
  let description = [{
    A contraction on tensors that the GPU backend computes on Tensor Cores
    (a generated GEMM or cuBLASLt: f16 or bf16 operands, an f32
    accumulator, at most one batch loop, outermost) and that reads what a transpose writes (a
    `linalg.transpose`, or a `linalg.generic` that only permutes its input)
    reads the transpose's input instead, its indexing map for that operand
    composed with the transpose's (through a chain of transposes, with
    each one's); a transpose goes when nothing else reads it. Only a `linalg.generic`, `linalg.contract`, `linalg.matmul` or
    `linalg.batch_matmul` is rewritten (their maps may transpose operands),
    and only where the result still has its batch loop outermost.

    Why: torch-mlir's linear layers compute `x W^T` and their weight
    gradients `dY^T x` as a transpose feeding a `linalg.matmul`. Fused into
    the GEMM's operand copies (`mp-gpu-tile-contractions`), a transpose
    made each thread copy one element, the threads of a warp reading 32
    different rows; read in place, the GEMM's panel of that operand follows
    the input's layout (a B panel of N rows of K, which `ldmatrix` loads
    without `.trans`), and the copies move 4 to 16 bytes per thread along
    the contiguous dimension (`cp.async` where nothing converts them).
    An f32 GEMM (on CUDA cores) keeps its transposes: each thread reads 4
    columns of B's panel at one K, conflict-free in a K x N panel and all in
    one bank in an N x K one. Part of `mp-lower-to-gpu`'s tensor stage,
    before `mp-gpu-select-gemm`.

    ```mlir
    %wt = linalg.transpose ins(%w : tensor<128x784xbf16>)
        outs(%e : tensor<784x128xbf16>) permutation = [1, 0]
    %y = linalg.matmul ins(%x, %wt : tensor<64x784xbf16>, tensor<784x128xbf16>)
        outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
    // becomes
    %y = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                        affine_map<(d0, d1, d2) -> (d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1)>]
        ins(%x, %w : tensor<64x784xbf16>, tensor<128x784xbf16>)
        outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numFolded", "folded",
              "Contraction operands read from a transpose's input">,
  ];
}

def GPUSelectGemmPass : Pass<"mp-gpu-select-gemm"> {
  let summary = "Choose generated kernels, cuBLASLt or cuDNN for each Tensor "
                "Core contraction and convolution";
  let description = [{
    For each contraction on tensors that Tensor Cores compute (static shape,
    f16 or bf16 operands, an f32 accumulator, one M, N and K loop and at
    most one batch loop: `linalg.matmul`, `linalg.batch_matmul`, their
    transposed forms and the `linalg.generic` contractions torch-mlir
    emits) and each convolution cuDNN computes (`linalg.conv_1d_ncw_fcw`,
    `conv_2d_nchw_fchw`, `conv_3d_ncdhw_fcdhw`, the grouped
    `conv_2d_ngchw_gfchw` and `conv_2d_nhwc_fhwc`, with the same types)
    decides how the GPU backend computes it: with `gemm=codegen` a
    generated mma.sync kernel (mp-gpu-conv-to-gemm makes a convolution an
    implicit GEMM; mp-gpu-choose-tiles and mp-gpu-tile-contractions take
    it); with `gemm=library` a library call, marked `mp.gpu_gemm =
    "library"`: a cuBLASLt matmul (f16/bf16 in, 32F compute and f32 out;
    mp-gpu-library-gemm) or a cuDNN forward convolution (f32 compute;
    mp-gpu-library-conv); with `gemm=auto` the library for those of at
    least `library-min-macs` multiply-accumulates (batch x M x N x K, or N
    x K x output pixels x C/groups x window), generated kernels below
    (small ones are launch bound either way and stay open to fusion), and
    for grouped convolutions of fewer than 8 channels per group (cuDNN's
    Tensor Core kernels take groups of 8 and more; torch-mlir's filter
    gradients, 64 groups of one channel, took it 7 ms a call on an H200).
    A contraction of dynamic sizes stays generated (the calls' descriptors
    take static sizes), with a warning at it under `gemm=library`.
    Other convolutions (depthwise, other layouts, generic ones) are
    implicit GEMMs whatever `gemm` says, and a contraction with an operand
    that a `linalg.fill` or a splat constant sets (a sum scaled by a
    scalar, which elementwise fusion then folds into its body) is no
    library call. Part of `mp-lower-to-gpu`, before convolutions become
    GEMMs.

    Contractions of the same forms with f32 operands (an fp32 graph, or
    what a policy leaves in f32) have no Tensor Core kernel: generated, they
    run on CUDA cores (mp-gpu-tile-contractions, a 4 x 4 tile of C per
    thread). `library` gives them to cuBLASLt's
    f32 kernels (f32 in and out, `CUBLAS_COMPUTE_32F`, no TF32); `auto`
    keeps them generated (on an H200 the fp32 training steps at batch 256
    ran slower on cuBLASLt, not yet explained).

    torch-mlir's filter gradient of a 2-d convolution is such a grouped
    convolution, one group per image with one channel: the image
    transposed to C x N x H x W and zero-padded, the output gradient N x K
    x Ho x Wo as the filters, the forward stride as its dilation and the
    forward dilation as its stride, then the per-image gradients cut to the
    window, transposed and summed over the images. Given to the library
    (`gemm=library`, or `auto` from `library-min-macs`, counting N x K x C
    x window x output pixels), the chain becomes one `linalg.generic` on
    the padded N x C x H x W image and the output gradient, marked for the
    library: `dw[k, c, r, s] += x[n, c, r * dilation + ho * stride, s *
    dilation + wo * stride] * dy[n, k, ho, wo]`, which mp-gpu-library-conv
    gives to cuDNN's backward filter. With `auto` below the threshold the
    chain stays as it is (generated kernels: the grouped convolution as a
    batched implicit GEMM).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"gemm", "gemm", "::mlir::mp::GpuGemm",
           /*default=*/"::mlir::mp::GpuGemm::codegen",
           "How Tensor Core contractions and convolutions are computed",
           [{::mlir::mp::gpuGemmValues()}]>,
    Option<"libraryMinMacs", "library-min-macs", "int64_t",
           /*default=*/"4194304",
           "With gemm=auto: the smallest contraction (batch x M x N x K) or "
           "convolution given to a library">,
  ];
  let statistics = [
    Statistic<"numLibrary", "library-gemms", "Contractions given to cuBLASLt">,
    Statistic<"numLibraryConvs", "library-convs",
              "Convolutions given to cuDNN">,
    Statistic<"numFilterGradients", "filter-gradients",
              "torch-mlir filter gradients given to cuDNN's backward filter">,
  ];
}

def GPULibraryGemmPass : Pass<"mp-gpu-library-gemm", "::mlir::ModuleOp"> {
  let summary = "Contractions marked for cuBLASLt as calls the runtime "
                "executes";
  let description = [{
    Replaces each contraction on buffers marked `mp.gpu_gemm = "library"`
    (by mp-gpu-select-gemm) with a call of the runtime's `mp_cuda_gemm`,
    declared in the module: the element type (0: f16, 1: bf16), batch, M,
    N, K, per operand (A, B, D) its address and its strides (in elements)
    along each loop (A: M, K, batch; B: K, N, batch; D: M, N, batch; 0
    along a loop the operand does not have, so a batch operand can be
    broadcast), beta, D's type (0: f32, 1: the operands') and the address
    of a bias (0: none). The runtime (docs/GPU.md) maps each operand to a
    row- or column-major cuBLASLt layout and runs `cublasLtMatmul` with 32F
    compute on the backend's stream: D = A x B + beta D (+ bias along N),
    rounded to D's type. D is C, unless cuBLASLt's epilogue computes C's
    one consumer exactly (nothing reads C after it): C, C + bias (f32), or
    either rounded to the operands' type with a bias of that type; D is
    then the consumer's output, and the consumer goes. When C is set to
    zeros right before (a fill, or a copy from a buffer a fill set; no use
    in between), the setter is dropped and beta is 0: one kernel fewer. A
    marked op that is not such a contraction is an error. With `emulate`
    (in mp-lower-to-gpu-emulation) the call is of `mp_emulated_gemm`, the
    runtime's CPU implementation with the same arguments.

    ```mlir
    linalg.fill ins(%zero : f32) outs(%c : memref<64x128xf32>)
    linalg.matmul {mp.gpu_gemm = "library"}
        ins(%a, %b : memref<64x784xf16>, memref<784x128xf16>)
        outs(%c : memref<64x128xf32>)
    // becomes
    func.call @mp_cuda_gemm(%c0_i32, %c1, %c64, %c128, %c784, %pa, %c784,
        %c1, %c0, %pb, %c128, %c1, %c0, %pc, %c128, %c1, %c0, %beta0,
        %f32_i32, %no_bias) : ...
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
  let options = [
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Call the runtime's CPU implementation (mp_emulated_gemm) rather "
           "than its cuBLASLt one">,
  ];
  let statistics = [
    Statistic<"numCalls", "library-calls", "Contractions made library calls">,
    Statistic<"numFillsDropped", "fills-dropped",
              "Zero fills folded into beta = 0">,
    Statistic<"numEpilogues", "epilogues",
              "Consumers computed by cuBLASLt's epilogue">,
  ];
}

def GPULibraryConvPass : Pass<"mp-gpu-library-conv", "::mlir::ModuleOp"> {
  let summary = "Convolutions marked for cuDNN as calls the runtime executes";
  let description = [{
    Replaces each convolution on buffers marked `mp.gpu_gemm = "library"`
    (by mp-gpu-select-gemm) with a call of the runtime's `mp_cuda_conv`,
    declared in the module, and an elementwise op that adds its result to
    the accumulator. The call's arguments: the element type (0: f16, 1:
    bf16), the kind (0: forward, 1: backward data, 2: backward filter),
    channels-last (0:
    NCHW, 1: NHWC), the spatial dimensions cuDNN sees (2, with a height of
    1 for a 1-d convolution, or 3), groups, N, C, K, then per spatial
    dimension (three, the unused ones 1) the image's size, the window's,
    the stride, the dilation and the padding, and the addresses of x (the
    image), w (the filter) and y (the output). A forward call reads x and
    w and writes y, a new buffer of the output's shape and the operands'
    type: the runtime (docs/GPU.md) runs `cudnnConvolutionForward` with
    f32 compute on the backend's stream. cuDNN's f16 and bf16 convolutions
    have no f32 output, so the result is rounded to the operands' type
    once, as in PyTorch's autocast.

    torch-mlir writes the input gradient of a strided convolution as a
    stride-1 convolution of the output gradient spread out with zeros (a
    zero-filled buffer, a strided subview of it, a copy or an elementwise
    cast into that view). Such a convolution (channels first, no groups,
    stride and dilation 1) is the backward data of a convolution (the
    filter flipped, its channels transposed: K x C) of stride S and
    padding R - 1 - offset, when cuDNN's output size for that convolution
    is the gradient's: it becomes a backward-data call (kind 1) that
    writes x from y, the gradient itself, and w, the transposed filter
    (`cudnnConvolutionBackwardData` skips the zeros), and the spread
    buffer, its fill and the copy go.

    Likewise a forward convolution of a zero-padded image (zeros, a
    unit-stride subview at offset p0 along the spatial dimensions, the
    tensor written into it: how a `tensor.pad` that mp-gpu-generate-pads
    left for cuDNN bufferizes) reads the tensor itself with cuDNN's
    padding p0, when cuDNN's output size with that padding is the
    convolution's.

    A filter gradient (the `linalg.generic` mp-gpu-select-gemm makes of
    torch-mlir's, NCHW image and output gradient, KCRS result) becomes a
    backward-filter call (kind 2) that writes w, a new buffer of the filter
    gradient's shape and the operands' type, from x and y, the output
    gradient (`cudnnConvolutionBackwardFilter`); its padded image is read
    unpadded with cuDNN's padding as above.

    An image or filter that is not packed row-major is
    copied into a packed buffer first. When the accumulator is a buffer
    allocated in the function and filled with zeros right before (no use
    in between), the fill is dropped and the result is only widened into
    it. A marked op that is not such a convolution is an error. With
    `emulate` (in mp-lower-to-gpu-emulation) the call is of
    `mp_emulated_conv`, the runtime's CPU implementation with the same
    arguments and the same rounding of the result.

    ```mlir
    linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library",
        strides = dense<2> : vector<2xi64>}
        ins(%x, %w : memref<64x8x16x16xf16>, memref<16x8x3x3xf16>)
        outs(%acc : memref<64x16x7x7xf32>)
    // becomes
    %y = memref.alloc() : memref<64x16x7x7xf16>
    func.call @mp_cuda_conv(%c0_i32, %c0_i32, %c2, %c1, %c64, %c8, %c16,
        %c16, %c16, %c1, %c3, %c3, %c1, %c2, %c2, %c1, %c1, %c1, %c1,
        %px, %pw, %py) : ...
    linalg.generic ... ins(%y : memref<64x16x7x7xf16>)
        outs(%acc : memref<64x16x7x7xf32>) // acc + extf(y)
    memref.dealloc %y : memref<64x16x7x7xf16>
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
  let options = [
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Call the runtime's CPU implementation (mp_emulated_conv) rather "
           "than its cuDNN one">,
  ];
  let statistics = [
    Statistic<"numCalls", "library-calls", "Convolutions made library calls">,
    Statistic<"numFillsDropped", "fills-dropped",
              "Zero fills the call's result replaces">,
    Statistic<"numBackwardData", "backward-data",
              "Input gradients of strided convolutions made backward-data "
              "calls">,
    Statistic<"numPaddingsFolded", "paddings-folded",
              "Zero paddings of images given to cuDNN's padding">,
    Statistic<"numBackwardFilter", "backward-filter",
              "Filter gradients made backward-filter calls">,
  ];
}

def GPUSplitKPass : Pass<"mp-gpu-split-k"> {
  let summary = "Split the K loop of generated GEMMs with too few thread "
                "blocks into parallel partial GEMMs";
  let description = [{
    A contraction whose output is small and whose K is long (a weight
    gradient: 32x64 over K = batch x sequence = 7168 terms) is one thread
    block or a few, each stepping through all of K while the rest of the GPU
    idles. This pass (on tensors, after `mp-gpu-choose-tiles`, whose tiles
    give the number of blocks) splits such a contraction's K into S parts
    computed as a batched GEMM of S partial products, in f32, followed by
    their sum in a fixed order (deterministic, no atomics):

    ```mlir
    %c = linalg.matmul {mp.gpu_tile = array<i64: 32, 64, 16, 32>}
           ins(%a, %b : tensor<32x7168xf16>, tensor<7168x64xf16>)
           outs(%acc : tensor<32x64xf32>) -> tensor<32x64xf32>
    // becomes (S = 14)
    %p = linalg.generic {mp.gpu_tile = array<i64: 32, 64, 16, 32>, ...}
           ins(%a14, %b14 : tensor<14x32x512xf16>, tensor<14x512x64xf16>)
           outs(%zeros : tensor<14x32x64xf32>) // C[s] = A[s] x B[s]
    %c = linalg.generic {iterator_types = ["reduction", "parallel",
                                           "parallel"], ...}
           ins(%p : tensor<14x32x64xf32>) outs(%acc : tensor<32x64xf32>)
    ```

    S is the smallest number of parts that gives the contraction at least
    `min-blocks` blocks, each part at least `min-k` terms and a multiple of
    32 (two mma K steps, four of an f32 GEMM's: no masked K tiles); with no
    such S, the most parts of at least `min-k` terms (and at most 1024
    parts); contractions with a batch loop, or whose K has no such split,
    stay whole. f32 contractions (CUDA cores) are split alike. Each operand becomes a tensor with the parts
    outermost (the batch of the partial GEMM): an operand stored with K
    outermost is a reshape of itself; an operand whose only reader is the
    contraction and that an elementwise producer computes (a cast, a
    transpose) is computed by that producer over the parts instead, so the
    tiled stage still fuses it into the GEMM's operand copies; any other
    operand is copied by a producer the copies compute. An operand whose
    producer cannot be re-expressed (a convolution's gather) keeps the
    contraction whole. The sum of the parts is a reduction of S terms per
    element, which the parallel-loop kernels take along with the
    contraction's consumers (the cast of a gradient, its finite check).
    Part of `mp-lower-to-gpu` (option `split-k`), before bufferization.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"minBlocks", "min-blocks", "int64_t", /*default=*/"128",
           "Split contractions with fewer thread blocks than this (about "
           "one per multiprocessor; 0: never)">,
    Option<"minK", "min-k", "int64_t", /*default=*/"512",
           "Fewest K terms per part (16 K steps of 32: the pipelined "
           "steps outweigh filling and draining it)">,
  ];
  let statistics = [
    Statistic<"numSplit", "split", "Contractions split along K">,
  ];
}

def GPUGeneratePadsPass : Pass<"mp-gpu-generate-pads"> {
  let summary = "Pad tensors in one kernel: tensor.pad as tensor.generate";
  let description = [{
    Rewrites each `tensor.pad` of static shape with a constant padding value
    (a convolution's, or the input's own) as a
    `tensor.generate` whose element is the source's where the index falls
    in it and the padding value elsewhere (`scf.if` around the
    `tensor.extract`, so nothing is read out of bounds). Bufferized, that
    is one `linalg.map`, one kernel that writes each element once, where
    `tensor.pad` becomes a fill of the whole buffer and a copy of the
    source into it (two kernels, the interior written twice). When the
    source is made by an elementwise `linalg.generic` that only generated
    ops read (the cast, or transposed cast, of a GEMM operand), its body is
    computed inside, on its inputs read through its maps: that kernel goes
    too. So are elementwise producers of those that only they and generated
    ops read (the cast of a step's images, which one convolution pads and
    another transposes and pads for its filter gradient): each generate
    computes the chain from the inputs, and nothing writes the cast. A pad read only as the image of convolutions given to cuDNN
    (`mp.gpu_gemm = "library"`) is left alone: mp-gpu-library-conv gives
    its padding to cuDNN, which then reads the source. A
    `tensor.insert_slice` of static offsets and strides (at least 1) that
    drops no dimension, into a `linalg.fill` of a constant that nothing
    else uses, is the same kind of pad, with strides: the gradient of a
    strided convolution's output, dilated into the zeros of its image
    (`[0, 0, 1, 1] [256, 16, 7, 7] [1, 1, 2, 2]` into `256x16x16x16`). It
    becomes such a generate too, whose source index along a dimension is
    `(i - offset) / stride` where `i - offset` (unsigned) is below
    `(size - 1) * stride + 1` and a multiple of the stride: one kernel
    instead of the fill, the insertion and its source's producer. As for
    pads, an insertion read only as the image of convolutions given to
    cuDNN stays: mp-gpu-library-conv makes it cuDNN's backward data. Part of
    `mp-lower-to-gpu`, before bufferization.

    ```mlir
    %p = tensor.pad %a low[0, 0] high[27, 3] { tensor.yield %zero : f16 }
        : tensor<37x29xf16> to tensor<64x32xf16>
    // becomes
    %p = tensor.generate {
    ^bb0(%i: index, %j: index):
      // %i < 37 and %j < 29 (unsigned, after subtracting the low padding)
      %v = scf.if %inside -> f16 {
        %e = tensor.extract %a[%i, %j] : tensor<37x29xf16>
        scf.yield %e : f16
      } else {
        scf.yield %zero : f16
      }
      tensor.yield %v : f16
    } : tensor<64x32xf16>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numGenerated", "generated", "Pads rewritten as generates">,
    Statistic<"numInserts", "inserts",
              "Slices inserted into fills rewritten as generates">,
  ];
}

def GPUExpandElementwisePass : Pass<"mp-gpu-expand-elementwise"> {
  let summary = "Compute elementwise ops on the shape their expanded result "
                "is read in by another elementwise op";
  let description = [{
    An elementwise `linalg.generic` (all loops parallel, one result, on
    tensors) whose only reader is a `tensor.expand_shape` that only another
    elementwise op reads computes on the expanded shape instead, its
    operands and its `tensor.empty` expanded alike (upstream's reshape
    folding by expansion), so that elementwise fusion
    (`mp-fuse-elementwise`, which runs next) merges the two. Reshapes read
    by anything else (a GEMM's operands and results) keep their place.
    A transpose that reads a `tensor.collapse_shape` of another
    transpose's result computes on the uncollapsed shape (upstream's
    folding by expansion, on the reader's side), its result collapsed
    instead: attention's heads, transposed and collapsed with the batch
    for the score GEMM, and transposed again for a gradient's GEMM, are
    then two transposes of the projection that fusion composes, each read
    by one GEMM, which computes it in its operand copies. In
    a mixed-precision step, the cast to f16 of a GEMM's rows (the gradient
    of a flattened feature map) and the ReLU gradient that reads them as
    images are then one op, which the GEMM's epilogue computes
    (`mp-gpu-tile-contractions`): the f16 rows are never written nor read
    back. Part of `mp-lower-to-gpu`, before elementwise fusion.

    ```mlir
    %h = linalg.generic {...} ins(%g : tensor<64x784xf32>)
        outs(%e : tensor<64x784xf16>) { arith.truncf }
    %x = tensor.expand_shape %h [[0], [1, 2, 3]] output_shape [64, 16, 7, 7]
        : tensor<64x784xf16> into tensor<64x16x7x7xf16>
    %r = linalg.generic {...} ins(%a, %x : ...) outs(...) { select }
    // becomes
    %gx = tensor.expand_shape %g [[0], [1, 2, 3]] output_shape [64, 16, 7, 7]
        : tensor<64x784xf32> into tensor<64x16x7x7xf32>
    %x = linalg.generic {...} ins(%gx : tensor<64x16x7x7xf32>)
        outs(%ex : tensor<64x16x7x7xf16>) { arith.truncf }
    %r = linalg.generic {...} ins(%a, %x : ...) outs(...) { select }
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def GPUCollapseElementwisePass : Pass<"mp-gpu-collapse-elementwise"> {
  let summary = "Compute elementwise ops on the shape their collapsed result "
                "is read in, or their collapsed input computed in";
  let description = [{
    An elementwise `linalg.generic` (all loops parallel, one result, on
    tensors) of the function's arguments whose only reader is a
    `tensor.collapse_shape` computes on the collapsed shape instead, its
    operands and its `tensor.empty` collapsed alike (upstream's reshape
    folding by collapsing); ops on what other ops compute keep their shape,
    on which they may fuse with them (a ReLU into its convolution's
    epilogue). A cast of an image to f16 before it is
    flattened into rows is then the rows' own producer, which the GEMMs
    reading the rows fuse into their operand copies
    (`mp-gpu-tile-contractions`) instead of reading a buffer a kernel
    wrote. Conversely, an elementwise generic of one input read with the
    identity map that reads a `tensor.collapse_shape` of what another
    elementwise generic computes (a gradient cast to f16 after it is
    flattened into rows) computes on that value's shape (upstream's
    reshape folding by expansion), its result collapsed instead: it runs
    over the points of the op computing its input, with whose kernel it
    fuses (`mp-gpu-fuse-parallel-loops`). Part of `mp-lower-to-gpu`, after
    elementwise fusion.

    ```mlir
    %h = linalg.generic {...} ins(%x : tensor<64x1x28x28xf32>)
        outs(%e : tensor<64x1x28x28xf16>) { arith.truncf }
    %rows = tensor.collapse_shape %h [[0], [1, 2, 3]]
        : tensor<64x1x28x28xf16> into tensor<64x784xf16>
    // becomes
    %xr = tensor.collapse_shape %x [[0], [1, 2, 3]]
        : tensor<64x1x28x28xf32> into tensor<64x784xf32>
    %rows = linalg.generic {...} ins(%xr : tensor<64x784xf32>)
        outs(%er : tensor<64x784xf16>) { arith.truncf }
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def GPUMaterializeConstantsPass : Pass<"mp-gpu-materialize-constants"> {
  let summary = "Make tensor constants where kernels can read them";
  let description = [{
    Bufferization places tensor constants in host globals, which kernels
    cannot read. Every splat `arith.constant` of a ranked tensor type
    becomes `linalg.fill` of its scalar into a `tensor.empty` (a kernel
    writes it into a device-visible buffer); any other tensor constant is
    copied into a new tensor (`bufferization.alloc_tensor() copy(...)`: the
    host copies the global into a buffer that kernels can read).

    Then a fill (of a `tensor.empty` of static shape) that several ops
    start from (their DPS init: a zero that two GEMMs accumulate into, as
    torch-mlir's exports share it) is cloned before each of them but the
    last: each gets its own buffer and its own fill, which a GEMM then folds
    into its C tiles (mp-gpu-tile-contractions), instead of one fill kernel
    whose buffer bufferization copies for all but the last of them.
    Likewise each linalg op but the first that writes into a shared
    `tensor.empty` (torch-mlir's exports share one between the transposes
    of a layer) gets a `tensor.empty` of its own: bufferization would
    otherwise give them one buffer that each writes in turn, and a GEMM
    can read a transpose or cast through its operand copies
    (mp-gpu-tile-contractions) only from a buffer that nothing else writes.
    Part of `mp-lower-to-gpu`, before bufferization.

    ```mlir
    %c = arith.constant dense<0.0> : tensor<4x8xf16>
    // becomes
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<4x8xf16>
    %c = linalg.fill ins(%zero : f16) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numFilled", "filled", "Splat constants turned into fills">,
    Statistic<"numCopied", "copied", "Other constants copied">,
    Statistic<"numFillsShared", "fills-cloned",
              "Uses of a shared fill given a fill of their own">,
    Statistic<"numEmptiesShared", "empties-cloned",
              "Writers into a shared tensor.empty given one of their own">,
  ];
}

def GPUTileContractionsPass : Pass<"mp-gpu-tile-contractions"> {
  let summary = "Tile Tensor Core contractions to blocks, warps and 16x8x16 "
                "vector.contract";
  let description = [{
    For each contraction on buffers (`linalg.matmul`, `linalg.batch_matmul`,
    their transposed forms, contraction `linalg.generic`s) whose operands are
    both f16 or both bf16, whose accumulator is f32 (the tiles are the op's
    `mp.gpu_tile` if it has one, else the options; for sizes that are
    dynamic, the blocks' forall runs to them and their tiles are masked, a
    batch's aside, and a dynamic K takes steps of `tile-k` with one buffer
    per operand): tiles it to an `scf.forall` over thread blocks (`#gpu.block`,
    batch on z) and an `scf.for` over K in steps of `tile-k` (32 by
    default; half of it, down to 16, until the step divides K, so that no
    step is masked where K is a multiple of 16; where K is not, the step
    is at most K rounded up to 16). Each
    block allocates a workgroup buffer (`#gpu.address_space<workgroup>`) for
    its tile of A and one for its tile of B; on each K step the block's
    threads copy the tiles into them (an `scf.forall` over
    `#gpu.thread<y>`, `#gpu.thread<x>`, 16 bytes per copy where the rows of
    the operand are 16-byte aligned, else narrower), then an `scf.forall`
    over the warps of the block (`#gpu.warp`, each a `warp-m` x `warp-n`
    tile of C) computes on the copies: vectorized to `vector.contract`
    and unrolled to the m16n8k16 shape of `mma.sync` (f32 accumulation).
    A panel copied unchanged (4 to 16 bytes per copy, no masked edge) over
    two K steps or more is staged in `stages` slots (at most one per K
    step, `memref<stages x ...>`): its first `stages` - 1 steps are copied
    into slots 0, 1, ... before the loop, and each trip copies the step
    `stages` - 1 steps on into the slot the previous trip computed on,
    before the warps compute on this trip's (the copies' stores marked for
    `mp-gpu-async-copies`).
    Where the tiles do not divide M, N or K, the copies of the tiles at the
    edges read zeros past the operands (each chunk's row and column
    checked; chunks of up to 16 bytes where the operand's innermost size
    is static and a multiple of the chunk, one element otherwise),
    which add nothing to C, and C's tile is staged too: copied into a
    workgroup buffer before the K loop (zeros outside C) and its part inside
    C copied back after it. An operand buffer that an elementwise producer
    writes (a cast, a transpose, a gather through any affine map, or a
    small body of pure ops, `linalg.index` and loads) and only one or two
    of these contractions read, itself or through a `memref.collapse_shape`
    or `expand_shape` of it, is not made (read by two, only when both
    reading its inputs reads no more than a kernel that stores it and
    their reading it: 2 x inputs <= inputs + 3 x result): their copies
    read the
    producer's input and round it, or, for a producer that computes, call
    a private function computing one element (`<func>_compute`, made next
    to the function: only when the pass runs on the module, as in
    `mp-lower-to-gpu`), and the producer is erased. When C is set just before the contraction by a
    `linalg.fill` (or a `memref.copy` of a buffer a fill set) and a block
    has at least 4 warps, C's tile is staged and set to the fill's value
    in the workgroup buffer instead of being read, and the fill (or the
    copy) is erased: C is written once and never read. C set by an
    elementwise producer the copies could compute (a bias broadcast into
    a convolution's output) is set the same way: the copy into the
    workgroup buffer computes the producer at each element (through the
    reshape C is of the buffer it writes), and the producer is erased. The elementwise op
    that next uses C (an epilogue: a bias, an activation, the cast to the
    consumer's type, reading C and other buffers through projected
    permutations) is computed by the copy of C's tile back to memory when
    nothing touches its output or writes its inputs in between and its
    output is not an operand of the contraction: C's tile is then staged,
    the copy-out computes the op's body (on vectors where the rows allow)
    and stores its result (and C's, if C is read after the op and not
    written in place by it), and the op is erased. Reductions that next
    OR a predicate of C's elements into a 0-d i1 flag (a loss scaler's
    finite check) are computed there too: the copy sets the flag where
    a chunk of C satisfies the predicate, and the flag's fill moves
    before the contraction (allowed when, between the contraction and
    the check, the flag is only filled and then ORed into). This is the
    target-independent tiled stage.

    Contractions whose operands and accumulator are all f32 (the fp32
    policy; no Tensor Core multiplies f32) take the same stage on CUDA
    cores: the op's tiles are `array<i64: tile-m, tile-n, thread-m,
    thread-n>` (mp-gpu-choose-tiles gives blocks of up to 64 x 64 in
    threads of 4 x 4; without a tile, 64 x 64), K steps are 8, the
    block's threads copy the panels as above (staged alike), and an
    `scf.forall` over the block's threads (`#gpu.thread`) computes each
    thread's tile of C as one `vector.contract` per K step, which
    `mp-gpu-vector-to-fma` lowers to FMAs; the fused producers, folded
    initial values and epilogues are the same. Other contractions (mixed
    operand types, an f16 accumulator) are left to the parallel-loop
    path. Tiles an op carries that do not fit its kind (warps that are
    not mma tiles, more than 1024 threads) are an error at the op.
    Part of `mp-lower-to-gpu`.

    ```mlir
    linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>)
                  outs(%c : memref<64x64xf32>)
    // becomes
    scf.forall (%bi, %bj) in (1, 1) {        // {mapping = [#gpu.block<y>, #gpu.block<x>]}
      %pa = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
      %pb = memref.alloc() : memref<32x64xf16, #gpu.address_space<workgroup>>
      scf.for %k = %c0 to %c64 step %c32 {
        scf.forall (%ty, %tx) in (2, 64) {   // {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
          %v = vector.load %a[...] {alignment = 16 : i64} : memref<64x64xf16>, vector<8xf16>
          vector.store %v, %pa[...] ...
        }
        ... the same for %pb ...
        scf.forall (%wi, %wj) in (2, 2) {    // {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
          ... vector.contract ... : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
        }
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"64",
           "Rows of C computed by one thread block">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"64",
           "Columns of C computed by one thread block">,
    Option<"warpM", "warp-m", "int64_t", /*default=*/"32",
           "Rows of C computed by one warp (a multiple of 16 dividing "
           "tile-m)">,
    Option<"warpN", "warp-n", "int64_t", /*default=*/"32",
           "Columns of C computed by one warp (a multiple of 8 dividing "
           "tile-n)">,
    Option<"stages", "stages", "int64_t", /*default=*/"2",
           "K steps of the panels a block copies unchanged that are staged "
           "at once: 1 copies each step's panels in place; N > 1 keeps N "
           "buffers per panel, the copies of the next N - 1 steps in flight "
           "while the warps compute on one">,
    Option<"tileK", "tile-k", "int64_t", /*default=*/"32",
           "Largest K step of a trip of the Tensor Core GEMMs' K loop: 16, "
           "32 or 64 (halved, down to 16, until it divides K)">,
    Option<"reserveSlot", "reserve-slot", "bool", /*default=*/"false",
           "With 3 stages or more, copy only stages - 2 K steps ahead: the "
           "slot of the step before this one stays out of the copies' "
           "reach, for Tensor Core work still reading it (wgmma kept in "
           "flight, mp-gpu-wgmma-variants in-flight)">,
  ];
  let statistics = [
    Statistic<"numTiled", "tiled", "Contractions tiled for Tensor Cores">,
    Statistic<"numFused", "fused",
              "Casts and transposes fused into operand copies">,
    Statistic<"numFoldedInits", "folded-inits",
              "Fills of C folded into the contractions">,
    Statistic<"numEpilogues", "epilogues",
              "Elementwise consumers fused into the copies of C">,
  ];
}

def GPUTileReductionsPass : Pass<"mp-gpu-tile-reductions"> {
  let summary = "Distribute long reductions over the threads of a block";
  let description = [{
    For each reduction on buffers (a `linalg.reduce` or `linalg.generic`
    with reduction iterators, elementwise producers fused in) with static
    sizes, one output indexed by exactly its parallel dimensions, a body
    that folds each term into the output with one combiner that has a
    neutral element (`arith.addf`, `arith.maxnumf`, `arith.ori`, ...) and
    an accumulator of 32 bits or more, that either reduces to one element
    (it has no parallel loop to run otherwise) or has a reduction extent of
    at least `min-extent` and at most `max-outputs` output elements:
    rewrites it to an `scf.forall` over thread blocks (`#gpu.block<x>`, one
    per output element). In each block, `threads` threads (fewer for fewer
    terms: the extent rounded up to a power of two, at least 32)
    (`#gpu.thread<x>`) fold the terms t, t + threads, ... into the
    neutral element in the accumulator's type and store their partial in
    a workgroup buffer; then a tree (foralls over threads/2, threads/4,
    ..., 32 threads, each combining element t with element t + half), one
    warp reduces the last 32 with `gpu.subgroup_reduce` (shuffles on the
    GPU) and its thread 0 folds the total into the output. A combiner
    that `gpu.subgroup_reduce` lacks, or values wider than 32 bits, take
    the tree down to 2 elements instead, which thread 0 combines. When a
    `linalg.fill` sets the output just before (nothing else uses its memory
    in between: the zeros of a bias gradient), or a copy of a buffer a fill
    set, thread 0 combines the total with the fill's value instead of
    loading the output, and the fill (or the copy) goes: one kernel less,
    the same arithmetic.

    Block reductions that follow each other over the same loops (`siblings`,
    on by default), each into a buffer the function allocates that the
    others do not read, with only allocations, ops without effects on
    memory or fills of the next one's output between them, are one kernel
    (where the last of them was): each thread folds every reduction's terms
    in one loop, which loads an input element they share once (a layer
    norm's weight and bias gradients, column sums of `dy * xhat` and of
    `dy`, read `dy` once), into a workgroup buffer per reduction, and the
    tree, the warp and thread 0 do for each what they do for one. Each sum
    is computed in the same order as alone. They must all have a
    `gpu.subgroup_reduce` form, or none.

    The other reductions whose combiner `gpu.subgroup_reduce` has, of at
    least `warp-min-extent` terms (0: none) that lie consecutively in memory
    (every buffer read per term is indexed last by the innermost reduction
    loop: the rows of a softmax or a norm, however many), take one warp per
    output element, `threads / 32` warps per block (fewer for fewer
    outputs): lane l folds the terms l, l + 32, ... (a warp's loads
    coalesced) into a workgroup buffer, then each warp's
    `gpu.subgroup_reduce` combines its lanes' 32 partials and lane 0 folds
    the total into the output (or the fill's value, as above). The warps
    past the last output element of a ragged last block fold the last one
    again and store nothing. Shorter reductions and those whose terms are
    strided (a column sum of many columns: one thread per column reads
    consecutive columns) stay one thread per output element (the
    parallel-loop path). A reduction that ORs a predicate of each element
    into a 0-d `i1` flag (the loss scaler's finite check of a gradient)
    needs no tree either: it becomes an `scf.parallel` over its input, one
    iteration per element, that stores `true` into the flag where the
    predicate holds (every thread that stores one stores the same value),
    which `mp-gpu-fuse-parallel-loops` then fuses with the loop over the
    same elements that unscales the gradient; the flag's fill stays.

    The thread that stores an output element of a block or warp reduction
    also computes the epilogue there (`epilogues`, on by default), as the
    copies of a GEMM's C do (the same rules): the output's one elementwise
    consumer that reads it with the identity map (a bias gradient's
    unscaling, a norm's mean and reciprocal square root of its row sums)
    and stores its result, and the flag reductions that check it (the
    finite checks: `true` stored where the predicate holds); the output
    itself is stored only if it is read after them. Its consumer must not
    read another output of the reductions sharing its kernel. A shorter
    reduction with finite checks among its epilogue (a filter gradient
    summed over 64 images) becomes an `scf.parallel` over its output
    elements, each folding its terms in order into the element's initial
    value as the op's loops would, then computing the epilogue; with other
    consumers alone (a norm's mean) it stays on the parallel-loop path,
    where they fuse with it. Part of
    `mp-lower-to-gpu`'s tiled stage, so `gpu-emulation` runs the same
    summation order as the GPU.

    ```mlir
    linalg.reduce ins(%x : memref<4096xf32>) outs(%sum : memref<f32>)
      dimensions = [0] (%in: f32, %acc: f32) {
        %0 = arith.addf %in, %acc : f32
        linalg.yield %0 : f32
      }
    // becomes
    scf.forall (%b) in (1) {                 // {mapping = [#gpu.block<x>]}
      %partials = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
      scf.forall (%t) in (256) {             // {mapping = [#gpu.thread<x>]}
        %p = scf.for %i = %t to %c4096 step %c256 iter_args(%a = %zero) -> (f32) { ... }
        memref.store %p, %partials[%t]
      }
      scf.forall (%t) in (128) { ... }       // partials[t] += partials[t + 128]
      ...                                    // 64, 32
      scf.forall (%t) in (32) {
        %v = memref.load %partials[%t]
        %total = gpu.subgroup_reduce add %v uniform : (f32) -> f32
        scf.if %t == 0 { ... %sum[] = %total + %sum[] }
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"256",
           "Threads per block (a power of two from 32 to 1024)">,
    Option<"minExtent", "min-extent", "int64_t", /*default=*/"256",
           "Fewest terms per output element for a block reduction">,
    Option<"maxOutputs", "max-outputs", "int64_t", /*default=*/"4096",
           "Most output elements for block reductions (one block each)">,
    Option<"warpMinExtent", "warp-min-extent", "int64_t", /*default=*/"256",
           "Fewest terms per output element for a warp reduction (0: none)">,
    Option<"siblings", "siblings", "bool", /*default=*/"true",
           "Compute consecutive block reductions over the same loops in one "
           "kernel">,
    Option<"epilogues", "epilogues", "bool", /*default=*/"true",
           "Compute the elementwise consumer of a block or warp reduction's "
           "output and its finite checks where the total is stored">,
  ];
  let statistics = [
    Statistic<"numTiled", "tiled", "Reductions distributed over blocks">,
    Statistic<"numSiblings", "siblings",
              "Block reductions computed in the kernel of the one before">,
    Statistic<"numWarpTiled", "warp-tiled",
              "Reductions distributed over warps (one per output element)">,
    Statistic<"numFoldedFills", "folded-fills",
              "Fills of their outputs folded into them">,
    Statistic<"numFlags", "flags",
              "Flag reductions made parallel loops that set the flag">,
    Statistic<"numThreadTiled", "thread-tiled",
              "Short reductions made parallel loops for their epilogues">,
    Statistic<"numEpilogues", "epilogues",
              "Consumers and flag reductions computed where the totals are "
              "stored">,
  ];
}

def GPUEmulateSubgroupReducePass : Pass<"mp-gpu-emulate-subgroup-reduce"> {
  let summary = "Compute the tiled stage's warp reductions lane by lane";
  let description = [{
    For `gpu-emulation`, where the lanes of a warp run one after another:
    replaces each `gpu.subgroup_reduce` of the tiled stage (in an
    `scf.forall` over the threads of whole warps, thread t reducing element
    t of a buffer: the 32 lanes of the block reductions' last warp, or the
    warps of the warp reductions) by that reduction computed from the
    buffer's elements of the thread's warp in every lane, in
    the order the shuffles combine the lanes (`mp-gpu-subgroup-reduce-to-
    shuffles`: XOR offsets 1, 2, 4, 8, 16, adjacent pairs first), so the
    emulated results equal the GPU's. A `gpu.subgroup_reduce` of any other
    form is an error.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUEmulateMmaPass : Pass<"mp-gpu-emulate-mma"> {
  let summary = "Compute the tiled stage's MMA tiles as loops over K";
  let description = [{
    For `gpu-emulation`: replaces each `vector.contract` of the tiled stage
    (the m16n8k16 tiles of the Tensor Core GEMMs and the f32 tiles of the
    CUDA-core ones: two parallel loops M and N, one reduction loop K,
    operands A laid out (M, K) or (K, M) and B (K, N) or (N, K), the
    accumulator (M, N), an additive float kind) by an `scf.for` over K whose
    trips read A's column and B's row at k, extend them to the
    accumulator's type and add their `vector.outerproduct` to the
    accumulator. An operand is read from the buffer that the tiled stage
    read it from (an in-bounds `vector.transfer_read` in the contraction's
    block, with no write in between; that read goes once unused), or else
    from a copy in a stack buffer. That is what upstream's
    outer-product lowering of the contraction computes, element by element
    (one fused multiply-add per k, in increasing k, from exactly extended
    operands), so the results are bit for bit the same; but the K steps are
    no longer unrolled, which makes the compiled emulation about 16 times
    smaller in these ops and its LLVM code generation that much faster.
    Contractions of any other form are left to upstream's lowering. Part of
    `mp-lower-to-gpu-emulation`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numLoops", "loops", "Contractions computed as loops over K">,
  ];
}

def GPUEmulateWorkgroupMemoryPass
    : Pass<"mp-gpu-emulate-workgroup-memory", "::mlir::ModuleOp"> {
  let summary = "Make the tiled stage's workgroup buffers host buffers";
  let description = [{
    Drops the GPU address space (`#gpu.address_space<workgroup>`) from every
    buffer type in the module (values, block arguments, function types and
    type attributes), so that the tiled stage of `mp-gpu-tile-contractions`,
    whose thread blocks stage their operand panels in workgroup buffers,
    compiles for the CPU: each block iteration allocates its panels on the
    host. GPU code that needs its buffers in GPU memory (a `gpu.launch`
    with workgroup attributions, `nvgpu` copies and `ldmatrix`: the kernel
    stage of `mp-lower-to-gpu`) is an error. Part of
    `mp-lower-to-gpu-emulation`.
  }];
}

def GPUAlignWorkgroupBuffersPass : Pass<"mp-gpu-align-workgroup-buffers"> {
  let summary = "Align the workgroup buffers of outlined kernels";
  let description = [{
    Gives every workgroup attribution of a `gpu.func` an `llvm.align` of at
    least `alignment` bytes. Kernel outlining leaves them without one, and
    the NVVM lowering would then align each shared-memory array to its
    element type only, while the GEMMs' staged operand panels are written
    with 16-byte vector stores and read with `ldmatrix`, whose row addresses
    must be 16-byte aligned. A kernel that runs `wgmma.mma_async` gets
    1024-byte alignment for all of them: its descriptors take the panels'
    swizzle patterns (up to 8 rows of 128 bytes) to start at such a
    boundary. Part of `mp-lower-to-gpu` (after outlining).
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"16",
           "Smallest alignment of a workgroup buffer in bytes (a power of "
           "two)">,
  ];
  let statistics = [
    Statistic<"numAligned", "aligned", "Workgroup buffers given an alignment">,
  ];
}

def GPUDynamicSharedMemoryPass
    : Pass<"mp-gpu-dynamic-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Move the workgroup buffers of big kernels to dynamic shared "
                "memory";
  let description = [{
    A CUDA kernel may declare at most 48 KiB of static shared memory; more
    (up to 163 KiB a block on sm_80, 227 KiB on sm_90) must be dynamic
    shared memory that the launch asks for and the kernel opts into. For
    each outlined kernel whose workgroup attributions take more than
    `static-limit` bytes (each at its `llvm.align`), this pass replaces
    them with `memref.view`s at fixed offsets of one
    `gpu.dynamic_shared_memory` buffer and gives every `gpu.launch_func`
    of the kernel that many bytes as its `dynamic_shared_memory_size` (the
    runtime raises the kernel's `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_
    BYTES` to it). Where a buffer needs more alignment than the dynamic
    buffer's 16 bytes (wgmma's 1024), the views start at the buffer's first
    address so aligned, and the launch asks for the bytes that may cost. A
    chip variant (`mp.gpu_chip_variants`) counts for its module's launches.
    A kernel that needs more than a block gets on one of its module's
    chips is an error naming the kernel, the bytes and the chip.

    Buffers used over different ops of the kernel's body share bytes: each
    goes at the lowest offset (at its alignment) that no buffer in use over
    some of the same ops takes, and before the first use of one that
    reuses another's bytes every thread waits for its `cp.async` copies
    (`nvvm.cp.async.wait.group 0`), then a barrier. A GEMM's C tile staged
    for a fill folded into it is so freed from the K loop first: a buffer
    that only stores of one constant write before it is read is read as
    that constant (the accumulators start from it), and its stores go where
    the next uses are stores that cover it (each thread storing its own
    elements, by `known_block_size`); it is then used only after the loop,
    in the panels' bytes (64 KiB instead of 96 for a 128 x 128 block).
    Part of `mp-lower-to-gpu` (after `mp-gpu-align-workgroup-buffers`).

    ```mlir
    gpu.func @k() workgroup(%c : memref<128x128xf32, #wg>) kernel
    // becomes
    gpu.func @k() kernel {
      %0 = gpu.dynamic_shared_memory : memref<?xi8, #wg>
      %c = memref.view %0[%c0][] : memref<?xi8, #wg> to memref<128x128xf32, #wg>
    // and its launches
    gpu.launch_func @m::@k ... dynamic_shared_memory_size %c65536_i32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect"];
  let options = [
    Option<"staticLimit", "static-limit", "int64_t", /*default=*/"49152",
           "Bytes of workgroup buffers a kernel keeps as static shared "
           "memory (more become dynamic)">,
  ];
  let statistics = [
    Statistic<"numDynamic", "dynamic",
              "Kernels given dynamic shared memory">,
  ];
}

def GPUPairLdMatrixPass : Pass<"mp-gpu-pair-ldmatrix"> {
  let summary = "Load two mma.sync B fragments with one ldmatrix.x4";
  let description = [{
    `mp-gpu-vector-to-mma` loads each B operand of an m16n8k16 mma.sync
    (16 x 8, two 8x8 matrices) with its own `nvgpu.ldmatrix` of 2 tiles,
    whose row addresses lanes 0-15 give; lanes 16-31 are idle. This pass
    merges two such loads of the same buffer, in the same block, with the
    same `transpose` and indices that differ by constants, into one load of
    4 tiles at the first one's place: lanes 0-15 give the first load's
    addresses, lanes 16-31 the second's (the first's indices as lane - 16
    computes them, plus the constant differences), and registers 0-1 and
    2-3 of the result (`vector.shuffle`) replace the two loads. A warp tile
    of 32 x 32 then issues 4 `ldmatrix.x4.trans` for B per 16 of K instead
    of 8 `ldmatrix.x2.trans`, with half the address arithmetic.
    Loads whose indices depend on the thread through anything but
    `gpu.lane_id` and `gpu.thread_id` (and values uniform in a warp:
    other ids, loop induction variables, arguments, constants) are left
    alone. Part of `mp-lower-to-gpu`, on the outlined kernels after
    `mp-gpu-wgmma-variants` (whose wgmma matching reads single B loads).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::vector::VectorDialect"];
  let statistics = [
    Statistic<"numPaired", "paired", "Pairs of ldmatrix merged into one">,
  ];
}

def GPULaunchBoundsPass : Pass<"mp-gpu-launch-bounds"> {
  let summary = "Let ptxas give kernels of small grids all the registers "
                "they need";
  let description = [{
    ptxas sizes a kernel's registers so that several of its blocks fit on
    one multiprocessor. In small blocks (2 or 4 warps) of a GEMM whose warps
    hold many accumulators, or copy edge tiles element by element, it caps
    them below what the kernel needs and spills (4 to 80 bytes in GEMMs
    smaller than one block of random graphs, with 64 to 168 registers). A
    kernel whose grid (`known_grid_size`) has at most `max-blocks` blocks
    leaves most of the multiprocessors of the chips mp compiles for idle
    (108 on an A100, 132 on an H100 or H200) and runs at most one block on
    each, so this pass marks it `nvvm.minctasm = 1` (PTX `.minnctapersm
    1`): one block a multiprocessor is all ptxas must fit, and it keeps
    every value in a register. Kernels of larger or unknown grids are left
    as they are: there more registers a thread can mean fewer blocks in
    flight. Part of `mp-lower-to-gpu`, on the outlined kernels.

    ```mlir
    gpu.func @k() kernel attributes {known_grid_size = array<i32: 3, 1, 1>}
    // becomes
    gpu.func @k() kernel attributes {known_grid_size = array<i32: 3, 1, 1>,
                                     nvvm.minctasm = 1 : i32}
    ```
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
  let options = [
    Option<"maxBlocks", "max-blocks", "int64_t", /*default=*/"16",
           "The most blocks a grid has for its kernel to be marked (16: "
           "well below the multiprocessors of an A100, 108, or an H100, "
           "132)">,
  ];
  let statistics = [
    Statistic<"numBounded", "bounded",
              "Kernels marked to fit one block a multiprocessor">,
  ];
}

def GPUSwizzlePanelsPass : Pass<"mp-gpu-swizzle-panels"> {
  let summary = "Swizzle the GEMM panels in shared memory against bank "
                "conflicts";
  let description = [{
    For each workgroup buffer of an outlined kernel (`gpu.func`) that
    `nvgpu.ldmatrix` reads (the GEMM panels of `mp-gpu-vector-to-mma`, bf16
    ones through their f16 view): permutes the 16-byte chunks of each row
    by the row's index, in every access of the buffer alike, writes
    (`vector.store`, `memref.store`, `nvgpu.device_async_copy`) and reads
    (`nvgpu.ldmatrix`, loads): chunk XOR ((row / rows per 128-byte line) mod
    min(chunks per row, 8)). The 8 rows an ldmatrix phase reads at one chunk
    then fall on 8 different 16-byte slots of the 32 banks; unswizzled, rows
    of 64 bytes are 4-way conflicts and rows of 128 bytes 8-way. A buffer
    with another kind of access (a view, a transfer) stays as it was and is
    counted.
    The panels that `wgmma` reads (`mp-gpu-wgmma-variants`: a
    `memref.extract_aligned_pointer_as_index` of the buffer starts its
    descriptors) are swizzled the same way, which is the canonical layout
    of wgmma's 32-, 64- and 128-byte swizzle modes; one with rows wider
    than 128 bytes (an M- or N-major operand of 128 or 256 columns) is laid
    out as its 64-column blocks one after the other (block b of row r at
    line b x rows + r, each line of 128 bytes swizzled by its number),
    which wgmma's descriptors step through with their leading byte offset;
    one that cannot be is an error.
    The emulation does not run it (it changes addresses, not values). Part
    of `mp-lower-to-gpu`, after outlining and `mp-gpu-wgmma-variants`.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numSwizzled", "swizzled", "Panels swizzled">,
    Statistic<"numLeft", "left", "Panels the swizzle could not take">,
  ];
}

def GPUWgmmaVariantsPass
    : Pass<"mp-gpu-wgmma-variants", "::mlir::ModuleOp"> {
  let summary = "Give GEMM kernels an sm_90a variant on wgmma.mma_async";
  let description = [{
    For each `gpu.module` whose targets include `#nvvm.target<chip =
    "sm_90a">` (after outlining and `nvvm-attach-target`) and that has a
    kernel whose K steps wgmma can compute: in a block of warpgroups (a
    `known_block_size` of 128 threads per warpgroup) whose warps each own
    16 rows of the tile (warpgroup g rows 64 g to 64 g + 63) and all its N
    columns (N a multiple of 8, panels of 32-, 64- or 128-byte rows), each
    K step's mma.sync chains (`nvgpu.mma.sync` for f16, `nvvm.mma.sync` for
    bf16, on `nvgpu.ldmatrix`'d panels) become one `wgmma.mma_async`
    m64nNk16 per 16 of K and warpgroup (f32 accumulators) that reads A and
    B from the panels through shared memory descriptors of their swizzled
    layout (warpgroup g's A 64 g rows down a K-major panel) (`mp-gpu-swizzle-panels` must then swizzle them),
    between a `wgmma.fence` and a commit and wait (`wgmma.wait_group 0`;
    with `in-flight`, where the panels have 3 slots or more, `1`: each K
    step's wgmmas complete during the next trip, and the last ones after
    the K loop, which needs panels staged with `mp-gpu-tile-contractions`'
    `reserve-slot`, whose copies leave that trip's slot alone); a
    `fence.proxy.async.shared::cta` before each barrier of the kernel makes
    the panels' writes visible to it.

    The rewrite goes into a copy of the module, `<name>_sm_90a`, whose
    only target is sm_90a; the module keeps mma.sync and its other targets,
    so that a build for sm_80 and sm_90a runs on both. The top-level module's
    `mp.gpu_chip_variants` dictionary maps each copy to its module, and
    `mp-gpu-merge-chip-variants` puts the copy's binary into the module's
    after `gpu-module-to-binary`, so that both are one kernel for the
    runtime. A module whose only target is sm_90a is rewritten in place.
    Part of `mp-lower-to-gpu{wgmma}`.

    ```
    gpu.module @mm_kernel [#nvvm.target<chip = "sm_80">] { ... nvgpu.mma.sync ... }
    gpu.module @mm_kernel_sm_90a [#nvvm.target<chip = "sm_90a">] { ... nvvm.wgmma.mma_async ... }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    Option<"inFlight", "in-flight", "bool", /*default=*/"false",
           "Keep each K step's wgmma in flight while the next trip copies "
           "and waits (wgmma.wait_group 1; 0 after the K loop), where the "
           "panels have 3 slots or more and were staged with "
           "mp-gpu-tile-contractions' reserve-slot (else a trip's copies "
           "would overwrite what that wgmma reads)">,
  ];
  let statistics = [
    Statistic<"numVariants", "variants", "Modules given an sm_90a variant">,
    Statistic<"numWgmma", "wgmma", "K steps computed with wgmma.mma_async">,
  ];
}

def GPUMergeChipVariantsPass
    : Pass<"mp-gpu-merge-chip-variants", "::mlir::ModuleOp"> {
  let summary = "Put each chip variant's binary into its module's";
  let description = [{
    After `gpu-module-to-binary`: for each entry `variant = @module` of the
    top-level module's `mp.gpu_chip_variants` (`mp-gpu-wgmma-variants`),
    appends the objects of `gpu.binary @variant` to those of
    `gpu.binary @module` and erases the variant, then drops the dictionary.
    The kernels keep their names in both, so the launches of `@module`
    run the variant's code on its chip: `mp-gpu-fatbin` packs the objects
    into one fatbin, and `mp-run --save-ptx` writes each as the module's
    PTX for its chip. A missing binary is an error.
  }];
}

def GPUVectorToFMAPass : Pass<"mp-gpu-vector-to-fma"> {
  let summary = "Lower the tiled stage's f32 vector.contract to FMAs";
  let description = [{
    Inside each `gpu.launch` that holds the tiled stage of an f32
    contraction (`mp-gpu-tile-contractions` gives each thread a 4 x 4 tile
    of C on CUDA cores; after `mp-gpu-map-forall-to-launch`): keeps each
    thread's accumulator tile in registers across the K loop (as
    `mp-gpu-vector-to-mma` does), then lowers its `vector.contract`s to
    outer products, one per element of K in order, and those to
    `vector.fma` on the rows of the tile: each element of C accumulates its
    products in K's order, one fused multiply-add each, as the CPU backend
    and the parallel loops do. Launches without f32 contractions are left
    alone. Part of `mp-lower-to-gpu`.

    ```mlir
    %c = vector.contract {...} %a, %b, %acc
        : vector<4x16xf32>, vector<16x4xf32> into vector<4x4xf32>
    // becomes, per k and row i
    %ai = vector.broadcast %a_ik : f32 to vector<4xf32>
    %ci = vector.fma %ai, %b_k, %acc_i : vector<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
  let statistics = [
    Statistic<"numConverted", "converted", "Tiled stages lowered to FMAs">,
  ];
}

def GPUVectorToMMAPass : Pass<"mp-gpu-vector-to-mma"> {
  let summary = "Lower the tiled stage's vector.contract to mma.sync";
  let description = [{
    Inside each `gpu.launch` that holds the tiled stage of
    `mp-gpu-tile-contractions` (after `mp-gpu-map-forall-to-launch`):
    keeps the accumulator tiles in registers across the K loop (views
    folded into the transfers, loop-invariant code hoisted, each read and
    write of a C tile around the loop turned into a loop-carried value), then
    rewrites the m16n8k16 `vector.contract`s with f16 or bf16 operands and
    f32 accumulators, and the transfers that feed them, into mma.sync with
    `nvgpu.ldmatrix` from the workgroup panels (`.trans` for an operand
    stored the other way) and per-lane loads and stores of C. f16 takes
    upstream's vector-to-nvgpu conversion (`nvgpu.mma.sync`); bf16, which
    upstream lacks, takes the same conversion with its operand reads
    re-typed as f16 (bf16 fragments have f16's layout; the loads move bits)
    and becomes `nvvm.mma.sync` with `multiplicandAPtxType = bf16` on those
    registers. Vector and scalar code elsewhere is left alone. Part of
    `mp-lower-to-gpu`.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::vector::VectorDialect"];
  let statistics = [
    Statistic<"numConverted", "converted", "Tiled stages lowered to mma.sync">,
  ];
}

def GPUSubgroupReduceToShufflesPass
    : Pass<"mp-gpu-subgroup-reduce-to-shuffles"> {
  let summary = "Lower warp reductions to shuffles";
  let description = [{
    Lowers each `gpu.subgroup_reduce` (the last level of
    `mp-gpu-tile-reductions`' block reductions) to five `gpu.shuffle xor`s
    (offsets 1, 2, 4, 8, 16, each lane combining its value with its
    partner's) with upstream's patterns, for warps of 32 lanes and 32-bit
    shuffles. A reduction they cannot lower is an error. Part of
    `mp-lower-to-gpu`, after `mp-gpu-map-forall-to-launch`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUAsyncLaunchesPass : Pass<"mp-gpu-async-launches", "::mlir::ModuleOp"> {
  let summary = "Launch kernels asynchronously, synchronizing only before the host reads";
  let description = [{
    Host code from `gpu-kernel-outlining` launches each kernel synchronously:
    upstream's lowering waits for every `gpu.launch_func` to finish. This
    pass makes the launches of each host block one chain of asynchronous
    launches (`gpu.launch_func async [%t]`, the chain started by `gpu.wait
    async`) and waits for the chain (`gpu.wait [%t]`) only where the host
    needs the results:

    - before an op that reads or writes memory the kernels may use (a
      `memref.load` of a device buffer, a call of a function that is not a
      `mp.gpu_stream_ordered` runtime function and takes such memory, an op
      whose effects are unknown);
    - before an op whose regions launch kernels (its blocks get chains of
      their own, waited for before their terminators);
    - before the block's terminator, so that a function returns with its
      kernels done; with `wait-at-return=false`, not before the `return` of
      an entry function (one that no function of the module calls): its
      caller, mp's runtime, waits after the call, or lets the next training
      step queue behind it. Such an entry may start while an earlier call's
      kernels are still queued, so its first chain starts at its beginning:
      it also waits before a host access to device memory that precedes
      its first launch.

    First, a call of a function of this module that launches kernels and
    calls no other such function (the gradient function a training step
    calls) is inlined, so that the caller's launches and the callee's form
    one chain: the callee would wait before it returns. The callee stays,
    with its own chain, for its other callers.

    Allocation and deallocation need no wait: the CUDA backend's pool hands
    a freed block to a later allocation of the same stream, after the
    kernels that used it. Calls of `mp.gpu_stream_ordered` functions (the
    runtime's cuBLASLt GEMM) enqueue their work on the same stream and join
    the chain. Small static host buffers (the deallocation bookkeeping's
    pointer and flag arrays, at most 4 KiB, only read and written on the
    host) move to the stack first, so that the host code touching them
    needs no wait and cannot reuse a block a queued kernel still reads.

    All tokens stand for the backend's one stream (its `mgpuStreamCreate`
    returns it every time), so a step's kernels run back to back. Part of
    `mp-lower-to-gpu`.

    ```mlir
    gpu.launch_func @k0::@k0 blocks in (...) threads in (...) args(...)
    gpu.launch_func @k1::@k1 blocks in (...) threads in (...) args(...)
    %v = memref.load %buffer[] : memref<f32>
    // becomes
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k0::@k0 ...
    %t2 = gpu.launch_func async [%t1] @k1::@k1 ...
    gpu.wait [%t2]
    %v = memref.load %buffer[] : memref<f32>
    ```
  }];
  let options = [
    Option<"waitAtReturn", "wait-at-return", "bool", /*default=*/"true",
           "Whether entry functions wait for their kernels before they "
           "return (false: the caller waits; mp-lower-to-gpu's choice for "
           "mp's runtime)">
  ];
  let statistics = [
    Statistic<"numAsync", "num-async-launches",
              "Kernel launches made asynchronous">,
    Statistic<"numWaits", "num-waits", "Host waits for the stream">,
    Statistic<"numOnStack", "num-host-buffers-on-stack",
              "Host buffers moved to the stack">
  ];
}

def GPUAsyncCopiesPass : Pass<"mp-gpu-async-copies"> {
  let summary = "Staged panel copies as cp.async";
  let description = [{
    The copies of a Tensor Core block's panels into workgroup memory that
    `mp-gpu-tile-contractions` staged in several slots (their stores marked
    `mp.gpu_copy`) become `nvgpu.device_async_copy` (`cp.async`, 16-byte
    copies bypassing L1) in groups, by upstream's `createAsyncGroups`,
    whose waits go: the copies of the K loop's first `stages` - 1 steps,
    issued before it step by step ("ahead"), and of step k + `stages` - 1,
    issued on trip k before the warps compute on step k's panels
    ("prefetch"). Each thread waits for its first step's copies before the
    loop (then a `gpu.barrier`) and for the next step's at the end of each
    trip's last forall (the warps' work), leaving the groups of the later
    steps in flight: `nvvm.cp.async.wait.group N` with N the groups issued
    ahead of the loop but one step's (0 with two stages, 2 with three
    stages of A and B), so the loads of steps k+1 to k + `stages` - 1
    overlap the Tensor Core work of step k, and the barrier after the warps
    makes step k+1's visible to all (`mp-gpu-map-forall-to-launch` puts no
    barrier after a forall that only issues cp.async). With N > 0 the
    threads wait for all their copies after the loop
    (`nvvm.cp.async.wait.group 0`: none lands once the block is gone). A marked store upstream does not take (a read that is not a plain
    4, 8 or 16-byte load) stays a copy. The markers go. Part of
    `mp-lower-to-gpu` (not of the emulation, which runs the copies in
    order).

    ```mlir
    scf.for %k = %c0 to %c128 step %c32 {
      scf.forall (%ty, %tx) in (2, 64) {    // the next step's panel
        %v = vector.load %a[%i, %kn] : memref<128x128xf16>, vector<8xf16>
        vector.store %v, %next[%r, %c] {mp.gpu_copy = "prefetch"} : ...
      }
      scf.forall (%wy, %wx) in (2, 2) { ... vector.contract ... }
    }
    // becomes
    scf.for %k = %c0 to %c128 step %c32 {
      scf.forall (%ty, %tx) in (2, 64) {
        %t = nvgpu.device_async_copy %a[%i, %kn], %next[%r, %c], 8 {bypassL1} : ...
        %g = nvgpu.device_async_create_group %t
      }
      scf.forall (%wy, %wx) in (2, 2) {
        ... vector.contract ...
        nvvm.cp.async.wait.group 0
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
  let statistics = [
    Statistic<"numAsync", "async-copies", "Panel copies made cp.async">,
  ];
}

def GPUMapForallToLaunchPass : Pass<"mp-gpu-map-forall-to-launch"> {
  let summary = "Turn block/warp scf.forall nests into gpu.launch";
  let description = [{
    Each outermost `scf.forall` mapped to `#gpu.block` (static steps; its
    bounds may be dynamic, a GEMM of dynamic sizes) becomes a `gpu.launch`
    whose grid is its trip counts (computed before the launch where
    dynamic, at least 0); its induction
    variables become `gpu.block_id`s. The `scf.forall`s nested in it that
    are mapped to warps or threads are distributed over the block's threads
    (block size: 32 threads per warp along x, as many warps as the nest
    needs along y and z), each followed by a `gpu.barrier` (the threads of
    a block share what they wrote) but those that only issue `cp.async`
    (`mp-gpu-async-copies`, whose copies are read after a wait and a
    barrier of their own); the buffers the block allocates in
    workgroup memory become workgroup attributions of the launch. Part of
    `mp-lower-to-gpu`.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numLaunches", "launches", "Kernels created from scf.forall">,
  ];
}

def GPUCopiesToLinalgPass : Pass<"mp-gpu-copies-to-linalg"> {
  let summary = "Turn host memref.copy into linalg.copy";
  let description = [{
    Bufferization copies buffers with `memref.copy`, which the host would
    execute (pulling managed pages back from the GPU and pushing them again
    for the next kernel). Every `memref.copy` outside kernels becomes
    `linalg.copy`, which the kernel stage turns into parallel loops and a
    kernel like any elementwise op; copies out of host globals (constants,
    see `mp-gpu-materialize-constants`) stay on the host. Part of
    `mp-lower-to-gpu`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numCopies", "copies", "memref.copy ops turned into linalg.copy">,
  ];
}

def GPUParallelDimsOutermostPass : Pass<"mp-gpu-parallel-dims-outermost"> {
  let summary = "Put the parallel dimensions of linalg ops outermost";
  let description = [{
    A linalg op whose iteration space has a reduction dimension before a
    parallel one (a bias gradient summed over batch and tokens) becomes, in
    loops, host `scf.for`s around a kernel: one launch per reduction point.
    Every such op outside kernels is generalized and its dimensions
    interchanged, parallel ones first (in their order), so that it becomes
    one kernel whose threads each run the reduction loop. Contractions that
    the tiled stage handles are left alone. Part of `mp-lower-to-gpu`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numInterchanged", "interchanged",
              "Linalg ops whose parallel dimensions were moved outermost">,
  ];
}

def GPUFuseParallelLoopsPass : Pass<"mp-gpu-fuse-parallel-loops"> {
  let summary = "Fuse adjacent scf.parallel loops over the same points into "
                "one (one kernel)";
  let description = [{
    After `convert-linalg-to-parallel-loops`, each linalg op outside the
    tiled stage is its own `scf.parallel`, so its own kernel: a reduction's
    fill, the reduction, and the elementwise op that reads its result (the
    mean of a layer norm, divided by the width) are three launches, and the
    f32 sums go through memory between them. This pass first drops the
    dimensions that run once from every `scf.parallel` outside kernels
    (keeping one: a fill of `64x28x1` runs over `64x28` points, its
    innermost dimension no longer one thread per block), then fuses each
    loop into the next one in the same block when:
    - they run over the same points (same bounds and steps) and neither
      has reductions (`scf.reduce` results);
    - only ops without effects on memory, or `memref.alloc`s, are between
      them, and their bodies only load, store and compute (`scf.for` and
      `scf.if` included);
    - wherever one of them stores into a buffer that the other loads or
      stores, both access the same row in the same iteration and different
      rows in different ones: iteration `i` of the second loop reads only
      what iteration `i` of the first one wrote. Either both access the
      same value, each index that is an induction variable in one being the
      same one in the other, and every induction variable among them (the
      other indices may differ: another element of the row, an inner
      loop's variable); or two views of one buffer (through subviews,
      `memref.collapse_shape`, `expand_shape` and casts, with static
      strides: a layer norm's mean written as `256x28x1` and read as
      `256x28`) at the same offset from the buffer's first element, a sum
      of the induction variables times constants that differ between
      iterations (each variable's step and coefficient beyond what the
      smaller ones reach). Or both loops only store one constant into it
      (the finite checks of `mp-gpu-tile-reductions`, each setting the
      overflow flag to true where an element is not finite: in any order,
      the same flag). Subviews of one buffer whose constant ranges of
      indices do not overlap along some dimension (the slices a
      `tensor.concat` copies into) share no element.

    A gradient's finite check and its unscaling, which read the gradient at
    the same points, thus become one kernel that reads it once.

    A loop over the points of the loop next to it and further dimensions
    (at most 32 points of those per point of the other) fuses in the same
    way when it has at most `nest-max-points` points (default 131072; 0:
    never), its further dimensions then an `scf.for` nest in each
    iteration, the row criterion above taken over the shared dimensions:
    a loss over 256 rows of 10 classes (the rows' maxima and sums, the
    log-softmax over 256 x 10, the rows' losses) is one kernel of 256
    threads instead of three; a softmax over 3584 rows of 28 (the rows'
    maxima and sums, then the probabilities), or its gradient, is one
    kernel of a thread per row. Larger loops keep their own kernel, one
    thread per point.

    Then (`merge-independent`, on by default) it merges each loop with
    constant bounds into the next one over other points when they touch
    different buffers (two views that may alias are refused; a buffer
    allocated after another one existed is not that one), but 0-d ones that
    both only read and a flag that both only set: one loop over the points
    of both, whose point `p` runs the first body at `p` (row major) if `p`
    is below the first loop's number of points, else the second body at
    `p` minus that number. The optimizer's update of each parameter, or the
    small parameters' checks and unscalings, become one kernel; each buffer
    is read and written as often as before, so the bytes moved stay the
    same and only launches go. No fusion or merge is made that would give
    the kernel more than 4096 bytes of parameters (each buffer's
    descriptor is 40-88 bytes; ptxas takes at most 4352 before PTX ISA
    8.1).
    The fused loop runs the first body and then the second in each
    iteration, so every value is computed by the same operations in the
    same order as before (the fill, the sequential `f32` reduction loop,
    the division); only the launches and the round trips through memory
    between them are gone. Upstream's `scf-parallel-loop-fusion` is not
    used: it neither drops unit dimensions nor refuses two loops that store
    into the same buffer at different elements without loading it.
    Part of `mp-lower-to-gpu`'s kernel stage, before
    `mp-gpu-map-parallel-loops`.

    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c28) step (%c1, %c1) {
      memref.store %zero, %sum[%i, %j] : memref<64x28xf32>
    }
    scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c28) step (%c1, %c1) {
      scf.for %k = %c0 to %c32 step %c1 { ... memref.store %s, %sum[%i, %j] ... }
    }
    // becomes
    scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c28) step (%c1, %c1) {
      memref.store %zero, %sum[%i, %j] : memref<64x28xf32>
      scf.for %k = %c0 to %c32 step %c1 { ... memref.store %s, %sum[%i, %j] ... }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"mergeIndependent", "merge-independent", "bool",
           /*default=*/"true",
           "Also run adjacent loops over other points whose accesses commute "
           "in one loop (one kernel)">,
    Option<"nestMaxPoints", "nest-max-points", "int64_t", /*default=*/"131072",
           "Fuse a loop over the dimensions of the loop next to it and "
           "further ones (at most 32 points of those per iteration) into it, "
           "the further ones in sequence, when it has at most this many "
           "points (0: never)">,
  ];
  let statistics = [
    Statistic<"numFused", "fused", "scf.parallel loops fused into the next">,
    Statistic<"numNested", "nested",
              "Fused loops over more dimensions run in sequence in the "
              "other's iterations">,
    Statistic<"numMerged", "merged",
              "Independent scf.parallel loops merged into the next">,
  ];
}

def GPUScalarOpsToParallelPass : Pass<"mp-gpu-scalar-ops-to-parallel"> {
  let summary = "Put 0-d linalg ops in one-iteration scf.parallel loops";
  let description = [{
    A linalg op on buffers with no loops (a 0-d fill, copy or generic: the
    loss-scale update, the loss's scaling) would lower to scalar loads and
    stores in the host function, reading device memory from the host. This
    pass puts each one outside a kernel into an `scf.parallel` of one
    iteration, which `mp-gpu-map-parallel-loops` makes a kernel. Part of
    `mp-lower-to-gpu`'s kernel stage.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUPromoteAccumulatorsPass : Pass<"mp-gpu-promote-accumulators"> {
  let summary = "Carry the element a loop accumulates into in a register, "
                "and forward stored values to the loads that follow";
  let description = [{
    `convert-linalg-to-parallel-loops` lowers a reduction that one thread
    computes (a bias gradient's column sum, a row's maximum) to an
    `scf.for` that loads its accumulator from the output buffer, adds to it
    and stores it back in every iteration: a load and a store of global
    memory per element summed, which LLVM cannot keep in a register
    because the kernel's buffers are pointers that may alias. This pass
    rewrites each `scf.for` with a constant number of iterations (at least
    one) whose body loads and then stores one element of a buffer (the same
    buffer and indices, defined outside the loop) and touches nothing that
    may alias it: the element is loaded once before the loop, carried as an
    `iter_args` value, and stored once after it. A loop with a
    `gpu.barrier` is left alone.

    Then, in the blocks it changed, a load takes the value that the same
    thread stored last into that element (the same buffer and indices, or
    two views of one buffer at the same offset, as `memref.collapse_shape`
    gives: the unscaling that reads a sum as `128` after the sum wrote
    `1x128`) when nothing between them may write it and no `gpu.barrier`
    is between them. A buffer only stored into is then dead, and the
    canonicalizer erases it: the fp16 MLP's bias gradients are unscaled
    and checked from registers, and their f32 sums are never written. A load
    in the body of an `scf.parallel` takes the value its iteration stored
    there before in the same way (two loops fused by
    `mp-gpu-fuse-parallel-loops`, the second reading what the first wrote
    at the same point: a gradient's cast to f16 takes the gradient from a
    register, not back from memory).

    The values are the same, bit for bit: the same operations in the same
    order. Part of `mp-lower-to-gpu`'s kernel stage and of
    `mp-lower-to-gpu-emulation`, after `mp-gpu-fuse-parallel-loops`.

    ```mlir
    memref.store %zero, %sum[%c0, %j] : memref<1x128xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %x = memref.load %grad[%i, %j] : memref<64x128xf16>
      %acc = memref.load %sum[%c0, %j] : memref<1x128xf32>
      %e = arith.extf %x : f16 to f32
      %s = arith.addf %e, %acc : f32
      memref.store %s, %sum[%c0, %j] : memref<1x128xf32>
    }
    %v = memref.load %flat[%j] : memref<128xf32>  // %flat collapses %sum
    // becomes
    %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %grad[%i, %j] : memref<64x128xf16>
      %e = arith.extf %x : f16 to f32
      %s = arith.addf %e, %acc : f32
      scf.yield %s : f32
    }
    memref.store %r, %sum[%c0, %j] : memref<1x128xf32>
    // %v is %r
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numPromoted", "promoted", "Accumulators carried in registers">,
    Statistic<"numForwarded", "forwarded", "Loads given the value stored">,
  ];
}

def GPUMapParallelLoopsPass : Pass<"mp-gpu-map-parallel-loops"> {
  let summary = "Turn host scf.parallel nests into kernels";
  let description = [{
    Every outermost `scf.parallel` outside a `gpu.launch` (the loops of
    elementwise ops, broadcasts, fills, copies and the parallel dimensions
    of reductions, whose reduction dimensions stay sequential `scf.for`s in
    each thread with their f32 accumulators) is tiled by `block-size` along
    its innermost dimension and by 1 along the others: the tiles map to
    thread blocks, the points of a tile to threads, innermost dimension on
    x (coalesced), then y and z. A nest of more than three dimensions, or
    an elementwise one (no loop in its body) whose innermost dimension has
    fewer than `block-size` points (a layer norm's `256x28x32`: blocks of
    256 threads of which 32 would work), is first collapsed into one
    dimension (its points in the same order, row major), so that a block
    takes consecutive rows. A nest with a loop per thread (a row's
    reduction) keeps its blocks, which spread the rows over more
    multiprocessors. Each
    nest becomes a `gpu.launch` (upstream's parallel-loop conversion), or
    the pass fails at the function. Part of `mp-lower-to-gpu`.

    ```mlir
    scf.parallel (%i) = (%c0) to (%c1000) step (%c1) { ... }
    // becomes
    gpu.launch blocks(...) in (%gx = %c4, ...) threads(...) in (%tx = %c256, ...) {
      ... scf.if (%i < 1000) { ... }
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads of a block along the innermost dimension (1 to 1024)">,
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Kernels created from scf.parallel">,
  ];
}

def GPUMergeLaunchesPass : Pass<"mp-gpu-merge-launches"> {
  let summary = "Run independent kernels, and dependent kernels of one "
                "thread block, as one launch";
  let description = [{
    After the kernels are `gpu.launch` ops (`mp-gpu-map-forall-to-launch`,
    `mp-gpu-map-parallel-loops`), merges launches of a block into one
    launch when they touch views of different buffers (0-d ones excepted;
    two views that may alias are refused where one of them is written, a
    buffer allocated after another one existed not being that one), have
    the same constant threads per block and constant grids, and together
    stay within CUDA's limits (grid, 48 KiB of static shared memory, 4096
    bytes of parameters). When no part writes memory that another touches
    (but stores of `true` in one 0-d `i1` buffer, the finite checks of
    several gradients setting the overflow flag: in any order of their
    blocks the flag ends the same), the merged launch's grid is the sum of
    theirs, in x; block `b` runs the
    part whose range of blocks holds it, as the block `b` minus the range's
    start, taken apart x fastest over that part's grid (`gpu.block_id` and
    `gpu.grid_dim` inside name that grid; its threads, barriers and
    workgroup buffers are its own):

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c224, %gy = %c1, %gz = %c1)
               threads(...) in (%tx = %c256, ...) { A }
    gpu.launch blocks(...) in (%c32, %c1, %c1) threads(...) in (%c256, ...)
               workgroup(%partials : memref<256xf32, #gpu.address_space<workgroup>>) { B }
    // becomes
    gpu.launch blocks(%b, ...) in (%c256, %c1, %c1) threads(...) in (%c256, ...)
               workgroup(%partials : ...) {
      scf.if %b < 224 { A with block (%b mod 224, 0, 0) }
      scf.if %b < 256 and %b >= 224 { B with block (%b - 224, 0, 0) }
    }
    ```

    Launches of one thread block each may depend on each other (through
    0-d buffers: a training step's overflow flag, cleared, set by a finite
    check and read by the loss scale's update): they run one after the
    other in one block, a `gpu.barrier` between them, after which what the
    threads of the block wrote before it, shared or global memory, is
    visible to all of them. Each part's blocks branch as a whole, so its
    barriers and warp shuffles see all its threads.

    A launch joins the launches before it that it merges with over the ops
    between them that stay: launches that write nothing it touches and
    touch nothing it writes (GEMM kernels among them) and deallocations of
    buffers it does not touch; the merged launch takes the first one's
    place, and the ops without memory effects but allocating that the
    later ones use from between (sizes, views, allocations) move before
    it. Any other op with memory effects between (a copy, a call) ends the
    group. Every buffer is read and written as often as before (the kernel
    report's bytes do not change); only launches go: in a training step,
    the sum of a split-K GEMM's partials next to a bias gradient's column
    sums, an update next to an unrelated reduction, the overflow flag
    cleared beside the loss's gradient (over the GEMM kernel between them),
    and the loss scale updated in the block of the last finite check (two
    kernels fewer in the MLP's fp16 training step). GEMM kernels (`mp.gpu_tile`) keep their launches: their
    tiles, shared memory and the passes after this one are their own.
    Launches with a different kind of reduction (`mp.gpu_reduction`: a
    block and a warp reduction) stay apart, so that the report names each
    merged kernel's kind. Part of `mp-lower-to-gpu` (`merge-launches`,
    default true), before `mp-gpu-name-kernels`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numMerged", "merged", "Launches merged into the one before">,
  ];
}

def GPUNameKernelsPass : Pass<"mp-gpu-name-kernels", "::mlir::func::FuncOp"> {
  let summary = "Name each kernel after its function and position";
  let description = [{
    Gives each `gpu.launch` of a function the kernel (and GPU module) name
    `<function>_kernel_<i>`, `i` its position among the function's launches
    (0, 1, ...), which `gpu-kernel-outlining` then uses: the names that
    `mp-gpu-kernel-report`, `ptxas`, `--save-ptx` files and profilers show
    follow the function's kernels in order (without it, outlining numbers
    kernels across the whole module). A function name that is no PTX
    identifier has its other characters replaced by `_` (`@"x,y"`'s
    kernels are `x_y_kernel_<i>`; NVPTX's printer aborted on it). Part of
    `mp-lower-to-gpu`.

    ```mlir
    gpu.launch blocks(...) in (...) threads(...) in (...) { ... }
    // becomes, as the function's fourth launch in @mlp_grad
    gpu.launch blocks(...) in (...) threads(...) in (...)
        module(@mlp_grad_kernel_3) function(@mlp_grad_kernel_3) { ... }
    ```
  }];
}

def GPUKernelReportPass : Pass<"mp-gpu-kernel-report", "::mlir::ModuleOp"> {
  let summary = "Report the kernels of each function and the bytes they move";
  let description = [{
    An analysis of the kernel stage (`gpu.launch` ops, before outlining; the
    IR is not changed). Per kernel: its kind (`mma.sync GEMM`, `wgmma
    GEMM`, `block reduction` or `warp reduction` (a reduction distributed
    by `mp-gpu-tile-reductions`, marked `mp.gpu_reduction` on its launch),
    or `parallel loops`), grid and block sizes, the location of the op it was made from,
    and the bytes it reads and writes, each buffer it touches counted once
    at its static size (a view made inside the kernel counts as the buffer
    it views, one passed in at its own size; a call of a function with a
    body, a producer that mp-gpu-tile-contractions outlined, as what the
    function reads and writes in its arguments, and its ops as the
    kernel's). Per function: the
    number of kernels, of GEMM kernels and of cuBLASLt calls
    (mp-gpu-library-gemm; not in the bytes moved), the bytes moved, the
    bytes of activations (the part moved to and from buffers the function
    allocates and does not return: the forward and backward
    intermediates) and of results (`result_bytes`: to and from buffers it
    allocates and returns: a step's weight gradients, updated parameters
    and optimizer state); the rest are its arguments (parameters, inputs,
    optimizer state). The JSON lists per function its `buffers`: each one
    it allocates, where, its type, `activation` or `result`, the bytes
    moved to and from it and the kernels and library calls that write and
    read it (`kernel I`, `library call I`), the most bytes first.
    Per kernel the JSON also gives its name (`mp-gpu-name-kernels`), the
    ops computed in it (the locations of the source ops fused into it) and
    its workgroup (shared) memory; `mp-gpu-fatbin{kernel-report=FILE}` adds
    its registers and spills. With `wgmma`, a GEMM kernel whose K steps
    `mp-gpu-wgmma-variants` will compute with `wgmma.mma_async` on sm_90a
    (the same analysis, run on the launch) is a `wgmma GEMM`, counted as
    `wgmma_kernels` and in the summary as `N of them on wgmma for
    sm_90a`; it runs mma.sync on the other chips.
    `report=FILE` writes JSON, `summary` prints one line per function to
    stderr, `dot=FILE` a Graphviz view: per function, per kernel a cluster
    of its ops filled by kind (GEMM on mma.sync green, parallel loops grey),
    an edge from the kernel that last wrote a buffer to each kernel that
    reads it. `mp-lower-to-gpu{kernel-report=FILE kernel-summary
    kernel-dot=FILE}` runs it after its kernel stage.

    ```
    mp-gpu-kernel-report: @mlp_grad: 13 kernels (5 GEMMs on mma.sync), 1387013 bytes moved, 153464 bytes of activations, 417345 bytes of results
    ```
  }];
  let options = [
    Option<"report", "report", "std::string", /*default=*/"",
           "Write the kernels as JSON to this file ('-': stdout)">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Print one line per function to stderr">,
    Option<"dot", "dot", "std::string", /*default=*/"",
           "Write a Graphviz (DOT) view of the kernels to this file ('-': "
           "stdout)">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "Report the GEMM kernels whose K steps mp-gpu-wgmma-variants "
           "computes with wgmma.mma_async on sm_90a as `wgmma GEMM`">,
  ];
}

def GPUFatbinPass : Pass<"mp-gpu-fatbin", "::mlir::ModuleOp"> {
  let summary = "Assemble each GPU module's PTX into one fatbin for all its "
                "chips";
  let description = [{
    Takes the `gpu.binary` ops that `gpu-module-to-binary{format=isa}` made
    (one PTX object per chip of `#nvvm.target`) and replaces each one's
    objects by a single fatbin object that holds SASS for every chip
    (`ptxas -arch=CHIP`, at the target's `O` level) and the PTX of every chip
    without an architecture-specific `a` suffix, by `fatbinary` from
    `cuda-toolkit`. The driver loads the SASS of the device's compute
    capability and JIT-compiles the PTX on newer GPUs (upstream's
    `format=fatbin` makes one fatbin per chip, of which the binary's
    `#gpu.select_object` embeds only the first). The fatbin object records
    what it holds (`mp.sass`, `mp.ptx`), and the module gets an exported
    string `_mp_gpu_targets` saying the same, which the runtime quotes when
    a GPU has no code in it. With `kernel-report=FILE` (a report that
    `mp-gpu-kernel-report` wrote, whose kernels `mp-gpu-name-kernels`
    named), each kernel there gets what `ptxas -v` said of it per chip:
    `"registers": {"sm_80": 110, "sm_90a": 98}` and `"spill_bytes"`
    (spill stores plus loads). With `ptx-dir=DIR` the PTX it assembles is
    kept as `DIR/<module>.<chip>.ptx` (what `mp-run --save-ptx` writes).
    Binaries are assembled in parallel. A PTX object
    of another target or format, a missing tool or a failing ptxas is an
    error on the binary. Part of `mp-lower-to-gpu{format=fatbin}` (the
    default).

    ```mlir
    gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = "...">,
                   #gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "...">]
    // becomes
    gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_80">,
        properties = {mp.ptx = ["sm_80"], mp.sass = ["sm_80", "sm_90a"]}, "...">]
    llvm.mlir.global external constant @_mp_gpu_targets(
        "SASS for sm_80, sm_90a and PTX for sm_80\00")
    ```
  }];
  let options = [
    Option<"cudaToolkit", "cuda-toolkit", "std::string",
           /*default=*/"\"/usr/local/cuda\"",
           "CUDA toolkit whose bin/ptxas and bin/fatbinary are run">,
    Option<"kernelReport", "kernel-report", "std::string", /*default=*/"",
           "A JSON report of mp-gpu-kernel-report to add each kernel's "
           "registers and spilled bytes per chip to (ptxas -v)">,
    Option<"ptxDir", "ptx-dir", "std::string", /*default=*/"",
           "A directory (created if missing) to keep the PTX that ptxas "
           "assembles in, as <module>.<chip>.ptx">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // MP_CODEGEN_GPU_PASSES_TD
