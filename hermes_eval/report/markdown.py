"""GitHub-flavoured markdown leaderboard: per query set the measures its record names with CIs and marks,
the published anchors, breakdowns and the Pareto chart (the rest is on the HTML page)."""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from hermes_eval.record.results import HYGIENE_PREFIX
from hermes_eval.report.anchors import anchor_notes
from hermes_eval.report.options import MARKDOWN_TOP_ROWS
from hermes_eval.report.hybrid_markdown import board_lines, summary_lines
from hermes_eval.report.md_cell import md_cell
from hermes_eval.report.table import SHORT_HASH, Board, fmt_ci, fmt_num, short_hash
from hermes_eval.report.view import BoardView, LeaderboardView

# HTML-significant characters become entities; markdown punctuation is backslash-escaped.
MAX_CELL = 160
HTML_PAGE = "leaderboard.html"  # beside the markdown (report/publish.py HTML)
NOT_COMPARABLE_MARK = "·"
# per-run hygiene columns: share of queries verbatim in their gold, share leaking (in gold or
# elsewhere in the corpus), queries with no judgeable chunk in the run's chunking
HYGIENE_HEAD = ("self-ret.", "leak", "unans.")
HYGIENE_LEGEND = ("**self-ret.**: share of queries whose text is verbatim in their gold; **leak**: verbatim in "
                  "their gold or elsewhere in the corpus; **unans.**: queries with no judgeable chunk in the arm's "
                  "chunking.")
HYGIENE_CLEAN = ("Hygiene: no query's text is verbatim in its gold or elsewhere in the corpus, and every query "
                 "is answerable in every arm shown.")
LEAKING_HEADING = "# Leaking query sets"
LEAKING_NOTE = ("These sets put their queries' text where retrieval finds it (self-retrieval or leak share "
                "above the threshold in `hygiene.self_retrieval_warn`); their scores are not search quality.")
# Chart files per board: name -> caption.
CHART_CAPTIONS = {"pareto": "quality vs p95 latency (Pareto front in red)", "recall": "Recall@k curves",
                  "latency": "latency CDFs per stage"}


def chart_path(bv: BoardView, name: str) -> str:
    """Where a board's chart is saved, relative to the markdown file."""
    return f"charts/{bv.slug}-{name}.png"


def _share(value: object) -> str:
    return "" if value is None or pd.isna(value) else f"{float(value):.0%}"


def _hygiene_flagged(rows: pd.DataFrame) -> bool:
    """Any run with a self-retrieval or leak share above 0, or an unanswerable query."""
    cols = [f"{HYGIENE_PREFIX}{c}" for c in ("self_retrieval_share", "leak_share", "unanswerable")]
    return any(c in rows.columns and (pd.to_numeric(rows[c], errors="coerce").fillna(0) > 0).any() for c in cols)


def _hygiene_known(rows: pd.DataFrame) -> bool:
    """Every run's leak share and unanswerable count are recorded (so a clean board can say it is)."""
    cols = [f"{HYGIENE_PREFIX}{c}" for c in ("leak_share", "unanswerable")]
    return all(c in rows.columns and rows[c].notna().all() for c in cols)


def _hygiene_cells(r: pd.Series) -> list[str]:
    """self-retrieval share, leak share and unanswerable count of one run."""
    unans = r.get(f"{HYGIENE_PREFIX}unanswerable")
    return [_share(r.get(f"{HYGIENE_PREFIX}self_retrieval_share")), _share(r.get(f"{HYGIENE_PREFIX}leak_share")),
            "" if unans is None or pd.isna(unans) else str(int(unans))]


