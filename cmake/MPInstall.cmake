#===- cmake/MPInstall.cmake - cmake --install and the MP package ---------===#
#
# Installs the headers (with the TableGen-generated .inc files), libraries,
# tools, the mlir-opt plugin and the runtime, and exports the libraries as
# MP::<name> in MPConfig.cmake, the way MLIR exports MLIRConfig.cmake.
#
#===----------------------------------------------------------------------===#
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MP_INSTALL_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
set(MP_INSTALL_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
set(MP_INSTALL_BINDIR "${CMAKE_INSTALL_BINDIR}")
set(MP_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/mp")

# Library target -> exported name (MP::<name>).
set(MP_EXPORTED_LIBRARIES
  MPUtils:Utils MPDialect:Dialect MPAnalysis:Analysis MPTransforms:Transforms
  MPMPToStandard:MPToStandard MPMPToRuntime:MPToRuntime MPCodegenCPU:CodegenCPU MPCodegenGPU:CodegenGPU MPPipelines:Pipelines
  MPCompiler:Compiler MPInitAll:InitAll)
set(mp_targets)
foreach(pair ${MP_EXPORTED_LIBRARIES})
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 target)
  list(GET pair 1 name)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${target} INTERFACE
    $<INSTALL_INTERFACE:${MP_INSTALL_INCLUDEDIR}>)
  list(APPEND mp_targets ${target})
endforeach()
set_target_properties(MPRuntime PROPERTIES EXPORT_NAME Runtime)
target_include_directories(MPRuntime INTERFACE
  $<INSTALL_INTERFACE:${MP_INSTALL_INCLUDEDIR}>)

# Installed binaries find our libraries next to them and libMLIR.so where
# MLIR is.
set_target_properties(mp-opt mp-run MPPlugin PROPERTIES
  INSTALL_RPATH "\$ORIGIN/../${MP_INSTALL_LIBDIR};${LLVM_LIBRARY_DIR}")

install(TARGETS ${mp_targets} MPRuntime EXPORT MPTargets
  ARCHIVE DESTINATION ${MP_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${MP_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${MP_INSTALL_BINDIR})
install(TARGETS mp-opt mp-run RUNTIME DESTINATION ${MP_INSTALL_BINDIR})
# mp-exec needs the runtime alone: bin/mp-exec and lib/libMPRuntime.so (and
# lib/libMPRuntimeMPI.so for mpirun) run where nothing else of ours is.
set_target_properties(mp-exec PROPERTIES
  INSTALL_RPATH "\$ORIGIN/../${MP_INSTALL_LIBDIR}")
install(TARGETS mp-exec RUNTIME DESTINATION ${MP_INSTALL_BINDIR})
install(TARGETS MPPlugin LIBRARY DESTINATION ${MP_INSTALL_LIBDIR})
# The runtime loads its MPI plugin from its own directory.
if(TARGET MPRuntimeMPI)
  install(TARGETS MPRuntimeMPI LIBRARY DESTINATION ${MP_INSTALL_LIBDIR})
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mp
  DESTINATION ${MP_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/mp
  DESTINATION ${MP_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/mp
  DESTINATION ${MP_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

install(EXPORT MPTargets NAMESPACE MP:: DESTINATION ${MP_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/MPConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/MPConfig.cmake
  INSTALL_DESTINATION ${MP_INSTALL_CMAKEDIR}
  PATH_VARS MP_INSTALL_INCLUDEDIR MP_INSTALL_BINDIR MP_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/MPConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/MPConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/MPConfigVersion.cmake
  DESTINATION ${MP_INSTALL_CMAKEDIR})
