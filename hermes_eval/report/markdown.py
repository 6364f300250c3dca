"""GitHub-flavoured markdown leaderboard."""
from __future__ import annotations

import pandas as pd

from hermes_eval.report.table import QUALITY, boards, failed, fmt_ci


def md_cell(text: object) -> str:
    """Escape what breaks a table cell or renders as markup: pipes, backticks, brackets, newlines."""
    s = str(text)
    for ch in ("\\", "|", "`", "*", "_", "[", "]", "<", ">"):
        s = s.replace(ch, "\\" + ch)
    return " ".join(s.split())


def render_markdown(df: pd.DataFrame, records: list[dict]) -> str:
    lines = ["# hermes-eval leaderboard", ""]
    if df.empty:
        return "\n".join(lines + ["No run records yet: run `make sweep`.", ""])
    for b in boards(df):
        lines += [f"## {md_cell(b.queryset)}", "",
                  f"Ranked by **{b.sort_metric}**" + (" (chunkers differ: file-level is the fair view)"
                                                    if b.chunkers_differ else "") + ". 95% bootstrap CIs.",
                  ""]
        head = ["#", "system", "chunker", *QUALITY, "p50 ms", "p95 ms", "build s", "queries"]
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for i, (_, r) in enumerate(b.rows.iterrows(), start=1):
            cells = [str(i), md_cell(r["system"]), md_cell(r["chunker"]),
                     *[fmt_ci(r, m) for m in QUALITY],
                     f"{r.get('total_p50_ms', float('nan')):.1f}", f"{r.get('total_p95_ms', float('nan')):.1f}",
                     f"{r.get('build_s', float('nan')):.1f}", str(int(r["queries"]))]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    bad = failed(df)
    if not bad.empty:
        lines += ["## Failed runs", "", "| run | error |", "|---|---|"]
        for _, r in bad.iterrows():
            lines.append(f"| {md_cell(r['run_dir'])} | {md_cell(r['error'])} |")
        lines.append("")
    return "\n".join(lines)
