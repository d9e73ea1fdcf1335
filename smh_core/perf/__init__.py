"""Performance measurements behind ``smh perf``; figures go into the README."""
