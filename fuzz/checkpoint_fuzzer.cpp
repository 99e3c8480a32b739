//===- checkpoint_fuzzer.cpp - libFuzzer target: checkpoint state ---------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// An input is the text of a checkpoint's trainer.txt (what --resume reads).
// parseTrainerState must give a consistent position (steps done in the
// epoch and skipped steps within the steps done, an epoch from 1, a
// generator state that reads back) or answer an error with a message.
//
//===----------------------------------------------------------------------===//

#include "runner/Checkpoint.h"

#include <cstdlib>
#include <random>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string signature;
  mp_runner::Position position;
  std::string err =
      mp_runner::parseTrainerState(text, "fuzz", signature, position);
  if (!err.empty())
    return err.rfind("fuzz ", 0) == 0 ? 0 : (std::abort(), 0);
  if (position.step < 0 || position.epoch < 1 || position.epochStep < 0 ||
      position.epochStep > position.step || position.skipped < 0 ||
      position.skipped > position.step)
    std::abort(); // an inconsistent position
  std::istringstream rng(position.rng);
  std::mt19937_64 generator;
  rng >> generator;
  if (rng.fail())
    std::abort();
  return 0;
}
