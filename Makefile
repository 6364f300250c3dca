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

.PHONY: setup test-setup sweep test leaderboard bench gate benchmarks swebench swebench-dense repoeval clean

setup: $(STAMP)

test-setup: $(TEST_STAMP)

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

# Published benchmarks (README "Benchmarks"): CoSQA from ../shared/benchmarks, SWE-bench Lite on the
# repositories mirrored under HERMES_MIRRORS (OWNER+NAME/repo); writes reports/benchmarks/.
HERMES_MIRRORS ?= .cache/mirrors
export HERMES_MIRRORS
BENCH_DATA ?= ../shared/benchmarks
benchmarks: setup
	$(BIN)/hermes-eval datasets import cosqa $(BENCH_DATA)/cosqa name=cosqa-test
	$(BIN)/hermes-eval datasets import cosqa $(BENCH_DATA)/cosqa ids=pairs name=cosqa-test-pairs
	$(BIN)/hermes-eval datasets import swebench $(BENCH_DATA)/swe-bench/lite.json --repos $(HERMES_MIRRORS) \
		repos=psf/requests,pallets/flask,pytest-dev/pytest limit=6 name=swe-lite
	$(BIN)/hermes-eval sweep experiment=benchmarks paths.runs=runs/benchmarks hydra.launcher.n_jobs=1
	$(BIN)/hermes-eval leaderboard --runs runs/benchmarks --out reports/benchmarks --anchors benchmarks

# SWE-bench Lite and Verified at full size (README "Benchmarks", issue 31): every instance whose repository
# is mirrored under HERMES_MIRRORS, in its own base_commit snapshot, and the others (django, matplotlib,
# scikit-learn) on the nearest release their golden patch applies to exactly (wheels from the package
# index), a set of their own; ours (every file) at file and function level, and LocAgent's,
# CodeRAG-Bench's and MTEB's protocols; writes reports/benchmarks/swebench/.
SWE = $(BENCH_DATA)/swe-bench
SWE_IMPORT = $(BIN)/hermes-eval datasets import swebench
swebench: setup
	$(SWE_IMPORT) $(SWE)/lite.json --repos $(HERMES_MIRRORS) name=swebench-lite
	$(SWE_IMPORT) $(SWE)/verified.json --repos $(HERMES_MIRRORS) name=swebench-verified
	$(SWE_IMPORT) $(SWE)/lite.json --repos $(HERMES_MIRRORS) subset=locagent274 protocol=locagent name=swebench-lite-locagent
	$(SWE_IMPORT) $(SWE)/lite.json --repos $(HERMES_MIRRORS) protocol=coderag-bench name=swebench-lite-coderag
	$(SWE_IMPORT) $(SWE)/verified.json --repos $(HERMES_MIRRORS) protocol=mteb name=swebench-verified-mteb
	$(SWE_IMPORT) $(SWE)/lite.json --repos $(HERMES_MIRRORS) releases=true name=swebench-lite-releases
	$(SWE_IMPORT) $(SWE)/verified.json --repos $(HERMES_MIRRORS) releases=true name=swebench-verified-releases
	$(SWE_IMPORT) $(SWE)/lite.json --repos $(HERMES_MIRRORS) releases=true subset=locagent274 protocol=locagent \
		name=swebench-lite-locagent-releases
	$(SWE_IMPORT) $(SWE)/lite.json --repos $(HERMES_MIRRORS) releases=true protocol=coderag-bench \
		name=swebench-lite-coderag-releases
	$(BIN)/hermes-eval sweep experiment=swebench paths.runs=runs/swebench
	$(BIN)/hermes-eval sweep experiment=swebench_protocols paths.runs=runs/swebench
	$(BIN)/hermes-eval leaderboard --runs runs/swebench --out reports/benchmarks/swebench --anchors swebench

# the dense arms of the same boards: whole files (about half an hour here), then functions (~150k distinct
# function texts: hours on two cores; resumable, every text embedded once)
swebench-dense: swebench
	$(BIN)/hermes-eval sweep experiment=swebench_dense paths.runs=runs/swebench hydra.launcher.n_jobs=1
	$(BIN)/hermes-eval sweep experiment=swebench_dense_mteb paths.runs=runs/swebench
	$(BIN)/hermes-eval sweep experiment=swebench_dense_functions paths.runs=runs/swebench hydra.launcher.n_jobs=1
	$(BIN)/hermes-eval leaderboard --runs runs/swebench --out reports/benchmarks/swebench --anchors swebench

# RepoEval function level (README "Benchmarks"): CodeRAG-Bench's protocol beside ours on its six
# repositories; writes reports/benchmarks/repoeval/.
REPOEVAL = $(BENCH_DATA)/repoeval
REPOEVAL_SIX = amazon-science_patchcore-inspection,deepmind_tracr,facebookresearch_omnivore,google_lightweight_mmm,lucidrains_imagen-pytorch,maxhumber_redframes
repoeval: setup
	$(BIN)/hermes-eval datasets import repoeval $(REPOEVAL)/function_level_completion_2k_context_codex.test.jsonl \
		$(REPOEVAL)/repositories/function_level protocol=coderag-bench name=repoeval-coderag
	$(BIN)/hermes-eval datasets import repoeval $(REPOEVAL)/function_level_completion_2k_context_codex.test.jsonl \
		$(REPOEVAL)/repositories/function_level repos=$(REPOEVAL_SIX) context_lines=none name=repoeval-masked
	$(BIN)/hermes-eval datasets import repoeval $(REPOEVAL)/function_level_completion_2k_context_codex.test.jsonl \
		$(REPOEVAL)/repositories/function_level repos=$(REPOEVAL_SIX) context_lines=20 name=repoeval-last20
	HERMES_BENCH_DATA=$(BENCH_DATA) $(BIN)/hermes-eval sweep experiment=repoeval paths.runs=runs/repoeval \
		hydra.launcher.n_jobs=1
	$(BIN)/hermes-eval leaderboard --runs runs/repoeval --out reports/benchmarks/repoeval --anchors repoeval

leaderboard: setup
	$(BIN)/hermes-eval leaderboard

bench: setup
	$(BIN)/hermes-eval bench

gate: setup
	$(BIN)/hermes-eval gate

# Every test runs: HERMES_TEST_NO_SKIP turns a skip into a failure (tests/conftest.py), since
# test-setup installed everything the tests need.
test: test-setup
	# dependency rules ([tool.importlinter] in pyproject.toml); a broken contract stops here
	$(BIN)/lint-imports --no-cache --no-logo
	# the tests that time nothing run on both cores, a test file per worker (the slowest 15 listed); a test
	# marked serial (its verdict rests on a measured time) runs afterwards with the machine to itself
	HERMES_TEST_NO_SKIP=1 $(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not serial" --durations=15 tests
	HERMES_TEST_NO_SKIP=1 $(BIN)/python -m pytest -q -m serial tests

clean:
	rm -rf runs .cache reports/leaderboard.* reports/results.parquet multirun outputs
