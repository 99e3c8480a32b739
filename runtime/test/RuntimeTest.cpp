//===- RuntimeTest.cpp - Tests of the mp runtime ----------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"
#include "mp/Runtime/mp_runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef MP_FAKE_MODULE
#error "MP_FAKE_MODULE must name the test module"
#endif

// What compiled code calls for strided copies (runtime/lib/MemRefCopy.cpp).
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};
extern "C" void memrefCopy(int64_t elementSize, UnrankedMemRef *source,
                           UnrankedMemRef *target);

namespace {

mp_tensor makeF32(std::vector<int64_t> shape, std::vector<float> values) {
  mp_tensor t;
  EXPECT_EQ(mp_tensor_alloc(MP_F32, shape.size(), shape.data(), &t), MP_OK);
  std::memcpy(t.data, values.data(), values.size() * sizeof(float));
  return t;
}

std::vector<float> values(const mp_tensor &t) {
  const float *p = static_cast<const float *>(t.data);
  return std::vector<float>(p, p + mp_tensor_num_elements(&t));
}

class ModuleTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(mp_module_load(MP_FAKE_MODULE, "cpu", &module), MP_OK)
        << mp_last_error();
  }
  void TearDown() override { mp_module_unload(module); }
  mp_module *module = nullptr;
};

TEST_F(ModuleTest, CallsAnEntry) {
  mp_entry *entry;
  ASSERT_EQ(mp_module_find_entry(module, "add", &entry), MP_OK);
  EXPECT_EQ(mp_entry_num_args(entry), 2);
  EXPECT_EQ(mp_entry_num_results(entry), 1);
  mp_tensor args[2] = {makeF32({4}, {1, 2, 3, 4}),
                       makeF32({4}, {10, 20, 30, 40})};
  mp_tensor result;
  ASSERT_EQ(mp_entry_call(entry, args, 2, &result, 1), MP_OK)
      << mp_last_error();
  EXPECT_EQ(values(result), (std::vector<float>{11, 22, 33, 44}));
  mp_tensor_release(&result);
  mp_tensor_release(&args[0]);
  mp_tensor_release(&args[1]);
}

TEST_F(ModuleTest, ScalarsAndDynamicSizes) {
  mp_entry *entry;
  ASSERT_EQ(mp_module_find_entry(module, "scale", &entry), MP_OK);
  EXPECT_EQ(mp_entry_arg(entry, 0)->shape[0], -1);
  EXPECT_TRUE(mp_entry_arg(entry, 1)->is_scalar);
  mp_tensor args[2] = {makeF32({3}, {1, 2, 3}), makeF32({}, {0.5f})};
  mp_tensor result;
  ASSERT_EQ(mp_entry_call(entry, args, 2, &result, 1), MP_OK)
      << mp_last_error();
  EXPECT_EQ(result.shape[0], 3);
  EXPECT_EQ(values(result), (std::vector<float>{0.5f, 1, 1.5f}));
  mp_tensor_release(&result);
  mp_tensor_release(&args[0]);
  mp_tensor_release(&args[1]);
}

