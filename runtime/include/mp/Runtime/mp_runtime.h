/*===- mp_runtime.h - The mp runtime: run compiled training graphs -*- C -*-===*
 *
 * Part of the mp project: automatic mixed precision for MLIR.
 *
 *===----------------------------------------------------------------------===*
 *
 * A small C library, with no MLIR or LLVM type in its interface, that loads a
 * module compiled by mp (a shared object for the CPU backend), finds an entry
 * point, checks tensors against the entry's signature and calls it.
 *
 * A compiled module exports, for each entry NAME:
 *   void _mp_entry_NAME(void **args);  args[0] points to the results (when
 *       there are any), then one pointer per argument (to a memref
 *       descriptor for tensors, to the value for scalars);
 *   const char _mp_sig_NAME[];         its signature, e.g.
 *       "f32[64,784]@input;f32[]@grad_seed->f32[]@loss" ('?' for a dynamic
 *       size, a dtype without brackets for a scalar, '@' and a role as
 *       mp_role_name spells it). docs/Signature.md gives the grammar;
 *       mp_signature_format writes it, the runtime reads it.
 *
 * Errors: functions return MP_OK or an error code; mp_last_error() describes
 * the last error of the calling thread in one line.
 *
 *===----------------------------------------------------------------------===*/

#ifndef MP_RUNTIME_MP_RUNTIME_H
#define MP_RUNTIME_MP_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MP_MAX_RANK 8

typedef enum mp_status {
  MP_OK = 0,
  MP_ERROR_IO,          /* a file cannot be read or written */
  MP_ERROR_FORMAT,      /* a file or signature is malformed */
  MP_ERROR_NOT_FOUND,   /* no such module, entry or backend */
  MP_ERROR_MISMATCH,    /* tensors do not match the entry's signature */
  MP_ERROR_UNSUPPORTED, /* valid but not handled: rank, dtype, size limit */
  MP_ERROR_MEMORY,      /* an allocation failed */
} mp_status;

typedef enum mp_dtype {
  MP_F32 = 0,
  MP_F16,
  MP_BF16,
  MP_F64,
  MP_I1, /* one byte per element, 0 or 1 */
  MP_I8,
  MP_I32,
  MP_I64,
} mp_dtype;

/* A dense row-major tensor. `data` is owned by the tensor when `owned` is
 * non-zero (free it with mp_tensor_release). A scalar has rank 0 and is
 * passed by value to the entry when its signature says so. */
typedef struct mp_tensor {
  mp_dtype dtype;
  int32_t rank;
  int64_t shape[MP_MAX_RANK];
  void *data;
  int32_t owned;
} mp_tensor;

/* The training role of an argument or result (docs/Training.md): the mp.*
 * attribute it carried in the IR. The compiler's Role enum (MPAttrs.td) has
 * the same numbers and spellings. */
typedef enum mp_role {
  MP_ROLE_NONE = 0,
  MP_ROLE_PARAM,      /* argument: fp32 master parameter */
  MP_ROLE_INPUT,      /* argument: data */
  MP_ROLE_GRAD_SEED,  /* argument: dLoss/dLoss */
  MP_ROLE_STATE,      /* argument: state; `init` is its initial value */
  MP_ROLE_LOSS_SCALE, /* argument: the loss-scale state; `init` as above */
  MP_ROLE_LOSS,       /* result */
  MP_ROLE_GRAD_OF,    /* result: gradient of argument `index` */
  MP_ROLE_UPDATES,    /* result: next value of argument `index` */
  MP_ROLE_FOUND_INF,  /* result: i1, true if the step overflowed */
  MP_ROLE_OUTPUT      /* result: anything else */
} mp_role;

/* One argument or result in a signature; shape[i] < 0 is a dynamic size.
 * An integer tensor argument with bound > 0 indexes a dimension of that
 * size (an embedding's ids): an entry call whose elements are not all in
 * [0, bound) fails (MP_ERROR_MISMATCH) instead of reading outside a
 * buffer. */