def markdown_metrics(b: Board, shown: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The measures the markdown table of ``b`` shows: its ranking metric, then those its record names
    (``shown``: query set -> its record's main score, field measures and columns) that the board carries;
    every quality column when no record names the set."""
    named = shown.get(b.queryset)
    if named is None:
        return b.quality
    return tuple(dict.fromkeys([b.sort_metric, *(m for m in named if m in b.quality)]))


def _table(bv: BoardView, metrics: tuple[str, ...], named: bool) -> list[str]:
    """The board's top rows; ``named``: its ``metrics`` are those its record names."""
    b = bv.board
    costs = b.embedder_costs
    emb_head = ["embedder"] if b.embedders_differ else []
    hygiene = _hygiene_flagged(b.rows.head(MARKDOWN_TOP_ROWS))
    head = ["#", "tied", "system", "chunker", *emb_head, "config", *metrics, "p50 ms", "p95 ms",
            *[heading for _, heading, _ in costs], *(HYGIENE_HEAD if hygiene else ())]
    text_cols = 5 + len(emb_head)
    lines = ["| " + " | ".join(md_cell(h) for h in head) + " |",
             "|" + "|".join(["--:"] + [":--"] * (text_cols - 1) + ["--:"] * (len(head) - text_cols)) + "|"]
    for i, (_, r) in enumerate(b.rows.head(MARKDOWN_TOP_ROWS).iterrows(), start=1):
        h = r["config_hash"]
        system = md_cell(r["system"]) + (" **(baseline)**" if h == b.baseline else "")
        emb = [md_cell(r.get("embedder"))] if b.embedders_differ else []
        cells = [str(i), bv.tied(h) or "–", system, md_cell(r["chunker"]) + _header_cut(r), *emb, f"`{short_hash(h)}`"]
        for m in metrics:
            mk = bv.mark(h, m)
            sym = mk.symbol or (NOT_COMPARABLE_MARK if mk.verdict == "na" else "")
            cells.append(md_cell(fmt_ci(r, m)) + (f" {sym}" if sym else ""))
        cells += [fmt_num(r.get("total_p50_ms")), fmt_num(r.get("total_p95_ms")),
                  *[fmt_num(r.get(col), digits) for col, _, digits in costs], *(_hygiene_cells(r) if hygiene else ())]
        lines.append("| " + " | ".join(cells) + " |")
    if len(b.rows) > MARKDOWN_TOP_ROWS:
        lines += ["", f"…and {len(b.rows) - MARKDOWN_TOP_ROWS} more runs in the HTML leaderboard."]
    if hygiene or _hygiene_known(b.rows.head(MARKDOWN_TOP_ROWS)):
        lines += ["", HYGIENE_LEGEND if hygiene else HYGIENE_CLEAN]
    others = [m for m in b.quality if m not in metrics]
    what = "the measures the set's benchmark record names" if named else "the board's quality measures"
    also = (f" Also measured, on the HTML page (`{HTML_PAGE}`, which `make boards` builds) and in `results/`: "
            f"{md_cell(', '.join(others))}." if others else "")
    lines += ["", f"Columns: {what}, each a mean over the queries with its 95% CI; **config**: the arm's config hash "
                  f"(its first {SHORT_HASH} characters: `--baseline` takes it); **p50/p95 ms**: per-query latency, "
                  f"end to end.{also}"]
    return lines


def _header_cut(r: pd.Series) -> str:
    """A shared-header cut's counts after the chunker (retrievers/chunkers/shared_header.py): the files and
    tokens the embedder did not read; nothing for a run without one."""
    files, tokens = r.get("header_cut_files"), r.get("header_cut_tokens")
    if files is None or pd.isna(files):
        return ""
    return f" (header cut: {int(files):,} files, {int(tokens):,} tokens)"  # digits and words: nothing to escape


def _anchors(bv: BoardView) -> list[str]:
    """Published numbers beside ours, with the difference; each arm that is not the board's best on the
    metric says why it is the one compared, and each note on what differs is written once, below."""
    if not bv.anchors:
        return []
    fn = anchor_notes(bv.anchors)
    lines = ["", "**Published anchors beside our numbers**", "",
             "| published | metric | published value | our arm | ours [95% CI] | ours − published | source | what differs |",
             "|:--|:--|--:|:--|--:|--:|:--|:--|"]
    for a in bv.anchors:
        ours = f"{a.ours:.3f} [{a.ci[0]:.3f}, {a.ci[1]:.3f}]" if a.ours is not None else "not run"
        delta = f"{a.ours - a.anchor.value:+.3f}" if a.ours is not None else ""
        metric = a.anchor.metric + (" (mean of the repositories' means)" if a.anchor.average == "repos" else "")
        mark, n = fn.arm_mark(a), fn.note_number(a)
        lines.append("| " + " | ".join([md_cell(a.anchor.published), md_cell(metric), f"{a.anchor.value:.4g}",
                                         md_cell(a.arm) + (f" ({mark})" if mark else ""), ours, delta,
                                         md_cell(a.anchor.source), f"[{n}]" if n else ""]) + " |")
    if fn.arms:
        lines.append("")
        for mark, arm, best, reason in fn.arms:
            why = md_cell(reason) if reason else "no reason given in the record (its anchor's `arm_reason`)"
            lines.append(f"- ({mark}) {md_cell(arm)} is compared, not this board's best arm on the metric "
                         f"({md_cell(best)}): {why}")
    if fn.notes:
        lines += ["", "What differs:", ""] + [f"{n}. {md_cell(text)}" for n, text in enumerate(fn.notes, start=1)]
    return lines


def _languages(bv: BoardView) -> list[str]:
    """Per-language means of the ranking metric (a query's language: its gold files')."""
    return _strata_table(bv.languages, "(a query's language is its gold files'; `mixed` when they differ; "
                                       "95% bootstrap CIs)")


def _declared(bv: BoardView) -> list[str]:
    """Per stratum the query set declares (a mined set's commit year, its already-localized queries)."""
    out: list[str] = []
    for rt in bv.strata:
        out += _strata_table(rt, "(a stratum the query set declares; 95% bootstrap CIs)")
    return out


def _repositories(bv: BoardView) -> list[str]:
    """Per-repository means of the ranking metric and of any metric an anchor averages per repository."""
    out: list[str] = []
    for rt in (bv.repos, *bv.repos_extra):
        if rt is not None and len(rt.repos) > 1:
            out += _strata_table(rt, "(95% bootstrap CIs)")
    return out


def _strata_table(rt, note: str) -> list[str]:
    """A breakdown's table; none for a single stratum without notes (it would repeat the board's column)."""
    if rt is None or not rt.repos or len(rt.repos) < 2 and not rt.notes:
        return []
    lines = ["", f"**Per {rt.title}: {md_cell(rt.metric)}** {note}", "",
             "| run | " + " | ".join(f"{md_cell(lang)} (n={n})" for lang, n in rt.repos) + " |",
             "|:--|" + "--:|" * len(rt.repos)]
    for row, (label, _h, vals) in enumerate(rt.rows[:MARKDOWN_TOP_ROWS]):
        cis = rt.cis[row] if row < len(rt.cis) else (None,) * len(vals)
        cells = [(f"**{fmt_num(v, 3)}**" if v is not None and v == rt.best[i] else fmt_num(v, 3))
                 + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if v is not None and ci is not None else "")
                 for i, (v, ci) in enumerate(zip(vals, cis))]
        lines.append(f"| {md_cell(label)} | " + " | ".join(cells) + " |")
    if rt.notes:
        lines += [""] + [f"- {md_cell(n)}" for n in rt.notes]
    return lines


def _misses(bv: BoardView) -> list[str]:
    """Each arm's misses at k by cause; a cause no arm has is named below the table, not given a column."""
    mt = bv.misses
    if mt is None:
        return []
    seen = mt.seen
    lines = ["", f"**Misses at {mt.k} by cause** (queries with no relevant chunk in an arm's top {mt.k}; "
                 "`hermes-eval compare` shows them query by query; the last column: hits whose gold falls "
                 "outside a 2k-token context)", "",
             "| run | queries | hits | " + " | ".join(md_cell(c) for c in (*(mt.causes[j] for j in seen),
                                                                          mt.budget_label)) + " |",
             "|:--|--:|--:|" + "--:|" * (len(seen) + 1)]
    for i, (label, _, n, counts) in enumerate(mt.rows):
        pb = mt.past_budget[i] if i < len(mt.past_budget) else None
        lines.append(f"| {md_cell(label)} | {n} | {n - sum(counts)} | " + "".join(f"{counts[j]} | " for j in seen)
                     + f"{'–' if pb is None else pb} |")
    if mt.unseen:
        lines += ["", f"No arm misses for: {md_cell('; '.join(mt.unseen))}."]
    return lines


def _ties_sentence(bv: BoardView, stat_test: str, alpha: float) -> str:
    """What the tied column means, and how many groups this board has."""
    if bv.ties is None:
        return "Tied groups: not computed (an arm has no per-query results)."
    n = len(bv.ties.letters)
    groups = len({c for v in bv.ties.letters.values() for c in v})
    return (f"**tied**: arms sharing a letter are not separable on {md_cell(bv.board.sort_metric)} (paired "
            f"{md_cell(stat_test)} test on every pair, Holm over all {n * (n - 1) // 2} pairs, α = {alpha}): "
            f"{groups} group{'s' if groups != 1 else ''} among {n} arms, so read the order within a group as a tie.")


def _board(bv: BoardView, stat_test: str, alpha: float, shown: Mapping[str, tuple[str, ...]]) -> list[str]:
    b = bv.board
    fair = " Chunkers differ, so it ranks by a chunking-fair metric." if b.chunkers_differ else ""
    lines = [f"## {md_cell(b.queryset)}", "",
             f"Ranked by **{md_cell(b.sort_metric)}**.{fair} Baseline: **{md_cell(bv.baseline_label)}** "
             f"({md_cell(b.baseline_reason)}). 95% bootstrap CIs; ▲/▼ = significantly better/worse than the "
             f"baseline (paired {md_cell(stat_test)} test, Holm across the grid per metric, α = {alpha}); "
             f"{NOT_COMPARABLE_MARK} = not comparable (different chunking). "
             f"{_ties_sentence(bv, stat_test, alpha)}", ""]
    warning = b.hygiene.warning()
    if warning:
        lines += [f"> **{md_cell(warning)}**", ""]
    if bv.set_line:
        lines += [f"Query set: {md_cell(bv.set_line)}.", ""]
    lines += _table(bv, markdown_metrics(b, shown), b.queryset in shown)
    for note in (b.hygiene.unanswerable_note(bv.labels), b.hygiene.twins_note(bv.labels)):
        if note:
            lines += ["", f"⚠ {md_cell(note)}"]
    if bv.values_note():
        lines += ["", md_cell(bv.values_note())]
    lines += _anchors(bv)
    lines += _misses(bv)
    lines += _repositories(bv)
    lines += _languages(bv)
    lines += _declared(bv)
    lines += board_lines(bv.hybrid, bv.labels, stat_test, alpha)
    if "pareto" in bv.charts:
        lines += ["", f"![{CHART_CAPTIONS['pareto']}]({chart_path(bv, 'pareto')})"]
    elsewhere = [CHART_CAPTIONS.get(n, n) for n in bv.charts if n != "pareto"]
    if elsewhere:  # build outputs, not committed (.gitignore): a link would be dead on a code host
        lines += ["", f"On the HTML page: {', '.join(elsewhere)}."]
    return lines + [""]


def _failed(failed: pd.DataFrame) -> list[str]:
    if failed.empty:
        return []
    lines = [f"## Failed runs ({len(failed)})", "", "| run | error |", "|:--|:--|"]
    for _, r in failed.head(MARKDOWN_TOP_ROWS).iterrows():
        lines.append(f"| {md_cell(r['run_name'])} | {md_cell(r['error'], MAX_CELL)} |")
    if len(failed) > MARKDOWN_TOP_ROWS:
        lines.append(f"\n…and {len(failed) - MARKDOWN_TOP_ROWS} more in the HTML leaderboard.")
    return lines + [""]


def render_markdown(view: LeaderboardView) -> str:
    """The leaderboard as GitHub-flavoured markdown."""
    lines = ["# hermes-eval leaderboard", ""]
    if view.unusable:
        lines += [f"**{md_cell(view.unusable)}**", ""]
    if not view.boards:
        lines += ["No finished runs yet: run `make sweep`.", ""]
    clean = [bv for bv in view.boards if not bv.board.hygiene.leaking]
    verdicts = [bv for bv in view.boards if bv.hybrid is not None]  # clean sets first, as the sections
    if len(verdicts) > 1:  # the cross-set answer, where more than one set has both arms
        lines += summary_lines([bv.hybrid for bv in verdicts], {h: l for bv in verdicts for h, l in bv.labels.items()},
                               {bv.board.queryset for bv in verdicts if bv.board.hygiene.leaking})
    leaking = [bv for bv in view.boards if bv.board.hygiene.leaking]
    shown = dict(view.settings.shown)
    for bv in clean:
        lines += _board(bv, view.settings.stat_test, view.settings.alpha, shown)
    if leaking:
        lines += [LEAKING_HEADING, "", LEAKING_NOTE, ""]
        for bv in leaking:
            lines += _board(bv, view.settings.stat_test, view.settings.alpha, shown)
    return "\n".join(lines + _failed(view.failed))
