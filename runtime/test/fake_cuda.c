/*===- fake_cuda.c - A fake CUDA driver for runtime tests --------*- C -*-===*
 *
 * Part of the mp project: automatic mixed precision for MLIR.
 *
 * The driver entry points the CUDA backend resolves, with host memory and
 * kernels that run nothing, so the backend's loading, error translation,
 * allocation pool and staging are tested on machines without a GPU. Set by the
 * environment:
 *   MP_FAKE_CUDA_FAIL=CALL:CODE[:TIMES]  CALL returns CODE (TIMES times, or
 *                                        always); several, separated by
 *                                        commas;
 *   MP_FAKE_CUDA_SM=NN                   the device's compute capability
 *                                        (default 80);
 *   MP_FAKE_CUDA_SHARED=BYTES            the most shared memory a block
 *                                        gets (default 232448, 227 KiB); a
 *                                        launch with more than 48 KiB
 *                                        fails unless cuFuncSetAttribute
 *                                        allowed the kernel that much;
 *   MP_FAKE_CUDA_MEMORY=BYTES            managed memory available (default:
 *                                        no limit);
 *   MP_FAKE_CUDA_TRACE=1                 each launch, stream and event
 *                                        synchronization printed to stderr
 *                                        as it is called;
 *   MP_FAKE_CUDA_QUEUE=1                 the first stream's work (copies,
 *                                        event records, the kernels named
 *                                        host_*) waits in a queue until a
 *                                        synchronization runs it, as on a
 *                                        GPU that is still busy;
 *                                        cuEventQuery says not ready until
 *                                        then. Other streams' work runs at
 *                                        once (an idle copy engine), after
 *                                        what they wait for. Without it,
 *                                        all work runs at once. (The fake
 *                                        libraries compute at once: tests
 *                                        with them leave the queue off.)
 * A kernel whose name starts with host_ runs on the host: its parameters
 * are a function `void fn(void *)` and the pointer it takes.
 * mp_fake_cuda_calls(CALL) counts the calls of CALL. Built without
 * cuMemFree_v2 (MP_FAKE_CUDA_OLD) it stands for a driver older than CUDA 12.
 *===----------------------------------------------------------------------===*/

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;

enum { kCalls = 32 };
static const char *names[kCalls];
static int counts[kCalls];
static size_t inUse;

/* Counts a call of `call`; returns the failure configured for it, or 0. */
static CUresult enter(const char *call) {
  int i = 0;
  while (i < kCalls - 1 && names[i] && strcmp(names[i], call) != 0)
    ++i;
  names[i] = call;
  ++counts[i];
  const char *trace = getenv("MP_FAKE_CUDA_TRACE");
  if (trace && *trace == '1' &&
      (strcmp(call, "cuLaunchKernel") == 0 ||
       strcmp(call, "cuStreamSynchronize") == 0 ||
       strcmp(call, "cuEventSynchronize") == 0))
    fprintf(stderr, "fake-cuda: %s\n", call);
  size_t length = strlen(call);
  for (const char *fail = getenv("MP_FAKE_CUDA_FAIL"); fail && *fail;
       fail = strchr(fail, ',') ? strchr(fail, ',') + 1 : NULL) {
    if (strncmp(fail, call, length) != 0 || fail[length] != ':')
      continue;
    int code = 0, times = 0;
    int fields = sscanf(fail + length + 1, "%d:%d", &code, &times);
    return fields == 2 && counts[i] > times ? 0 : code;
  }
  return 0;
}

int mp_fake_cuda_calls(const char *call) {
  for (int i = 0; i < kCalls && names[i]; ++i)
    if (strcmp(names[i], call) == 0)
      return counts[i];
  return 0;
}

/* The stream's queued work: copies, host kernels, event records. */
typedef struct {
  int launches; /* at the record */
  int pending;  /* records not run yet */
} Event;

typedef struct {
  enum { kCopy, kHostKernel, kRecord } kind;
  void *target;
  const void *source;
  size_t bytes;
  void (*fn)(void *);
  Event *event;
} Work;

static Work *queue;
static size_t queued, queueCapacity;

static int queueing(void) {
  const char *on = getenv("MP_FAKE_CUDA_QUEUE");
  return on && *on == '1';
}

static void run(const Work *work) {
  switch (work->kind) {
  case kCopy:
    memcpy(work->target, work->source, work->bytes);
    break;
  case kHostKernel:
    work->fn(work->target);
    break;
  case kRecord:
    --work->event->pending;
    break;
  }
}

static int streams[4], numStreams;

/* Whether `stream`'s work waits in the queue. */
static int queuedStream(const void *stream) {
  return queueing() && stream == &streams[0];
}

