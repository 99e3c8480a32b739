//===- Dataset.cpp - Image classification data sets for mp-run ------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Dataset.h"
#include "Errors.h"

#include <cstdlib>
#include <zlib.h>

using namespace mp_run;

namespace {
/// Reads a whole gzipped file.
llvm::Expected<std::vector<uint8_t>> readGzip(const std::string &path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file)
    return error("cannot open '" + path + "'");
  std::vector<uint8_t> out;
  uint8_t buffer[1 << 16];
  int n;
  while ((n = gzread(file, buffer, sizeof(buffer))) > 0)
    out.insert(out.end(), buffer, buffer + n);
  gzclose(file);
  if (n != 0)
    return error("'" + path + "' is not a valid gzip file");
  return out;
}

uint32_t bigEndian(const uint8_t *p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
         (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

/// Parses an IDX file of unsigned bytes with `rank` dimensions.
llvm::Error readIdx(const std::string &path, unsigned rank,
                    std::vector<uint32_t> &dims, std::vector<uint8_t> &data) {
  llvm::Expected<std::vector<uint8_t>> read = readGzip(path);
  if (!read)
    return read.takeError();
  const std::vector<uint8_t> &bytes = *read;
  size_t header = 4 + 4 * rank;
  if (bytes.size() < header || bytes[0] != 0 || bytes[1] != 0 ||
      bytes[2] != 0x08 || bytes[3] != rank)
    return error("'" + path + "' is not an IDX file of " +
                 std::to_string(rank) + "-d unsigned bytes");
  size_t count = 1;
  for (unsigned i = 0; i < rank; ++i) {
    dims.push_back(bigEndian(&bytes[4 + 4 * i]));
    count *= dims.back();
  }
  if (bytes.size() != header + count)
    return error("'" + path + "' is truncated: expected " +
                 std::to_string(header + count) + " bytes, got " +
                 std::to_string(bytes.size()));
  data.assign(bytes.begin() + header, bytes.end());
  return llvm::Error::success();
}

llvm::Error readSplit(const std::string &dir, const std::string &prefix,
                      int64_t numClasses, Split &split) {
  std::vector<uint32_t> imageDims, labelDims;
  std::vector<uint8_t> pixels, labels;
  if (llvm::Error err = readIdx(dir + "/" + prefix + "-images-idx3-ubyte.gz", 3,
                                imageDims, pixels))
    return err;
  if (llvm::Error err = readIdx(dir + "/" + prefix + "-labels-idx1-ubyte.gz", 1,
                                labelDims, labels))
    return err;
  if (imageDims[0] != labelDims[0])
    return error(prefix + " split: " + std::to_string(imageDims[0]) +
                 " images but " + std::to_string(labelDims[0]) + " labels");
  if (imageDims[0] == 0 || imageDims[1] == 0 || imageDims[2] == 0)
    return error(prefix + " split holds no images");
  for (size_t i = 0; i < labels.size(); ++i)
    if (labels[i] >= numClasses)
      return error(prefix + " split: label " + std::to_string(labels[i]) +
                   " of example " + std::to_string(i) + " is outside [0, " +
                   std::to_string(numClasses) + ")");
  split.count = imageDims[0];
  split.rows = imageDims[1];
  split.cols = imageDims[2];
  split.images.resize(pixels.size());
  for (size_t i = 0; i < pixels.size(); ++i)
    split.images[i] = pixels[i] / 255.0f;
  split.labels.assign(labels.begin(), labels.end());
  return llvm::Error::success();
}
} // namespace

llvm::Error mp_run::loadDataset(const std::string &name, Dataset &out) {
  if (name != "fashion-mnist")
    return error("unknown data set '" + name + "' (known: fashion-mnist)");
  const char *env = std::getenv("MP_DATASET_DIR");
  std::string dir = env ? env : "/usr/share/datasets/fashion-mnist";
  out.name = name;
  out.numClasses = 10;
  llvm::Error err = readSplit(dir, "train", out.numClasses, out.train);
  if (!err)
    err = readSplit(dir, "t10k", out.numClasses, out.test);
  if (err && !env)
    return error(llvm::toString(std::move(err)) +
                 " (install Debian's dataset-fashion-mnist, e.g. with "
                 "scripts/install-deps.sh, or set MP_DATASET_DIR)");
  return err;
}
