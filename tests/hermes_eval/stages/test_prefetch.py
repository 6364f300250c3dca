"""A sweep's prefetch fills the caches its arms read, and an arm run after it is the same measurement."""
from __future__ import annotations

from pathlib import Path

import hermes_eval
from hermes_eval.config.settings import settings_from
from hermes_eval.record.sameness import runs_diffs
from hermes_eval.stages.prefetch import pending, prefetch

FUNCS = 12


def small_corpus(root: Path) -> Path:
    """Twelve documented functions in three real-looking modules (written here, no licence needed)."""
    root.mkdir()
    for m in range(3):
        body = "\n\n".join(
            f"def step_{m}_{i}(values, factor={i + 1}):\n"
            f'    """Scale every value of module {m} by factor {i} and drop the negative results."""\n'
            f"    scaled = [v * factor for v in values]\n    return [v for v in scaled if v >= 0]\n"
            for i in range(FUNCS // 3))
        (root / f"mod{m}.py").write_text(body + "\n")
    return root


def arm(tmp: Path, weight: str):
    """Settings with relative runs and cache folders (the recorded config holds paths): run from two
    folders, the two records are comparable."""
    from hermes_eval.config.compose import compose

    return settings_from(compose([
        f"corpus.sources=[{tmp / 'src'}]", "corpus.name=tiny", "queryset.name=tiny-docstring", "chunker=lines",
        f"fusion.dense_weight={weight}", "bootstrap=20", "warmup=1", "paths.runs=runs", "paths.cache=.cache",
        f"paths.datasets={tmp / 'ds'}"]))


def test_an_arm_after_prefetch_reads_the_caches_and_measures_the_same(tmp_path, monkeypatch):
    small_corpus(tmp_path / "src")
    (tmp_path / "warm").mkdir()
    monkeypatch.chdir(tmp_path / "warm")
    hybrid, bm25 = arm(tmp_path, "0.5"), arm(tmp_path, "0.0")
    prefetch([hybrid, bm25])
    out = hermes_eval.run(hybrid)
    assert out.status == "ok", out.record.get("error")
    sources = {e["kind"]: e["source"] for e in out.record["cache"] if e["kind"] in ("chunks", "leaks")}
    assert sources == {"chunks": "cache", "leaks": "cache"}
    assert out.record["embeddings"]["computed"] == 0
    assert out.record["embeddings"]["cached"] == out.record["chunks"]["count"] > 0
    assert pending([hybrid, bm25]) == [bm25]  # a finished arm is not prefetched again

    (tmp_path / "cold").mkdir()
    monkeypatch.chdir(tmp_path / "cold")  # the same arm without prefetch, from empty caches
    assert hermes_eval.run(arm(tmp_path, "0.5")).record["embeddings"]["computed"] > 0
    assert runs_diffs(tmp_path / "warm" / "runs", tmp_path / "cold" / "runs") == (1, [])
