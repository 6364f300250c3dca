"""The decision record (markdown): question, rule, verdict, evidence, reproduction, manifest."""
from __future__ import annotations

import shlex

from hermes_eval.decide.analysis import ArmRun, Comparison
from hermes_eval.decide.rule import Verdict, describe
from hermes_eval.decide.spec import DecisionSpec
from hermes_eval.report.markdown import md_cell
from hermes_eval.report.config_diff import config_diff, manifest

SECONDARY = ("ndcg@10", "recall@10", "mrr@10", "file_recall@10", "line_coverage@10")
RESULTS_HEAD = "## Results (95% BCa bootstrap CIs over queries; latency from each arm's last measurement)"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _head(cells: list[str], align: str) -> list[str]:
    return [_row([md_cell(c) for c in cells]), "|" + "|".join(align) + "|"]


def _ci(m: dict | None) -> str:
    if not m:
        return "–"
    return f"{m['mean']:.3f} [{m['ci_low']:.3f}, {m['ci_high']:.3f}]"


def _arms(runs: list[ArmRun]) -> list[str]:
    lines = _head(["arm", "label", "overrides", "config hash", "quality from"], [":--"] * 5)
    for r in runs:
        when = ("reused record finished " if r.reused else "measured now, finished ") + str(r.record.get("finished_at"))
        lines.append(_row([md_cell(r.arm.name) + (" (baseline)" if r.arm.name == "A" else ""), md_cell(r.arm.label),
                           md_cell(" ".join(r.arm.overrides) or "(defaults)"),
                           md_cell(r.record.get("config_hash")), md_cell(when)]))
    samples = sorted((s for r in runs for s in r.latency), key=lambda s: s.order)
    if samples:
        lines += ["", "Latency measured now, in this order: " + " → ".join(
            f"{md_cell(s.arm)} ({s.percentile_ms:.1f} ms, {md_cell(s.finished_at)})" for s in samples) + "."]
    return lines


def _results(spec: DecisionSpec, runs: list[ArmRun]) -> list[str]:
    metrics = [spec.primary_metric] + [m for m in SECONDARY if m != spec.primary_metric]
    stage, pct = spec.rule.latency_stage, spec.rule.latency_percentile
    lines = _head(["arm", *[f"{m}{' (primary)' if m == spec.primary_metric else ''}" for m in metrics],
                   f"{stage} p50 ms", f"{stage} {pct} ms", "build s"], [":--"] + ["--:"] * (len(metrics) + 3))
    for r in runs:
        m, lat = r.record.get("metrics") or {}, (r.record.get("latency_ms") or {}).get(stage) or {}
        lines.append(_row([md_cell(f"{r.arm.name}: {r.arm.label}"), *[md_cell(_ci(m.get(k))) for k in metrics],
                           f"{lat.get('p50', float('nan')):.2f}", f"{lat.get(pct, float('nan')):.2f}",
                           f"{(r.record.get('index') or {}).get('build_seconds_total', float('nan')):.2f}"]))
    return lines


def _effects(spec: DecisionSpec, comps: tuple[Comparison, ...], verdicts: list[Verdict]) -> list[str]:
    pct = spec.rule.latency_percentile
    lines = _head(["arm", f"Δ {spec.primary_metric} (B − A) [95% CI]", "p", "Holm p", "test",
                   f"{pct} latency ratio B/A [95% CI]", "A/A drift", "verdict"], [":--"] + ["--:"] * 6 + [":--"])
    for c, v in zip(comps, verdicts):
        e, lr = c.effect, c.latency.ratio
        lines.append(_row([md_cell(c.arm.arm.name), f"{e.mean:+.4f} [{e.ci_low:+.4f}, {e.ci_high:+.4f}]",
                           f"{c.test.p_value:.3g}", f"{c.p_holm:.3g}", md_cell(c.test.method),
                           f"{lr.mean:.2f}× [{lr.ci_low:.2f}, {lr.ci_high:.2f}]", f"{c.latency.drift:+.1%}",
                           f"**{v.verdict}**"]))
    return lines


def latency_note(spec: DecisionSpec) -> str:
    """What the latency ratio column is: one statistic for both the point and its CI."""
    pct, stage = spec.rule.latency_percentile, md_cell(spec.rule.latency_stage)
    return (f"Latency ratio B/A = {pct} of B's per-query {stage} ms ÷ {pct} of A's per-query {stage} ms "
            f"averaged over A's two measurements (before and after B), on the queries all three share. "
            f"The point is that ratio on the data; its CI recomputes the same ratio on {spec.resamples} "
            f"resamples of the queries (paired percentile bootstrap, seed {spec.seed}). A/A drift = A's "
            f"second recorded {pct} ÷ its first − 1.")


def _strata(spec: DecisionSpec, comps: tuple[Comparison, ...]) -> list[str]:
    lines = _head(["arm", "repository", "queries", "A", "B", "Δ [95% CI]"], [":--", ":--"] + ["--:"] * 4)
    for c in comps:
        for s in c.strata:
            e = s.effect
            lines.append(_row([md_cell(c.arm.arm.name), md_cell(s.repo), str(s.n), f"{s.mean_a:.3f}",
                               f"{s.mean_b:.3f}", f"{e.mean:+.3f} [{e.ci_low:+.3f}, {e.ci_high:+.3f}]"]))
    return lines


