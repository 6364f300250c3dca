"""Shared fixtures: a small real corpus (the installed `requests` source) and config helpers."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parents[1]


# `make test` (-n 2 --dist loadfile) hands its two workers whole files, and the files of a group below as
# one unit: work a session does once, and which two processes would each do (or one would wait for), stays
# in one process. Biggest first (see pytest_collection_modifyitems).
GROUPS = {
    # ranx's numba kernels, compiled on first use: to numba's cache (cold in a fresh venv: minutes in all)
    # and, for its typed lists, in every process. On two workers at once both compiled the same kernels.
    "ranx": ("tests/retrievers/fusion/test_ranx_methods.py", "tests/retrievers/fusion/test_fusion_protocol.py",
             "tests/hermes_eval/report/test_paired_tests.py", "tests/hermes_eval/report/test_board_run.py",
             "tests/hermes_eval/judge/test_significance.py", "tests/hermes_eval/judge/test_ranking.py",
             "tests/hermes_eval/judge/measures/test_ranx_parity.py", "tests/hermes_eval/stages/test_tuning.py",
             "tests/hermes_eval/judge/test_average_precision.py", "tests/retrievers/fusion/test_fixed_width_ids.py",
             "tests/retrievers/fusion/test_condorcet_order.py"),
    # the backend corpus's MiniLM vectors (tests/retrievers/conftest.py), a minute on a fresh clone, under
    # a lock the other worker would wait on
    "backend-vectors": ("tests/retrievers/test_backend_protocol.py", "tests/retrievers/dense/test_ann_recall.py",
                        "tests/retrievers/dense/test_usearch_view.py", "tests/retrievers/dense/test_sqlite_vec_deep.py"),
    # the models derived from MiniLM, built once into .cache/models under a lock (derived_embedders)
    "derived-models": ("tests/retrievers/embedders/test_embedder_protocol.py",
                       "tests/retrievers/embedders/test_derived_models.py",
                       "tests/retrievers/embedders/test_derived_embedders.py"),
}


def group_of(nodeid: str) -> str | None:
    path = nodeid.split("::", 1)[0]
    return next((g for g, files in GROUPS.items() if path in files), None)


def pytest_collection_modifyitems(config, items) -> None:
    """The groups first (in GROUPS order), then files marked ``long``, then the rest (stable otherwise):
    `make test` hands units to its two workers in this order, and a long one started last would leave one
    worker idle while the other finishes it."""
    rank = {g: i for i, g in enumerate(GROUPS)}

    def key(item) -> int:
        group = group_of(item.nodeid)
        if group is not None:
            return rank[group]
        return len(rank) + (item.get_closest_marker("long") is None)

    items.sort(key=key)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile with GROUPS, in collection order: xdist's own loadfile sorts files by their number of
    tests, which put a one-test file of minutes (the refactor test) at the very end."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class GroupedFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            group = group_of(nodeid)
            return f"group:{group}" if group else super()._split_scope(nodeid)

    config.option.loadscopereorder = False
    return GroupedFiles(config, log)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under `make test` (HERMES_TEST_NO_SKIP=1, after it installed every tool and extra) a skip is a
    failure: a missing feature must not hide behind a skipped test."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("HERMES_TEST_NO_SKIP") == "1" and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped under make test, which installs everything the tests need: {reason}"


# Document vectors persist across sessions: the embedding cache is keyed by the model's content
# hash (plus max_seq_length, normalize, the embedder wrapper's code and library versions) and the
# sha256 of each text, and every row is checksummed, so a warm entry is always the vector this code
# would compute. Chunk and index caches stay per session (shared_cache below) so that the build paths
# are exercised on every run; their keys hold part identity too (retrievers.identity).
EMBEDDING_CACHE = ROOT / ".cache" / "test-embeddings"


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory) -> Path:
    """One chunk and index cache for the whole test session (embeddings: EMBEDDING_CACHE)."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def embedding_cache() -> Path:
    """The persistent MiniLM document-vector cache (see EMBEDDING_CACHE)."""
    EMBEDDING_CACHE.mkdir(parents=True, exist_ok=True)
    return EMBEDDING_CACHE


@pytest.fixture
def make_cfg(tmp_path, shared_cache, embedding_cache):
    """Compose the real Hydra config with test paths and a small real corpus. The embedder's
    cache is the persistent ``embedding_cache`` unless ``persistent_embeddings=False`` (then it is
    the preset's own ``${paths.cache}``)."""
    from hermes_eval.config.compose import compose

    def _make(*overrides: str, runs: Path | None = None, datasets: Path | None = None,
              persistent_embeddings: bool = True):
        base = [f"paths.runs={runs or tmp_path / 'runs'}", f"paths.datasets={datasets or tmp_path / 'datasets'}",
                f"paths.cache={shared_cache}", "corpus.name=requests_src", "corpus.sources=[pkg:requests]",
                "queryset.generator.max_queries=40", "bootstrap=200", "warmup=2"]
        if persistent_embeddings:
            base.append(f"embedder.cache_dir={embedding_cache}")
        return compose(base + list(overrides))

    return _make
