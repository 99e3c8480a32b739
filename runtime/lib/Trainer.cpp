//===- Trainer.cpp - State threaded across training steps -------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cmath>
#include <cstring>
#include <deque>

using namespace mp_runtime;

struct mp_trainer {
  mp_entry *entry = nullptr;
  std::string name;
  std::vector<mp_tensor> args, results;
  bool stepped = false;
  /// Whether each argument is one that the step updates.
  std::vector<bool> updated;
  /// What a report reads: the results with the loss and the found_inf flag
  /// and the loss-scale argument (-1: none).
  int32_t lossResult = -1, foundInfResult = -1, scaleArg = -1;
  /// The read-backs of launched steps whose reports were not collected.
  std::deque<uint64_t> reports;
  /// Whether a step returned with its work queued since the last wait.
  bool queued = false;

  /// Waits for the queued steps, before the host reads or writes their
  /// arguments or results.
  mp_status drain() {
    if (!queued)
      return MP_OK;
    queued = false;
    return backendOf(entry).wait();
  }

  ~mp_trainer() {
    (void)drain();
    for (mp_tensor &t : args)
      mp_tensor_release(&t);
    for (mp_tensor &t : results)
      mp_tensor_release(&t);
  }
};

/// Sets every element of `tensor` to `value`.
static void fill(mp_tensor &tensor, double value) {
  mp_tensor scalar;
  std::memset(&scalar, 0, sizeof(scalar));
  scalar.dtype = MP_F64;
  scalar.data = &value;
  mp_tensor converted;
  mp_tensor_convert(&scalar, tensor.dtype, &converted);
  size_t size = mp_dtype_size(tensor.dtype);
  char *data = static_cast<char *>(tensor.data);
  for (int64_t i = 0, e = mp_tensor_num_elements(&tensor); i < e; ++i)
    std::memcpy(data + i * size, converted.data, size);
  mp_tensor_release(&converted);
}

extern "C" mp_status mp_trainer_create(mp_entry *step, mp_trainer **out) {
  *out = nullptr;
  auto trainer = std::make_unique<mp_trainer>();
  trainer->entry = step;
  int32_t numArgs = mp_entry_num_args(step);
  trainer->args.resize(numArgs);
  trainer->updated.resize(numArgs);
  for (int32_t i = 0; i < numArgs; ++i) {
    const mp_value_info *info = mp_entry_arg(step, i);
    for (int32_t d = 0; d < info->rank; ++d)
      if (info->shape[d] < 0)
        return fail(MP_ERROR_UNSUPPORTED,
                    "training step argument #" + std::to_string(i) +
                        " has a dynamic size; the trainer needs static shapes");
    if (info->is_scalar)
      return fail(MP_ERROR_UNSUPPORTED,
                  "training step argument #" + std::to_string(i) +
                      " is a scalar; the trainer passes tensors");
    if (mp_status status = mp_tensor_alloc(info->dtype, info->rank, info->shape,
                                           &trainer->args[i]))
      return status;
    if (info->role == MP_ROLE_LOSS_SCALE)
      trainer->scaleArg = i;
    if (info->role == MP_ROLE_STATE || info->role == MP_ROLE_LOSS_SCALE)
      fill(trainer->args[i], info->init);
    else if (info->role == MP_ROLE_GRAD_SEED)
      fill(trainer->args[i], 1.0);
  }
  bool hasUpdates = false;
  for (int32_t r = 0, e = mp_entry_num_results(step); r < e; ++r) {
    const mp_value_info *info = mp_entry_result(step, r);
    if (info->role == MP_ROLE_LOSS && trainer->lossResult < 0)
      trainer->lossResult = r;
    if (info->role == MP_ROLE_FOUND_INF && trainer->foundInfResult < 0)
      trainer->foundInfResult = r;
    if (info->role != MP_ROLE_UPDATES)
      continue;
    hasUpdates = true;
    if (info->index < 0 || info->index >= numArgs)
      return fail(MP_ERROR_FORMAT,
                  "training step result #" + std::to_string(r) +
                      " updates argument #" + std::to_string(info->index) +
                      ", which does not exist");
    trainer->updated[info->index] = true;
  }
  if (!hasUpdates)
    return fail(MP_ERROR_MISMATCH,
                "the entry has no mp.updates result: it is not a training "
                "step (build one with mp-make-train-step)");
  trainer->results.resize(mp_entry_num_results(step));
  *out = trainer.release();
  return MP_OK;
}

extern "C" void mp_trainer_destroy(mp_trainer *trainer) { delete trainer; }

extern "C" mp_tensor *mp_trainer_arg_buffer(mp_trainer *trainer,
                                            int32_t index) {
  if (index < 0 || index >= static_cast<int32_t>(trainer->args.size()))
    return nullptr;
  // An input is staged anew by each step; the state is the queued steps'.
  if (trainer->updated[index] && trainer->drain() != MP_OK)
    return nullptr;
  return &trainer->args[index];
}

extern "C" const mp_tensor *mp_trainer_arg(const mp_trainer *trainer,
                                           int32_t index) {
  auto *mutableTrainer = const_cast<mp_trainer *>(trainer);
  if (mutableTrainer->drain() != MP_OK)
    return nullptr;
  return mp_trainer_arg_buffer(mutableTrainer, index);
}

