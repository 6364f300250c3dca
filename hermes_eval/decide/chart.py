"""The decision's one chart: per-repo effects with CIs (left), latency CDFs of the arms (right)."""
from __future__ import annotations

import numpy as np

from hermes_eval.decide.analysis import ArmRun, Comparison
from hermes_eval.decide.latency import as_array
from hermes_eval.decide.spec import DecisionSpec
from hermes_eval.report.charts import CMAP, FRONT_COLOR, board_png, log_x, plain_text, plt

SIZE = (11.0, 4.2)


def decision_chart(spec: DecisionSpec, runs: list[ArmRun], comparisons: tuple[Comparison, ...]) -> bytes:
    """Forest plot of B − A (overall and per repository) and per-query latency CDFs."""
    fig, (left, right) = plt.subplots(1, 2, figsize=SIZE, gridspec_kw={"width_ratios": [1.2, 1]})
    colors = plt.get_cmap(CMAP)
    ticks, labels, y = [], [], 0.0
    for i, c in enumerate(comparisons):
        rows = [("all queries", c.effect)] + [(f"{s.repo} (n={s.n})", s.effect) for s in c.strata]
        for j, (name, e) in enumerate(rows):
            left.errorbar([e.mean], [y], xerr=[[e.mean - e.ci_low], [e.ci_high - e.mean]],
                          fmt="D" if j == 0 else "o", color=colors((i + 1) % 10), ms=6 if j == 0 else 4, capsize=3)
            ticks.append(y)
            labels.append(plain_text(f"{c.arm.arm.name}: {name}"))
            y -= 1
        y -= 0.5
    left.set_yticks(ticks)
    left.set_yticklabels(labels, fontsize=8)
    left.axvline(0, color="#555", lw=0.8)
    left.axvline(spec.rule.min_effect, color=FRONT_COLOR, lw=0.9, ls="--",
                 label=f"required Δ = {spec.rule.min_effect:g}")
    left.set_xlabel(f"Δ {plain_text(spec.primary_metric)} (B − A), 95% paired BCa bootstrap CI")
    left.legend(fontsize=8, loc="lower right")
    left.grid(alpha=0.3, axis="x")
    stage = spec.rule.latency_stage
    q = float(spec.rule.latency_percentile.lstrip("p")) / 100
    samples = sorted((smp for run in runs for smp in run.latency), key=lambda smp: smp.order)
    labels = {run.arm.name: run.arm.label for run in runs}
    index = {run.arm.name: i for i, run in enumerate(runs)}
    for smp in samples:
        x = as_array(smp)
        right.plot(x, np.arange(1, x.size + 1) / x.size, color=colors(index[smp.arm] % 10), lw=1.4,
                   ls="-" if smp is samples[-1] or smp.arm != runs[0].arm.name else "--",
                   label=plain_text(f"{smp.order + 1}. {smp.arm}: {labels[smp.arm]}"))
    right.axhline(q, color="#999", lw=0.8, ls=":")
    log_x(right)
    right.set_xlabel(f"{plain_text(stage)} ms per query (log), in measurement order; dotted: "
                     f"{spec.rule.latency_percentile}")
    right.set_ylabel("share of queries")
    right.legend(fontsize=8, loc="upper left")
    right.grid(alpha=0.3)
    fig.suptitle(plain_text(spec.question), fontsize=10)
    fig.tight_layout()
    return board_png(fig)  # a palette PNG, as the boards': decision records are committed
