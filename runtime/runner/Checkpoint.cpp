//===- Checkpoint.cpp - Saving and resuming training ----------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Checkpoint.h"
#include "mp/Runtime/Tensor.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace mp_runner;

namespace {
constexpr const char *kMagic = "mp-checkpoint 1";
/// The largest trainer.txt read (the generator's state is about 7 kB).
constexpr size_t kMaxStateBytes = size_t(1) << 20;

/// Whether the trainer carries argument `info` from step to step.
bool carriesState(const mp_value_info &info) {
  return info.role == MP_ROLE_PARAM || info.role == MP_ROLE_STATE ||
         info.role == MP_ROLE_LOSS_SCALE;
}

/// The signature of `step`, "ARG;...->RESULT;...".
std::string getSignature(mp_entry *step) {
  std::vector<mp_value_info> args, results;
  for (int32_t i = 0, e = mp_entry_num_args(step); i < e; ++i)
    args.push_back(*mp_entry_arg(step, i));
  for (int32_t i = 0, e = mp_entry_num_results(step); i < e; ++i)
    results.push_back(*mp_entry_result(step, i));
  size_t length =
      mp_signature_format(args.data(), args.size(), results.data(),
                          results.size(), nullptr, 0);
  std::string text(length + 1, '\0');
  mp_signature_format(args.data(), args.size(), results.data(), results.size(),
                      text.data(), text.size());
  text.resize(length);
  return text;
}

std::string systemError(const std::string &what, const std::string &path) {
  return "cannot " + what + " '" + path + "': " + std::strerror(errno);
}

/// Writes `text` to `path` and flushes it to the disk.
std::string writeDurably(const std::string &path, const std::string &text) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    return systemError("write", path);
  bool ok = write(fd, text.data(), text.size()) ==
                static_cast<ssize_t>(text.size()) &&
            fsync(fd) == 0;
  int savedErrno = errno;
  ok = close(fd) == 0 && ok;
  errno = savedErrno;
  return ok ? "" : systemError("write", path);
}

/// Removes directory `path` and the files in it (no subdirectories).
void removeState(const std::string &path) {
  if (DIR *dir = opendir(path.c_str())) {
    while (dirent *entry = readdir(dir))
      if (std::strcmp(entry->d_name, ".") && std::strcmp(entry->d_name, ".."))
        unlink((path + "/" + entry->d_name).c_str());
    closedir(dir);
  }
  rmdir(path.c_str());
}

/// The first line of `path` without its newline, or an error.
std::string readLine(const std::string &path, std::string &line) {
  std::FILE *file = std::fopen(path.c_str(), "r");
  if (!file)
    return systemError("read", path);
  char buffer[256];
  line = std::fgets(buffer, sizeof(buffer), file) ? buffer : "";
  std::fclose(file);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
    line.pop_back();
  return "";
}

/// Parses a whole decimal integer of [0, max].
bool parseCount(const std::string &text, int64_t max, int64_t &value) {
  if (text.empty() || text.size() > 18 ||
      text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  value = std::strtoll(text.c_str(), nullptr, 10);
  return value <= max;
}
} // namespace

std::string mp_runner::createDirectories(const std::string &path) {
  for (size_t slash = path.find('/', 1); ; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    struct stat info;
    if (!prefix.empty() && stat(prefix.c_str(), &info) != 0 &&
        mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST)
      return systemError("create", prefix);
    if (slash == std::string::npos)
      return "";
  }
}

std::string mp_runner::saveCheckpoint(const std::string &dir, mp_entry *step,
                                      mp_trainer *trainer,
                                      const Position &position) {
  if (std::string err = createDirectories(dir); !err.empty())
    return "--save-state: " + err;
  std::string name = "step-" + std::to_string(position.step);
  std::string state = dir + "/" + name;
  removeState(state); // a partial one from an earlier, interrupted save
  if (mkdir(state.c_str(), 0755) != 0)
    return systemError("create", state);
  for (int32_t i = 0, e = mp_entry_num_args(step); i < e; ++i) {
    if (!carriesState(*mp_entry_arg(step, i)))
      continue;
    std::string path = state + "/arg" + std::to_string(i) + ".npy";
    const mp_tensor *value = mp_trainer_arg(trainer, i);
    if (!value || mp_npy_write(path.c_str(), value) != MP_OK)
      return std::string("--save-state: ") + mp_last_error();
  }
  char loss[64];
  std::snprintf(loss, sizeof(loss), "%.17g", position.loss);
  std::string text = std::string(kMagic) + "\nsignature " + getSignature(step) +
                     "\nstep " + std::to_string(position.step) + "\nepoch " +
                     std::to_string(position.epoch) + "\nepoch_step " +
                     std::to_string(position.epochStep) + "\nskipped " +
                     std::to_string(position.skipped) + "\nloss " + loss +
                     "\nrng " + position.rng + "\nranks " +
                     std::to_string(position.ranks) + "\n";
  if (std::string err = writeDurably(state + "/trainer.txt", text);
      !err.empty())
    return err;
  // Point `latest` at the new state, then drop the one it replaced.
  std::string previous;
  if (readLine(dir + "/latest", previous).empty() && previous == name)
    previous.clear();
  if (std::string err = writeDurably(dir + "/latest.tmp", name + "\n");
      !err.empty())
    return err;
  if (rename((dir + "/latest.tmp").c_str(), (dir + "/latest").c_str()) != 0)
    return systemError("replace", dir + "/latest");
  if (previous.rfind("step-", 0) == 0 &&
      previous.find('/') == std::string::npos)
    removeState(dir + "/" + previous);
  return "";
}

