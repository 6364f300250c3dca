# hermes-eval: `make sweep` and `make test` set everything up on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.test-installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup test-setup bytecode sweep test leaderboard boards costs bench gate benchmark benchmarks swebench swebench-dense repoeval history clean

setup: $(STAMP) bytecode

test-setup: $(TEST_STAMP) bytecode

# The project's own modules compiled, as the install compiles the libraries: where Python may not write
# bytecode (PYTHONDONTWRITEBYTECODE), every process would otherwise compile its ~300 modules from source
# at start (0.1-0.2 s, a tenth of a small run). Incremental: a compiled module whose source is unchanged
# is skipped; an edited one is compiled again here, and in memory until then (Python's own check).
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q -j 0 -x "tests/slices/" hermes_eval retrievers tests

# uv installs torch and the project about 3x faster than pip, resolving as pip does. It does not read
# pip's configuration, so it gets pip's indexes and wheel folders (pip.conf, PIP_*; first listed
# wins; this is where torch's CPU build lies: any other torch spec pulls CUDA) and pip's
# best-version rule. Bytecode is compiled here, as pip does: Python may not write it later.
define UV_INSTALL
cfg="$$($(BIN)/python -m pip config list 2>/dev/null)"; \
pick() { printf '%s\n' "$$cfg" | sed -n -E "s/^[^=]*\.$$1='(.*)'$$/\1/p" | head -n 1; }; \
export UV_INDEX_STRATEGY=unsafe-best-match; \
v="$$(pick index-url)"; [ -z "$$v" ] || export UV_INDEX_URL="$$v"; \
v="$$(pick extra-index-url)"; [ -z "$$v" ] || export UV_EXTRA_INDEX_URL="$$v"; \
v="$$(pick find-links)"; [ -z "$$v" ] || export UV_FIND_LINKS="$$(echo $$v | tr ' ' ',')"; \
$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python
endef

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==0.13.9
	$(UV_INSTALL) torch==2.13.0 -e '.[dev]' \
	  || { echo "uv failed (above); installing with pip" >&2; \
	       $(BIN)/python -m pip install --quiet torch==2.13.0 -e '.[dev]'; }
	touch $(STAMP)

# What only the tests need: the distributed launchers' extras (a real local Ray cluster, submitit)
# and the system tools of .ci/system-deps (Chromium, npm, dpkg-deb, script; apt-get as root).
$(TEST_STAMP): $(STAMP) .ci/system-deps
	bash .ci/system-deps
	$(UV_INSTALL) torch==2.13.0 -e '.[dev,ray,slurm]' \
	  || { echo "uv failed (above); installing with pip" >&2; \
	       $(BIN)/python -m pip install --quiet torch==2.13.0 -e '.[dev,ray,slurm]'; }
	touch $(TEST_STAMP)

sweep: setup
	$(BIN)/hermes-eval datasets generate
	$(BIN)/hermes-eval sweep experiment=default
	$(BIN)/hermes-eval leaderboard

# Published benchmarks (README "Benchmarks"), each one record, conf/benchmarks/NAME.yaml: `make benchmark
# NAME=cosqa` imports its variants from BENCH_DATA, runs its sweeps (GROUP=dense: its optional ones;
# VARIANTS=QUERYSET,..: some variants only) and builds its board. SWE-bench reads git mirrors under
# HERMES_MIRRORS (OWNER+NAME/repo). `hermes-eval benchmark --help` lists the records.
HERMES_MIRRORS ?= .cache/mirrors
export HERMES_MIRRORS
BENCH_DATA ?= ../shared/benchmarks
BENCHMARK = $(BIN)/hermes-eval benchmark --data $(BENCH_DATA) --mirrors $(HERMES_MIRRORS)
benchmark: setup
	$(BENCHMARK) $(NAME) $(if $(VARIANTS),--variants $(VARIANTS)) $(if $(GROUP),--group $(GROUP))

# The boards, as thin aliases. reports/benchmarks/: CoSQA and the SWE-bench Lite sample (records cosqa, swe-lite)
benchmarks: setup
	$(BENCHMARK) --board benchmarks

# reports/benchmarks/swebench/: SWE-bench Lite and Verified at full size with the published protocols
# (record swebench; issue 31); the dense arms after it (hours at function level on two cores; resumable)
swebench: setup
	$(BENCHMARK) swebench

swebench-dense: swebench
	$(BENCHMARK) swebench --group dense --steps sweep,board

# reports/benchmarks/repoeval/: RepoEval function level, CodeRAG-Bench's protocol beside ours (record repoeval)
repoeval: setup
	$(BENCHMARK) repoeval

# reports/benchmarks/history/: bug localization and history-mined sets (records bench4bl, blizzard, gandhi,
# mined, ye; issue 46), every report or commit on its own parent snapshot
history: setup
	$(BENCHMARK) --board history

leaderboard: setup
	$(BIN)/hermes-eval leaderboard

# Every board rebuilt from its committed results (each reports/**/results/, which leaderboard --runs writes;
# README "Reports"): its page, markdown, charts and query-explorer data, with the settings it was built with.
boards: setup
	@found=; for r in $$(find reports -path '*/results/board.json' | sort); do found=1; \
	  $(BIN)/hermes-eval leaderboard --from-results $$(dirname $$r) || exit 1; done; \
	[ -n "$$found" ] || echo "make boards: no board results under reports/ yet (hermes-eval leaderboard --runs DIR --out DIR writes them)"

# what the parts cost (speed, memory): reports/costs.md and costs.json; not the published boards (make benchmarks)
costs: setup
	$(BIN)/hermes-eval costs

# the old name of costs, for one release
bench:
	@echo "make bench is now make costs (reports/costs.md); bench goes next release"
	@$(MAKE) --no-print-directory costs

gate: setup
	$(BIN)/hermes-eval gate

# Every test runs: HERMES_TEST_NO_SKIP turns a skip into a failure (tests/conftest.py), since
# test-setup installed everything the tests need.
# the files that mark a test serial: collecting the whole suite again to find them cost 20 s
SERIAL_FILES = $(or $(shell grep -rlE 'mark\.serial' tests --include='test_*.py'),tests)

test: test-setup
	# dependency rules ([tool.importlinter] in pyproject.toml); a broken contract stops here
	$(BIN)/lint-imports --no-cache --no-logo
	# the tests that time nothing run on both cores, a test file per worker (the slowest 15 listed), each
	# worker's torch, BLAS and numba on one thread (two workers already fill two cores; more threads only
	# contend); a test marked serial (its verdict rests on a measured time) runs afterwards with the
	# machine to itself and every thread
	HERMES_TEST_NO_SKIP=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1 \
	  $(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not serial" --durations=15 tests
	HERMES_TEST_NO_SKIP=1 $(BIN)/python -m pytest -q -m serial $(SERIAL_FILES)

clean:
	rm -rf runs .cache reports/leaderboard.* reports/results.parquet multirun outputs