TEST_F(ModuleTest, StridedAndAliasedResults) {
  mp_entry *entry;
  ASSERT_EQ(mp_module_find_entry(module, "split", &entry), MP_OK);
  mp_tensor arg = makeF32({2, 3}, {1, 2, 3, 4, 5, 6});
  mp_tensor results[2];
  ASSERT_EQ(mp_entry_call(entry, &arg, 1, results, 2), MP_OK)
      << mp_last_error();
  EXPECT_EQ(values(results[0]), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(values(results[1]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_NE(results[1].data, arg.data);
  mp_tensor_release(&results[0]);
  mp_tensor_release(&results[1]);
  mp_tensor_release(&arg);
}

TEST_F(ModuleTest, ClearErrors) {
  mp_entry *entry;
  EXPECT_EQ(mp_module_find_entry(module, "nope", &entry), MP_ERROR_NOT_FOUND);
  EXPECT_STREQ(mp_last_error(), "no entry point 'nope' in the module");
  EXPECT_EQ(mp_module_find_entry(module, "broken", &entry), MP_ERROR_FORMAT);
  EXPECT_STREQ(mp_last_error(), "bad signature value 'f32[4'");

  ASSERT_EQ(mp_module_find_entry(module, "add", &entry), MP_OK);
  mp_tensor args[2] = {makeF32({4}, {1, 2, 3, 4}),
                       makeF32({5}, {1, 2, 3, 4, 5})};
  mp_tensor result;
  EXPECT_EQ(mp_entry_call(entry, args, 2, &result, 1), MP_ERROR_MISMATCH);
  EXPECT_STREQ(mp_last_error(),
               "entry 'add' argument #1: expected f32[4], got f32[5]");
  EXPECT_EQ(mp_entry_call(entry, args, 1, &result, 1), MP_ERROR_MISMATCH);
  EXPECT_STREQ(mp_last_error(), "entry 'add' takes 2 arguments and 1 results, "
                                "got 1 and 1");
  args[1].dtype = MP_F16;
  args[1].rank = 1;
  args[1].shape[0] = 4;
  EXPECT_EQ(mp_entry_call(entry, args, 2, &result, 1), MP_ERROR_MISMATCH);
  EXPECT_STREQ(mp_last_error(),
               "entry 'add' argument #1: expected f32[4], got f16[4]");
  mp_tensor_release(&args[0]);
  mp_tensor_release(&args[1]);

  // A dynamic size is the caller's, but the compiled code would index that
  // many elements: it is checked like any shape.
  mp_entry *scale;
  ASSERT_EQ(mp_module_find_entry(module, "scale", &scale), MP_OK);
  float dummy[2] = {0, 0};
  mp_tensor big[2] = {};
  big[0].dtype = big[1].dtype = MP_F32;
  big[0].rank = 1;
  big[0].shape[0] = int64_t(1) << 62;
  big[0].data = big[1].data = dummy;
  EXPECT_EQ(mp_entry_call(scale, big, 2, &result, 1), MP_ERROR_UNSUPPORTED);
  EXPECT_STREQ(mp_last_error(),
               "entry 'scale' argument #0: a tensor of shape "
               "f32[4611686018427387904] exceeds the runtime's limit of "
               "1099511627776 bytes");

  mp_module *missing;
  EXPECT_EQ(mp_module_load("/nonexistent.so", "cpu", &missing),
            MP_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(mp_last_error()).find("cannot load module"),
            std::string::npos);
  EXPECT_EQ(mp_module_load(MP_FAKE_MODULE, "tpu", &missing),
            MP_ERROR_NOT_FOUND);
  EXPECT_STREQ(mp_last_error(),
               "unknown backend 'tpu' (available: auto, cpu, cuda)");
}

// Two results that share one buffer are both copied before it is freed
// (a use after free found by the sanitizer build on a random graph).
TEST_F(ModuleTest, ResultsSharingABuffer) {
  mp_entry *entry;
  ASSERT_EQ(mp_module_find_entry(module, "twice", &entry), MP_OK);
  mp_tensor arg = makeF32({4}, {1, 2, 3, 4});
  mp_tensor results[2];
  ASSERT_EQ(mp_entry_call(entry, &arg, 1, results, 2), MP_OK)
      << mp_last_error();
  for (mp_tensor &result : results) {
    const float *data = static_cast<const float *>(result.data);
    EXPECT_EQ(std::vector<float>(data, data + 4),
              (std::vector<float>{2, 3, 4, 5}));
    mp_tensor_release(&result);
  }
  mp_tensor_release(&arg);
}

TEST_F(ModuleTest, SignatureRoles) {
  mp_entry *step;
  ASSERT_EQ(mp_module_find_entry(module, "step", &step), MP_OK)
      << mp_last_error();
  EXPECT_EQ(mp_entry_arg(step, 0)->role, MP_ROLE_PARAM);
  EXPECT_EQ(mp_entry_arg(step, 1)->role, MP_ROLE_LOSS_SCALE);
  EXPECT_EQ(mp_entry_arg(step, 1)->init, 4.0);
  EXPECT_EQ(mp_entry_arg(step, 2)->role, MP_ROLE_INPUT);
  EXPECT_EQ(mp_entry_arg(step, 3)->role, MP_ROLE_GRAD_SEED);
  EXPECT_EQ(mp_entry_result(step, 1)->role, MP_ROLE_UPDATES);
  EXPECT_EQ(mp_entry_result(step, 1)->index, 1);
  EXPECT_EQ(mp_entry_result(step, 2)->role, MP_ROLE_LOSS);
  mp_entry *bad;
  EXPECT_EQ(mp_module_find_entry(module, "bad_role", &bad), MP_ERROR_FORMAT);
  EXPECT_STREQ(mp_last_error(), "bad role '@weights' in a signature");
}

// The runtime writes back what it read (docs/Signature.md); the compiler
// writes this same text from IR (unittests/Compiler/SignatureTest.cpp).
TEST_F(ModuleTest, SignatureRoundTrip) {
  const char *text =
      "f32[2]@param;f32[]@loss_scale=4;f32[2]@input;f32[]@grad_seed->"
      "f32[2]@updates=0;f32[]@updates=1;f32[]@loss";
  mp_entry *step;
  ASSERT_EQ(mp_module_find_entry(module, "step", &step), MP_OK);
  std::vector<mp_value_info> args, results;
  for (int32_t i = 0; i < mp_entry_num_args(step); ++i)
    args.push_back(*mp_entry_arg(step, i));
  for (int32_t i = 0; i < mp_entry_num_results(step); ++i)
    results.push_back(*mp_entry_result(step, i));
  char buf[256];
  EXPECT_EQ(mp_signature_format(args.data(), args.size(), results.data(),
                                results.size(), buf, sizeof(buf)),
            std::strlen(text));
  EXPECT_STREQ(buf, text);

  // One value, with and without its role; a dynamic size and a scalar.
  EXPECT_EQ(mp_value_info_format(&args[1], 1, buf, sizeof(buf)), 18u);
  EXPECT_STREQ(buf, "f32[]@loss_scale=4");
  mp_value_info info = args[0];
  info.shape[0] = -1;
  mp_value_info_format(&info, 0, buf, sizeof(buf));
  EXPECT_STREQ(buf, "f32[?]");
  info.is_scalar = 1;
  info.dtype = MP_I64;
  mp_value_info_format(&info, 1, buf, sizeof(buf));
  EXPECT_STREQ(buf, "i64@param");

  // Truncated as snprintf truncates; the length is the whole text's.
  char small[5];
  EXPECT_EQ(mp_value_info_format(&args[1], 1, small, sizeof(small)), 18u);
  EXPECT_STREQ(small, "f32[");
  mp_tensor t = makeF32({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(mp_tensor_format_type(&t, nullptr, 0), 8u);
  mp_tensor_format_type(&t, buf, sizeof(buf));
  EXPECT_STREQ(buf, "f32[2,3]");
  mp_tensor_release(&t);

  EXPECT_STREQ(mp_role_name(MP_ROLE_NONE), "");
  EXPECT_STREQ(mp_role_name(MP_ROLE_GRAD_SEED), "grad_seed");
  EXPECT_EQ(mp_role_name(static_cast<mp_role>(MP_ROLE_OUTPUT + 1)), nullptr);
}

// An argument that indexes a dimension (docs/Signature.md: "i64[3]<4") is
// checked before the call: an index outside the table is an error naming
// the element, not a read outside a buffer.
TEST_F(ModuleTest, IndexBounds) {
  mp_entry *gather;
  ASSERT_EQ(mp_module_find_entry(module, "gather", &gather), MP_OK)
      << mp_last_error();
  EXPECT_EQ(mp_entry_arg(gather, 0)->bound, 4);
  EXPECT_EQ(mp_entry_arg(gather, 0)->role, MP_ROLE_INPUT);
  EXPECT_EQ(mp_entry_arg(gather, 1)->bound, 0);
  char buf[64];
  mp_value_info_format(mp_entry_arg(gather, 0), 1, buf, sizeof(buf));
  EXPECT_STREQ(buf, "i64[3]<4@input");

  int64_t shape[] = {3};
  mp_tensor ids;
  ASSERT_EQ(mp_tensor_alloc(MP_I64, 1, shape, &ids), MP_OK);
  mp_tensor args[2] = {ids, makeF32({4}, {10, 20, 30, 40})};
  mp_tensor result;
  for (std::vector<int64_t> bad :
       {std::vector<int64_t>{0, 4, 1}, std::vector<int64_t>{-1, 0, 0}}) {
    std::memcpy(ids.data, bad.data(), sizeof(int64_t) * 3);
    EXPECT_EQ(mp_entry_call(gather, args, 2, &result, 1), MP_ERROR_MISMATCH);
    EXPECT_EQ(std::string(mp_last_error()),
              "entry 'gather' argument #0: element " +
                  std::to_string(bad[0] < 0 ? 0 : 1) + " is " +
                  std::to_string(bad[0] < 0 ? bad[0] : bad[1]) +
                  ", outside [0, 4): it indexes a dimension of 4");
  }
  std::vector<int64_t> good = {3, 0, 2};
  std::memcpy(ids.data, good.data(), sizeof(int64_t) * 3);
  ASSERT_EQ(mp_entry_call(gather, args, 2, &result, 1), MP_OK)
      << mp_last_error();
  EXPECT_EQ(values(result), (std::vector<float>{40, 10, 30}));
  mp_tensor_release(&result);
  mp_tensor_release(&args[0]);
  mp_tensor_release(&args[1]);

  mp_entry *bad;
  EXPECT_EQ(mp_module_find_entry(module, "bad_bound", &bad), MP_ERROR_FORMAT);
  EXPECT_STREQ(mp_last_error(), "bad signature value 'f32[2]': only integer "
                                "tensors take a bound");
}

TEST_F(ModuleTest, TrainerThreadsStateByRole) {
  mp_entry *step, *add;
  ASSERT_EQ(mp_module_find_entry(module, "step", &step), MP_OK);
  ASSERT_EQ(mp_module_find_entry(module, "add", &add), MP_OK);
  mp_trainer *trainer;
  EXPECT_EQ(mp_trainer_create(add, &trainer), MP_ERROR_MISMATCH);
  EXPECT_NE(std::string(mp_last_error()).find("not a training step"),
            std::string::npos);
  ASSERT_EQ(mp_trainer_create(step, &trainer), MP_OK) << mp_last_error();
  // States start at their initial value, the seed at 1, parameters at 0.
  EXPECT_EQ(values(*mp_trainer_arg(trainer, 0)), (std::vector<float>{0, 0}));
  EXPECT_EQ(values(*mp_trainer_arg(trainer, 1)), std::vector<float>{4});
  EXPECT_EQ(values(*mp_trainer_arg(trainer, 3)), std::vector<float>{1});
  EXPECT_EQ(mp_trainer_result(trainer, 2), nullptr);

  mp_tensor p = makeF32({2}, {1, 2}), x = makeF32({2}, {0.5f, 0.25f});
  mp_tensor wrong = makeF32({3}, {1, 2, 3});
  ASSERT_EQ(mp_trainer_set_arg(trainer, 0, &p), MP_OK);
  ASSERT_EQ(mp_trainer_set_arg(trainer, 2, &x), MP_OK);
  EXPECT_EQ(mp_trainer_set_arg(trainer, 2, &wrong), MP_ERROR_MISMATCH);
  EXPECT_STREQ(mp_last_error(), "entry 'training step' argument #2: expected "
                                "f32[2], got f32[3]");
  ASSERT_EQ(mp_trainer_step(trainer), MP_OK) << mp_last_error();
  EXPECT_EQ(values(*mp_trainer_arg(trainer, 0)),
            (std::vector<float>{0.5f, 1.75f}));
  EXPECT_EQ(values(*mp_trainer_arg(trainer, 1)), std::vector<float>{8});
  EXPECT_EQ(values(*mp_trainer_result(trainer, 2)), std::vector<float>{3});
  ASSERT_EQ(mp_trainer_step(trainer), MP_OK);
  EXPECT_EQ(values(*mp_trainer_arg(trainer, 0)), (std::vector<float>{0, 1.5f}));
  EXPECT_EQ(values(*mp_trainer_arg(trainer, 1)), std::vector<float>{16});
  EXPECT_EQ(values(*mp_trainer_result(trainer, 2)), std::vector<float>{2.25f});
  // An input written in place (a data loader's batch): the next step reads
  // it.
  mp_tensor *input = mp_trainer_arg_buffer(trainer, 2);
  ASSERT_NE(input, nullptr);
  EXPECT_EQ(input, mp_trainer_arg(trainer, 2));
  static_cast<float *>(input->data)[0] = 1;
  static_cast<float *>(input->data)[1] = 1;
  ASSERT_EQ(mp_trainer_step(trainer), MP_OK);
  EXPECT_EQ(values(*mp_trainer_arg(trainer, 0)),
            (std::vector<float>{-1, 0.5f}));
  EXPECT_EQ(values(*mp_trainer_result(trainer, 2)), std::vector<float>{1.5f});
  EXPECT_EQ(mp_trainer_arg_buffer(trainer, 4), nullptr);
  EXPECT_EQ(mp_trainer_arg_buffer(trainer, -1), nullptr);
  // Launched steps report in order (on the CPU each is done at once): the
  // loss before the step and the scale after it; no loss-scaling flag.
  mp_step_report report;
  EXPECT_EQ(mp_trainer_collect(trainer, &report), MP_ERROR_MISMATCH);
  EXPECT_STREQ(mp_last_error(),
               "no launched training step left to collect a report of");
  ASSERT_EQ(mp_trainer_launch(trainer), MP_OK) << mp_last_error();
  ASSERT_EQ(mp_trainer_launch(trainer), MP_OK) << mp_last_error();
  ASSERT_EQ(mp_trainer_collect(trainer, &report), MP_OK) << mp_last_error();
  EXPECT_EQ(report.loss, -0.5); // sum(p), p = {-1, 0.5}
  EXPECT_EQ(report.scale, 64);
  EXPECT_EQ(report.skipped, 0);
  ASSERT_EQ(mp_trainer_collect(trainer, &report), MP_OK) << mp_last_error();
  EXPECT_EQ(report.loss, -2.5); // p - x = {-2, -0.5}
  EXPECT_EQ(report.scale, 128);
  EXPECT_EQ(mp_trainer_collect(trainer, &report), MP_ERROR_MISMATCH);
  mp_tensor_release(&p);
  mp_tensor_release(&x);
  mp_tensor_release(&wrong);
  mp_trainer_destroy(trainer);
}

TEST(NpyTest, RoundTripsEveryDtype) {
  std::string path = ::testing::TempDir() + "/mp_rt_test.npy";
  for (mp_dtype dtype :
       {MP_F32, MP_F16, MP_BF16, MP_F64, MP_I1, MP_I8, MP_I32, MP_I64}) {
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{}, {5}, {2, 3}, {2, 1, 4}}) {
      mp_tensor t;
      ASSERT_EQ(mp_tensor_alloc(dtype, shape.size(), shape.data(), &t), MP_OK);
      auto *bytes = static_cast<unsigned char *>(t.data);
      for (size_t i = 0; i < mp_tensor_num_bytes(&t); ++i)
        bytes[i] = dtype == MP_I1 ? i % 2 : static_cast<unsigned char>(i * 7);
      ASSERT_EQ(mp_npy_write(path.c_str(), &t), MP_OK) << mp_last_error();
      mp_tensor back;
      ASSERT_EQ(mp_npy_read(path.c_str(), dtype == MP_BF16, &back), MP_OK)
          << mp_last_error();
      EXPECT_EQ(back.dtype, dtype);
      ASSERT_EQ(back.rank, t.rank);
      for (int32_t i = 0; i < t.rank; ++i)
        EXPECT_EQ(back.shape[i], t.shape[i]);
      EXPECT_EQ(std::memcmp(back.data, t.data, mp_tensor_num_bytes(&t)), 0);
      mp_tensor_release(&back);
      mp_tensor_release(&t);
    }
  }
  std::remove(path.c_str());
}

TEST(NpyTest, ClearErrors) {
  mp_tensor t;
  EXPECT_EQ(mp_npy_read("/nonexistent/x.npy", 0, &t), MP_ERROR_IO);
  EXPECT_STREQ(mp_last_error(),
               "/nonexistent/x.npy: No such file or directory");
  std::string path = ::testing::TempDir() + "/mp_rt_bad.npy";
  FILE *f = std::fopen(path.c_str(), "wb");
  std::fputs("not numpy", f);
  std::fclose(f);
  EXPECT_EQ(mp_npy_read(path.c_str(), 0, &t), MP_ERROR_FORMAT);
  EXPECT_EQ(std::string(mp_last_error()), path + ": not a .npy file");
  int64_t shape[1] = {2};
  ASSERT_EQ(mp_tensor_alloc(MP_BF16, 1, shape, &t), MP_OK);
  ASSERT_EQ(mp_npy_write(path.c_str(), &t), MP_OK);
  mp_tensor_release(&t);
  EXPECT_EQ(mp_npy_read(path.c_str(), 0, &t), MP_ERROR_UNSUPPORTED);
  EXPECT_EQ(std::string(mp_last_error()),
            path + ": uint16 array: only bf16 arguments read '<u2' files");
  std::remove(path.c_str());
}

/// Writes a version 1.0 .npy file with `header` (padded and terminated as
/// NumPy does unless `raw`) and `dataBytes` zero bytes of data.
std::string writeNpy(const std::string &header, size_t dataBytes,
                     bool raw = false) {
  std::string path = ::testing::TempDir() + "/mp_rt_header.npy";
  std::string text = header;
  if (!raw) {
    text.append((64 - (10 + text.size() + 1) % 64) % 64, ' ');
    text += '\n';
  }
  // Magic, version 1.0, header length (little-endian).
  std::string prefix("\x93NUMPY\x01\x00", 8);
  prefix += static_cast<char>(text.size() & 0xff);
  prefix += static_cast<char>(text.size() >> 8);
  FILE *f = std::fopen(path.c_str(), "wb");
  std::fwrite(prefix.data(), 1, prefix.size(), f);
  std::fwrite(text.data(), 1, text.size(), f);
  std::string zeros(dataBytes, '\0');
  std::fwrite(zeros.data(), 1, zeros.size(), f);
  std::fclose(f);
  return path;
}

// NumPy's header format exactly; the rest is refused with a reason, never
// an exception, an overflow or a huge allocation.
TEST(NpyTest, StrictHeaders) {
  struct Case {
    const char *header;
    size_t dataBytes;
    mp_status status;
    const char *error; // after "PATH: "
  } cases[] = {
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (abc,), }", 0,
       MP_ERROR_FORMAT,
       "'shape' holds something other than non-negative integers"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': ((4,),), }", 0,
       MP_ERROR_FORMAT,
       "'shape' holds something other than non-negative integers"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(99999999999999999999,), }",
       0, MP_ERROR_FORMAT, "a size in 'shape' exceeds 64 bits"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4.5,), }", 0,
       MP_ERROR_FORMAT, "expected ',' or ')' in 'shape'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (,,,4,), }", 0,
       MP_ERROR_FORMAT,
       "'shape' holds something other than non-negative integers"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4), }", 0,
       MP_ERROR_FORMAT, "'shape' (n) is not a tuple: write (n,)"},
      {"{'descr': '<f4', 'shape': (2,), 'shape': (4,), }", 0, MP_ERROR_FORMAT,
       "key 'shape' appears twice in the header"},
      {"{'fortran_order': False, 'shape': (4,), }", 16, MP_ERROR_FORMAT,
       "the header has no 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", 20,
       MP_ERROR_FORMAT, "holds 20 bytes of data but its shape needs 16"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", 12,
       MP_ERROR_FORMAT, "holds 12 bytes of data but its shape needs 16"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(9223372036854775807,), }",
       0, MP_ERROR_UNSUPPORTED,
       "a tensor of shape f32[9223372036854775807] exceeds the runtime's "
       "limit of 1099511627776 bytes"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(4611686018427387904,), }",
       0, MP_ERROR_UNSUPPORTED,
       "a tensor of shape f32[4611686018427387904] exceeds the runtime's "
       "limit of 1099511627776 bytes"},
      {"{'descr': '<f4', 'fortran_order': True, 'shape': (4,), }", 16,
       MP_ERROR_UNSUPPORTED, "Fortran-order arrays are not supported"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'x': 1}", 16,
       MP_ERROR_FORMAT, "unknown key 'x' in the header"},
      {"{'descr': '>f4', 'fortran_order': False, 'shape': (4,), }", 16,
       MP_ERROR_UNSUPPORTED,
       "unsupported dtype '>f4' (supported: <f4 <f2 <f8 |b1 |i1 <i4 <i8, and "
       "<u2 as bf16)"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), } x", 16,
       MP_ERROR_FORMAT, "unexpected text after the header dict"},
  };
  for (const Case &c : cases) {
    std::string path = writeNpy(c.header, c.dataBytes);
    mp_tensor t;
    EXPECT_EQ(mp_npy_read(path.c_str(), 0, &t), c.status) << c.header;
    EXPECT_EQ(std::string(mp_last_error()), path + ": " + c.error) << c.header;
  }
  // An empty header, one without its newline.
  mp_tensor t;
  std::string path = writeNpy("", 0, /*raw=*/true);
  EXPECT_EQ(mp_npy_read(path.c_str(), 0, &t), MP_ERROR_FORMAT);
  EXPECT_EQ(std::string(mp_last_error()),
            path + ": the header does not end with a newline");
  // Valid Python NumPy does not write: double quotes, no trailing comma,
  // a 0-d array.
  path = writeNpy(
      R"({"descr": "<f4", "fortran_order": False, "shape": (2, 2)})", 16);
  ASSERT_EQ(mp_npy_read(path.c_str(), 0, &t), MP_OK) << mp_last_error();
  EXPECT_EQ(t.rank, 2);
  mp_tensor_release(&t);
  path = writeNpy("{'descr': '<i8', 'fortran_order': False, 'shape': ()}", 8);
  ASSERT_EQ(mp_npy_read(path.c_str(), 0, &t), MP_OK) << mp_last_error();
  EXPECT_EQ(t.rank, 0);
  mp_tensor_release(&t);
  std::remove(path.c_str());
}

