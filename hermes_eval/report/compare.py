"""Significance of every arm against a board's baseline: paired per-query tests, Holm per metric."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

import numpy as np

from hermes_eval.core.metrics import REGISTRY
from hermes_eval.record.folder import RunFiles
from hermes_eval.report.options import ReportSettings
from hermes_eval.judge.ranking import per_query
from hermes_eval.judge.significance import PairedTest, holm, ranx_compare_values, vector_test

if TYPE_CHECKING:
    from hermes_eval.report.board_run import BoardRun

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
    m = REGISTRY.get(metric)
    return (m.level, m.ranx) if m is not None and m.ranx is not None else None


def chunk_level(metric: str) -> bool:
    """A registered metric that only compares runs with the same chunking."""
    m = REGISTRY.get(metric)
    return m is not None and not m.chunking_fair


def same_chunking(rec_a: dict, rec_b: dict) -> bool:
    """Chunk-level qrels are identical only when the chunker config is."""
    return (rec_a.get("config") or {}).get("chunker") == (rec_b.get("config") or {}).get("chunker")


def ranx_scores(run: "RunFiles | BoardRun", level: str, qrels: Mapping[str, Mapping[str, int]],
                metrics: list[tuple[str, str]], qids: list[str]) -> dict[str, np.ndarray]:
    """metric -> the per-query scores ranx gives ``run``'s ``level`` rankings against ``qrels`` on ``qids``
    (``metrics``: (metric, ranx name) pairs): the run's own per-query values where its qrels are ``qrels``
    (ranx's kernels computed them), re-scored by ranx's kernels (``judge.measures``) where they are not. A
    values-only run (board_run.values_only) kept no qrels to check nor rankings to re-score: its values are
    taken as they are, scored on the same query set's qrels."""
    own = run.file_qrels if level == "file" else run.qrels
    kept = not getattr(run, "values_only", False)
    moved = [i for i, q in enumerate(qids) if kept and own.get(q) != qrels[q]]
    fresh: dict[str, dict[str, float]] = {}
    if moved:
        rankings = run.file_rankings if level == "file" else run.rankings
        fresh = per_query({qids[i]: qrels[qids[i]] for i in moved}, rankings, [n for _, n in metrics])
    out: dict[str, np.ndarray] = {}
    for m, name in metrics:
        scores = run.values(m).loc[qids].to_numpy(dtype=np.float64, copy=True)
        for i in moved:
            scores[i] = fresh[name][qids[i]]
        out[m] = scores
    return out


def paired_tests(base: "RunFiles | BoardRun", arm: "RunFiles | BoardRun", metrics: list[str],
                 s: ReportSettings) -> dict[str, PairedTest]:
    """What ``ranx.compare`` reports on the base's qrels, per relevance level, when every query is judged
    (its means must equal the per-query values'), without its Run and Qrels (:func:`ranx_scores`,
    ``ranx_compare_values``); ranx's own test on per-query values for everything else."""
    values = {m: (base.values(m), arm.values(m)) for m in metrics}
    out: dict[str, PairedTest] = {}
    by_level: dict[str, list[tuple[str, str]]] = {}
    for m in metrics:
        lv = ranx_level(m)
        if lv is not None and not (values[m][0].empty or values[m][1].empty):  # a values-only run keeps a few
            by_level.setdefault(lv[0], []).append((m, lv[1]))
    for level, pairs in by_level.items():
        a, b = values[pairs[0][0]]
        qrels = base.file_qrels if level == "file" else base.qrels
        if (a.empty or not (a.index.is_unique and b.index.is_unique) or set(a.index) != set(b.index)
                or not all(qrels.get(q) for q in a.index)):
            continue
        qids = sorted(a.index)  # the order ranx.compare scores the queries in
        sa, sb = ranx_scores(base, level, qrels, pairs, qids), ranx_scores(arm, level, qrels, pairs, qids)
        for m, _ in pairs:
            va, vb = values[m]
            if np.isclose(sa[m].mean(), va.mean(), atol=1e-6) and np.isclose(sb[m].mean(), vb.mean(), atol=1e-6):
                out[m] = ranx_compare_values(m, sa[m], sb[m], s.stat_test, s.n_permutations)
    for m in metrics:
        va, vb = values[m]
        common = va.index.intersection(vb.index)
        if m not in out and not common.empty:
            out[m] = vector_test(m, va.loc[common].to_numpy(), vb.loc[common].to_numpy(), s.stat_test,
                                 s.n_permutations)
    return out


def paired(base: RunFiles, arm: RunFiles, metric: str, s: ReportSettings) -> PairedTest | None:
    """The paired test of one metric (None when the runs share no query)."""
    return paired_tests(base, arm, [metric], s).get(metric)


def board_marks(rows, records: dict[str, dict], files: Mapping[str, "BoardRun"], metrics: tuple[str, ...],
                baseline: str, s: ReportSettings) -> dict[tuple[str, str], Mark]:
    """(config hash, metric) -> Mark for every row; Holm across the grid, one family per metric
    (``files``: config hash -> what the board reads of the run)."""
    base_rec = records[baseline]
    base_files = files[baseline]
    out: dict[tuple[str, str], Mark] = {}
    tests: dict[str, list[tuple[str, PairedTest]]] = {m: [] for m in metrics}
    for h in rows["config_hash"]:
        if h == baseline:
            out.update({(h, m): Mark("baseline") for m in metrics})
            continue
        wanted = []
        for m in metrics:
            if chunk_level(m) and not same_chunking(base_rec, records[h]):
                out[(h, m)] = Mark(NOT_COMPARABLE, note="different chunking: chunk-level scores are "
                                                        "not comparable; see the file-level columns")
            else:
                wanted.append(m)
        arm = files[h]
        found = paired_tests(base_files, arm, wanted, s) if arm.exists() and base_files.exists() else {}
        for m in wanted:
            if m in found:
                tests[m].append((h, found[m]))
            else:
                out[(h, m)] = Mark(NOT_COMPARABLE, note="no per-query results to pair")
    for m, family in tests.items():
        for (h, res), p_adj in zip(family, holm([t.p_value for _, t in family])):
            verdict = SAME if p_adj >= s.alpha or res.delta == 0 else (BETTER if res.delta > 0 else WORSE)
            out[(h, m)] = Mark(verdict, res.p_value, p_adj, res.delta, res.method)
    return out
