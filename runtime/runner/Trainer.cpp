//===- Trainer.cpp - The training loop of mp-run and mp-exec ---*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Trainer.h"
#include "Checkpoint.h"
#include "mp/Runtime/Tensor.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace mp_runner;
using mp_runtime::Tensor;

volatile std::sig_atomic_t mp_runner::interruptRequested = 0;

void mp_runner::installInterruptHandler() {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = [](int) { interruptRequested = 1; };
  action.sa_flags = SA_RESETHAND; // a second signal kills the process
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

std::string mp_runner::checkTrainOptions(const TrainOptions &options) {
  if (options.epochs == 0)
    return "--epochs must be at least 1";
  if (options.testLimit < 0)
    return "--test-limit must be 0 (all) or a number of images";
  if (options.maxSteps < 0)
    return "--max-steps must be 0 (whole epochs) or a number of steps";
  if (options.batch < 0)
    return "--batch must be positive";
  for (int64_t step : options.injectOverflow)
    if (step < 1)
      return "--inject-overflow " + std::to_string(step) +
             ": steps count from 1";
  if (!(options.lossWeight > 0) || !std::isfinite(options.lossWeight))
    return "--loss-weight must be positive and finite";
  if (options.saveEvery < 0 || (options.saveEvery && options.saveState.empty()))
    return "--save-every N needs --save-state DIR and N >= 1";
  if (options.injectRank >= options.worldSize ||
      (options.injectRank >= 0 && options.injectOverflow.empty()) ||
      options.injectRank < -1)
    return "--inject-rank " + std::to_string(options.injectRank) +
           " needs --inject-overflow and a rank below the world size " +
           std::to_string(options.worldSize);
  return "";
}

namespace {

/// How the data set fills the inputs of the graph.
struct InputLayout {
  int32_t imageArg = -1, labelArg = -1;
  mp_value_info image, label;
  int64_t batch = 0;
  bool oneHot = false;
};

std::string findInputs(mp_entry *grad, const Dataset &data,
                       InputLayout &layout) {
  std::vector<int32_t> inputs;
  for (int32_t i = 0, e = mp_entry_num_args(grad); i < e; ++i)
    if (mp_entry_arg(grad, i)->role == MP_ROLE_INPUT)
      inputs.push_back(i);
  if (inputs.size() != 2)
    return "the gradient function has " + std::to_string(inputs.size()) +
           " mp.input arguments; training on " + data.name +
           " needs two: images and labels";
  layout.imageArg = inputs[0];
  layout.labelArg = inputs[1];
  layout.image = *mp_entry_arg(grad, inputs[0]);
  layout.label = *mp_entry_arg(grad, inputs[1]);
  int64_t pixels = 1;
  for (int32_t d = 1; d < layout.image.rank; ++d)
    pixels *= layout.image.shape[d];
  int64_t expected = data.train.rows * data.train.cols;
  if (layout.image.dtype != MP_F32 || layout.image.rank < 2 ||
      pixels != expected)
    return "the image input (argument #" + std::to_string(inputs[0]) + ") is " +
           mp_runtime::format(layout.image) + "; " + data.name +
           " needs f32[B," + std::to_string(expected) + "], f32[B,1," +
           std::to_string(data.train.rows) + "," +
           std::to_string(data.train.cols) + "] or similar";
  layout.batch = layout.image.shape[0];
  const mp_value_info &l = layout.label;
  layout.oneHot =
      l.dtype == MP_F32 && l.rank == 2 && l.shape[1] == data.numClasses;
  bool indices = (l.dtype == MP_I32 || l.dtype == MP_I64) && l.rank == 1;
  if ((!layout.oneHot && !indices) || l.shape[0] != layout.batch)
    return "the label input (argument #" + std::to_string(inputs[1]) + ") is " +
           mp_runtime::format(l) + "; expected f32[" +
           std::to_string(layout.batch) + "," +
           std::to_string(data.numClasses) + "] (one-hot) or i32/i64[" +
           std::to_string(layout.batch) + "] (class indices)";
  return "";
}

/// Fills the image and label tensors with examples `order[first...]`
/// (rows past the end of the split are zero).
void fillBatch(const Split &split, const InputLayout &layout,
               const std::vector<int64_t> &order, int64_t first,
               int64_t numClasses, mp_tensor &images, mp_tensor &labels) {
  int64_t pixels = split.rows * split.cols;
  int64_t rows = std::clamp<int64_t>(static_cast<int64_t>(order.size()) - first,
                                     0, layout.batch);
  auto *img = static_cast<float *>(images.data);
  std::fill(img + rows * pixels, img + mp_tensor_num_elements(&images), 0.0f);
  // One-hot rows are zero but for the label's 1.
  size_t filled = layout.oneHot ? 0 : rows * mp_dtype_size(labels.dtype);
  std::memset(static_cast<char *>(labels.data) + filled, 0,
              mp_tensor_num_bytes(&labels) - filled);
  for (int64_t b = 0; b < rows; ++b) {
    int64_t pos = first + b;
    int64_t example = order[pos];
    std::memcpy(img + b * pixels, &split.images[example * pixels],
                pixels * sizeof(float));
    int32_t label = split.labels[example];
    if (layout.oneHot)
      static_cast<float *>(labels.data)[b * numClasses + label] = 1.0f;
    else if (labels.dtype == MP_I32)
      static_cast<int32_t *>(labels.data)[b] = label;
    else
      static_cast<int64_t *>(labels.data)[b] = label;
  }
}

/// Micro-batch `m` of `all` (shape [K, ...]) as a tensor of shape `micro`
/// that does not own its data.
mp_tensor viewMicroBatch(const mp_tensor &all, const mp_value_info &micro,
                         int64_t m) {
  mp_tensor view;
  std::memset(&view, 0, sizeof(view));
  view.dtype = micro.dtype;
  view.rank = micro.rank;
  std::memcpy(view.shape, micro.shape, sizeof(int64_t) * micro.rank);
  view.data = static_cast<char *>(all.data) + m * mp_tensor_num_bytes(&view);
  return view;
}

/// The runtime's last error, after "`context`: " when given.
std::string runtimeError(const std::string &context = "") {
  return context.empty() ? mp_last_error() : context + ": " + mp_last_error();
}

std::string allocLike(const mp_value_info &info, Tensor &out) {
  if (mp_tensor_alloc(info.dtype, info.rank, info.shape, out.get()) != MP_OK)
    return runtimeError();
  return "";
}

/// PyTorch's default for nn.Linear / nn.Conv2d weights: U(-1/sqrt(fan_in),
/// 1/sqrt(fan_in)), with fan_in the rows of a 2-D [in, out] weight and
/// C*KH*KW of a 4-D [F, C, KH, KW] filter. Rank-0/1 parameters start at 0.
void defaultInit(mp_tensor &param, std::mt19937_64 &rng) {
  int64_t fanIn = param.rank == 2 ? param.shape[0]
                  : param.rank >= 3
                      ? mp_tensor_num_elements(&param) / param.shape[0]
                      : 0;
  auto *data = static_cast<float *>(param.data);
  int64_t n = mp_tensor_num_elements(&param);
  if (fanIn == 0) {
    std::fill(data, data + n, 0.0f);
    return;
  }
  float bound = 1.0f / std::sqrt(static_cast<float>(fanIn));
  std::uniform_real_distribution<float> dist(-bound, bound);
  for (int64_t i = 0; i < n; ++i)
    data[i] = dist(rng);
}

class Trainer {
public:
  Trainer(mp_entry *step, mp_entry *grad, const Dataset &data,
          const TrainOptions &options)
      : step(step), grad(grad), data(data), options(options),
        rng(options.seed) {}
  ~Trainer() {
    if (trainer)
      mp_trainer_destroy(trainer);
    if (log)
      std::fclose(log);
  }

  std::string run(TrainSummary &summary);

private:
  std::string setUp();
  /// Sets `accuracy` to the accuracy on the test split; < 0 without logits.
  std::string evaluate(double &accuracy);
  /// Data parallel: fails unless every rank holds the same parameters and
  /// state, bit for bit (a hash of them, compared across the ranks).
  std::string checkReplicas(int64_t step);
  /// Appends `row` to the CSV log and flushes it.
  std::string writeLog(const std::string &row);
  void showProgress(unsigned epoch, int64_t done, int64_t total,
                    const TrainSummary &summary, bool last);
  /// A launched step whose report is not read yet: its number (from 1),
  /// epoch and index in the epoch.
  struct Launched {
    int64_t number;
    unsigned epoch;
    int64_t index;
  };
  /// Reads the report of the oldest launched step into `summary`, logs and
  /// shows it, and evaluates after the last step of an epoch.
  std::string finishStep(const Launched &launched, int64_t perEpoch,
                         TrainSummary &summary, Position &position);

  mp_entry *step, *grad;
  const Dataset &data;
  const TrainOptions &options;
  std::mt19937_64 rng;
  mp_trainer *trainer = nullptr;
  InputLayout layout;
  int32_t seedArg = -1, scaleArg = -1, foundInfResult = -1, logitsResult = -1;
  bool hasLoss = false;
  /// The loss scale after the last step read; 0 without loss scaling.
  double scale = 0;
  std::FILE *log = nullptr;
};

std::string Trainer::setUp() {
  if (std::string err = findInputs(grad, data, layout); !err.empty())
    return err;
  if (options.batch && options.batch != layout.batch)
    return "--batch " + std::to_string(options.batch) +
           " differs from the graph's batch size " +
           std::to_string(layout.batch) +
           " (shapes are static: export the graph with that batch size)";
  if (mp_trainer_create(step, &trainer) != MP_OK)
    return runtimeError();
  for (int32_t i = 0, e = mp_entry_num_args(step); i < e; ++i) {
    const mp_value_info *info = mp_entry_arg(step, i);
    if (info->role == MP_ROLE_GRAD_SEED)
      seedArg = i;
    if (info->role == MP_ROLE_LOSS_SCALE)
      scaleArg = i;
    if (info->role != MP_ROLE_PARAM)
      continue;
    Tensor value;
    std::string path = options.initDir + "/arg" + std::to_string(i) + ".npy";
    if (options.initDir.empty()) {
      if (std::string err = allocLike(*info, value); !err.empty())
        return err;
      defaultInit(*value, rng);
    } else if (mp_npy_read(path.c_str(), 0, value.get()) != MP_OK) {
      return runtimeError("--init");
    }
    if (mp_trainer_set_arg(trainer, i, value.get()) != MP_OK)
      return runtimeError("--init");
  }
  for (int32_t r = 0, e = mp_entry_num_results(step); r < e; ++r) {
    mp_role role = mp_entry_result(step, r)->role;
    if (role == MP_ROLE_LOSS)
      hasLoss = true;
    if (role == MP_ROLE_FOUND_INF)
      foundInfResult = r;
  }
  for (int32_t r = 0, e = mp_entry_num_results(grad); r < e; ++r)
    if (mp_entry_result(grad, r)->role == MP_ROLE_OUTPUT && logitsResult < 0)
      logitsResult = r;
  if (seedArg < 0 || !hasLoss)
    return "the training step has no mp.grad_seed argument or no mp.loss "
           "result";
  if (!options.injectOverflow.empty() && foundInfResult < 0)
    return "--inject-overflow needs loss scaling to skip the steps (--amp "
           "fp16, or --loss-scale dynamic or static): without it the "
           "parameters would become inf";
  if (options.rank != 0)
    return "";
  for (auto [flag, dir] : {std::make_pair("--save-params", &options.saveParams),
                           std::make_pair("--save-state", &options.saveState)})
    if (!dir->empty())
      if (std::string err = createDirectories(*dir); !err.empty())
        return std::string(flag) + ": " + err;
  if (!options.logFile.empty()) {
    log = std::fopen(options.logFile.c_str(), "w");
    if (!log)
      return "cannot write '" + options.logFile + "'";
    return writeLog("step,epoch,loss,scale,skipped,accuracy\n");
  }
  return "";
}

/// Whether `flag` is set on any rank (a collective: every rank calls it).
static bool onAnyRank(bool flag) {
  uint8_t value = flag;
  mp_all_reduce(reinterpret_cast<intptr_t>(&value), 1, MP_I1, /*max=*/1);
  return value != 0;
}

std::string Trainer::checkReplicas(int64_t step) {
  uint64_t hash = 1469598103934665603ull; // FNV-1a
  for (int32_t i = 0, e = mp_entry_num_args(this->step); i < e; ++i) {
    mp_role role = mp_entry_arg(this->step, i)->role;
    if (role != MP_ROLE_PARAM && role != MP_ROLE_STATE &&
        role != MP_ROLE_LOSS_SCALE)
      continue;
    const mp_tensor *value = mp_trainer_arg(trainer, i);
    if (!value)
      return runtimeError();
    auto *bytes = static_cast<const uint8_t *>(value->data);
    for (size_t b = 0, n = mp_tensor_num_bytes(value); b < n; ++b)
      hash = (hash ^ bytes[b]) * 1099511628211ull;
  }
  // The maximum of each 16-bit piece and of its negation: equal pieces on
  // every rank iff max == -min. (f32 holds 16-bit integers exactly.)
  float pieces[8];
  for (int i = 0; i < 4; ++i) {
    pieces[i] = static_cast<float>((hash >> (16 * i)) & 0xffff);
    pieces[4 + i] = -pieces[i];
  }
  mp_all_reduce(reinterpret_cast<intptr_t>(pieces), 8, MP_F32, /*max=*/1);
  for (int i = 0; i < 4; ++i)
    if (pieces[i] != -pieces[4 + i])
      return "after step " + std::to_string(step) +
             ", the ranks hold different parameters: the replicas drifted "
             "apart (was the step compiled with --data-parallel?)";
  return "";
}

std::string Trainer::writeLog(const std::string &row) {
  if (std::fputs(row.c_str(), log) < 0 || std::fflush(log) != 0)
    return "cannot write --log '" + options.logFile +
           "': " + std::strerror(errno);
  return "";
}

std::string Trainer::evaluate(double &accuracy) {
  accuracy = -1;
  if (logitsResult < 0 || options.rank != 0)
    return "";
  // Call the gradient function with the current parameters and state, a
  // zero seed, and test batches; read the logits.
  int32_t numArgs = mp_entry_num_args(grad);
  int32_t numResults = mp_entry_num_results(grad);
  std::vector<mp_tensor> args(numArgs);
  for (int32_t i = 0; i < numArgs; ++i) {
    const mp_tensor *value = mp_trainer_arg(trainer, i);
    if (!value)
      return runtimeError();
    args[i] = *value;
    args[i].owned = 0;
  }
  Tensor images, labels, seed;
  std::string err = allocLike(layout.image, images);
  if (err.empty())
    err = allocLike(layout.label, labels);
  if (err.empty())
    err = allocLike(*mp_entry_arg(grad, seedArg), seed);
  if (!err.empty())
    return err;
  args[layout.imageArg] = *images;
  args[layout.labelArg] = *labels;
  args[seedArg] = *seed;
  const Split &test = data.test;
  int64_t count =
      options.testLimit ? std::min(options.testLimit, test.count) : test.count;
  std::vector<int64_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  int64_t correct = 0;
  for (int64_t first = 0; first < count; first += layout.batch) {
    fillBatch(test, layout, order, first, data.numClasses, *images, *labels);
    mp_runtime::TensorList results(numResults);
    if (mp_entry_call(grad, args.data(), numArgs, results.data(), numResults) !=
        MP_OK)
      return runtimeError();
    const mp_tensor &logits = results[logitsResult];
    int64_t classes = logits.rank == 2 ? logits.shape[1] : 0;
    for (int64_t b = 0; b < layout.batch && first + b < count; ++b) {
      int64_t best = 0;
      for (int64_t c = 1; c < classes; ++c)
        if (mp_tensor_get(&logits, b * classes + c) >
            mp_tensor_get(&logits, b * classes + best))
          best = c;
      correct += best == test.labels[first + b];
    }
  }
  accuracy = static_cast<double>(correct) / count;
  return "";
}

void Trainer::showProgress(unsigned epoch, int64_t done, int64_t total,
                           const TrainSummary &summary, bool last) {
  bool tty = isatty(STDERR_FILENO);
  if ((!tty && !last) || options.rank != 0)
    return;
  constexpr int width = 30;
  int filled = total ? static_cast<int>(width * done / total) : width;
  std::string bar(filled, '#');
  bar.resize(width, '.');
  char scaleText[32] = "off";
  if (scaleArg >= 0)
    std::snprintf(scaleText, sizeof(scaleText), "%g", scale);
  std::fprintf(stderr,
               "%s%s epoch %u/%u [%s] %lld/%lld loss %.4f scale %s skipped "
               "%lld",
               tty ? "\r" : "", options.label.c_str(), epoch, options.epochs,
               bar.c_str(), static_cast<long long>(done),
               static_cast<long long>(total), summary.lastLoss, scaleText,
               static_cast<long long>(summary.skipped));
  if (last)
    std::fprintf(stderr, "\n");
  std::fflush(stderr);
}

std::string Trainer::finishStep(const Launched &launched, int64_t perEpoch,
                                TrainSummary &summary, Position &position) {
  mp_step_report report;
  if (mp_trainer_collect(trainer, &report) != MP_OK)
    return runtimeError();
  summary.steps = launched.number;
  summary.lastLoss = report.loss;
  summary.skipped += report.skipped;
  scale = report.scale;
  position.epochStep = launched.index + 1;
  bool last = launched.index + 1 == perEpoch;
  double accuracy = -1;
  if (last) {
    if (std::string err = evaluate(accuracy); !err.empty())
      return err;
    summary.accuracy = accuracy;
  }
  if (log) {
    // A whole row at a time, checked: a full disk is an error, and an
    // interrupted run leaves no partial row.
    char row[160], scaleText[40] = "", percent[40] = "";
    if (scaleArg >= 0)
      std::snprintf(scaleText, sizeof(scaleText), "%.9g", scale);
    if (accuracy >= 0)
      std::snprintf(percent, sizeof(percent), "%.6f", accuracy);
    std::snprintf(row, sizeof(row), "%lld,%u,%.9g,%s,%d,%s\n",
                  static_cast<long long>(launched.number), launched.epoch,
                  summary.lastLoss, scaleText, report.skipped ? 1 : 0, percent);
    if (std::string err = writeLog(row); !err.empty())
      return err;
  }
  if (last || launched.index % 16 == 0)
    showProgress(launched.epoch, launched.index + 1, perEpoch, summary, last);
  if (last && accuracy >= 0)
    std::fprintf(stderr, "%s epoch %u: test accuracy %.2f%%\n",
                 options.label.c_str(), launched.epoch, 100 * accuracy);
  return "";
}

std::string Trainer::run(TrainSummary &summary) {
  if (std::string err = setUp(); !err.empty())
    return err;
  summary = TrainSummary();
  // The step's inputs hold `micro` batches of the gradient function's shape
  // (gradient accumulation) or one.
  const mp_value_info &stepImage = *mp_entry_arg(step, layout.imageArg);
  int64_t micro =
      stepImage.rank == layout.image.rank + 1 ? stepImage.shape[0] : 1;
  // The batches are written into the step's own arguments (no copy).
  mp_tensor *images = mp_trainer_arg_buffer(trainer, layout.imageArg);
  mp_tensor *labels = mp_trainer_arg_buffer(trainer, layout.labelArg);
  Tensor seedOne, seedInf;
  for (auto [info, tensor] :
       {std::make_pair(mp_entry_arg(step, seedArg), &seedOne),
        std::make_pair(mp_entry_arg(step, seedArg), &seedInf)})
    if (std::string err = allocLike(*info, *tensor); !err.empty())
      return err;
  *static_cast<float *>(seedOne->data) = options.lossWeight;
  *static_cast<float *>(seedInf->data) = std::numeric_limits<float>::infinity();

  const Split &train = data.train;
  // A step takes a global batch: `micro` micro-batches per rank.
  int64_t ranks = options.worldSize;
  int64_t perEpoch = train.count / (layout.batch * micro * ranks);
  if (perEpoch == 0)
    return "an epoch of " + std::to_string(train.count) +
           " examples holds no step of " +
           std::to_string(layout.batch * micro * ranks) + " (" +
           (ranks > 1 ? std::to_string(ranks) + " ranks x " : "") +
           std::to_string(micro) + " micro-batches of " +
           std::to_string(layout.batch) + ")";
  if (options.maxSteps)
    perEpoch = std::min(perEpoch, options.maxSteps);
  int64_t totalSteps = perEpoch * options.epochs;
  for (int64_t step : options.injectOverflow)
    if (step > totalSteps)
      return "--inject-overflow " + std::to_string(step) + ": training has " +
             std::to_string(totalSteps) + " steps";
  // Where training starts: the beginning, or a checkpoint.
  Position position;
  if (!options.resume.empty()) {
    if (std::string err =
            loadCheckpoint(options.resume, step, trainer, position);
        !err.empty())
      return err;
    if (position.ranks != options.worldSize)
      return "--resume " + options.resume + ": saved by a run of " +
             std::to_string(position.ranks) + " rank(s); resume it with " +
             std::to_string(position.ranks) +
             " (its position counts global batches of that many ranks)";
    std::istringstream saved(position.rng); // checked by loadCheckpoint
    saved >> rng;
    summary.steps = position.step;
    summary.skipped = position.skipped;
    summary.lastLoss = position.loss;
  }
  auto save = [&]() -> std::string {
    position.step = summary.steps;
    position.skipped = summary.skipped;
    position.loss = summary.lastLoss;
    position.ranks = options.worldSize;
    return saveCheckpoint(options.saveState, step, trainer, position);
  };
  const int64_t firstStep = summary.steps;
  int64_t launchedSteps = summary.steps;
  std::deque<Launched> pending;
  std::vector<int64_t> order(train.count);
  interruptRequested = 0;
  double queuedMs = 0;
  int64_t queuedSteps = 0;
  mp_cuda_queued_time(&queuedMs, &queuedSteps);
  if (options.worldSize > 1)
    onAnyRank(false); // the clock starts when every rank is ready
  auto start = std::chrono::steady_clock::now();
  for (unsigned epoch = position.epoch; epoch <= options.epochs; ++epoch) {
    // The generator as the epoch begins: a checkpoint draws its order again.
    std::ostringstream epochRng;
    epochRng << rng;
    std::iota(order.begin(), order.end(), 0);
    if (!options.inFileOrder)
      std::shuffle(order.begin(), order.end(), rng);
    int64_t first = epoch == position.epoch ? position.epochStep : 0;
    position.epoch = epoch;
    position.epochStep = first;
    position.rng = epochRng.str();
    for (int64_t s = first; s < perEpoch; ++s) {
      for (int64_t m = 0; m < micro; ++m) {
        mp_tensor imageView = viewMicroBatch(*images, layout.image, m);
        mp_tensor labelView = viewMicroBatch(*labels, layout.label, m);
        // This rank's shard of the global batch: the micro-batches that
        // one process with --accumulate (ranks x micro) would take.
        int64_t shard = (s * ranks + options.rank) * micro + m;
        fillBatch(train, layout, order, shard * layout.batch, data.numClasses,
                  imageView, labelView);
      }
      int64_t stepNumber = launchedSteps + 1;
      bool inject =
          std::find(options.injectOverflow.begin(),
                    options.injectOverflow.end(),
                    stepNumber) != options.injectOverflow.end() &&
          (options.injectRank < 0 || options.injectRank == options.rank);
      const mp_tensor &seed = inject ? *seedInf : *seedOne;
      // The step is queued behind the one before it (on the GPU): the host
      // fills the next batch while they run.
      if (mp_trainer_set_arg(trainer, seedArg, &seed) != MP_OK ||
          mp_trainer_launch(trainer) != MP_OK)
        return runtimeError();
      launchedSteps = stepNumber;
      pending.push_back({stepNumber, epoch, s});
      bool last = s + 1 == perEpoch;
      bool saveNow = options.saveEvery && stepNumber % options.saveEvery == 0 &&
                     options.rank == 0;
      if (stepNumber == options.interruptAtStep)
        std::raise(SIGINT);
      // All ranks stop after the same step (a signal may reach them apart).
      bool stop = interruptRequested;
      if (options.worldSize > 1)
        stop = onAnyRank(stop);
      // Reports are read one step late, so that reading one does not wait
      // for the step queued after it; all of them where the state is read
      // (evaluation, checkpoints) or training stops.
      size_t keep = last || saveNow || stop ? 0 : 1;
      while (pending.size() > keep) {
        if (std::string err =
                finishStep(pending.front(), perEpoch, summary, position);
            !err.empty())
          return err;
        pending.pop_front();
      }
      if (saveNow)
        if (std::string err = save(); !err.empty())
          return err;
      if (stop) {
        summary.interrupted = true;
        break;
      }
    }
    if (summary.interrupted)
      break;
  }
  const mp_tensor *finalScale =
      scaleArg < 0 ? nullptr : mp_trainer_arg(trainer, scaleArg);
  if (scaleArg >= 0 && !finalScale)
    return runtimeError();
  summary.scale = finalScale ? mp_tensor_get(finalScale, 0) : 0.0;
  // Every step is done (the scale was read), and timed where the backend
  // queued it.
  double endMs = 0;
  int64_t endSteps = 0;
  mp_cuda_queued_time(&endMs, &endSteps);
  if (endSteps > queuedSteps) {
    summary.deviceMs = endMs - queuedMs;
    summary.deviceMsPerStep = summary.deviceMs / (endSteps - queuedSteps);
  }
  if (options.worldSize > 1) {
    if (std::string err = checkReplicas(summary.steps); !err.empty())
      return err;
    summary.ranks = options.worldSize;
  }
  if (!options.saveState.empty() && options.rank == 0)
    if (std::string err = save(); !err.empty())
      return err;
  if (!options.saveParams.empty() && options.rank == 0)
    for (int32_t i = 0, e = mp_entry_num_args(step); i < e; ++i) {
      if (mp_entry_arg(step, i)->role != MP_ROLE_PARAM)
        continue;
      std::string path =
          options.saveParams + "/arg" + std::to_string(i) + ".npy";
      const mp_tensor *value = mp_trainer_arg(trainer, i);
      if (!value || mp_npy_write(path.c_str(), value) != MP_OK)
        return runtimeError("--save-params");
    }
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  mp_cuda_memory(&summary.devicePeak, &summary.deviceReserved);
  uint64_t stateBytes = 0, otherBytes = 0;
  mp_entry_copied_bytes(step, &stateBytes, &otherBytes);
  if (summary.steps > firstStep)
    summary.stateCopiedPerStep = stateBytes / (summary.steps - firstStep);
  return "";
}
} // namespace

std::string mp_runner::train(mp_entry *step, mp_entry *grad,
                             const Dataset &data, const TrainOptions &options,
                             TrainSummary &summary) {
  return Trainer(step, grad, data, options).run(summary);
}

std::string mp_runner::formatSummary(const TrainOptions &options,
                                     const TrainSummary &summary) {
  char text[512];
  int n = std::snprintf(text, sizeof(text), "%s: %lld steps (%lld skipped), ",
                        options.label.c_str(),
                        static_cast<long long>(summary.steps),
                        static_cast<long long>(summary.skipped));
  std::string line(text, std::min<size_t>(n, sizeof(text) - 1));
  if (summary.ranks > 1) {
    std::snprintf(text, sizeof(text), "%d ranks, identical parameters, ",
                  summary.ranks);
    line += text;
  }
  std::snprintf(text, sizeof(text), "final loss %.4f, ", summary.lastLoss);
  line += text;
  if (summary.scale > 0) {
    std::snprintf(text, sizeof(text), "loss scale %g, ", summary.scale);
    line += text;
  } else {
    line += "no loss scaling, ";
  }
  std::snprintf(text, sizeof(text), "%.1f steps/s",
                summary.steps / std::max(summary.seconds, 1e-9));
  line += text;
  if (summary.devicePeak) {
    constexpr double kMiB = 1 << 20;
    std::snprintf(text, sizeof(text),
                  ", device memory peak %.1f MiB (%.1f MiB reserved)",
                  summary.devicePeak / kMiB, summary.deviceReserved / kMiB);
    line += text;
  }
  if (summary.deviceMsPerStep >= 0) {
    std::snprintf(
        text, sizeof(text), ", GPU time %.3f ms/step (%.0f%% of the wall time)",
        summary.deviceMsPerStep,
        100 * summary.deviceMs / std::max(summary.seconds * 1e3, 1e-9));
    line += text;
  }
  if (summary.accuracy >= 0) {
    std::snprintf(text, sizeof(text), ", test accuracy %.2f%%",
                  100 * summary.accuracy);
    line += text;
  }
  std::snprintf(text, sizeof(text), ", state copied %llu B/step",
                static_cast<unsigned long long>(summary.stateCopiedPerStep));
  line += text;
  return line;
}