TEST(TensorTest, SizesAreChecked) {
  mp_tensor t;
  int64_t huge[2] = {int64_t(1) << 40, int64_t(1) << 40};
  EXPECT_EQ(mp_tensor_alloc(MP_F32, 2, huge, &t), MP_ERROR_UNSUPPORTED);
  EXPECT_EQ(t.data, nullptr);
  int64_t negative[1] = {-1};
  EXPECT_EQ(mp_tensor_alloc(MP_F32, 1, negative, &t), MP_ERROR_FORMAT);
  mp_tensor view = {};
  view.dtype = MP_F32;
  view.rank = 2;
  view.shape[0] = view.shape[1] = int64_t(1) << 40;
  EXPECT_EQ(mp_tensor_num_elements(&view), -1);
  EXPECT_EQ(mp_tensor_num_bytes(&view), SIZE_MAX);
}

TEST(DtypeTest, NamesAndSizes) {
  mp_dtype d;
  EXPECT_EQ(mp_dtype_parse("bf16", &d), MP_OK);
  EXPECT_EQ(d, MP_BF16);
  EXPECT_EQ(mp_dtype_size(MP_BF16), 2u);
  EXPECT_STREQ(mp_dtype_name(MP_I64), "i64");
  EXPECT_EQ(mp_dtype_parse("f128", &d), MP_ERROR_FORMAT);
  EXPECT_STREQ(mp_last_error(), "unknown dtype 'f128'");
}

