//===- Trainer.cpp - State threaded across training steps -------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cstring>

using namespace mp_runtime;

struct mp_trainer {
  mp_entry *entry = nullptr;
  std::string name;
  std::vector<mp_tensor> args, results;
  bool stepped = false;

  ~mp_trainer() {
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
    if (info->role == MP_ROLE_STATE || info->role == MP_ROLE_LOSS_SCALE)
      fill(trainer->args[i], info->init);
    else if (info->role == MP_ROLE_GRAD_SEED)
      fill(trainer->args[i], 1.0);
  }
  bool hasUpdates = false;
  for (int32_t r = 0, e = mp_entry_num_results(step); r < e; ++r) {
    const mp_value_info *info = mp_entry_result(step, r);
    if (info->role != MP_ROLE_UPDATES)
      continue;
    hasUpdates = true;
    if (info->index < 0 || info->index >= numArgs)
      return fail(MP_ERROR_FORMAT,
                  "training step result #" + std::to_string(r) +
                      " updates argument #" + std::to_string(info->index) +
                      ", which does not exist");
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
  return &trainer->args[index];
}

extern "C" const mp_tensor *mp_trainer_arg(const mp_trainer *trainer,
                                           int32_t index) {
  return mp_trainer_arg_buffer(const_cast<mp_trainer *>(trainer), index);
}

extern "C" mp_status mp_trainer_set_arg(mp_trainer *trainer, int32_t index,
                                        const mp_tensor *value) {
  const mp_value_info *info = mp_entry_arg(trainer->entry, index);
  if (!info)
    return fail(MP_ERROR_MISMATCH,
                "no argument #" + std::to_string(index) + " in the step");
  if (mp_status status = checkArgument("training step", index, *value, *info))
    return status;
  std::memcpy(trainer->args[index].data, value->data,
              mp_tensor_num_bytes(value));
  return MP_OK;
}

extern "C" mp_status mp_trainer_step(mp_trainer *trainer) {
  std::vector<mp_tensor> results(trainer->results.size());
  if (mp_status status =
          mp_entry_call(trainer->entry, trainer->args.data(),
                        static_cast<int32_t>(trainer->args.size()),
                        results.data(), static_cast<int32_t>(results.size())))
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

extern "C" const mp_tensor *mp_trainer_result(const mp_trainer *trainer,
                                              int32_t index) {
  if (!trainer->stepped || index < 0 ||
      index >= static_cast<int32_t>(trainer->results.size()))
    return nullptr;
  return &trainer->results[index];
}
