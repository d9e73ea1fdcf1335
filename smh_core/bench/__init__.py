"""The benchmark: running tasks (runner, agents), scoring them (verifier, judge) and reporting
the results. The task format is :mod:`smh_core.task`; the suites and importers that write task
files are :mod:`smh_core.suites` and :mod:`smh_core.importers`."""
