"""Counts checks of the test scripts and prints the closing line lit and CI
read: 'N passed, N failed'."""


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def record(self, ok, line=None):
        """Counts one check and prints `line` unless it is None."""
        if line is not None:
            print(line)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        return ok

    def finish(self):
        """Prints the closing line; returns the process exit status."""
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
