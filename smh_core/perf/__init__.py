"""Performance measurements behind ``smh perf``; figures go into docs/performance.md."""