/* Runs `work` now, or queues it. */
static void submit(Work work, const void *stream) {
  if (!queuedStream(stream)) {
    run(&work);
    return;
  }
  if (queued == queueCapacity) {
    queueCapacity = queueCapacity ? 2 * queueCapacity : 64;
    queue = realloc(queue, queueCapacity * sizeof(Work));
  }
  queue[queued++] = work;
}

/* Runs the queue up to the last record of `event` (all of it if null). */
static void runQueue(const Event *event) {
  size_t end = queued;
  if (event && !event->pending)
    return;
  while (event && end > 0 &&
         !(queue[end - 1].kind == kRecord && queue[end - 1].event == event))
    --end;
  for (size_t i = 0; i < end; ++i)
    run(&queue[i]);
  memmove(queue, queue + end, (queued - end) * sizeof(Work));
  queued -= end;
}

CUresult cuInit(unsigned flags) {
  (void)flags;
  return enter("cuInit");
}

CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return enter("cuDeviceGetCount");
}

CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return enter("cuDeviceGet");
}

CUresult cuDeviceGetName(char *name, int length, int device) {
  (void)device;
  snprintf(name, length, "mp fake GPU");
  return enter("cuDeviceGetName");
}

static int maxSharedMemory(void) {
  const char *shared = getenv("MP_FAKE_CUDA_SHARED");
  return shared ? atoi(shared) : 232448;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  const char *sm = getenv("MP_FAKE_CUDA_SM");
  int version = sm ? atoi(sm) : 80;
  switch (attribute) {
  case 75: /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
    *value = version / 10;
    break;
  case 76: /* ..._MINOR */
    *value = version % 10;
    break;
  case 97: /* CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
    *value = maxSharedMemory();
    break;
  default:
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  }
  return enter("cuDeviceGetAttribute");
}

static int context;
CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) {
  (void)device;
  *ctx = &context;
  return enter("cuDevicePrimaryCtxRetain");
}

CUresult cuCtxSetCurrent(void *ctx) {
  (void)ctx;
  return enter("cuCtxSetCurrent");
}

static int module;
CUresult cuModuleLoadData(void **out, const void *image) {
  (void)image;
  CUresult result = enter("cuModuleLoadData");
  *out = result ? NULL : &module;
  return result;
}

CUresult cuModuleUnload(void *m) {
  (void)m;
  return enter("cuModuleUnload");
}

static int function, hostFunction;
/* The dynamic shared memory the kernels were allowed
   (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES; one for all). */
static unsigned sharedAllowed = 48 * 1024;

CUresult cuFuncSetAttribute(void *f, int attribute, int value) {
  (void)f;
  CUresult result = enter("cuFuncSetAttribute");
  if (result)
    return result;
  if (attribute != 8 || value < 0 || value > maxSharedMemory())
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  sharedAllowed = (unsigned)value;
  return 0;
}
CUresult cuModuleGetFunction(void **out, void *m, const char *name) {
  (void)m;
  *out = strncmp(name, "host_", 5) == 0 ? &hostFunction : &function;
  return enter("cuModuleGetFunction");
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **extra) {
  (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
  (void)extra;
  CUresult result = enter("cuLaunchKernel");
  if (!result && shared > sharedAllowed)
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  if (!result && f == &hostFunction) {
    Work work = {kHostKernel, *(void **)params[1],           NULL,
                 0,           *(void (**)(void *))params[0], NULL};
    submit(work, stream);
  }
  return result;
}

CUresult cuStreamCreate(void **out, unsigned flags) {
  (void)flags;
  *out = &streams[numStreams < 3 ? numStreams++ : 3];
  return enter("cuStreamCreate");
}

CUresult cuStreamSynchronize(void *s) {
  CUresult result = enter("cuStreamSynchronize");
  if (queuedStream(s))
    runQueue(NULL);
  return result;
}

CUresult cuStreamQuery(void *s) {
  CUresult result = enter("cuStreamQuery");
  if (!result && queuedStream(s) && queued)
    return 600; /* CUDA_ERROR_NOT_READY */
  return result;
}

/* Blocks carry their size in front, for the memory limit. */
CUresult cuMemAllocManaged(unsigned long long *out, size_t bytes,
                           unsigned flags) {
  (void)flags;
  CUresult result = enter("cuMemAllocManaged");
  const char *limit = getenv("MP_FAKE_CUDA_MEMORY");
  if (!result && limit && inUse + bytes > (size_t)atoll(limit))
    result = 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  if (result)
    return result;
  size_t *block = aligned_alloc(256, 256 + (bytes + 255) / 256 * 256);
  /* Zeroed: runs whose kernels do nothing compute the same on every rank. */
  memset(block, 0, 256 + (bytes + 255) / 256 * 256);
  block[0] = bytes;
  inUse += bytes;
  *out = (unsigned long long)(block + 256 / sizeof(size_t));
  return 0;
}

static CUresult memFree(unsigned long long pointer) {
  size_t *block = (size_t *)pointer - 256 / sizeof(size_t);
  inUse -= block[0];
  free(block);
  return enter("cuMemFree");
}

#ifdef MP_FAKE_CUDA_OLD
CUresult cuMemFree(unsigned long long pointer) { return memFree(pointer); }
#else
CUresult cuMemFree_v2(unsigned long long pointer) { return memFree(pointer); }

/* The range must start a managed block and fit in it; the location must be
   device 0 (CU_MEM_LOCATION_TYPE_DEVICE). */
typedef struct CUmemLocation_st {
  int type;
  int id;
} CUmemLocation;

CUresult cuMemPrefetchAsync_v2(unsigned long long pointer, size_t bytes,
                               CUmemLocation location, unsigned flags,
                               void *stream) {
  (void)stream;
  CUresult result = enter("cuMemPrefetchAsync_v2");
  if (result)
    return result;
  size_t *block = (size_t *)pointer - 256 / sizeof(size_t);
  return bytes <= block[0] && location.type == 1 && location.id == 0 &&
                 flags == 0
             ? 0
             : 1; /* CUDA_ERROR_INVALID_VALUE */
}

/* Pinned host memory is host memory. */
CUresult cuMemHostAlloc(void **out, size_t bytes, unsigned flags) {
  CUresult result = enter("cuMemHostAlloc");
  if (result)
    return result;
  *out = aligned_alloc(256, (bytes + 255) / 256 * 256);
  return flags == 0 && *out ? 0 : 1;
}

/* The destination range must start a managed block and fit in it. */
CUresult cuMemcpyHtoDAsync_v2(unsigned long long pointer, const void *source,
                              size_t bytes, void *stream) {
  CUresult result = enter("cuMemcpyHtoDAsync_v2");
  if (result)
    return result;
  size_t *block = (size_t *)pointer - 256 / sizeof(size_t);
  if (bytes > block[0])
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  Work work = {kCopy, (void *)pointer, source, bytes, NULL, NULL};
  submit(work, stream);
  return 0;
}

/* The source range must start a managed block and fit in it. */
CUresult cuMemcpyDtoHAsync_v2(void *target, unsigned long long pointer,
                              size_t bytes, void *stream) {
  CUresult result = enter("cuMemcpyDtoHAsync_v2");
  if (result)
    return result;
  size_t *block = (size_t *)pointer - 256 / sizeof(size_t);
  if (bytes > block[0])
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  Work work = {kCopy, target, (const void *)pointer, bytes, NULL, NULL};
  submit(work, stream);
  return 0;
}
#endif

/* Events hold the number of launches so far when recorded: the fake GPU
   takes 1 us per kernel. */
CUresult cuEventCreate(void **out, unsigned flags) {
  CUresult result = enter("cuEventCreate");
  if (result)
    return result;
  *out = calloc(1, sizeof(Event));
  return flags == 0 ? 0 : 1;
}

CUresult cuEventRecord(void *event, void *stream) {
  CUresult result = enter("cuEventRecord");
  if (result)
    return result;
  Event *e = event;
  e->launches = mp_fake_cuda_calls("cuLaunchKernel");
  ++e->pending;
  Work work = {kRecord, NULL, NULL, 0, NULL, e};
  submit(work, stream);
  return 0;
}

/* A stream that runs at once waits by running the queue up to the event. */
CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
  CUresult result = enter("cuStreamWaitEvent");
  if (!result && !queuedStream(stream))
    runQueue(event);
  return flags == 0 ? result : 1;
}

CUresult cuEventQuery(void *event) {
  CUresult result = enter("cuEventQuery");
  if (result)
    return result;
  return ((Event *)event)->pending ? 600 /* CUDA_ERROR_NOT_READY */ : 0;
}

CUresult cuEventSynchronize(void *event) {
  CUresult result = enter("cuEventSynchronize");
  runQueue(event);
  return result;
}

CUresult cuEventElapsedTime_v2(float *ms, void *start, void *end) {
  *ms = 0.001f * (((Event *)end)->launches - ((Event *)start)->launches);
  return enter("cuEventElapsedTime_v2");
}

/* Names the errors the tests use; others are unknown, as to an old driver. */
CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case 1:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return 0;
  case 2:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    return 0;
  case 100:
    *name = "CUDA_ERROR_NO_DEVICE";
    return 0;
  case 209:
    *name = "CUDA_ERROR_NO_BINARY_FOR_GPU";
    return 0;
  case 719:
    *name = "CUDA_ERROR_LAUNCH_FAILED";
    return 0;
  default:
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  }
}
