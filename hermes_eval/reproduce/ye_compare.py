"""Our runs on a Ye et al. query set beside their learned ranker, on the same reports and the same gold.

    python -m hermes_eval.reproduce.ye_compare --queries datasets/ye-tomcat RUN_DIR [RUN_DIR ..] [--out FILE.md]

The board compares our arm over every imported report (gold: the fixed files that exist at the fix's
parent) with Ye et al.'s released ranks (the ``result`` column, ``meta.ye_ranks``) over the reports that
have them (gold: every fixed file of the release, one their ranks miss counting as a miss). Two things
differ besides the ranker, and this module measures each one:

- ``subset``: ours over only the reports whose ranks Ye et al. released;
- ``gold``: then with their gold, the files the fix added and those we do not index counted as misses.

The last row pair is like for like: the same reports and gold, ranked by us and by them. Every value is
computed by the project's own metric code (ranx through ``judge/ranking.py``, ``judge/localization.py``),
file level: a chunked run's files in the order of their first chunk, as the board reads them. Our
ranking is as deep as the run (``depths.fused_top_k``); theirs holds only the fixed files' ranks, which
is all AP, MRR and Accuracy@k read.
"""
from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

ACC = (1, 5, 10)


@dataclass(frozen=True)
class Report:
    """One imported report: its snapshot scope, our gold files, the release's other fixed files, their ranks."""

    qid: str
    scope: str
    gold: tuple[str, ...]  # repository paths (scope removed) of the imported gold
    dropped: tuple[str, ...]  # fixed files of the release we do not judge (added by the fix, not indexed)
    ye_ranks: Mapping[str, int]


def read_reports(dataset: Path) -> list[Report]:
    """The reports of an imported Ye et al. set (``datasets/NAME``)."""
    from hermes_eval.querysets.store import load_queryset

    out = []
    for q in load_queryset(Path(dataset)).queries:
        scope = q.meta.get("scope", "")
        paths = tuple(dict.fromkeys(s.path.removeprefix(scope) for s in q.gold))
        dropped = tuple(q.meta.get("gold_files_added_by_fix") or ()) + tuple(q.meta.get("gold_files_not_indexed") or ())
        out.append(Report(q.qid, scope, paths, dropped, dict(q.meta.get("ye_ranks") or {})))
    return out


def file_ranking(ids: Sequence[str], scope: str) -> list[str]:
    """Chunk ids (``scope`` + ``path:start-end``) -> repository paths in the order of their first chunk."""
    seen: dict[str, None] = {}
    for doc in ids:
        seen.setdefault(doc.rsplit(":", 1)[0].removeprefix(scope), None)
    return list(seen)


def ye_ranking(ranks: Mapping[str, int]) -> list[str]:
    """Their ranks of the fixed files as a ranking: unjudged placeholders elsewhere."""
    depth = max(ranks.values(), default=0)
    ranked = [f"\x00unjudged {i}" for i in range(1, depth + 1)]
    for path, rank in ranks.items():
        ranked[rank - 1] = path
    return ranked


def scores(qrels: Mapping[str, Mapping[str, int]], rankings: Mapping[str, list[str]]) -> dict[str, float]:
    """Mean MAP, MRR and Accuracy@k (a gold file in the top k) over the queries of ``qrels``."""
    from hermes_eval.judge.localization import localization
    from hermes_eval.judge.ranking import per_query

    values = per_query(qrels, rankings, ["map", "mrr"])
    values |= localization(qrels, rankings, {f"acc@{k}": ("hit", k) for k in ACC})
    n = len(qrels)
    return {"n": n, **{m: sum(v.values()) / n if n else 0.0 for m, v in values.items()}}


def compare(reports: Sequence[Report], runs: Mapping[str, Mapping[str, list[str]]]) -> list[tuple[str, dict]]:
    """(row label, scores) for each run over all reports, the released subset, then with their gold; then LR."""
    released = [r for r in reports if r.ye_ranks]
    ours = {r.qid: {p: 1 for p in r.gold} for r in reports}
    theirs = {r.qid: {p: 1 for p in (*r.gold, *r.dropped)} for r in released}
    rows = []
    for name, run in runs.items():
        ranked = {r.qid: file_ranking(run.get(r.qid, []), r.scope) for r in reports}
        rows.append((f"{name}: every report, our gold", scores(ours, ranked)))
        rows.append((f"{name}: released subset, our gold", scores({q: ours[q] for q in theirs}, ranked)))
        rows.append((f"{name}: released subset, their gold", scores(theirs, ranked)))
    rows.append(("Ye et al. LR (released ranks): released subset, their gold",
                 scores(theirs, {r.qid: ye_ranking(r.ye_ranks) for r in released})))
    return rows