// Thread counts the OpenMP runtime could not start are refused (it would
// abort the process); 0 restores one per core.
TEST(ThreadsTest, CountsAreChecked) {
  EXPECT_EQ(mp_set_num_threads(-1), MP_ERROR_UNSUPPORTED);
  EXPECT_EQ(mp_set_num_threads(MP_MAX_THREADS + 1), MP_ERROR_UNSUPPORTED);
  EXPECT_STREQ(mp_last_error(), "the thread count must be 0 (as many as "
                                "cores) or 1 to 4096, got 4097");
  EXPECT_EQ(mp_set_num_threads(MP_MAX_THREADS), MP_OK);
  EXPECT_EQ(mp_set_num_threads(0), MP_OK);
}

// A strided 2-D copy (a transposed view into a dense buffer with an offset),
// a contiguous one, a rank-0 one and an empty one.
TEST(MemRefCopyTest, StridedAndContiguous) {
  std::vector<float> src(12), dst(13, -1.f);
  for (int i = 0; i < 12; ++i)
    src[i] = float(i);
  // src viewed as its 4x3 transpose of a 3x4 row-major matrix.
  int64_t from[] = {0, reinterpret_cast<intptr_t>(src.data()), 0, 4, 3, 1, 4};
  // dst as a dense 4x3 matrix at offset 1.
  int64_t to[] = {0, reinterpret_cast<intptr_t>(dst.data()), 1, 4, 3, 3, 1};
  UnrankedMemRef a{2, from}, b{2, to};
  memrefCopy(sizeof(float), &a, &b);
  EXPECT_EQ(dst[0], -1.f);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(dst[1 + i * 3 + j], src[j * 4 + i]) << i << "," << j;

  std::vector<float> dense(12, 0.f);
  int64_t row[] = {0, reinterpret_cast<intptr_t>(src.data()), 0, 3, 4, 4, 1};
  int64_t out[] = {0, reinterpret_cast<intptr_t>(dense.data()), 0, 3, 4, 4, 1};
  UnrankedMemRef c{2, row}, d{2, out};
  memrefCopy(sizeof(float), &c, &d);
  EXPECT_EQ(dense, src);

  int64_t scalarFrom[] = {0, reinterpret_cast<intptr_t>(&src[5]), 0};
  int64_t scalarTo[] = {0, reinterpret_cast<intptr_t>(&dense[0]), 0};
  UnrankedMemRef e{0, scalarFrom}, f{0, scalarTo};
  memrefCopy(sizeof(float), &e, &f);
  EXPECT_EQ(dense[0], 5.f);

  int64_t empty[] = {0, 0, 0, 0, 3, 3, 1};
  UnrankedMemRef g{2, empty}, h{2, empty};
  memrefCopy(sizeof(float), &g, &h); // nothing to read or write
}

//===----------------------------------------------------------------------===//
// The CUDA backend, without a GPU: a missing driver, and a fake one
// (fake_cuda.c) whose calls fail on demand.
//===----------------------------------------------------------------------===//

// The backend connects to the driver once per process, so each scenario runs
// in a child process (a death test that exits 0) with its own environment and
// prints what it saw on stderr, which the parent matches.
[[noreturn]] void finish(const std::string &observed) {
  std::fprintf(stderr, "%s\n", observed.c_str());
  std::fflush(stderr);
  _exit(0); // no leak check of the child: the parent's run has it
}

#define EXPECT_SCENARIO(statement, regex)                                      \
  EXPECT_EXIT(statement, ::testing::ExitedWithCode(0), regex)

// "loaded on cuda" or the error of loading `path` with `backend`.
std::string tryLoad(const char *path, const char *backend = "cuda") {
  mp_module *module = nullptr;
  if (mp_module_load(path, backend, &module) != MP_OK)
    return mp_last_error();
  std::string loaded = std::string("loaded on ") + mp_module_backend(module);
  mp_module_unload(module);
  return loaded;
}