std::string mp_runner::parseTrainerState(const std::string &text,
                                         const std::string &where,
                                         std::string &signature,
                                         Position &position) {
  if (text.size() > kMaxStateBytes)
    return where + " is too large to be an mp checkpoint";
  // The magic line, then "key value" lines.
  std::map<std::string, std::string> fields;
  size_t begin = 0;
  bool first = true;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    if (first) {
      if (line != kMagic)
        return where + " is not an mp checkpoint";
      first = false;
      continue;
    }
    size_t space = line.find(' ');
    if (space != std::string::npos)
      fields[line.substr(0, space)] = line.substr(space + 1);
  }
  if (first)
    return where + " is not an mp checkpoint";
  for (const char *key :
       {"signature", "step", "epoch", "epoch_step", "skipped", "loss", "rng"})
    if (!fields.count(key))
      return where + " has no '" + key + "'";
  int64_t epoch = 0;
  char *end = nullptr;
  const std::string &loss = fields["loss"];
  position.loss = std::strtod(loss.c_str(), &end);
  if (!parseCount(fields["step"], INT64_MAX / 2, position.step) ||
      !parseCount(fields["epoch"], UINT32_MAX, epoch) || epoch < 1 ||
      !parseCount(fields["epoch_step"], position.step, position.epochStep) ||
      !parseCount(fields["skipped"], position.step, position.skipped) ||
      loss.empty() || !end || *end || fields["rng"].empty())
    return where + " has a malformed position";
  std::istringstream rng(fields["rng"]);
  std::mt19937_64 generator;
  rng >> generator;
  if (rng.fail())
    return where + " has a malformed random generator state";
  // Optional: checkpoints of single-process runs before data parallelism.
  position.ranks = 1;
  if (fields.count("ranks") &&
      (!parseCount(fields["ranks"], 1 << 20, position.ranks) ||
       position.ranks < 1))
    return where + " has a malformed number of ranks";
  position.epoch = static_cast<unsigned>(epoch);
  position.rng = fields["rng"];
  signature = fields["signature"];
  return "";
}

std::string mp_runner::loadCheckpoint(const std::string &dir, mp_entry *step,
                                      mp_trainer *trainer, Position &position) {
  std::string name;
  if (std::string err = readLine(dir + "/latest", name); !err.empty())
    return "--resume: " + err + " (not a directory that --save-state wrote)";
  if (name.rfind("step-", 0) != 0 || name.find('/') != std::string::npos)
    return "--resume: '" + dir + "/latest' does not name a saved state";
  std::string state = dir + "/" + name;
  std::string text, where = "--resume: '" + state + "/trainer.txt'";
  std::FILE *file = std::fopen((state + "/trainer.txt").c_str(), "r");
  if (!file)
    return "--resume: " + systemError("read", state + "/trainer.txt");
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof(buffer), file)) > 0;) {
    text.append(buffer, n);
    if (text.size() > kMaxStateBytes)
      break;
  }
  std::fclose(file);
  std::string signature;
  if (std::string err = parseTrainerState(text, where, signature, position);
      !err.empty())
    return err;
  if (signature != getSignature(step))
    return where + " was saved from another training step (signature " +
           signature + "); resume with the same model and flags";
  for (int32_t i = 0, e = mp_entry_num_args(step); i < e; ++i) {
    if (!carriesState(*mp_entry_arg(step, i)))
      continue;
    std::string path = state + "/arg" + std::to_string(i) + ".npy";
    mp_runtime::Tensor value;
    int asBf16 = mp_entry_arg(step, i)->dtype == MP_BF16;
    if (mp_npy_read(path.c_str(), asBf16, value.get()) != MP_OK ||
        mp_trainer_set_arg(trainer, i, value.get()) != MP_OK)
      return std::string("--resume: ") + mp_last_error();
  }
  return "";
}
