#===- PrecompiledHeaders.cmake - One precompiled header for mp -*- cmake -*-===#
#
# Most of a translation unit's compile time went to parsing MLIR's headers.
# With clang, cmake/PrecompiledHeaders.h is precompiled once (the target
# MPPrecompiledHeaders) and reused by the object libraries of every
# add_mlir_library (obj.*), the compiler libraries, and by the test passes'
# library, with LLVM's flags. Executables (-fPIE), the plugin and the unit tests (C++
# exceptions) have other flags, which a precompiled header must match, and
# parse as before; the runtime has no MLIR. GCC precompiles the same list
# into a 1 GB file for less gain, so GCC builds parse as before; so does any
# build configured with -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON. A cold build
# on 2 cores: 209 s with the header, 587 s without (clang-22, no ccache).
#
#===----------------------------------------------------------------------===#

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR
   CMAKE_DISABLE_PRECOMPILE_HEADERS)
  return()
endif()

add_library(MPPrecompiledHeaders OBJECT
  ${PROJECT_SOURCE_DIR}/cmake/PrecompiledHeaders.cpp)
llvm_update_compile_flags(MPPrecompiledHeaders)
target_precompile_headers(MPPrecompiledHeaders PRIVATE
  ${PROJECT_SOURCE_DIR}/cmake/PrecompiledHeaders.h)
# ccache caches compiles that use the header when told to hash its content
# instead of its timestamp.
target_compile_options(MPPrecompiledHeaders PRIVATE
  "SHELL:-Xclang -fno-pch-timestamp")

# Reuses the header in the object libraries of `dir` and its subdirectories.
function(mp_reuse_precompiled_headers dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    if(target MATCHES "^obj\\.")
      target_precompile_headers(${target} REUSE_FROM MPPrecompiledHeaders)
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    mp_reuse_precompiled_headers(${subdir})
  endforeach()
endfunction()

mp_reuse_precompiled_headers(${PROJECT_SOURCE_DIR}/lib)
mp_reuse_precompiled_headers(${PROJECT_SOURCE_DIR}/test/lib)
# The test passes' library, which mp-opt links directly (no obj. library).
if(TARGET MPTestPasses)
  target_precompile_headers(MPTestPasses REUSE_FROM MPPrecompiledHeaders)
endif()