typedef struct mp_value_info {
  mp_dtype dtype;
  int32_t rank;
  int64_t shape[MP_MAX_RANK];
  int32_t is_scalar;
  mp_role role;
  int64_t index; /* MP_ROLE_GRAD_OF, MP_ROLE_UPDATES */
  double init;   /* MP_ROLE_STATE, MP_ROLE_LOSS_SCALE */
  int64_t bound;
} mp_value_info;

/* "param", "grad_of", ... (the attribute mp.NAME in the IR, "@NAME" in a
 * signature); "" for MP_ROLE_NONE, null for a value outside the enum. */
const char *mp_role_name(mp_role role);

/* Text into `buf` (at most `size` bytes with the terminating NUL, as
 * snprintf); each returns the length of the whole text. */
/* "f32[64,?]" or "i64" (a scalar), "i64[5]<10" (a bound), then with
 * `with_role` "@param", "@state=0.5"... */
size_t mp_value_info_format(const mp_value_info *info, int with_role, char *buf,
                            size_t size);
/* A whole signature, "ARG;ARG->RESULT;RESULT", as entries carry it. */
size_t mp_signature_format(const mp_value_info *args, int32_t num_args,
                           const mp_value_info *results, int32_t num_results,
                           char *buf, size_t size);

typedef struct mp_module mp_module;
typedef struct mp_entry mp_entry;

const char *mp_last_error(void);

const char *mp_dtype_name(mp_dtype dtype);
size_t mp_dtype_size(mp_dtype dtype);
/* Parses "f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64". */
mp_status mp_dtype_parse(const char *name, mp_dtype *out);

/* -1, and SIZE_MAX, when the product of the sizes overflows. */
int64_t mp_tensor_num_elements(const mp_tensor *tensor);
size_t mp_tensor_num_bytes(const mp_tensor *tensor);
/* Allocates a zeroed owned tensor; shapes above 2^40 bytes are refused
 * (MP_ERROR_UNSUPPORTED). */
mp_status mp_tensor_alloc(mp_dtype dtype, int32_t rank, const int64_t *shape,
                          mp_tensor *out);
void mp_tensor_release(mp_tensor *tensor);

/* "f32[64,10]". Same convention as mp_value_info_format. */
size_t mp_tensor_format_type(const mp_tensor *tensor, char *buf, size_t size);

/* Converts between dtypes (float to float rounds to nearest even; float to
 * integer truncates; i1 is 0 or 1) into a new owned tensor. */
mp_status mp_tensor_convert(const mp_tensor *in, mp_dtype dtype,
                            mp_tensor *out);

/* The value of element `index` as a double (any dtype). */
double mp_tensor_get(const mp_tensor *tensor, int64_t index);

/* NumPy .npy files (format 1.0-3.0, little-endian, C order). bf16 is stored
 * as '<u2' (the raw bits); reading '<u2' needs `as_bf16` to say so. */
mp_status mp_npy_read(const char *path, int as_bf16, mp_tensor *out);
mp_status mp_npy_write(const char *path, const mp_tensor *tensor);

/* Whether `backend` ("cpu", "cuda") can run modules here: MP_OK with what
 * it runs on in `buf` (as snprintf: "NVIDIA H100 80GB HBM3 (sm_90)"), or an
 * error whose mp_last_error() says why not. The CUDA backend uses the
 * device $MP_CUDA_DEVICE (default 0) and the driver $MP_CUDA_DRIVER
 * (default libcuda.so.1). */
mp_status mp_backend_probe(const char *backend, char *buf, size_t size);

/* The CUDA backend's device memory: the most bytes its buffers took at once
 * (`peak`, counting each buffer in its pool size class: a power of two up
 * to 1 MiB, then whole MiB) and the bytes its pool holds from the driver
 * now (`reserved`). Zeros before the backend allocates. */
void mp_cuda_memory(size_t *peak, size_t *reserved);