def _diffs(runs: list[ArmRun]) -> list[str]:
    lines = _head(["arm", "key", "A", "this arm"], [":--"] * 4)
    for r in runs[1:]:
        for d in config_diff(runs[0].record.get("config"), r.record.get("config")):
            lines.append(_row([md_cell(r.arm.name), md_cell(d.key), md_cell(d.baseline), md_cell(d.value)]))
    return lines


def _manifest(runs: list[ArmRun]) -> list[str]:
    per_arm = [dict(manifest(r.record)) for r in runs]
    keys = list(dict.fromkeys(k for m in per_arm for k in m))
    lines = _head(["key", *[r.arm.name for r in runs]], [":--"] * (len(runs) + 1))
    for k in keys:
        lines.append(_row([md_cell(k), *[md_cell(m.get(k, "–")) for m in per_arm]]))
    return lines


def reproduce(spec: DecisionSpec, runs: list[ArmRun], runs_dir: str, out_dir: str) -> list[str]:
    """The exact commands: the decision itself and each arm alone."""
    extra = (f" --runs {shlex.quote(runs_dir)}" if runs_dir != "runs" else "") + \
            (f" --out {shlex.quote(out_dir)}" if out_dir != "reports" else "")
    commit = runs[0].record.get("git_commit") or "unknown"
    lines = ["```sh", f"git checkout {commit}", "export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1",
             f"hermes-eval decide {shlex.quote(spec.name)}{extra} --rerun", "# or each arm alone:"]
    for r in runs:
        args = " ".join(shlex.quote(o) for o in (*spec.common, *r.arm.overrides))
        lines.append(f"hermes-eval run {args}".rstrip())
    return lines + ["```"]


def _ties(spec: DecisionSpec, runs: list[ArmRun], final: Verdict) -> list[str]:
    """Which arms the data cannot order on the primary metric (every pair tested, Holm over all)."""
    from hermes_eval.judge.tied_groups import aligned, tied_groups

    metric = spec.primary_metric
    values = aligned({r.arm.name: r.files.per_query for r in runs}, metric)
    if values is None or len(values) < 2:
        return ["Not computed: an arm has no per-query results for " + md_cell(metric) + "."]
    order = sorted(values, key=lambda a: -float(values[a].mean()))
    g = tied_groups(order, values, spec.rule.alpha, spec.stat_test)
    n = len(order)
    lines = [f"Every pair of arms tested on {md_cell(metric)} ({md_cell(spec.stat_test)}, Holm over all "
             f"{n * (n - 1) // 2} pairs, α = {spec.rule.alpha:g}); arms sharing a letter are not separable.", "",
             *_head(["arm", f"mean {metric}", "tied group", "tied with"], [":--", "--:", ":--", ":--"])]
    for a in order:
        lines.append(_row([md_cell(a), f"{values[a].mean():.4f}", g.letters[a], md_cell(", ".join(g.tied_with(a)) or "–")]))
    winners = [a for a in (final.arm or "").split(",") if a in g.letters]
    for a in winners:
        others = g.tied_with(a)
        if others:
            lines += ["", f"**A tie:** {md_cell(a)} is not separable from {md_cell(', '.join(others))} on "
                          f"{md_cell(metric)}; this record does not order them."]
    if len({c for v in g.letters.values() for c in v}) == 1:
        lines += ["", f"**A tie:** no two arms are separable on {md_cell(metric)}."]
    return lines


def render_decision(spec: DecisionSpec, runs: list[ArmRun], comps: tuple[Comparison, ...],
                    verdicts: list[Verdict], final: Verdict, chart: str, runs_dir: str, out_dir: str) -> str:
    """The whole decision record."""
    label = {r.arm.name: r.arm.label for r in runs}.get(final.arm, final.arm)
    head = f"**Verdict: {final.verdict}**" + (f" {md_cell(final.arm)} ({md_cell(label)})" if final.arm else "")
    out = [f"# Decision: {md_cell(spec.name)}", "", f"**Question:** {md_cell(spec.question)}", ""]
    if spec.context:
        out += [md_cell(spec.context), ""]
    out += [head, "", *[f"- {md_cell(r)}" for r in final.reasons], "",
            "## Rule (written before the run" + (f", {md_cell(spec.written)}" if spec.written else "") + ")", "",
            f"Primary metric: **{md_cell(spec.primary_metric)}**; arm A is the baseline. "
            f"Source: `{spec.path.name}`.", "",
            *[f"- {line}" for line in describe(spec.rule, md_cell(spec.primary_metric), spec.stat_test)], "",
            "## Arms", "", *_arms(runs), "", RESULTS_HEAD, "",
            *_results(spec, runs), "", "## Effect sizes and verdict per arm", "", *_effects(spec, comps, verdicts), "",
            latency_note(spec), ""]
    for c, v in zip(comps, verdicts):
        out += [f"- {md_cell(c.arm.arm.name)}: {md_cell('; '.join(v.reasons))}"]
    out += ["", f"![{md_cell(spec.name)}]({chart})", "",
            "## Tied groups", "", *_ties(spec, runs, final), "",
            "## Per-repository stratification", "", *_strata(spec, comps), "",
            "## Config difference against A", "", *_diffs(runs), "",
            "## Reproduce", "", *reproduce(spec, runs, runs_dir, out_dir), "", "## Manifest", "", *_manifest(runs), ""]
    return "\n".join(out)
