//===- Errors.h - mp-run's error convention ---------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Every step of mp-run returns llvm::Error or llvm::Expected. main() prints
// a failure once, as "mp-run: error: MESSAGE", except one already reported
// through MLIR's diagnostics (ReportedError), and exits with 1.
//
//===----------------------------------------------------------------------===//

#ifndef MP_TOOLS_MPRUN_ERRORS_H
#define MP_TOOLS_MPRUN_ERRORS_H

#include "mp/Runtime/mp_runtime.h"

#include "llvm/Support/Error.h"

namespace mp_run {

/// A failure whose diagnostics MLIR has printed already.
class ReportedError : public llvm::ErrorInfo<ReportedError> {
public:
  static char ID;
  void log(llvm::raw_ostream &os) const override {
    os << "see the diagnostics above";
  }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
};

inline llvm::Error reported() { return llvm::make_error<ReportedError>(); }

/// Training stopped by SIGINT or SIGTERM after writing what was asked:
/// mp-run exits with 130, as a shell reports an interrupted command.
class InterruptedError : public llvm::ErrorInfo<InterruptedError> {
public:
  static char ID;
  explicit InterruptedError(int64_t steps) : steps(steps) {}
  void log(llvm::raw_ostream &os) const override {
    os << "interrupted after step " << steps;
  }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  int64_t steps;
};

/// An error with `message`.
inline llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(message);
}

/// The runtime's last error, after "`context`: " when given.
inline llvm::Error runtimeError(const llvm::Twine &context = "") {
  return context.isTriviallyEmpty() ? error(mp_last_error())
                                    : error(context + ": " + mp_last_error());
}

} // namespace mp_run

#endif // MP_TOOLS_MPRUN_ERRORS_H