/* The device time of the last entry call, in ms, if it ran on the CUDA
 * backend: from the start of its work on the stream (after its arguments'
 * copies) to the end of the work it last waited for, measured with CUDA
 * events. -1 before any call, after a call on the CPU backend or one that
 * failed or never waited, and where the driver has no events. */
double mp_cuda_last_call_ms(void);

/* The device time of the calls that returned with their work queued
 * (mp_trainer_launch's training steps) and are done, in ms, summed over
 * them, and their number (`calls`), since the process started: each from
 * the start of its work on the stream to its end, measured with CUDA
 * events. Zeros without such calls. */
void mp_cuda_queued_time(double *ms, int64_t *calls);

/* The threads of CPU modules compiled to run on several (mp-lower-to-cpu
 * parallel=true, the default): 0 (the default) for as many as the machine
 * has cores ($OMP_NUM_THREADS if set; under mpirun, divided among the
 * machine's ranks), 1 to run on the calling thread. Such
 * a module needs LLVM's OpenMP runtime, which mp_module_load loads from
 * $MP_LIBOMP, the dynamic loader's path or /usr/lib/llvm-N/lib
 * (libomp.so.5). Applies to later entry calls made from the calling thread;
 * MP_ERROR_UNSUPPORTED for a negative count or one over MP_MAX_THREADS
 * (where the OpenMP runtime would abort the process, unable to start them). */
#define MP_MAX_THREADS 4096
mp_status mp_set_num_threads(int32_t threads);

/* Loads a compiled module with a backend ("cpu", "cuda"); a module runs on
 * the backend it was compiled for, which "auto" picks. */
mp_status mp_module_load(const char *path, const char *backend,
                         mp_module **out);
/* The backend a loaded module runs on ("cpu", "cuda"). */
const char *mp_module_backend(const mp_module *module);
/* 1 if the module's training steps average their gradients over the ranks
 * of a data-parallel run (compiled with mp-run --data-parallel), else 0. */
int32_t mp_module_is_data_parallel(const mp_module *module);
void mp_module_unload(mp_module *module);

mp_status mp_module_find_entry(mp_module *module, const char *name,
                               mp_entry **out);
int32_t mp_entry_num_args(const mp_entry *entry);
int32_t mp_entry_num_results(const mp_entry *entry);
const mp_value_info *mp_entry_arg(const mp_entry *entry, int32_t index);
const mp_value_info *mp_entry_result(const mp_entry *entry, int32_t index);

/* Calls the entry. `args` must match the signature (dtype, rank, static
 * sizes). `results` receives tensors to release with mp_tensor_release (not
 * free()): a result that the call wrote into a buffer of its own gets that
 * buffer, without a copy (on the CUDA backend, memory that the host and the
 * GPU both address, where a later call that takes the tensor as an argument
 * reads it without copying it: a trainer's state stays on the device).
 * The entry writes into no argument except one that an mp.updates result
 * updates (a training step's parameters and optimizer state, compiled for
 * the CPU): the call may write the updated value into that argument's
 * buffer, and then the result is a view of it (owned = 0, data the
 * argument's). Such an argument is consumed: keep a copy to use its old
 * value after the call. */
mp_status mp_entry_call(mp_entry *entry, const mp_tensor *args,
                        int32_t num_args, mp_tensor *results,
                        int32_t num_results);

/* The bytes that calls of the entry copied out of their buffers into
 * results, since the module was loaded: of mp.updates results (`state`;
 * zero when the step updates its state in place) and of the others. */
void mp_entry_copied_bytes(const mp_entry *entry, uint64_t *state,
                           uint64_t *other);

/* A training session: the state of a training step entry (an mp.updates
 * result for each parameter and state argument) kept between calls.
 * Parameters start at zero (set them with mp_trainer_set_arg), states at their
 * initial value, the gradient seed at 1.0. Each step moves every mp.updates
 * result into the argument it names; the other results stay readable until
 * the next step. */
typedef struct mp_trainer mp_trainer;

