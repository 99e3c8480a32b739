//===- Dataset.cpp - Image classification data sets for mp-run ------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Dataset.h"

#include <cstdlib>
#include <zlib.h>

using namespace mp_run;

namespace {
/// Reads a whole gzipped file.
bool readGzip(const std::string &path, std::vector<uint8_t> &out,
              std::string &error) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) {
    error = "cannot open '" + path + "'";
    return false;
  }
  uint8_t buffer[1 << 16];
  int n;
  while ((n = gzread(file, buffer, sizeof(buffer))) > 0)
    out.insert(out.end(), buffer, buffer + n);
  bool ok = n == 0;
  gzclose(file);
  if (!ok)
    error = "'" + path + "' is not a valid gzip file";
  return ok;
}

uint32_t bigEndian(const uint8_t *p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
         (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

/// Parses an IDX file of unsigned bytes with `rank` dimensions.
bool readIdx(const std::string &path, unsigned rank,
             std::vector<uint32_t> &dims, std::vector<uint8_t> &data,
             std::string &error) {
  std::vector<uint8_t> bytes;
  if (!readGzip(path, bytes, error))
    return false;
  size_t header = 4 + 4 * rank;
  if (bytes.size() < header || bytes[0] != 0 || bytes[1] != 0 ||
      bytes[2] != 0x08 || bytes[3] != rank) {
    error = "'" + path + "' is not an IDX file of " + std::to_string(rank) +
            "-d unsigned bytes";
    return false;
  }
  size_t count = 1;
  for (unsigned i = 0; i < rank; ++i) {
    dims.push_back(bigEndian(&bytes[4 + 4 * i]));
    count *= dims.back();
  }
  if (bytes.size() != header + count) {
    error = "'" + path + "' is truncated: expected " +
            std::to_string(header + count) + " bytes, got " +
            std::to_string(bytes.size());
    return false;
  }
  data.assign(bytes.begin() + header, bytes.end());
  return true;
}

bool readSplit(const std::string &dir, const std::string &prefix, Split &split,
               std::string &error) {
  std::vector<uint32_t> imageDims, labelDims;
  std::vector<uint8_t> pixels, labels;
  if (!readIdx(dir + "/" + prefix + "-images-idx3-ubyte.gz", 3, imageDims,
               pixels, error) ||
      !readIdx(dir + "/" + prefix + "-labels-idx1-ubyte.gz", 1, labelDims,
               labels, error))
    return false;
  if (imageDims[0] != labelDims[0]) {
    error = prefix + " split: " + std::to_string(imageDims[0]) +
            " images but " + std::to_string(labelDims[0]) + " labels";
    return false;
  }
  split.count = imageDims[0];
  split.rows = imageDims[1];
  split.cols = imageDims[2];
  split.images.resize(pixels.size());
  for (size_t i = 0; i < pixels.size(); ++i)
    split.images[i] = pixels[i] / 255.0f;
  split.labels.assign(labels.begin(), labels.end());
  return true;
}
} // namespace

bool mp_run::loadDataset(const std::string &name, Dataset &out,
                         std::string &error) {
  if (name != "fashion-mnist") {
    error = "unknown data set '" + name + "' (known: fashion-mnist)";
    return false;
  }
  const char *env = std::getenv("MP_DATASET_DIR");
  std::string dir = env ? env : "/usr/share/datasets/fashion-mnist";
  out.name = name;
  out.numClasses = 10;
  if (!readSplit(dir, "train", out.train, error) ||
      !readSplit(dir, "t10k", out.test, error)) {
    if (!env)
      error += " (install Debian's dataset-fashion-mnist, e.g. with "
               "scripts/install-deps.sh, or set MP_DATASET_DIR)";
    return false;
  }
  return true;
}
