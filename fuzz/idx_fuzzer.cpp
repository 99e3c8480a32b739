//===- idx_fuzzer.cpp - libFuzzer target: the IDX data set reader ---------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// An input is a split's two decompressed IDX files: a 4-byte little-endian
// length, the image file of that length (cut to what is left), then the
// label file. parseSplit must build a split whose images, labels and
// dimensions agree, or answer an error with a message.
//
//===----------------------------------------------------------------------===//

#include "runner/Dataset.h"

#include <algorithm>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4)
    return 0;
  size_t imageBytes =
      data[0] | data[1] << 8 | data[2] << 16 | size_t(data[3]) << 24;
  const uint8_t *rest = data + 4;
  size_t restSize = size - 4;
  imageBytes = std::min(imageBytes, restSize);
  mp_runner::Split split;
  // An error is a message (an empty one would be success).
  std::string err = mp_runner::parseSplit(
      mp_runner::Bytes{rest, imageBytes},
      mp_runner::Bytes{rest + imageBytes, restSize - imageBytes}, "fuzz",
      "train", 10, split);
  if (!err.empty())
    return 0;
  if (split.count <= 0 || split.rows <= 0 || split.cols <= 0 ||
      split.labels.size() != size_t(split.count) ||
      split.images.size() != size_t(split.count * split.rows * split.cols))
    std::abort(); // a split whose sizes disagree
  for (int32_t label : split.labels)
    if (label < 0 || label >= 10)
      std::abort();
  for (float pixel : split.images)
    if (!(pixel >= 0.0f && pixel <= 1.0f))
      std::abort();
  return 0;
}
