//===- Checkpoint.h - Saving and resuming training --------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// A checkpoint directory DIR holds `latest` (the name of the newest state,
// replaced atomically) and that state, `step-N/`: `trainer.txt` (the step's
// signature, the position in training, the shuffling generator) and
// `argI.npy` for every argument the trainer carries from step to step
// (parameters, optimizer and loss-scale state). Writing a new state and
// then renaming `latest` onto it means an interrupted save leaves the
// previous state whole.
//
//===----------------------------------------------------------------------===//

#ifndef MP_RUNTIME_RUNNER_CHECKPOINT_H
#define MP_RUNTIME_RUNNER_CHECKPOINT_H

#include "mp/Runtime/mp_runtime.h"

#include <cstdint>
#include <string>

namespace mp_runner {

/// Where training stands after a step.
struct Position {
  int64_t step = 0;      // steps done
  unsigned epoch = 1;    // the current epoch (1-based)
  int64_t epochStep = 0; // steps done in it
  int64_t skipped = 0;   // steps skipped so far
  double loss = 0;       // the last step's loss
  int64_t ranks = 1;     // of a data-parallel run: steps are global batches
  /// The shuffling generator as it was when the current epoch began (its
  /// order is drawn again on resuming), as std::mt19937_64 writes itself.
  std::string rng;
};

/// Parses the text of a `trainer.txt` into `signature` and `position`;
/// an error message (headed `where`), or empty.
[[nodiscard]] std::string parseTrainerState(const std::string &text,
                                            const std::string &where,
                                            std::string &signature,
                                            Position &position);

/// Creates directory `path` and its missing parents; an error message, or
/// empty.
[[nodiscard]] std::string createDirectories(const std::string &path);

/// Saves the arguments of `trainer` that carry state (mp.param, mp.state,
/// mp.loss_scale) and `position` under `dir` (created if needed); an error
/// message, or empty.
[[nodiscard]] std::string saveCheckpoint(const std::string &dir,
                                         mp_entry *step, mp_trainer *trainer,
                                         const Position &position);

/// Loads the newest state under `dir` into `trainer` and `position`; fails
/// if it was not saved from a step with `step`'s signature.
[[nodiscard]] std::string loadCheckpoint(const std::string &dir,
                                         mp_entry *step, mp_trainer *trainer,
                                         Position &position);

} // namespace mp_runner

#endif // MP_RUNTIME_RUNNER_CHECKPOINT_H
