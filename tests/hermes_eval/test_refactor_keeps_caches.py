"""A pure refactor keeps every cache hit; a change in what a part outputs does not.

A copy of this tree runs one real hybrid arm (python_ast chunks, rank_bm25 over the code tokenizer,
MiniLM vectors, token statistics) with a fresh chunk/index cache. Then the copy is refactored the way a
person would: the chunker's module is moved (``git mv``-style, every import and preset updated), a
private method of it and one of the tokenizer are renamed. The same arm run again finds every chunk
list, index and token statistic in the cache, with the same config hash and metrics. Finally the
planted chunker bug goes in (definitions cut after three lines): the chunks are computed afresh and the metrics move.

Resume, on the first run's warm ``runs/``: after the refactor the arm is reused (its parts' identities are
the same); after the planted bug it runs again and says why; with the bug taken out and the chunker's
version bumped instead, it runs again and names the bump.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import EMBEDDING_CACHE

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.long


def _copy_tree(dest: Path) -> Path:
    for part in ("hermes_eval", "retrievers", "conf"):
        shutil.copytree(ROOT / part, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _run(tree: Path, tmp: Path, tag: str) -> dict:
    return _invoke(tree, tmp, tag)[0]


def _invoke(tree: Path, tmp: Path, tag: str) -> tuple[dict, str]:
    """(the record of the arm run with runs folder ``tag``, the line the run printed)."""
    EMBEDDING_CACHE.mkdir(parents=True, exist_ok=True)
    overrides = [f"paths.runs={tmp / 'runs' / tag}", f"paths.datasets={tmp / 'datasets'}",
                 f"paths.cache={tmp / 'cache'}", f"embedder.cache_dir={EMBEDDING_CACHE}",
                 "corpus.name=requests_src", "corpus.sources=[pkg:requests]", "queryset.generator.max_queries=30",
                 "bootstrap=50", "warmup=1", "chunker=python_ast", "retriever=hybrid"]
    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    proc = subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", "run", *overrides], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("["))
    return json.loads(next((tmp / "runs" / tag).rglob("record.json")).read_text()), line


def _replace_everywhere(tree: Path, old: str, new: str) -> int:
    """``old`` -> ``new`` as a whole word in every source and preset of the tree, but not in a part's
    declared name (``@declare("...")``: frozen, README "Identity"); the files changed."""
    pattern, changed = re.compile(rf"\b{re.escape(old)}\b"), 0
    for path in [*tree.rglob("*.py"), *tree.rglob("*.yaml")]:
        lines = path.read_text().split("\n")
        new_lines = [ln if ln.lstrip().startswith("@declare(") else pattern.sub(new, ln) for ln in lines]
        if new_lines != lines:
            path.write_text("\n".join(new_lines))
            changed += 1
    return changed


def _sources(record: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for event in record["cache"]:
        out.setdefault(event["kind"], []).append(event["source"])
    return out


def test_a_refactor_keeps_every_cache_hit_and_a_behaviour_change_does_not(tmp_path):
    tree = _copy_tree(tmp_path / "tree")
    first = _run(tree, tmp_path, "first")  # computes every chunk list, index and token statistic

    chunkers = tree / "retrievers" / "chunkers"
    (chunkers / "python_ast.py").rename(chunkers / "python_definitions.py")
    # its preset is the one place naming the module (chunkers/coverage.py asks a chunker for its languages)
    assert _replace_everywhere(tree, "retrievers.chunkers.python_ast", "retrievers.chunkers.python_definitions") >= 1
    assert _replace_everywhere(tree, "_definition", "_definition_span") >= 1  # a private method of the chunker
    assert _replace_everywhere(tree, "_table", "_translation_table") >= 1  # one of the code tokenizer
    moved = _run(tree, tmp_path, "moved")

    assert moved["config_hash"] == first["config_hash"]
    assert {k: v["mean"] for k, v in moved["metrics"].items()} == {k: v["mean"] for k, v in first["metrics"].items()}
    before, after = _sources(first), _sources(moved)
    print(f"cache events, first run (before the refactor): {before}; after it: {after}")
    # every key the first run computed, looked up again in the same order, and each one a hit
    assert [e["key"] for e in moved["cache"]] == [e["key"] for e in first["cache"]]
    assert all(s != "computed" for sources in after.values() for s in sources), after
    assert after.keys() == before.keys() and {"chunks", "index", "token-stats"} <= after.keys()
    assert moved["embeddings"]["computed"] == 0
    _, line = _invoke(tree, tmp_path, "first")  # the warm runs/ of before the refactor
    assert line.startswith("[skip]"), line

    target = chunkers / "python_definitions.py"  # the planted bug: definitions cut after three lines
    text = target.read_text()
    old = "start, end = definition_start(node), node.end_lineno"
    assert text.count(old) == 1
    target.write_text(text.replace(old, "start, end = definition_start(node), min(node.end_lineno, "
                                        "definition_start(node) + 2)"))
    # the first run's warm runs/ again: the arm runs again and says why, and that run is the planted code's own,
    # chunks computed afresh under keys of their own (one run where a fresh runs/ folder and then the warm one
    # took two: the same arm, so the same chunks, keys and metrics either way)
    planted, line = _invoke(tree, tmp_path, "first")
    assert line.startswith("[rerun]") and "(chunker python_ast: output on the probe changed (version still 1))" in line
    chunk_events = [e for e in planted["cache"] if e["kind"] == "chunks"]
    assert chunk_events and all(e["source"] == "computed" for e in chunk_events)
    assert {e["key"] for e in chunk_events}.isdisjoint(e["key"] for e in moved["cache"])
    assert planted["metrics"]["ndcg@10"]["mean"] != moved["metrics"]["ndcg@10"]["mean"]

    target.write_text(text)  # the bug out; a deliberate change declared by its version instead
    declared = '@declare("retrievers.chunkers.python_ast.PythonASTChunker")'
    assert text.count(declared) == 1
    target.write_text(text.replace(declared, declared[:-1] + ", version=2)"))
    bumped, line = _invoke(tree, tmp_path, "moved")  # the refactored tree's warm runs/
    assert line.startswith("[rerun]") and "(chunker python_ast 1→2)" in line, line
    assert bumped["config_hash"] == moved["config_hash"]
    assert bumped["metrics"]["ndcg@10"]["mean"] == moved["metrics"]["ndcg@10"]["mean"]
