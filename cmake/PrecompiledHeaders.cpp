//===- PrecompiledHeaders.cpp - Builds cmake/PrecompiledHeaders.h ---------===//
//
// The source of the target that precompiles the header
// (cmake/PrecompiledHeaders.cmake); it defines nothing.
//
//===----------------------------------------------------------------------===//
