# hermes-eval: `make sweep` and `make test` set everything up on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup sweep test leaderboard bench gate benchmarks clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# The CPU build of torch comes from a local file; any other torch spec pulls CUDA. One pip run
	# resolves torch and the project together (one resolver start instead of two).
	$(BIN)/python -m pip install --quiet torch==2.13.0 -e '.[dev]'
	touch $(STAMP)

sweep: setup
	$(BIN)/hermes-eval datasets generate
	$(BIN)/hermes-eval sweep experiment=default
	$(BIN)/hermes-eval leaderboard

# Published benchmarks (README "Benchmarks"): CoSQA from ../shared/benchmarks, SWE-bench Lite on the
# repositories mirrored under HERMES_MIRRORS (OWNER+NAME/repo); writes reports/benchmarks/.
HERMES_MIRRORS ?= /work/.mirror
export HERMES_MIRRORS
BENCH_DATA ?= ../shared/benchmarks
benchmarks: setup
	$(BIN)/hermes-eval datasets import cosqa $(BENCH_DATA)/cosqa name=cosqa-test
	$(BIN)/hermes-eval datasets import cosqa $(BENCH_DATA)/cosqa ids=pairs name=cosqa-test-pairs
	$(BIN)/hermes-eval datasets import swebench $(BENCH_DATA)/swe-bench/lite.json --repos $(HERMES_MIRRORS) \
		limit=6 name=swe-lite
	$(BIN)/hermes-eval sweep experiment=benchmarks paths.runs=runs/benchmarks hydra.launcher.n_jobs=1
	$(BIN)/hermes-eval leaderboard --runs runs/benchmarks --out reports/benchmarks --anchors benchmarks

leaderboard: setup
	$(BIN)/hermes-eval leaderboard

bench: setup
	$(BIN)/hermes-eval bench

gate: setup
	$(BIN)/hermes-eval gate

test: setup
	# dependency rules ([tool.importlinter] in pyproject.toml); a broken contract stops here
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/python -m pytest -q tests

clean:
	rm -rf runs .cache reports/leaderboard.* reports/results.parquet multirun outputs