extern "C" mp_status mp_trainer_set_arg(mp_trainer *trainer, int32_t index,
                                        const mp_tensor *value) {
  const mp_value_info *info = mp_entry_arg(trainer->entry, index);
  if (!info)
    return fail(MP_ERROR_MISMATCH,
                "no argument #" + std::to_string(index) + " in the step");
  if (mp_status status = checkArgument("training step", index, *value, *info))
    return status;
  if (trainer->updated[index])
    if (mp_status status = trainer->drain())
      return status;
  std::memcpy(trainer->args[index].data, value->data,
              mp_tensor_num_bytes(value));
  return MP_OK;
}

/// One step; unless `wait`, it may return with its work queued.
static mp_status runStep(mp_trainer *trainer, bool wait) {
  std::vector<mp_tensor> results(trainer->results.size());
  if (mp_status status =
          callEntry(trainer->entry, trainer->args.data(),
                    static_cast<int32_t>(trainer->args.size()), results.data(),
                    static_cast<int32_t>(results.size()), wait))
    return status;
  for (mp_tensor &t : trainer->results)
    mp_tensor_release(&t);
  for (size_t r = 0; r < results.size(); ++r) {
    const mp_value_info *info =
        mp_entry_result(trainer->entry, static_cast<int32_t>(r));
    if (info->role != MP_ROLE_UPDATES) {
      trainer->results[r] = results[r];
      continue;
    }
    // Updated in place (a view of the argument): the argument holds it.
    mp_tensor &arg = trainer->args[info->index];
    if (results[r].data != arg.data) {
      mp_tensor_release(&arg);
      arg = results[r];
    }
    std::memset(&trainer->results[r], 0, sizeof(mp_tensor));
  }
  trainer->stepped = true;
  return MP_OK;
}

extern "C" mp_status mp_trainer_step(mp_trainer *trainer) {
  mp_status status = runStep(trainer, /*wait=*/true);
  // The backend waited for this step and for those queued before it.
  trainer->queued = false;
  return status;
}

/// The first element of a value of `dtype` at `data`.
static double readScalar(mp_dtype dtype, const char *data) {
  mp_tensor view;
  std::memset(&view, 0, sizeof(view));
  view.dtype = dtype;
  view.data = const_cast<char *>(data);
  return mp_tensor_get(&view, 0);
}

extern "C" mp_status mp_trainer_launch(mp_trainer *trainer) {
  trainer->queued = true;
  if (mp_status status = runStep(trainer, /*wait=*/false))
    return status;
  // Copies of the report's values as the step leaves them, before the next
  // step queued behind it updates the loss scale.
  std::vector<Backend::Piece> pieces;
  for (const mp_tensor *value :
       {trainer->lossResult < 0 ? nullptr
                                : &trainer->results[trainer->lossResult],
        trainer->foundInfResult < 0
            ? nullptr
            : &trainer->results[trainer->foundInfResult],
        trainer->scaleArg < 0 ? nullptr : &trainer->args[trainer->scaleArg]})
    if (value)
      pieces.push_back({value->data, mp_dtype_size(value->dtype)});
  uint64_t ticket = 0;
  if (mp_status status = backendOf(trainer->entry).readBack(pieces, ticket))
    return status;
  trainer->reports.push_back(ticket);
  return MP_OK;
}

extern "C" mp_status mp_trainer_collect(mp_trainer *trainer,
                                        mp_step_report *report) {
  std::memset(report, 0, sizeof(*report));
  if (trainer->reports.empty())
    return fail(MP_ERROR_MISMATCH,
                "no launched training step left to collect a report of");
  uint64_t ticket = trainer->reports.front();
  trainer->reports.pop_front();
  char bytes[Backend::kMaxReadBackBytes];
  if (mp_status status = backendOf(trainer->entry).collect(ticket, bytes))
    return status;
  const char *next = bytes;
  // The values lie one after the other, unaligned: each is read from an
  // aligned copy.
  auto read = [&](const mp_value_info *info) {
    alignas(8) char value[8];
    size_t bytes = mp_dtype_size(info->dtype);
    std::memcpy(value, next, bytes);
    next += bytes;
    return readScalar(info->dtype, value);
  };
  mp_entry *step = trainer->entry;
  report->loss = trainer->lossResult < 0
                     ? std::nan("")
                     : read(mp_entry_result(step, trainer->lossResult));
  if (trainer->foundInfResult >= 0)
    report->skipped = read(mp_entry_result(step, trainer->foundInfResult)) != 0;
  if (trainer->scaleArg >= 0)
    report->scale = read(mp_entry_arg(step, trainer->scaleArg));
  return MP_OK;
}

extern "C" const mp_tensor *mp_trainer_result(const mp_trainer *trainer,
                                              int32_t index) {
  if (!trainer->stepped || index < 0 ||
      index >= static_cast<int32_t>(trainer->results.size()) ||
      const_cast<mp_trainer *>(trainer)->drain() != MP_OK)
    return nullptr;
  return &trainer->results[index];
}
