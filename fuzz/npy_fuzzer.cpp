//===- npy_fuzzer.cpp - libFuzzer target: the runtime's .npy reader -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Any byte string is a .npy file to the reader: it must answer MP_OK with a
// tensor whose size matches its shape, or an error with a message.
//
//===----------------------------------------------------------------------===//

#include "../runtime/lib/Internal.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *file = fmemopen(const_cast<uint8_t *>(data), size, "rb");
  if (!file)
    return 0;
  for (int asBf16 = 0; asBf16 < 2; ++asBf16) {
    std::rewind(file);
    mp_tensor tensor;
    mp_status status = mp_runtime::readNpy(file, "fuzz: ", asBf16, &tensor);
    if (status == MP_OK) {
      // The whole tensor is readable.
      size_t bytes = mp_tensor_num_bytes(&tensor);
      volatile unsigned char sum = 0;
      for (size_t i = 0; i < bytes; ++i)
        sum += static_cast<unsigned char *>(tensor.data)[i];
      mp_tensor_release(&tensor);
    } else if (std::strlen(mp_last_error()) == 0) {
      std::abort(); // an error without a message
    }
  }
  std::fclose(file);
  return 0;
}
