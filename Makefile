# SMH — two set-up-free entry points: `make bench` and `make test`.
# Both bootstrap the toolchain (Python 3.13, .venv, pinned deps) on first use; see scripts/bootstrap.sh.
.DEFAULT_GOAL := help
VENV   := .venv
PY     := $(VENV)/bin/python
SMH    := $(VENV)/bin/smh
BENCH_OUT ?= runs/bench

.PHONY: help bootstrap test lint bench perf clean

help:
	@echo "make bench   run the benchmark on the embedded simulator and print the summary"
	@echo "make test    bootstrap everything, lint, run the whole test suite"
	@echo "make perf    measure engine speed (smh perf engine)"

bootstrap:
	@bash scripts/bootstrap.sh

lint: bootstrap
	$(VENV)/bin/ruff check .

test: bootstrap lint
	$(PY) -m pytest -q

bench: bootstrap
	$(SMH) bench --out $(BENCH_OUT)

perf: bootstrap
	$(SMH) perf engine

clean:
	rm -rf $(VENV) runs
