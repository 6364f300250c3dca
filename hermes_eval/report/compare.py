"""Significance of every arm against a board's baseline: paired per-query tests, Holm per metric."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hermes_eval.report.runfiles import FILE_PREFIX, RunFiles
from hermes_eval.report.settings import ReportSettings
from hermes_eval.stats import PairedTest, holm, ranx_compare, vector_test

RANX_NAMES = re.compile(r"^(recall|ndcg|mrr|precision|map|hit_rate|r-precision)(@\d+)?$")
BETTER, WORSE, SAME, NOT_COMPARABLE = "better", "worse", "ns", "na"
MARKS = {BETTER: "▲", WORSE: "▼", SAME: "", NOT_COMPARABLE: ""}


@dataclass(frozen=True)
class Mark:
    """The outcome for one (arm, metric) against the baseline."""

    verdict: str  # better / worse / ns / na / baseline
    p_value: float | None = None
    p_holm: float | None = None
    delta: float | None = None
    method: str = ""
    note: str = ""

    @property
    def symbol(self) -> str:
        return MARKS.get(self.verdict, "")

    @property
    def title(self) -> str:
        """Hover text explaining the mark."""
        if self.verdict == "baseline":
            return "baseline arm"
        if self.verdict == NOT_COMPARABLE:
            return self.note
        return (f"Δ={self.delta:+.4f} vs baseline; p={self.p_value:.3g}, Holm p={self.p_holm:.3g} "
                f"({self.method})")


def ranx_level(metric: str) -> tuple[str, str] | None:
    """(level, ranx name) when ranx can compute ``metric`` from the TREC files, else None."""
    level, name = ("file", metric[len(FILE_PREFIX):]) if metric.startswith(FILE_PREFIX) else ("chunk", metric)
    return (level, name) if RANX_NAMES.match(name) else None


def same_chunking(rec_a: dict, rec_b: dict) -> bool:
    """Chunk-level qrels are identical only when the chunker config is."""
    return (rec_a.get("config") or {}).get("chunker") == (rec_b.get("config") or {}).get("chunker")


def paired(base: RunFiles, arm: RunFiles, metric: str, s: ReportSettings) -> PairedTest | None:
    """ranx.compare on the TREC files when every query is judged, else ranx's test on per-query values."""
    a, b = base.values(metric), arm.values(metric)
    common = a.index.intersection(b.index)
    if common.empty:
        return None
    lv = ranx_level(metric)
    if lv is not None and len(common) == len(a) == len(b):
        level, name = lv
        qrels = base.file_qrels if level == "file" else base.qrels
        ra, rb = ((base.file_rankings, arm.file_rankings) if level == "file" else (base.rankings, arm.rankings))
        if qrels and all(qrels.get(q) for q in common):
            res = ranx_compare({q: qrels[q] for q in common}, ra, rb, name, s.stat_test, s.n_permutations)
            if np.isclose(res.mean_a, a.mean(), atol=1e-6) and np.isclose(res.mean_b, b.mean(), atol=1e-6):
                return PairedTest(metric, res.mean_a, res.mean_b, res.p_value, res.n, res.method)
    return vector_test(metric, a.loc[common].to_numpy(), b.loc[common].to_numpy(), s.stat_test,
                       s.n_permutations)


def board_marks(rows, records: dict[str, dict], metrics: tuple[str, ...], baseline: str,
                s: ReportSettings) -> dict[tuple[str, str], Mark]:
    """(config hash, metric) -> Mark for every row; Holm across the grid, one family per metric."""
    base_rec = records[baseline]
    base_files = RunFiles(Path(base_rec["_dir"]))
    files = {h: RunFiles(Path(records[h]["_dir"])) for h in rows["config_hash"]}
    out: dict[tuple[str, str], Mark] = {}
    for metric in metrics:
        tests: list[tuple[str, PairedTest]] = []
        for h in rows["config_hash"]:
            if h == baseline:
                out[(h, metric)] = Mark("baseline")
                continue
            chunk_level = not metric.startswith(FILE_PREFIX) and ranx_level(metric) is not None
            if chunk_level and not same_chunking(base_rec, records[h]):
                out[(h, metric)] = Mark(NOT_COMPARABLE, note="different chunking: chunk-level scores are "
                                                            "not comparable; see the file-level columns")
                continue
            res = paired(base_files, files[h], metric, s) if files[h].exists() and base_files.exists() else None
            if res is None:
                out[(h, metric)] = Mark(NOT_COMPARABLE, note="no per-query results to pair")
            else:
                tests.append((h, res))
        for (h, res), p_adj in zip(tests, holm([t.p_value for _, t in tests])):
            verdict = SAME if p_adj >= s.alpha or res.delta == 0 else (BETTER if res.delta > 0 else WORSE)
            out[(h, metric)] = Mark(verdict, res.p_value, p_adj, res.delta, res.method)
    return out