// Calls of `call` made to the fake driver so far.
int driverCalls(const char *call) {
  void *driver = dlopen(MP_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
  auto *count = reinterpret_cast<int (*)(const char *)>(
      driver ? dlsym(driver, "mp_fake_cuda_calls") : nullptr);
  int calls = count ? count(call) : -1;
  if (driver)
    dlclose(driver);
  return calls;
}

void useFakeDriver(const char *fail = nullptr) {
  setenv("MP_CUDA_DRIVER", MP_FAKE_CUDA, 1);
  if (fail)
    setenv("MP_FAKE_CUDA_FAIL", fail, 1);
}

// Without a driver, loading on cuda and probing it fail with one line saying
// why, and auto loads a CPU module on the CPU. MP_CUDA_DRIVER points at a file
// that does not exist, so the test behaves the same on machines with a GPU.
TEST(CudaBackendTest, MissingDriver) {
  EXPECT_SCENARIO(
      {
        setenv("MP_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
        char device[64];
        bool probed = mp_backend_probe("cuda", device, sizeof(device)) ==
                      MP_ERROR_NOT_FOUND;
        std::string load = tryLoad(MP_FAKE_MODULE);
        finish(load + " | probe " + (probed ? "not found" : "?") + " | " +
               tryLoad(MP_FAKE_MODULE, "auto"));
      },
      "^CUDA backend: cannot load the CUDA driver "
      "'/nonexistent/libcuda.so.1' \\(.*\\); install the NVIDIA driver or set "
      "MP_CUDA_DRIVER \\| probe not found \\| loaded on cpu\n");
}

TEST(CudaBackendTest, DriverWithoutASymbol) {
  EXPECT_SCENARIO(
      {
        setenv("MP_CUDA_DRIVER", MP_FAKE_CUDA_OLD, 1);
        finish(tryLoad(MP_FAKE_GPU_MODULE));
      },
      "^CUDA backend: the CUDA driver '.*mp_fake_cuda_old.so' has no "
      "cuMemFree_v2 \\(a driver for CUDA 12 or newer is needed\\)\n");
}

TEST(CudaBackendTest, FailingInitAndMissingDevice) {
  EXPECT_SCENARIO(
      {
        useFakeDriver("cuInit:100");
        finish(tryLoad(MP_FAKE_GPU_MODULE));
      },
      "^CUDA backend: cuInit: CUDA_ERROR_NO_DEVICE\n");
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        setenv("MP_CUDA_DEVICE", "3", 1);
        finish(tryLoad(MP_FAKE_GPU_MODULE));
      },
      "^CUDA backend: no CUDA device 3 \\(1 present\\)\n");
}

// The probe names the device; auto loads a module on the backend it was
// compiled for.
TEST(CudaBackendTest, ProbeAndAuto) {
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        char device[64] = "";
        mp_backend_probe("cuda", device, sizeof(device));
        std::string observed = std::string(device) + " | ";
        observed += tryLoad(MP_FAKE_GPU_MODULE, "auto") + " | ";
        observed += tryLoad(MP_FAKE_MODULE, "auto") + " | ";
        finish(observed + tryLoad(MP_FAKE_GPU_MODULE, "cpu"));
      },
      "^mp fake GPU \\(sm_80\\) \\| loaded on cuda \\| loaded on cpu \\| "
      "module '.*fake_gpu_module.so' was compiled for the cuda backend, not "
      "cpu");
}

// Calls the fake module's `twice` `calls` times; "ok" or the first error.
std::string callTwice(int calls, const char *name = "twice") {
  mp_module *module = nullptr;
  mp_entry *entry = nullptr;
  if (mp_module_load(MP_FAKE_GPU_MODULE, "cuda", &module) != MP_OK ||
      mp_module_find_entry(module, name, &entry) != MP_OK)
    return mp_last_error();
  std::vector<float> input(1000);
  for (int i = 0; i < 1000; ++i)
    input[i] = 0.5f * i;
  mp_tensor x = makeF32({1000}, input);
  std::string observed = "ok";
  for (int call = 0; call < calls; ++call) {
    mp_tensor y;
    if (mp_entry_call(entry, &x, 1, &y, 1) != MP_OK) {
      observed = "call " + std::to_string(call) + ": " + mp_last_error();
      continue;
    }
    std::vector<float> got = values(y);
    for (int i = 0; i < 1000; ++i)
      if (got[i] != 2 * input[i])
        observed = "wrong value at " + std::to_string(i);
    mp_tensor_release(&y);
  }
  mp_tensor_release(&x);
  mp_module_unload(module);
  return observed;
}

// An entry runs: the binary is loaded once, each call launches on the one
// stream (its input is staged on a second, the copy stream), and buffers
// come from the pool (the staged input and the result of the first call
// are reused by the next ones).
TEST(CudaBackendTest, RunsAnEntryFromThePool) {
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        std::string observed = callTwice(3);
        for (const char *call : {"cuModuleLoadData", "cuLaunchKernel",
                                 "cuStreamCreate", "cuMemAllocManaged"})
          observed += std::string(" | ") + call + " " +
                      std::to_string(driverCalls(call));
        finish(observed);
      },
      "^ok \\| cuModuleLoadData 1 \\| cuLaunchKernel 3 \\| cuStreamCreate 2 "
      "\\| cuMemAllocManaged 2\n");
}

// Where the fake module's `address` reads `y`, a result of `twice`, and
// `x`, a host tensor: "y in place | x staged | y 2.000000" when the result
// stays in the call's device buffer and a later call reads it there.
std::string whereCallsRead() {
  mp_module *module = nullptr;
  mp_entry *twice = nullptr;
  mp_entry *address = nullptr;
  if (mp_module_load(MP_FAKE_GPU_MODULE, "cuda", &module) != MP_OK ||
      mp_module_find_entry(module, "twice", &twice) != MP_OK ||
      mp_module_find_entry(module, "address", &address) != MP_OK)
    return mp_last_error();
  mp_tensor x = makeF32({1000}, std::vector<float>(1000, 1.0f));
  mp_tensor y, readX, readY;
  if (mp_entry_call(twice, &x, 1, &y, 1) != MP_OK ||
      mp_entry_call(address, &y, 1, &readY, 1) != MP_OK ||
      mp_entry_call(address, &x, 1, &readX, 1) != MP_OK)
    return mp_last_error();
  auto readAt = [](const mp_tensor &read, const mp_tensor &t) {
    return *static_cast<const int64_t *>(read.data) ==
           reinterpret_cast<intptr_t>(t.data);
  };
  std::string observed =
      std::string(readAt(readY, y) ? "y in place" : "y copied") +
      (readAt(readX, x) ? " | x in place" : " | x staged") + " | y " +
      std::to_string(values(y)[999]);
  for (mp_tensor *t : {&x, &y, &readX, &readY})
    mp_tensor_release(t);
  mp_module_unload(module);
  return observed;
}

// A result is handed over in the buffer the call allocated on the device
// (no copy), and a later call reads it there (no staging copy): training
// state stays on the device. A host tensor is staged: copied into pinned
// memory and from there by the copy engine (twice: x is staged by two
// calls, through the one pinned block, reused once the stream is idle).
std::string stagingCalls() {
  return " | pinned blocks " + std::to_string(driverCalls("cuMemHostAlloc")) +
         " | copies " + std::to_string(driverCalls("cuMemcpyHtoDAsync_v2")) +
         " | prefetches " +
         std::to_string(driverCalls("cuMemPrefetchAsync_v2"));
}

TEST(CudaBackendTest, ResultsStayOnTheDevice) {
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        std::string observed = whereCallsRead();
        finish(observed + stagingCalls());
      },
      "^y in place \\| x staged \\| y 2.000000 \\| pinned blocks 1 \\| "
      "copies 2 \\| prefetches 0\n");
  // Without pinned memory the host writes the managed buffer, and its pages
  // are prefetched to the device. A prefetch is a hint: where the device
  // refuses it, the call goes on and later calls do not ask again.
  EXPECT_SCENARIO(
      {
        useFakeDriver("cuMemHostAlloc:2");
        std::string observed = whereCallsRead();
        finish(observed + stagingCalls());
      },
      "^y in place \\| x staged \\| y 2.000000 \\| pinned blocks 1 \\| "
      "copies 0 \\| prefetches 2\n");
  EXPECT_SCENARIO(
      {
        useFakeDriver("cuMemHostAlloc:2,cuMemPrefetchAsync_v2:1");
        std::string observed = whereCallsRead();
        finish(observed + stagingCalls());
      },
      "^y in place \\| x staged \\| y 2.000000 \\| pinned blocks 1 \\| "
      "copies 0 \\| prefetches 1\n");
  // A failing copy fails the call with its name and size.
  EXPECT_SCENARIO(
      {
        useFakeDriver("cuMemcpyHtoDAsync_v2:1");
        finish(whereCallsRead());
      },
      "^CUDA backend: cuMemcpyHtoDAsync \\(staging an argument of 4000 "
      "bytes\\): CUDA_ERROR_INVALID_VALUE\n");
}

