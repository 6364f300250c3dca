"""``hermes-eval compare`` as markdown: the effect overall and per stratum, misses by cause, and the
queries that differ most each way with both arms' top results."""
from __future__ import annotations

from pathlib import Path

from hermes_eval.report.head_to_head import (CAUSES, PAST_BUDGET, STRATA, Arm, Effect, by_stratum, check_comparable,
                                             effect, first_gold_rank, load_arm, miss_causes, paired_frame,
                                             stratum_column)
from hermes_eval.report.markdown import md_cell

SHOWN_RESULTS = 5
QUERY_CHARS = 160


def _effect_row(e: Effect) -> str:
    return (f"| {md_cell(e.group)} | {e.n} | {e.mean_a:.4f} | {e.mean_b:.4f} | {e.delta:+.4f} "
            f"[{e.ci[0]:+.4f}, {e.ci[1]:+.4f}] | {e.p:.3g} | {e.b_wins} | {e.a_wins} | {e.ties} |")


def _effects(title: str, effects: list[Effect]) -> list[str]:
    head = ["| group | queries | A | B | B − A [95% CI] | p | B better | A better | tied |",
            "|:--|--:|--:|--:|:--|--:|--:|--:|--:|"]
    return [title, "", *head, *(_effect_row(e) for e in effects), ""]


def _results(arm: Arm, qid: str) -> str:
    rels = arm.relevant(qid)
    top = arm.files.rankings.get(qid, [])[:SHOWN_RESULTS]
    return "<br>".join(f"{'✓' if d in rels else '✗'} {md_cell(d, 80)}" for d in top) or "(no results)"


def _query_block(a: Arm, b: Arm, row, metric: str) -> list[str]:
    gold = sorted(d for d, r in a.files.file_qrels.get(row.qid, {}).items() if r > 0)
    ranks = [first_gold_rank(arm, row.qid) for arm in (a, b)]
    first = " / ".join(str(r) if r else "never" for r in ranks)
    return [f"**{md_cell(row.qid)}** ({metric} {row.a:.3f} → {row.b:.3f}; first gold at rank {first}): "
            f"{md_cell(str(row.query), QUERY_CHARS)}", "",
            f"gold files: {', '.join(md_cell(g) for g in gold) or '(none)'}", "",
            f"| A: {md_cell(a.label)} | B: {md_cell(b.label)} |", "|:--|:--|",
            f"| {_results(a, row.qid)} | {_results(b, row.qid)} |", ""]


def render(run_a: Path, run_b: Path, metric: str = "ndcg@10", by: tuple[str, ...] = ("language", "repo", "kind"),
           top: int = 5, k: int = 10) -> str:
    """The comparison of B against A as markdown (UserError when they cannot be compared)."""
    a, b = load_arm(run_a), load_arm(run_b)
    check_comparable(a, b, metric)
    frame = paired_frame(a, b, metric)
    lines = [f"# compare on {metric}: B − A", "",
             f"- A: `{a.run_dir}` ({md_cell(a.label)})", f"- B: `{b.run_dir}` ({md_cell(b.label)})",
             f"- query set `{a.record.get('queryset')}`, {len(frame)} queries; p: ranx's paired t-test; "
             f"CI: BCa bootstrap of the per-query differences", ""]
    lines += _effects("## All queries", [effect("all", frame["a"].to_numpy(float), frame["b"].to_numpy(float))])
    for stratum in by:
        if stratum in STRATA and stratum not in frame.columns:  # a default the runs do not record
            continue
        column = stratum_column(frame, stratum)  # any other name must be there
        if frame[column].nunique(dropna=False) > 1:
            lines += _effects(f"## By {stratum}", by_stratum(frame, column))
    qids = list(frame["qid"])
    causes = {arm.label: miss_causes(arm, qids, k) for arm in (a, b)}
    lines += [f"## Misses at {k} by cause (no relevant chunk in the top {k})", "",
              "| cause | A | B |", "|:--|--:|--:|",
              *(f"| {c} | {causes[a.label][c]} | {causes[b.label][c]} |" for c in CAUSES),
              f"| **all misses** | {sum(causes[a.label][c] for c in CAUSES)} | "
              f"{sum(causes[b.label][c] for c in CAUSES)} |",
              f"| {PAST_BUDGET} (a hit) | {causes[a.label][PAST_BUDGET]} | {causes[b.label][PAST_BUDGET]} |", ""]
    wins = frame[frame["delta"] > 0].sort_values(["delta", "qid"], ascending=[False, True]).head(top)
    losses = frame[frame["delta"] < 0].sort_values(["delta", "qid"], ascending=[True, True]).head(top)
    for title, rows in ((f"## Where B is better most ({len(wins)} of {int((frame['delta'] > 0).sum())})", wins),
                        (f"## Where A is better most ({len(losses)} of {int((frame['delta'] < 0).sum())})", losses)):
        lines += [title, ""]
        for row in rows.itertuples():
            lines += _query_block(a, b, row, metric)
    return "\n".join(lines).rstrip() + "\n"
