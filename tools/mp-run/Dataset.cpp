//===- Dataset.cpp - Image classification data sets for mp-run ------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Dataset.h"
#include "Errors.h"

#include "llvm/Support/MathExtras.h"

#include <cstdlib>
#include <zlib.h>

using namespace mp_run;

namespace {
/// The most a data set file may hold once decompressed (Fashion-MNIST's
/// largest holds 47 MB): a gzip bomb stops here instead of exhausting memory.
constexpr size_t kMaxDatasetFileBytes = size_t(1) << 32;

/// Reads a whole gzipped file.
llvm::Expected<std::vector<uint8_t>> readGzip(const std::string &path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file)
    return error("cannot open '" + path + "'");
  std::vector<uint8_t> out;
  uint8_t buffer[1 << 16];
  int n;
  while ((n = gzread(file, buffer, sizeof(buffer))) > 0) {
    if (out.size() + n > kMaxDatasetFileBytes) {
      gzclose(file);
      return error("'" + path + "' holds more than " +
                   std::to_string(kMaxDatasetFileBytes >> 30) +
                   " GiB once decompressed");
    }
    out.insert(out.end(), buffer, buffer + n);
  }
  gzclose(file);
  if (n != 0)
    return error("'" + path + "' is not a valid gzip file");
  return out;
}

std::string imagePath(const std::string &dir, const std::string &prefix) {
  return dir + "/" + prefix + "-images-idx3-ubyte.gz";
}

std::string labelPath(const std::string &dir, const std::string &prefix) {
  return dir + "/" + prefix + "-labels-idx1-ubyte.gz";
}

uint32_t bigEndian(const uint8_t *p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
         (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}
} // namespace

llvm::Error mp_run::parseIdx(llvm::ArrayRef<uint8_t> bytes,
                             const std::string &name, unsigned rank,
                             std::vector<uint32_t> &dims,
                             llvm::ArrayRef<uint8_t> &data) {
  size_t header = 4 + 4 * rank;
  if (bytes.size() < header || bytes[0] != 0 || bytes[1] != 0 ||
      bytes[2] != 0x08 || bytes[3] != rank)
    return error("'" + name + "' is not an IDX file of " +
                 std::to_string(rank) + "-d unsigned bytes");
  dims.clear();
  std::string shape;
  uint64_t count = 1; // saturates: 3 dimensions of 32 bits need 96
  for (unsigned i = 0; i < rank; ++i) {
    dims.push_back(bigEndian(&bytes[4 + 4 * i]));
    count = llvm::SaturatingMultiply(count, uint64_t(dims.back()));
    shape += (i ? "x" : "") + std::to_string(dims.back());
  }
  if (count != bytes.size() - header)
    return error("'" + name + "' is not a whole IDX file: its dimensions " +
                 shape + " need " +
                 (count == UINT64_MAX ? std::string("more than 2^64")
                                      : std::to_string(count)) +
                 " bytes of data, it holds " +
                 std::to_string(bytes.size() - header));
  data = bytes.drop_front(header);
  return llvm::Error::success();
}

llvm::Error mp_run::parseSplit(llvm::ArrayRef<uint8_t> imageFile,
                               llvm::ArrayRef<uint8_t> labelFile,
                               const std::string &dir,
                               const std::string &prefix, int64_t numClasses,
                               Split &split) {
  std::vector<uint32_t> imageDims, labelDims;
  llvm::ArrayRef<uint8_t> pixels, labels;
  if (llvm::Error err =
          parseIdx(imageFile, imagePath(dir, prefix), 3, imageDims, pixels))
    return err;
  if (llvm::Error err =
          parseIdx(labelFile, labelPath(dir, prefix), 1, labelDims, labels))
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

namespace {
llvm::Error readSplit(const std::string &dir, const std::string &prefix,
                      int64_t numClasses, Split &split) {
  llvm::Expected<std::vector<uint8_t>> images =
      readGzip(imagePath(dir, prefix));
  if (!images)
    return images.takeError();
  llvm::Expected<std::vector<uint8_t>> labels =
      readGzip(labelPath(dir, prefix));
  if (!labels)
    return labels.takeError();
  return parseSplit(*images, *labels, dir, prefix, numClasses, split);
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