// Trains the fake module's `step` (whose kernel runs in stream order on the
// fake GPU) for 4 steps launched without waiting, an overflow injected at
// the third: "loss scale skipped" per report, read one step late as
// mp-run's loop does, then the parameters.
std::string trainQueued() {
  mp_module *module = nullptr;
  mp_entry *step = nullptr;
  mp_trainer *trainer = nullptr;
  if (mp_module_load(MP_FAKE_GPU_MODULE, "cuda", &module) != MP_OK ||
      mp_module_find_entry(module, "step", &step) != MP_OK ||
      mp_trainer_create(step, &trainer) != MP_OK)
    return mp_last_error();
  mp_tensor p = makeF32({2}, {1, 2}), x = makeF32({2}, {0.5f, 0.25f});
  mp_tensor one = makeF32({}, {1}), inf = makeF32({}, {INFINITY});
  std::string observed;
  auto report = [&]() {
    mp_step_report r;
    if (mp_trainer_collect(trainer, &r) != MP_OK)
      return false;
    char text[64];
    std::snprintf(text, sizeof(text), "%g %g %d | ", r.loss, r.scale,
                  r.skipped);
    observed += text;
    return true;
  };
  bool ok = mp_trainer_set_arg(trainer, 0, &p) == MP_OK &&
            mp_trainer_set_arg(trainer, 2, &x) == MP_OK;
  for (int s = 1; ok && s <= 4; ++s)
    ok = mp_trainer_set_arg(trainer, 3, s == 3 ? &inf : &one) == MP_OK &&
         mp_trainer_launch(trainer) == MP_OK && (s == 1 || report());
  ok = ok && report();
  int waits = driverCalls("cuStreamSynchronize");
  const mp_tensor *params = ok ? mp_trainer_arg(trainer, 0) : nullptr;
  if (!params) {
    observed = mp_last_error();
  } else {
    std::vector<float> v = values(*params);
    observed += "p " + std::to_string(v[0]) + " " + std::to_string(v[1]) +
                " | stream waits " + std::to_string(waits) + " | " +
                "event waits " +
                std::to_string(driverCalls("cuEventSynchronize")) +
                " | kernels waiting for copies " +
                std::to_string(driverCalls("cuStreamWaitEvent")) +
                " | pinned allocations " +
                std::to_string(driverCalls("cuMemHostAlloc"));
    double ms = 0;
    int64_t timed = 0;
    mp_cuda_queued_time(&ms, &timed);
    char time[64];
    std::snprintf(time, sizeof(time), " | timed %lld steps, %.3f ms",
                  static_cast<long long>(timed), ms);
    observed += time;
  }
  for (mp_tensor *t : {&p, &x, &one, &inf})
    mp_tensor_release(t);
  mp_trainer_destroy(trainer);
  mp_module_unload(module);
  return observed;
}

// Launched steps queue behind each other: no step waits for the stream.
// Each report is copied out as its step left the loss, the flag and the
// scale (the next step doubles the scale in place), and waiting for it runs
// the fake GPU's queue up to that copy only. The staged arguments are
// copied on a second stream, which the fake runs at once while the steps
// before wait in the queue: into blocks no queued step uses (a block freed
// by the step before would be overwritten before that step's kernel reads
// it: wrong reports), and each step's kernel waits for its copies. They
// pass through two pinned blocks, each free again once its step ran (and
// one page of read-back slots). Reading the parameters waits for the
// stream.
TEST(CudaBackendTest, QueuedTrainingSteps) {
  const char *reports = "3 8 0 \\| 2.25 16 0 \\| 1.5 8 1 \\| 1.5 16 0 \\| "
                        "p -0.500000 1.250000";
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        setenv("MP_FAKE_CUDA_QUEUE", "1", 1);
        finish(trainQueued());
      },
      std::string("^") + reports +
          " \\| stream waits 0 \\| event waits 4 \\| kernels waiting for "
          "copies 4 \\| pinned allocations 3 \\| timed 4 steps, 0.004 "
          "ms\n");
  // Where launches are waited for anyway (MP_CUDA_SYNC), each step waits.
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        setenv("MP_FAKE_CUDA_QUEUE", "1", 1);
        setenv("MP_CUDA_SYNC", "1", 1);
        finish(trainQueued());
      },
      std::string("^") + reports +
          " \\| stream waits 8 \\| event waits 0 \\| kernels waiting for "
          "copies 0");
  // A kernel that fails shows when its report is collected.
  EXPECT_SCENARIO(
      {
        useFakeDriver("cuEventSynchronize:700");
        setenv("MP_FAKE_CUDA_QUEUE", "1", 1);
        finish(trainQueued());
      },
      "^CUDA backend: cuEventSynchronize \\(waiting for the kernels of a "
      "queued call; MP_CUDA_SYNC=1 names the one that failed\\): CUDA error "
      "700\n");
}

// A GPU without code in the module: the error names the call, the device
// and what the module has, and says what to do.
TEST(CudaBackendTest, NoBinaryForTheGpu) {
  EXPECT_SCENARIO(
      {
        useFakeDriver("cuModuleLoadData:209");
        setenv("MP_FAKE_CUDA_SM", "75", 1);
        finish(tryLoad(MP_FAKE_GPU_MODULE));
      },
      "^CUDA backend: cuModuleLoadData: CUDA_ERROR_NO_BINARY_FOR_GPU loading "
      "the GPU code of '.*fake_gpu_module.so' on mp fake GPU \\(sm_75\\); the "
      "module has SASS for sm_80 and PTX for sm_80: compile it for this GPU "
      "\\(mp-run --gpu-chips sm_75, mp-lower-to-gpu chips=sm_75; mma.sync "
      "needs sm_80 or newer, wgmma "
      "sm_90a\\)\n");
}

// A failing launch fails that call with the kernel's name; the next call
// runs. An error the driver cannot name is given by number.
TEST(CudaBackendTest, FailingLaunches) {
  EXPECT_SCENARIO(
      {
        useFakeDriver("cuLaunchKernel:719:1");
        std::string result = callTwice(2);
        finish(result + " | launches " +
               std::to_string(driverCalls("cuLaunchKernel")));
      },
      "^call 0: CUDA backend: cuLaunchKernel\\(double_kernel in module #0\\): "
      "CUDA_ERROR_LAUNCH_FAILED \\| launches 2\n");
  EXPECT_SCENARIO(
      {
        useFakeDriver("cuLaunchKernel:999:1");
        finish(callTwice(1));
      },
      "^call 0: CUDA backend: cuLaunchKernel\\(double_kernel in module #0\\): "
      "CUDA error 999\n");
}

// A kernel launched with more than 48 KiB of shared memory (a 128 x 128 GEMM
// block) is allowed it once; more than the device gives a block, or a
// failing cuFuncSetAttribute, fails the call with the kernel and the bytes.
TEST(CudaBackendTest, DynamicSharedMemory) {
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        std::string result = callTwice(3, "twice_shared");
        finish(result + " | attribute set " +
               std::to_string(driverCalls("cuFuncSetAttribute")) +
               " | launches " + std::to_string(driverCalls("cuLaunchKernel")));
      },
      "^ok \\| attribute set 1 \\| launches 3\n");
  // Without the attribute the fake driver refuses the launch, as CUDA does.
  EXPECT_SCENARIO(
      {
        useFakeDriver("cuFuncSetAttribute:1");
        finish(callTwice(1, "twice_shared"));
      },
      "^call 0: CUDA backend: cuFuncSetAttribute\\(double_kernel in module "
      "#0, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 98304\\): "
      "CUDA_ERROR_INVALID_VALUE\n");
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        setenv("MP_FAKE_CUDA_SHARED", "65536", 1);
        std::string result = callTwice(1, "twice_shared");
        finish(result + " | attribute set " +
               std::to_string(driverCalls("cuFuncSetAttribute")) +
               " | launches " + std::to_string(driverCalls("cuLaunchKernel")));
      },
      "^call 0: CUDA backend: kernel double_kernel in module #0 needs 98304 "
      "bytes of shared memory, more than a block gets on mp fake GPU "
      "\\(65536\\); compile it with smaller tiles \\(mp-lower-to-gpu "
      "tile-m, tile-n\\) \\| attribute set 0 \\| "
      "launches 0\n");
}

