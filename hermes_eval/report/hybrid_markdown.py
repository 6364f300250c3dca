"""The hybrid-against-BM25 answer in markdown: a section per board, and one table over every set of the
leaderboard (the cross-benchmark answer), both from report/hybrid_verdict.py."""
from __future__ import annotations

from dataclasses import replace
from typing import Collection, Mapping, Sequence

from hermes_eval.report.md_cell import md_cell
from hermes_eval.report.hybrid_verdict import Contrast, HybridVerdict


def _delta(c: Contrast) -> str:
    return f"{c.delta:+.3f} [{c.ci[0]:+.3f}, {c.ci[1]:+.3f}]"


def _row(c: Contrast, holm: bool) -> str:
    p = f"{c.p_value:.3g}" + (f" (Holm {c.p_holm:.3g})" if holm else "")
    return f"| {md_cell(c.group)} | {c.n} | {c.bm25:.3f} | {c.hybrid:.3f} | {_delta(c)} | {p} | **{c.verdict}** |"


def board_lines(v: HybridVerdict | None, labels: Mapping[str, str], stat_test: str, alpha: float) -> list[str]:
    """A board's section: the two arms, every query, then each declared stratum's groups."""
    if v is None:
        return []
    head = "| queries | n | BM25 | hybrid | hybrid − BM25 [95% CI] | p | verdict |"
    lines = ["", f"**Hybrid against BM25 on {md_cell(v.metric)}**: {md_cell(labels[v.hybrid])} against "
                 f"{md_cell(labels[v.bm25])}, queries paired (the difference's 95% BCa bootstrap CI; paired "
                 f"{md_cell(stat_test)} test, α = {alpha}; within a stratum, Holm across its groups)", "",
             head, "|:--|--:|--:|--:|--:|--:|:--|", _row(v.overall, False)]
    for name, groups in v.strata:
        lines += [_row(replace(c, group=f"{name}: {c.group}"), True) for c in groups]
    return lines


def summary_lines(verdicts: Sequence[HybridVerdict], labels: Mapping[str, str],
                  leaking: Collection[str] = ()) -> list[str]:
    """Every set's answer in one table, with its already-localized split where the set declares one
    (``leaking``: sets whose queries leak, marked as their sections are set apart)."""
    if not verdicts:
        return []
    lines = ["## Hybrid against BM25, every set", "",
             "Each set's best hybrid arm against its best BM25-only arm on the set's ranking metric, queries "
             "paired (difference with its 95% BCa CI; the verdict is the paired test's at the board's α; the "
             "sections below give each stratum's).", "",
             "| set | metric | n | BM25 | hybrid | hybrid − BM25 [95% CI] | verdict | already localized | not localized |",
             "|:--|:--|--:|--:|--:|--:|:--|--:|--:|"]
    for v in verdicts:
        split = dict(v.strata).get("localized", ())
        by = {c.group: c for c in split}
        cells = [f"{by[g].delta:+.3f} (n={by[g].n}, {by[g].verdict})" if g in by else "" for g in
                 ("already_localized", "not_localized")]
        c = v.overall
        name = md_cell(v.queryset) + (" (leaks: see its section)" if v.queryset in leaking else "")
        lines.append(f"| {name} | {md_cell(v.metric)} | {c.n} | {c.bm25:.3f} {md_cell(labels[v.bm25])} "
                     f"| {c.hybrid:.3f} {md_cell(labels[v.hybrid])} | {_delta(c)} | **{c.verdict}** | "
                     + " | ".join(cells) + " |")
    better = sum(v.overall.verdict.endswith("better") for v in verdicts)
    worse = sum(v.overall.verdict.endswith("worse") for v in verdicts)
    lines += ["", f"Hybrid is significantly better on {better} of {len(verdicts)} sets, worse on {worse}, "
                  f"and not separable from BM25 on {len(verdicts) - better - worse}.", ""]
    return lines


__all__ = ["board_lines", "summary_lines"]
