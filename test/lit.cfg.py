# -*- Python -*-
# lit configuration of the mp regression tests.

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MP"
# The internal shell provides `not` (Debian ships no `not` binary).
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
# lit starts the slowest tests first by their times in the build's
# test/.lit_test_times.txt. A fresh build has none and falls back to
# test/.lit_test_times.txt here: the tests over 10 s of one run, so that two
# workers do not end the run on one long test (about a minute of the suite).
config.test_exec_root = os.path.join(config.mp_obj_root, "test")
config.excludes = ["Inputs", "lib", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%mp_src", config.mp_src_root))
config.substitutions.append(("%mp_obj", config.mp_obj_root))
config.substitutions.append(
    ("%mp_plugin", os.path.join(config.mp_lib_dir, "MPPlugin.so")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.mp_tools_dir, append_path=True)
# mp-run runs on the CPU unless a test says otherwise (its default, auto,
# would take a GPU where there is one; test/Tools/mp-run-backend.test checks
# auto itself).
config.environment["MP_BACKEND"] = "cpu"
# Compiled CPU code runs on one thread unless a test asks for more
# (--threads): lit's workers would otherwise each start an OpenMP thread per
# core, whose spinning waits slow the other workers down.
# test/Integration/CPU/threads.test runs on several.
config.environment["OMP_NUM_THREADS"] = "1"

# `avx512bf16`: the host CPU has AVX512-BF16, so mp-run's --bf16-dot auto
# multiplies bf16 contractions with vdpbf16ps (and --bf16-dot on works).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        if "avx512_bf16" in cpuinfo.read().split():
            config.available_features.add("avx512bf16")
except OSError:
    pass

# `sanitize`: mp was built with ASan and UBSan (MP_SANITIZE). Debian's LLVM
# is not instrumented: its inlined BumpPtrAllocator poisons slabs that the
# uninstrumented libMLIR then writes (allow_user_poisoning=0), and MLIR's
# global registries are never freed (detect_leaks=0). Stock mlir-opt loading
# the instrumented plugin needs the ASan runtime preloaded.
mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
if config.mp_sanitize:
    config.available_features.add("sanitize")
    config.environment["ASAN_OPTIONS"] = \
        "allow_user_poisoning=0:detect_leaks=0:abort_on_error=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    mlir_opt = "env LD_PRELOAD=%s %s" % (config.mp_asan_runtime, mlir_opt)

tool_dirs = [config.mp_tools_dir, config.llvm_tools_dir]
tools = [
    "mp-opt",
    "mp-exec",
    ToolSubst("mlir-opt", mlir_opt),
    ToolSubst("%python", config.python_executable or "python3"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# `ptxas`: the CUDA toolkit is present, so GPU code can be assembled.
if config.ptxas_path and os.path.exists(config.ptxas_path):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas_path))
    config.substitutions.append(
        ("%cuda_toolkit", os.path.dirname(os.path.dirname(config.ptxas_path))))


# `cuda-stub`: the toolkit's stub libcuda, a driver that loads but has no GPU.
cuda_stub = os.path.join(os.path.dirname(os.path.dirname(
    config.ptxas_path or "/usr/local/cuda/bin/ptxas")), "lib64", "stubs",
    "libcuda.so")
if os.path.exists(cuda_stub):
    config.available_features.add("cuda-stub")
    config.substitutions.append(("%cuda_stub", cuda_stub))


# `fake-cuda`: the runtime tests' fake driver, cuBLASLt and cuDNN (host
# memory, no kernels run, matmuls and convolutions computed on the host).
fake_cuda = os.path.join(config.mp_lib_dir, "mp_fake_cuda.so")
fake_cublaslt = os.path.join(config.mp_lib_dir, "mp_fake_cublaslt.so")
fake_cudnn = os.path.join(config.mp_lib_dir, "mp_fake_cudnn.so")
if all(os.path.exists(f) for f in (fake_cuda, fake_cublaslt, fake_cudnn)):
    config.available_features.add("fake-cuda")
    config.substitutions.append(("%fake_cuda", fake_cuda))
    config.substitutions.append(("%fake_cublaslt", fake_cublaslt))
    config.substitutions.append(("%fake_cudnn", fake_cudnn))
# `fake-nccl`: the fake NCCL, which reduces over MPI (built with MPI).
fake_nccl = os.path.join(config.mp_lib_dir, "mp_fake_nccl.so")
if "fake-cuda" in config.available_features and os.path.exists(fake_nccl):
    config.available_features.add("fake-nccl")
    config.substitutions.append(("%fake_nccl", fake_nccl))
    config.substitutions.append(
        ("%cuda_all_reduce_check",
         os.path.join(config.mp_obj_root, "runtime", "test",
                      "mp-cuda-all-reduce-check")))


# `cuda-device`: a driver and a GPU are present, so GPU code can run;
# `cuda-devices-2`: two or more (NCCL gives each rank a GPU of its own).
def count_cuda_devices():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return 0
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True,
                             timeout=20)
    except (OSError, subprocess.SubprocessError):
        return 0
    if out.returncode != 0:
        return 0
    return sum(line.startswith("GPU ") for line in out.stdout.splitlines())


cuda_devices = count_cuda_devices()
if cuda_devices >= 1:
    config.available_features.add("cuda-device")
if cuda_devices >= 2:
    config.available_features.add("cuda-devices-2")


# `numpy`: Debian's python3-numpy, for numeric tests against NumPy references
# (scripts/install-deps.sh installs it for /usr/bin/python3).
def find_numpy_python():
    for candidate in ["/usr/bin/python3", config.python_executable]:
        if not candidate or not os.path.exists(candidate):
            continue
        try:
            ok = subprocess.run([candidate, "-c", "import numpy"],
                                capture_output=True, timeout=60).returncode == 0
        except (OSError, subprocess.SubprocessError):
            ok = False
        if ok:
            return candidate
    return None


numpy_python = find_numpy_python()
if numpy_python:
    config.available_features.add("numpy")
    config.substitutions.append(("%numpy_python", numpy_python))

# `fashion-mnist`: Debian's dataset-fashion-mnist (or $MP_DATASET_DIR), for
# the training tests.
fashion_mnist = os.environ.get("MP_DATASET_DIR",
                               "/usr/share/datasets/fashion-mnist")
if os.path.exists(os.path.join(fashion_mnist, "train-images-idx3-ubyte.gz")):
    config.available_features.add("fashion-mnist")
    if "MP_DATASET_DIR" in os.environ:
        config.environment["MP_DATASET_DIR"] = fashion_mnist

# `mpi`: Open MPI's mpirun and the runtime's MPI plugin, for data-parallel
# runs (`%mpirun N CMD`: N ranks on this machine's cores, oversubscribed).
mpirun = shutil.which("mpirun")
if mpirun and os.path.exists(os.path.join(config.mp_lib_dir,
                                          "libMPRuntimeMPI.so")):
    config.available_features.add("mpi")
    config.substitutions.append(("%mpirun", mpirun + " --oversubscribe -np"))
    # CI runs as root; containers forbid the cross-memory attach of Open
    # MPI's shared-memory transport.
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    config.environment["OMPI_MCA_btl_vader_single_copy_mechanism"] = "none"