// Out of device memory: the pool gives its cached blocks back to the driver
// and tries again; if that does not help, the call fails with the size.
extern "C" void *_mlir_memref_to_llvm_alloc(size_t size);
extern "C" void _mlir_memref_to_llvm_free(void *pointer);

TEST(CudaBackendTest, OutOfMemory) {
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        setenv("MP_FAKE_CUDA_MEMORY", "4000000", 1);
        void *a = _mlir_memref_to_llvm_alloc(2 << 20);
        _mlir_memref_to_llvm_free(a); // cached
        void *b = _mlir_memref_to_llvm_alloc(3 << 20);
        std::string observed =
            "frees " + std::to_string(driverCalls("cuMemFree"));
        observed += " | allocations " +
                    std::to_string(driverCalls("cuMemAllocManaged"));
        finish(observed + " | " + (b ? "allocated" : "null"));
      },
      "^frees 1 \\| allocations 3 \\| allocated\n");
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        setenv("MP_FAKE_CUDA_MEMORY", "4000", 1);
        finish(callTwice(1));
      },
      "^call 0: CUDA backend: cuMemAllocManaged\\(4096 bytes\\): "
      "CUDA_ERROR_OUT_OF_MEMORY\n");
}

// The pool's statistics: the most bytes given out at once (in size
// classes: 3 MiB, 1 KiB, 512 bytes) and the bytes held from the driver,
// freed blocks included.
TEST(CudaBackendTest, MemoryStatistics) {
  EXPECT_SCENARIO(
      {
        useFakeDriver();
        void *a = _mlir_memref_to_llvm_alloc(3 << 20);
        _mlir_memref_to_llvm_alloc(1000);
        _mlir_memref_to_llvm_free(a);
        _mlir_memref_to_llvm_alloc(300);
        size_t peak = 0;
        size_t reserved = 0;
        mp_cuda_memory(&peak, &reserved);
        finish("peak " + std::to_string(peak) + " reserved " +
               std::to_string(reserved));
      },
      "^peak 3146752 reserved 3147264\n");
}

/// A 2-d convolution (kind 0: forward; 1: the image gradient from the
/// output gradient and the filter; 2: the filter gradient from the image
/// and the output gradient) computed from the layouts of mp's IR (NCHW
/// image and KCRS filter, or NHWC and KRSC) in double, rounded to f16 or
/// bf16.
struct ConvCase {
  const char *entry;
  mp_dtype dtype;
  bool channelsLast;
  int kind;
  int n, c, h, w, k, r, s, groups, strideH, strideW, dilationH, dilationW, padH,
      padW;

  int outH() const {
    return (h + 2 * padH - dilationH * (r - 1) - 1) / strideH + 1;
  }
  int outW() const {
    return (w + 2 * padW - dilationW * (s - 1) - 1) / strideW + 1;
  }
  /// The index of (batch, channel, row, column) in a tensor of `channels`.
  int64_t at(int b, int ch, int i, int j, int channels, int rows,
             int cols) const {
    return channelsLast ? ((int64_t(b) * rows + i) * cols + j) * channels + ch
                        : ((int64_t(b) * channels + ch) * rows + i) * cols + j;
  }
  uint16_t round(double value) const {
    return dtype == MP_BF16 ? mp_runtime::toBF16(float(value))
                            : mp_runtime::toF16(float(value));
  }
  float widen(uint16_t bits) const {
    return dtype == MP_BF16 ? mp_runtime::fromBF16(bits)
                            : mp_runtime::fromF16(bits);
  }
  /// The argument shapes (image or output gradient, filter) and the
  /// result's.
  std::vector<int64_t> shape(int channels, int rows, int cols) const {
    return channelsLast ? std::vector<int64_t>{n, rows, cols, channels}
                        : std::vector<int64_t>{n, channels, rows, cols};
  }
  std::vector<int64_t> image() const { return shape(c, h, w); }
  std::vector<int64_t> output() const { return shape(k, outH(), outW()); }
  std::vector<int64_t> filter() const {
    int perGroup = c / groups;
    return channelsLast ? std::vector<int64_t>{k, r, s, perGroup}
                        : std::vector<int64_t>{k, perGroup, r, s};
  }
  /// The shapes of the arguments and of the result.
  std::vector<int64_t> first() const { return kind == 1 ? output() : image(); }
  std::vector<int64_t> second() const {
    return kind == 2 ? output() : filter();
  }
  /// Each product of image element and filter tap in the convolution,
  /// forward: y += x w; backward data: dx += dy w with the filter flipped
  /// (the convolution's, not the cross-correlation's); backward filter:
  /// dw += x dy.
  std::vector<uint16_t> reference(const uint16_t *in, const uint16_t *f) const {
    int perGroupIn = c / groups, perGroupOut = k / groups;
    std::vector<double> sums(kind == 1   ? size_t(n) * c * h * w
                             : kind == 2 ? size_t(k) * perGroupIn * r * s
                                         : size_t(n) * k * outH() * outW());
    for (int b = 0; b < n; ++b)
      for (int o = 0; o < k; ++o)
        for (int i = 0; i < outH(); ++i)
          for (int j = 0; j < outW(); ++j)
            for (int ci = 0; ci < perGroupIn; ++ci)
              for (int ri = 0; ri < r; ++ri)
                for (int si = 0; si < s; ++si) {
                  int row = i * strideH + ri * dilationH - padH;
                  int col = j * strideW + si * dilationW - padW;
                  if (row < 0 || row >= h || col < 0 || col >= w)
                    continue;
                  int channel = o / perGroupOut * perGroupIn + ci;
                  int64_t image = at(b, channel, row, col, c, h, w);
                  int64_t output = at(b, o, i, j, k, outH(), outW());
                  if (kind == 1)
                    sums[image] += double(widen(in[output])) *
                                   widen(f[at(o, ci, r - 1 - ri, s - 1 - si,
                                              perGroupIn, r, s)]);
                  else if (kind == 2)
                    sums[at(o, ci, ri, si, perGroupIn, r, s)] +=
                        double(widen(in[image])) * widen(f[output]);
                  else
                    sums[output] +=
                        double(widen(in[image])) *
                        widen(f[at(o, ci, ri, si, perGroupIn, r, s)]);
                }
    std::vector<uint16_t> result;
    for (double sum : sums)
      result.push_back(round(sum));
    return result;
  }
};

// Calls `test`'s entry of the fake GPU module (mp_cuda_conv on the fake
// driver and the fake cuDNN) on multiples of 1/8 (their sums are exact):
// "ok", the first mismatch or the error.
std::string runConv(const ConvCase &test) {
  mp_module *module = nullptr;
  mp_entry *entry = nullptr;
  if (mp_module_load(MP_FAKE_GPU_MODULE, "cuda", &module) != MP_OK ||
      mp_module_find_entry(module, test.entry, &entry) != MP_OK)
    return mp_last_error();
  mp_tensor args[2];
  for (int i = 0; i < 2; ++i) {
    std::vector<int64_t> shape = i ? test.second() : test.first();
    EXPECT_EQ(mp_tensor_alloc(test.dtype, 4, shape.data(), &args[i]), MP_OK);
    auto *bits = static_cast<uint16_t *>(args[i].data);
    for (int64_t e = 0; e < mp_tensor_num_elements(&args[i]); ++e)
      bits[e] = test.round(((e * (5 + 2 * i) + i) % 17 - 8) / 8.0);
  }
  std::string observed = "ok";
  mp_tensor y;
  if (mp_entry_call(entry, args, 2, &y, 1) != MP_OK) {
    observed = mp_last_error();
  } else {
    std::vector<uint16_t> expected =
        test.reference(static_cast<const uint16_t *>(args[0].data),
                       static_cast<const uint16_t *>(args[1].data));
    const auto *got = static_cast<const uint16_t *>(y.data);
    for (size_t e = 0; e < expected.size() && observed == "ok"; ++e)
      if (got[e] != expected[e])
        observed = "element " + std::to_string(e) + ": " +
                   std::to_string(test.widen(got[e])) + " instead of " +
                   std::to_string(test.widen(expected[e]));
    mp_tensor_release(&y);
  }
  for (mp_tensor &arg : args)
    mp_tensor_release(&arg);
  mp_module_unload(module);
  return observed;
}

