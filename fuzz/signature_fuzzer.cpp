//===- signature_fuzzer.cpp - libFuzzer target: entry signatures ----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The runtime parses the signature a compiled module carries: any text is
// parsed or refused with a message, and what parses formats back to a
// signature that parses to the same values (docs/Signature.md).
//
//===----------------------------------------------------------------------===//

#include "../runtime/lib/Internal.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static bool same(const std::vector<mp_value_info> &a,
                 const std::vector<mp_value_info> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const mp_value_info &x = a[i], &y = b[i];
    if (x.dtype != y.dtype || x.rank != y.rank || x.is_scalar != y.is_scalar ||
        x.role != y.role || x.index != y.index || x.bound != y.bound ||
        std::memcmp(x.shape, y.shape, sizeof(int64_t) * x.rank) != 0 ||
        !(x.init == y.init || (x.init != x.init && y.init != y.init)))
      return false;
  }
  return true;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::vector<mp_value_info> args, results;
  if (mp_runtime::parseSignature(text, args, results) != MP_OK) {
    if (std::strlen(mp_last_error()) == 0)
      std::abort();
    return 0;
  }
  std::string written(mp_signature_format(args.data(), args.size(),
                                          results.data(), results.size(),
                                          nullptr, 0),
                      '\0');
  mp_signature_format(args.data(), args.size(), results.data(), results.size(),
                      &written[0], written.size() + 1);
  std::vector<mp_value_info> args2, results2;
  if (mp_runtime::parseSignature(written, args2, results2) != MP_OK ||
      !same(args, args2) || !same(results, results2))
    std::abort(); // the grammar does not round-trip
  return 0;
}
