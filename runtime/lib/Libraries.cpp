//===- Libraries.cpp - Finding shared libraries at run time ---------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The runtime links nothing beyond libc: the CUDA driver, cuBLASLt and
// LLVM's OpenMP runtime are opened with dlopen when a module needs them,
// so every binary starts on a machine that lacks them.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cstdlib>
#include <dlfcn.h>
#include <glob.h>

using namespace mp_runtime;

void *mp_runtime::openLibrary(const std::string &what, const char *envVar,
                              const std::vector<std::string> &sonames,
                              const std::vector<std::string> &dirs,
                              const std::vector<std::string> &places, int flags,
                              std::string &error) {
  flags |= RTLD_NOW;
  if (const char *path = std::getenv(envVar); path && *path) {
    if (void *lib = dlopen(path, flags))
      return lib;
    const char *why = dlerror();
    error = "cannot load " + what + " from $" + envVar + " ('" + path +
            "'): " + (why ? why : "not found");
    return nullptr;
  }
  for (const std::string &soname : sonames)
    if (void *lib = dlopen(soname.c_str(), flags))
      return lib;
  for (const std::string &dir : dirs)
    for (const std::string &soname : sonames)
      if (void *lib = dlopen((dir + "/" + soname).c_str(), flags))
        return lib;

  std::string names, where = "the dynamic loader's path";
  for (const std::string &soname : sonames)
    names += (names.empty() ? "" : " or ") + soname;
  for (const std::string &place : places)
    where += ", " + place;
  error = "cannot load " + what + ": no " + names + " in " + where +
          "; install it or set " + envVar + " to the library";
  return nullptr;
}

void mp_runtime::appendGlob(const std::string &pattern,
                            std::vector<std::string> &dirs) {
  glob_t found;
  if (glob(pattern.c_str(), GLOB_ONLYDIR, nullptr, &found) == 0)
    for (size_t i = 0; i < found.gl_pathc; ++i)
      dirs.push_back(found.gl_pathv[i]);
  globfree(&found);
}

std::string mp_runtime::runtimeDirectory() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&mp_runtime::runtimeDirectory), &info) ||
      !info.dli_fname)
    return "";
  std::string path = info.dli_fname;
  return path.substr(0, path.find_last_of('/') + 1);
}