// clang-format off
const ConvCase kGroupedConv{"conv_grouped", MP_F16, false, 0,
                            2, 6, 7, 9, 4, 3, 2, 2, 2, 1, 1, 2, 0, 0};
const ConvCase kNhwcConv{"conv_nhwc", MP_BF16, true, 0,
                         1, 3, 5, 4, 2, 2, 3, 1, 1, 1, 1, 1, 0, 1};
const ConvCase kBackwardData{"conv_backward_data", MP_F16, false, 1,
                             2, 3, 7, 8, 4, 3, 2, 1, 2, 1, 1, 1, 1, 0};
const ConvCase kBackwardFilter{"conv_backward_filter", MP_BF16, false, 2,
                               2, 3, 7, 8, 4, 3, 2, 1, 2, 1, 1, 2, 1, 0};
// clang-format on

/// runConv(`test`) with the fake driver and the cuDNN at `library`, whose
/// entry point NAME returns CODE where `fail` is "NAME:CODE".
std::string runConvWith(const char *library, const ConvCase &test,
                        const char *fail = nullptr) {
  useFakeDriver();
  setenv("MP_CUDNN", library, 1);
  if (fail)
    setenv("MP_FAKE_CUDNN_FAIL", fail, 1);
  return runConv(test);
}

// mp_cuda_conv describes a grouped, strided and dilated NCHW convolution, a
// padded NHWC one, the image gradient of a strided, padded convolution
// (backward data) and the filter gradient of a strided, dilated, padded one
// (backward filter) to cuDNN as cuDNN documents its descriptors: the fake
// cuDNN, which checks them and computes from them, gives the reference's
// results. It takes the first algorithm whose workspace fits (the fake's
// first wants 1 TiB).
TEST(CudaLibraryTest, CudnnConvolutions) {
  EXPECT_SCENARIO(finish(runConvWith(MP_FAKE_CUDNN, kGroupedConv) + " | " +
                         runConvWith(MP_FAKE_CUDNN, kNhwcConv) + " | " +
                         runConvWith(MP_FAKE_CUDNN, kBackwardData) + " | " +
                         runConvWith(MP_FAKE_CUDNN, kBackwardFilter)),
                  "^ok \\| ok \\| ok \\| ok\n");
}

// cuDNN's failures name the call and the convolution; a missing library
// says where it was looked for.
TEST(CudaLibraryTest, CudnnErrors) {
  EXPECT_SCENARIO(finish(runConvWith(MP_FAKE_CUDNN, kGroupedConv,
                                     "cudnnConvolutionForward:5000")),
                  "^CUDA backend: cudnnConvolutionForward\\(2x6x7x9 \\* "
                  "4x3x3x2 in 2 groups f16\\): "
                  "CUDNN_STATUS_EXECUTION_FAILED\n");
  EXPECT_SCENARIO(
      finish(runConvWith(MP_FAKE_CUDNN, kNhwcConv,
                         "cudnnGetConvolutionForwardAlgorithm_v7:3000")),
      "^CUDA backend: cudnnGetConvolutionForwardAlgorithm_v7: "
      "CUDNN_STATUS_NOT_SUPPORTED for cudnnConvolutionForward\\(1x3x5x4 NHWC "
      "\\* 2x3x2x3 bf16\\)\n");
  EXPECT_SCENARIO(finish(runConvWith(MP_FAKE_CUDNN, kBackwardData,
                                     "cudnnConvolutionBackwardData:2000")),
                  "^CUDA backend: cudnnConvolutionBackwardData\\(2x3x7x8 "
                  "\\* 4x3x3x2 f16\\): CUDNN_STATUS_BAD_PARAM\n");
  EXPECT_SCENARIO(finish(runConvWith(MP_FAKE_CUDNN, kBackwardFilter,
                                     "cudnnConvolutionBackwardFilter:2000")),
                  "^CUDA backend: cudnnConvolutionBackwardFilter\\(2x3x7x8 "
                  "\\* 4x3x3x2 bf16\\): CUDNN_STATUS_BAD_PARAM\n");
  EXPECT_SCENARIO(
      finish(runConvWith("/nonexistent/libcudnn.so.9", kGroupedConv)),
      "^CUDA backend: cannot load cuDNN from \\$MP_CUDNN "
      "\\('/nonexistent/libcudnn.so.9'\\): ");
}

// CUDA libraries (cuBLASLt) are looked for where an override says, else in
// the dynamic loader's path, the CUDA toolkit and the NVIDIA wheels of Python
// environments; when none loads, the error lists where it looked.
// Where the runtime looks for what ships with it (libomp.so.5 for threaded
// CPU modules on a machine without LLVM, the MPI plugin): the directory of
// libMPRuntime.so itself, whatever the working directory.
TEST(RuntimeLibraryTest, OwnDirectory) {
  namespace fs = std::filesystem;
  std::string own = mp_runtime::runtimeDirectory();
  ASSERT_FALSE(own.empty());
  EXPECT_EQ(own.back(), '/');
  EXPECT_TRUE(
      fs::equivalent(fs::path(own) / "libMPRuntime.so", MP_RUNTIME_LIBRARY))
      << own;
}

TEST(CudaLibraryTest, SearchOrder) {
  namespace fs = std::filesystem;
  char venv[] = "/tmp/mp-venv-XXXXXX";
  ASSERT_NE(mkdtemp(venv), nullptr);
  fs::path wheel =
      fs::path(venv) / "lib/python3.11/site-packages/nvidia/fake/lib";
  fs::create_directories(wheel);
  fs::create_symlink(MP_FAKE_CUBLASLT, wheel / "libmp_fake_lt.so.1");
  setenv("VIRTUAL_ENV", venv, 1);
  unsetenv("CUDA_HOME");
  unsetenv("MP_TEST_LIBRARY");

  std::string error;
  void *lib =
      mp_runtime::openCudaLibrary("the fake cuBLASLt", "MP_TEST_LIBRARY",
                                  {"libmp_fake_lt.so.1"}, {"fake/lib"}, error);
  ASSERT_NE(lib, nullptr) << error;
  EXPECT_NE(dlsym(lib, "cublasLtMatmul"), nullptr);
  dlclose(lib);

  setenv("MP_TEST_LIBRARY", "/nonexistent/libfake.so", 1);
  EXPECT_EQ(mp_runtime::openCudaLibrary("the fake cuBLASLt", "MP_TEST_LIBRARY",
                                        {"libmp_fake_lt.so.1"}, {"fake/lib"},
                                        error),
            nullptr);
  EXPECT_EQ(error.rfind("cannot load the fake cuBLASLt from $MP_TEST_LIBRARY "
                        "('/nonexistent/libfake.so'): ",
                        0),
            0u)
      << error;

  unsetenv("MP_TEST_LIBRARY");
  EXPECT_EQ(
      mp_runtime::openCudaLibrary("libmissing", "MP_TEST_LIBRARY",
                                  {"libmp_missing.so.2", "libmp_missing.so.1"},
                                  {"missing/lib"}, error),
      nullptr);
  std::string expected =
      "cannot load libmissing: no libmp_missing.so.2 or libmp_missing.so.1 in "
      "the dynamic loader's path, /usr/local/cuda/lib64, " +
      std::string(venv) + "/lib/python3*/*-packages/nvidia/missing/lib, ";
  EXPECT_EQ(error.rfind(expected, 0), 0u) << error;
  EXPECT_NE(error.find("/usr/lib/python3*/*-packages/nvidia/missing/lib; "
                       "install it or set MP_TEST_LIBRARY to the library"),
            std::string::npos)
      << error;
  unsetenv("VIRTUAL_ENV");
  fs::remove_all(venv);
}

} // namespace
