//===- Dataset.cpp - Image classification data sets for training ----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Dataset.h"

#include <cstdlib>
#include <zlib.h>

using namespace mp_runner;

namespace {
/// The most a data set file may hold once decompressed (Fashion-MNIST's
/// largest holds 47 MB): a gzip bomb stops here instead of exhausting memory.
constexpr size_t kMaxDatasetFileBytes = size_t(1) << 32;

/// Reads a whole gzipped file into `out`.
std::string readGzip(const std::string &path, std::vector<uint8_t> &out) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file)
    return "cannot open '" + path + "'";
  out.clear();
  uint8_t buffer[1 << 16];
  int n;
  while ((n = gzread(file, buffer, sizeof(buffer))) > 0) {
    if (out.size() + n > kMaxDatasetFileBytes) {
      gzclose(file);
      return "'" + path + "' holds more than " +
             std::to_string(kMaxDatasetFileBytes >> 30) +
             " GiB once decompressed";
    }
    out.insert(out.end(), buffer, buffer + n);
  }
  gzclose(file);
  if (n != 0)
    return "'" + path + "' is not a valid gzip file";
  return "";
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

std::string mp_runner::parseIdx(Bytes file, const std::string &name,
                                unsigned rank, std::vector<uint32_t> &dims,
                                Bytes &data) {
  size_t header = 4 + 4 * rank;
  const uint8_t *bytes = file.data;
  if (file.size < header || bytes[0] != 0 || bytes[1] != 0 ||
      bytes[2] != 0x08 || bytes[3] != rank)
    return "'" + name + "' is not an IDX file of " + std::to_string(rank) +
           "-d unsigned bytes";
  dims.clear();
  std::string shape;
  uint64_t count = 1; // saturates: 3 dimensions of 32 bits need 96
  for (unsigned i = 0; i < rank; ++i) {
    dims.push_back(bigEndian(&bytes[4 + 4 * i]));
    if (__builtin_mul_overflow(count, uint64_t(dims.back()), &count))
      count = UINT64_MAX;
    shape += (i ? "x" : "") + std::to_string(dims.back());
  }
  if (count != file.size - header)
    return "'" + name + "' is not a whole IDX file: its dimensions " + shape +
           " need " +
           (count == UINT64_MAX ? std::string("more than 2^64")
                                : std::to_string(count)) +
           " bytes of data, it holds " + std::to_string(file.size - header);
  data = Bytes{bytes + header, file.size - header};
  return "";
}

std::string mp_runner::parseSplit(Bytes imageFile, Bytes labelFile,
                                  const std::string &dir,
                                  const std::string &prefix, int64_t numClasses,
                                  Split &split) {
  std::vector<uint32_t> imageDims, labelDims;
  Bytes pixels, labels;
  if (std::string err =
          parseIdx(imageFile, imagePath(dir, prefix), 3, imageDims, pixels);
      !err.empty())
    return err;
  if (std::string err =
          parseIdx(labelFile, labelPath(dir, prefix), 1, labelDims, labels);
      !err.empty())
    return err;
  if (imageDims[0] != labelDims[0])
    return prefix + " split: " + std::to_string(imageDims[0]) + " images but " +
           std::to_string(labelDims[0]) + " labels";
  if (imageDims[0] == 0 || imageDims[1] == 0 || imageDims[2] == 0)
    return prefix + " split holds no images";
  for (size_t i = 0; i < labels.size; ++i)
    if (labels.data[i] >= numClasses)
      return prefix + " split: label " + std::to_string(labels.data[i]) +
             " of example " + std::to_string(i) + " is outside [0, " +
             std::to_string(numClasses) + ")";
  split.count = imageDims[0];
  split.rows = imageDims[1];
  split.cols = imageDims[2];
  split.images.resize(pixels.size);
  for (size_t i = 0; i < pixels.size; ++i)
    split.images[i] = pixels.data[i] / 255.0f;
  split.labels.assign(labels.data, labels.data + labels.size);
  return "";
}

namespace {
std::string readSplit(const std::string &dir, const std::string &prefix,
                      int64_t numClasses, Split &split) {
  std::vector<uint8_t> images, labels;
  std::string err = readGzip(imagePath(dir, prefix), images);
  if (err.empty())
    err = readGzip(labelPath(dir, prefix), labels);
  if (!err.empty())
    return err;
  return parseSplit(Bytes{images.data(), images.size()},
                    Bytes{labels.data(), labels.size()}, dir, prefix,
                    numClasses, split);
}
} // namespace

std::string mp_runner::loadDataset(const std::string &name, Dataset &out) {
  if (name != "fashion-mnist")
    return "unknown data set '" + name + "' (known: fashion-mnist)";
  const char *env = std::getenv("MP_DATASET_DIR");
  std::string dir = env ? env : "/usr/share/datasets/fashion-mnist";
  out.name = name;
  out.numClasses = 10;
  std::string err = readSplit(dir, "train", out.numClasses, out.train);
  if (err.empty())
    err = readSplit(dir, "t10k", out.numClasses, out.test);
  if (!err.empty() && !env)
    return err + " (install Debian's dataset-fashion-mnist, e.g. with "
                 "scripts/install-deps.sh, or set MP_DATASET_DIR)";
  return err;
}