def markdown(rows: Sequence[tuple[str, dict]]) -> str:
    head = "| ranking and set | reports | MAP | MRR | " + " | ".join(f"Acc@{k}" for k in ACC) + " |"
    lines = [head, "|:--|--:|--:|--:|" + "--:|" * len(ACC)]
    for label, s in rows:
        lines.append(f"| {label} | {s['n']} | {s['map']:.4f} | {s['mrr']:.4f} | "
                     + " | ".join(f"{s[f'acc@{k}']:.4f}" for k in ACC) + " |")
    return "\n".join(lines) + "\n"


def per_report(reports: Sequence[Report], runs: Mapping[str, Mapping[str, list[str]]]) -> list[dict]:
    """One row per report: its gold counts and, per run and for LR where released, AP with their gold."""
    from hermes_eval.judge.average_precision import average_precision, ranks_of

    rows = []
    for r in reports:
        theirs = (*r.gold, *r.dropped)
        row: dict = {"qid": r.qid, "gold": len(r.gold), "dropped": len(r.dropped), "released": bool(r.ye_ranks)}
        for name, run in runs.items():
            ranked = file_ranking(run.get(r.qid, []), r.scope)
            row[f"{name} ap"] = average_precision(ranks_of(ranked, r.gold), len(r.gold))
            row[f"{name} ap their gold"] = average_precision(ranks_of(ranked, theirs), len(theirs))
        if r.ye_ranks:
            row["LR ap their gold"] = average_precision(ranks_of(ye_ranking(r.ye_ranks), theirs), len(theirs))
        rows.append(row)
    return rows


def read_runs(folders: Sequence[Path]) -> dict[str, dict[str, list[str]]]:
    """Run folders (each holds record.json and run.trec) by ``chunker/system``."""
    from hermes_eval.record.trec import read_run

    runs = {}
    for folder in folders:
        record = json.loads((Path(folder) / "record.json").read_text())
        runs[f"{record.get('chunker', '?')}/{record.get('system', Path(folder).name)}"] = read_run(Path(folder) / "run.trec")
    return runs


LR = "Ye et al. LR (released ranks): released subset, their gold"
LR_METRICS = {"map": "file_map", "mrr": "file_mrr", **{f"acc@{k}": f"file_hit@{k}" for k in ACC}}  # ours by name


def cited(reports: Sequence[Report], variant: str) -> tuple:
    """Their learned ranker's released ranks scored with our metric code: the values the record's anchors
    type for ``variant`` (recomputed from the workbook's ``result`` column, which the import keeps)."""
    from hermes_eval.reproduce.kind import Published

    (_, lr), = compare(reports, {})
    return tuple(Published(variant, metric, lr[ours], "the workbook's result column (meta.ye_ranks)", None)
                 for ours, metric in LR_METRICS.items())


def reproduce(request):
    """The kind's entry: each variant's imported set (``datasets/VARIANT``; ``queries=DIR`` for one variant) and
    the run folders given, the table of :func:`compare`, a row per report and LR's values for the anchors."""
    from hermes_eval.core.errors import UserError
    from hermes_eval.reproduce.kind import Outcome

    variants = [request.variant] if request.variant else [v.name for v in request.record.variants]
    runs = read_runs(request.runs)
    per_query, summary, tables, published = [], {}, [], []
    for name in variants:
        request.record.variant(name)
        folder = Path(request.option("queries", f"datasets/{name}") if request.variant else f"datasets/{name}")
        if not (folder / "manifest.json").is_file():
            raise UserError(f"ye_compare: no imported set {folder}: import it first (hermes-eval benchmark "
                            f"{request.record.name} --variants {name} --steps import) or give queries=DIR")
        reports = read_reports(folder)
        rows = compare(reports, runs)
        per_query += [{"variant": name, **r} for r in per_report(reports, runs)]
        summary[name] = dict(rows)
        tables.append(f"{name}:\n\n{markdown(rows)}")
        published += cited(reports, name)
    return Outcome("ye_compare", tuple(per_query), summary, "\n".join(tables),
                   {"variants": variants, "runs": [str(r) for r in request.runs]}, tuple(published))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hermes_eval.reproduce.ye_compare", description=__doc__.split("\n\n")[0])
    p.add_argument("--queries", required=True, type=Path, help="the imported set (datasets/NAME)")
    p.add_argument("runs", nargs="+", type=Path, help="run folders of that set (each holds run.trec)")
    p.add_argument("--out", type=Path, help="also write the table here")
    args = p.parse_args(argv)
    table = markdown(compare(read_reports(args.queries), read_runs(args.runs)))
    print(table, end="")
    if args.out:
        args.out.write_text(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
