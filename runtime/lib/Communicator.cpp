//===- Communicator.cpp - The world of a data-parallel run ------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// A process is one rank of a data-parallel run when its launcher says so
// ($OMPI_COMM_WORLD_SIZE from Open MPI's mpirun, $PMI_SIZE from MPICH's);
// then the first use of the world loads the MPI plugin (libMPRuntimeMPI.so
// next to this library, or $MP_MPI_PLUGIN) and joins. Any other process is
// a world of one: collectives return their operand and nothing is loaded.
//
// The compiled step's collectives cannot return an error: a failed one ends
// every rank (mp_world_abort) with a message that says which rank and why.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cstdlib>
#include <initializer_list>
#include <string>

using namespace mp_runtime;

namespace {

class World {
public:
  static World &get() {
    static World world;
    return world;
  }

  /// Joins the world on the first call; MP_OK or an error (kept).
  mp_status init() {
    if (!initialized) {
      initialized = true;
      error = join();
    }
    return error.empty() ? MP_OK : fail(MP_ERROR_NOT_FOUND, error);
  }

  /// Reduces in place; ends every rank on failure.
  void allReduce(void *data, int64_t count, int32_t dtype, int32_t kind) {
    if (init() != MP_OK)
      abort(error);
    if (size == 1)
      return;
    char message[512] = "";
    if (allReduceFn(data, count, dtype, kind, timeout, message,
                    sizeof(message)))
      abort(world::describeAllReduce(count, dtype) + ": " + message);
  }

  /// Copies from rank 0 to every rank; ends every rank on failure.
  void broadcast(void *data, size_t bytes) {
    if (init() != MP_OK)
      abort(error);
    if (size == 1)
      return;
    char message[512] = "";
    if (broadcastFn(data, static_cast<int64_t>(bytes), 0, timeout, message,
                    sizeof(message)))
      abort("broadcast of " + std::to_string(bytes) + " bytes: " + message);
  }

  [[noreturn]] void abort(const std::string &message) {
    std::fprintf(stderr, "mp: error: rank %d of %d: %s\n", rank, size,
                 message.c_str());
    std::fflush(stderr);
    if (abortFn)
      abortFn(1);
    std::_Exit(1);
  }

  void finalize() {
    if (finalizeFn)
      finalizeFn();
    finalizeFn = nullptr;
  }

  int32_t rank = 0, size = 1;
  double timeout = 300;

private:
  std::string join();

  using InitFn = int (*)(int32_t *, int32_t *, char *, size_t);
  using AllReduceFn = int (*)(void *, int64_t, int32_t, int32_t, double, char *,
                              size_t);
  using BroadcastFn = int (*)(void *, int64_t, int32_t, double, char *, size_t);
  bool initialized = false;
  std::string error;
  InitFn initFn = nullptr;
  AllReduceFn allReduceFn = nullptr;
  BroadcastFn broadcastFn = nullptr;
  void (*abortFn)(int) = nullptr;
  void (*finalizeFn)(void) = nullptr;
};

/// The first of `vars` that the launcher set, as a number, or `otherwise`.
int64_t fromLauncher(std::initializer_list<const char *> vars,
                     int64_t otherwise) {
  for (const char *var : vars)
    if (const char *value = std::getenv(var); value && *value)
      return std::strtoll(value, nullptr, 10);
  return otherwise;
}

/// The world size the launcher announces, or 1.
int64_t launcherWorldSize() {
  return fromLauncher({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}, 1);
}

std::string World::join() {
  if (launcherWorldSize() <= 1)
    return "";
  if (const char *value = std::getenv("MP_COLLECTIVE_TIMEOUT");
      value && *value) {
    char *end = nullptr;
    timeout = std::strtod(value, &end);
    if (*end || !(timeout > 0))
      return std::string("$MP_COLLECTIVE_TIMEOUT='") + value +
             "' is not a positive number of seconds";
  }
  std::string path;
  if (const char *plugin = std::getenv("MP_MPI_PLUGIN"); plugin && *plugin) {
    path = plugin;
  } else {
    path = runtimeDirectory() + "libMPRuntimeMPI.so";
  }
  // Global: Open MPI's own components look up libmpi's symbols.
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    const char *why = dlerror();
    return "launched as one of " + std::to_string(launcherWorldSize()) +
           " ranks, but the MPI plugin does not load from '" + path + "' (" +
           (why ? why : "not found") +
           "; build mp with Open MPI's libopenmpi-dev installed, or set "
           "$MP_MPI_PLUGIN)";
  }
  SymbolResolver resolve(lib);
  resolve("mp_mpi_init", initFn);
  resolve("mp_mpi_all_reduce", allReduceFn);
  resolve("mp_mpi_broadcast", broadcastFn);
  resolve("mp_mpi_abort", abortFn);
  resolve("mp_mpi_finalize", finalizeFn);
  if (resolve.missing)
    return "the MPI plugin '" + path + "' lacks " + resolve.missing;
  char message[512] = "";
  if (initFn(&rank, &size, message, sizeof(message)))
    return std::string("joining the MPI world: ") + message;
  return "";
}

} // namespace

extern "C" mp_status mp_world_init(int32_t *rank, int32_t *size) {
  World &world = World::get();
  mp_status status = world.init();
  *rank = world.rank;
  *size = world.size;
  return status;
}

extern "C" void mp_world_abort(const char *message) {
  World::get().abort(message);
}

extern "C" void mp_world_finalize(void) { World::get().finalize(); }

extern "C" int32_t mp_world_size(void) {
  World &world = World::get();
  if (world.init() != MP_OK)
    world.abort(mp_last_error());
  return world.size;
}

extern "C" void mp_all_reduce(int64_t address, int64_t count, int32_t dtype,
                              int32_t kind) {
  World::get().allReduce(
      reinterpret_cast<void *>(static_cast<intptr_t>(address)), count, dtype,
      kind);
}

int32_t mp_runtime::world::rank() {
  mp_world_size(); // joins
  return World::get().rank;
}

int32_t mp_runtime::world::size() { return mp_world_size(); }

void mp_runtime::world::broadcast(void *data, size_t bytes) {
  World::get().broadcast(data, bytes);
}

double mp_runtime::world::timeout() {
  mp_world_size(); // joins: reads $MP_COLLECTIVE_TIMEOUT
  return World::get().timeout;
}

void mp_runtime::world::abort(const std::string &message) {
  World::get().abort(message);
}

int32_t mp_runtime::world::launcherLocalRank() {
  // Open MPI's mpirun, MPICH's Hydra, Slurm's srun.
  return static_cast<int32_t>(fromLauncher(
      {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}, -1));
}

std::string mp_runtime::world::describeAllReduce(int64_t count, int32_t dtype) {
  return "all-reduce of " + std::to_string(count) + " " +
         mp_dtype_name(static_cast<mp_dtype>(dtype)) + " values";
}
