"""The benchmark: task format, verifier, suites, runner and reports."""