mp_status mp_trainer_create(mp_entry *step, mp_trainer **out);
void mp_trainer_destroy(mp_trainer *trainer);
/* The current value of argument `index`. */
const mp_tensor *mp_trainer_arg(const mp_trainer *trainer, int32_t index);
/* Argument `index` to write in place, instead of copying a value in with
 * mp_trainer_set_arg (a data loader filling the next batch): the next
 * mp_trainer_step reads it. Null for an index out of range. */
mp_tensor *mp_trainer_arg_buffer(mp_trainer *trainer, int32_t index);
/* Copies `value` into argument `index` (checked against the signature). */
mp_status mp_trainer_set_arg(mp_trainer *trainer, int32_t index,
                             const mp_tensor *value);
mp_status mp_trainer_step(mp_trainer *trainer);
/* Result `index` of the last step (null before the first step). */
const mp_tensor *mp_trainer_result(const mp_trainer *trainer, int32_t index);

/* What a training loop reads of each step: its loss (NaN without an
 * mp.loss result), whether loss scaling skipped it (an mp.found_inf result;
 * 0 without) and the loss scale after it (0 without an mp.loss_scale
 * argument). */
typedef struct mp_step_report {
  double loss;
  double scale;
  int32_t skipped;
} mp_step_report;

/* Starts a step as mp_trainer_step does, but on the CUDA backend returns
 * once its work is queued on the device: the host prepares the next batch
 * and queues the next step while this one runs, and no step waits for the
 * device. Its report comes out of mp_trainer_collect, in launch order.
 * Writing the inputs for the next step (mp_trainer_arg_buffer,
 * mp_trainer_set_arg of an input) does not wait; mp_trainer_arg,
 * mp_trainer_result and mp_trainer_set_arg of a parameter or state wait
 * for the queued steps first. On the CPU the step is done when this
 * returns. */
mp_status mp_trainer_launch(mp_trainer *trainer);
/* Waits for the oldest launched step whose report was not collected (not
 * for the steps queued after it) and fills `report`. Fails if no report is
 * left or if that step failed on the device. */
mp_status mp_trainer_collect(mp_trainer *trainer, mp_step_report *report);

/* Data-parallel runs (docs/Distributed.md). A process that a launcher
 * started as one of several ranks ($OMPI_COMM_WORLD_SIZE or $PMI_SIZE above
 * 1) joins the world through MPI on the first call: the runtime loads its
 * plugin libMPRuntimeMPI.so (next to the runtime library, or
 * $MP_MPI_PLUGIN), which links MPI. Any other process is a world of one
 * and loads nothing. Sets `rank` and `size` (0 and 1 alone, or on error). */
mp_status mp_world_init(int32_t *rank, int32_t *size);
/* Ends every rank: "mp: error: rank R of N: MESSAGE" on stderr, exit
 * status 1 (MPI_Abort in a data-parallel run). */
void mp_world_abort(const char *message);
/* Leaves the world (MPI_Finalize); every rank calls it before exiting. */
void mp_world_finalize(void);

/* What compiled data-parallel steps call (convert-mp-to-runtime): the
 * number of ranks, and the in-place all-reduce of `count` elements of
 * `dtype` (f32, f16, bf16 or i1) at `address` with kind 0 (sum) or 1 (max;
 * OR on i1). A failed collective (a rank gone silent for
 * $MP_COLLECTIVE_TIMEOUT seconds, default 300) ends every rank. */
int32_t mp_world_size(void);
void mp_all_reduce(int64_t address, int64_t count, int32_t dtype, int32_t kind);
/* The same on a buffer of the CUDA backend (mp-lower-to-gpu's steps): an
 * NCCL all-reduce on the backend's stream, after the kernels launched
 * before it; returns once it has completed. NCCL is loaded (dlopen) on the
 * first call in a world of several ranks and bootstrapped over MPI. */
void mp_cuda_all_reduce(int64_t address, int64_t count, int32_t dtype,
                        int32_t kind);

#ifdef __cplusplus
}
#endif

#endif /* MP_RUNTIME_MP_RUNTIME_H */
