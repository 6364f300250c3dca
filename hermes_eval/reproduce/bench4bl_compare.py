"""Our BM25 arms on Bench4BL's old subjects, report by report, beside BugLocator's and BLUiR's published AP.

    hermes-eval benchmark bench4bl --reproduce  (the record's reproduction: its board's README)
    python -m hermes_eval.reproduce.bench4bl_compare [--subjects ZXing,SWT,AspectJ] [--retrievers bm25,lucene6_bm25]
        [--chunker whole_file] [--data DIR] [--bench4bl DIR] [--datasets DIR] [--cache DIR]
        [--out FILE.md] [--json FILE]

For each variant of ``conf/benchmarks/bench4bl.yaml`` (one subject each): the query set imported with the
record's paths and options, as ``hermes-eval benchmark`` imports it, its corpus chunked with ``--chunker`` and indexed
with each retriever preset's sparse leg (``conf/retriever/NAME.yaml``, built as a run builds it), every
report ranked over the whole corpus, and scored with Bench4BL's own definitions
(``scripts/results/Evaluator.py``): each fixed file of the report (an "answer") has the 0-based rank of the
first of its corpus files in our file ranking; AP = sum over the answers found, in rank order, of
(order + 1) / (rank + 1), divided by the report's number of answers (all of them, found or not: the XML's
``<fixedFiles>``); TP = 1 / (rank + 1) of the first answer found; MAP and MRR = their means over every
report of the XML (a report we skip, none of whose answers is in the corpus, scores 0, as in Bench4BL).
Those are set beside ``analysis/Old_AP.txt`` and ``Old_TP.txt`` (columns read by their header: the
per-report files order them BugLocator BLUiR BRTracer ..., unlike Old_MAP.txt), per report: the correlation
of the APs (Pearson, Spearman) and on how many reports ours is above, level with or below each tool.
``--bench4bl`` (default ``$HERMES_MIRRORS/exatoa+Bench4BL/repo``; a checkout or git mirror) and ``--data``
(the record's data folder, default ``$HERMES_MIRRORS/LeeeWee+BugLocator/repo``) are read, nothing written
there.
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MIRROR = "exatoa+Bench4BL/repo"
RECORD = "bench4bl"
TOOLS = ("BugLocator", "BLUiR")
PUBLISHED = ("Old_AP", "Old_TP", "Old_MAP", "Old_MRR")


# --- Bench4BL's definitions (scripts/results/Evaluator.py) ----------------------------------------------------
def average_precision(ranks: list[int], answers: int) -> float:
    """Bench4BL's AP of one report: ``ranks`` the 0-based ranks of the answers found (any order), ``answers``
    the report's number of answer files (found or not): sum of (order + 1) / (rank + 1) over the found
    answers sorted by rank, divided by ``answers`` (the one average precision, ``fixed_files``)."""
    from hermes_eval.judge.average_precision import average_precision as ap

    return ap([r + 1 for r in ranks], answers, "fixed_files")


def top_precision(ranks: list[int]) -> float:
    """Bench4BL's TP (its MRR's term): 1 / (rank + 1) of the best-ranked answer found, 0 when none is."""
    return 1.0 / (min(ranks) + 1) if ranks else 0.0


def answer_ranks(files: list[str], gold_of: dict[str, list[str]]) -> list[int]:
    """The 0-based rank of each answer found in the file ranking ``files``: the best of its corpus files
    (SWT's package-relative answers name each platform's copy)."""
    position = {}
    for i, path in enumerate(files):
        position.setdefault(path, i)
    ranks = []
    for found in gold_of.values():
        at = [position[p] for p in found if p in position]
        if at:
            ranks.append(min(at))
    return ranks


# --- Bench4BL's published tables ------------------------------------------------------------------------------
def read_table(text: str) -> tuple[list[str], list[dict[str, str]]]:
    """A tab-separated analysis file: its header and its rows as header -> cell (CRLF and padding stripped)."""
    lines = [line.rstrip("\r\n") for line in text.splitlines() if line.strip()]
    header = [h.strip() for h in lines[0].split("\t")]
    return header, [dict(zip(header, (c.strip() for c in line.split("\t")))) for line in lines[1:]]


def analysis_file(root: Path, name: str) -> str:
    """``analysis/NAME.txt`` of a Bench4BL checkout or git mirror (HEAD)."""
    path = Path(root) / "analysis" / f"{name}.txt"
    if path.is_file():
        return path.read_text(encoding="utf-8")
    proc = subprocess.run(["git", "-C", str(root), "show", f"HEAD:analysis/{name}.txt"], capture_output=True)
    if proc.returncode != 0:
        raise SystemExit(f"{root}: no analysis/{name}.txt (a checkout or git mirror of exatoa/Bench4BL?)")
    return proc.stdout.decode("utf-8")


def published(root: Path, subject: str) -> dict:
    """Per report (Old_AP, Old_TP) and per project (Old_MAP, Old_MRR) values of ``TOOLS`` for ``subject``."""
    out: dict = {"ap": {}, "tp": {}, "map": {}, "mrr": {}}
    for name, key in zip(PUBLISHED, ("ap", "tp", "map", "mrr")):
        _, rows = read_table(analysis_file(root, name))
        for row in rows:
            if row.get("Project") != subject:
                continue
            if "BugID" in row:
                out[key][row["BugID"]] = {t: float(row[t]) for t in TOOLS}
            else:
                out[key] = {t: float(row[t]) for t in TOOLS}
    return out


# --- statistics -------------------------------------------------------------------------------------------------
def pearson(a: list[float], b: list[float]) -> float | None:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(x) < 2 or x.std() == 0 or y.std() == 0:
        return None
    return float(np.corrcoef(x, y)[0, 1])


def spearman(a: list[float], b: list[float]) -> float | None:
    from scipy.stats import rankdata

    return pearson(list(rankdata(a)), list(rankdata(b))) if len(a) > 1 else None


def wins(ours: list[float], theirs: list[float], eps: float = 5e-5) -> dict[str, int]:
    """Reports where ours is above, level (within Bench4BL's 4-decimal rounding) or below."""
    d = [o - t for o, t in zip(ours, theirs)]
    return {"above": sum(x > eps for x in d), "level": sum(abs(x) <= eps for x in d), "below": sum(x < -eps for x in d)}


# --- our arms ---------------------------------------------------------------------------------------------------
@dataclass
class Arm:
    retriever: str
    ap: dict[str, float] = field(default_factory=dict)  # bug id -> AP (every report of the XML)
    tp: dict[str, float] = field(default_factory=dict)
    no_results: int = 0  # reports the retriever returned nothing for (e.g. over Lucene's clause limit)
    build_s: float = 0.0
    search_s: float = 0.0


@dataclass
class SubjectResult:
    subject: str
    variant: str
    manifest: dict
    bugs: list[str]  # every report of the XML, in file order
    arms: list[Arm]
    published: dict
    bench4bl: Path = Path()  # where the published tables were read

    def compared(self) -> list[str]:
        return [b for b in self.bugs if b in self.published["ap"]]


def import_variant(variant: str, datasets: Path, cache: Path, data: str | None) -> "object":
    """The variant's query set, imported with the record's paths and options (its placeholders filled from
    the environment, as ``hermes-eval benchmark`` fills them; ``data``: another data folder)."""
    from hermes_eval.config.benchmarks import benchmark, expand, for_import
    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.querysets.importers.bench4bl import Options, run

    record = benchmark(RECORD, CONF_DIR)
    v = record.variant(variant)
    values = for_import(v.name, data or record.data.path, {})
    reports, repository = (Path(expand(p, values)) for p in v.paths)
    options = {k: (tuple(expand(value, values).split(",")) if k == "exclude" else expand(value, values))
               for k, value in v.options}
    return run(Options(name=v.name, dest=datasets / v.name, cache_dir=cache, reports=reports, repository=repository,
                       **options))


def rank_files(qs, retriever: str, chunker: str, cache: Path) -> tuple[dict[str, list[str]], float, float]:
    """Every query's full file ranking under ``retriever``'s sparse leg over ``chunker``'s chunks."""
    from hermes_eval.config.compose import compose
    from hermes_eval.config.settings import settings_from
    from hermes_eval.corpus import load_corpus

    s = settings_from(compose([f"retriever={retriever}", f"chunker={chunker}", f"paths.cache={cache}"]))
    m = qs.manifest
    corpus = load_corpus(m["corpus_sources"], name=qs.name, cache_dir=str(cache), languages=m.get("corpus_languages"),
                         exclude=tuple(m.get("corpus_exclude") or ()))
    chunks = [c for f in corpus.files for c in s.chunker.build().chunk(f.path, f.text, f.language)]
    path_of = {c.id: c.path for c in chunks}
    start = time.perf_counter()
    index = s.legs["sparse"].build()
    index.build([c.id for c in chunks], [c.text for c in chunks])
    built = time.perf_counter()
    out: dict[str, list[str]] = {}
    for q in qs.queries:
        hits = index.search([q.query], len(chunks))[0]
        out[q.qid] = list(dict.fromkeys(path_of[cid] for cid, _ in hits))
    return out, built - start, time.perf_counter() - built


def run_subject(variant: str, retrievers: list[str], chunker: str, datasets: Path, cache: Path,
                data: str | None, bench4bl: Path) -> SubjectResult:
    from hermes_eval.querysets.readers.buglocator_reports import parse, read

    qs = import_variant(variant, datasets, cache, data)
    m = qs.manifest
    subject = m["subject"]
    reports = m["reports"]
    xml, _ = read(Path(reports["path"]), subject, reports.get("commit"))
    bugs = parse(xml, reports["file"])
    by_bug = {q.meta["bug"]: q for q in qs.queries}
    arms = []
    for retriever in retrievers:
        ranking, build_s, search_s = rank_files(qs, retriever, chunker, cache)
        arm = Arm(retriever, build_s=build_s, search_s=search_s)
        for bug in bugs:
            q = by_bug.get(bug.id)
            ranks = answer_ranks(ranking[q.qid], q.meta["gold_of"]) if q is not None else []
            arm.no_results += q is not None and not ranking[q.qid]
            arm.ap[bug.id], arm.tp[bug.id] = average_precision(ranks, len(bug.files)), top_precision(ranks)
        arms.append(arm)
    return SubjectResult(subject, variant, m, [b.id for b in bugs], arms, published(bench4bl, subject), bench4bl)


def summary(r: SubjectResult) -> dict:
    """Per arm: MAP/MRR over every report, and against each tool over the reports both have."""
    bugs, pub = r.compared(), r.published
    out: dict = {"subject": r.subject, "reports": len(r.bugs), "queries": r.manifest["counts"]["queries"],
                 "compared": len(bugs), "published": {}, "arms": {}}
    for t in TOOLS:
        ap = [pub["ap"][b][t] for b in bugs]
        tp = [pub["tp"][b][t] for b in bugs if b in pub["tp"]]
        out["published"][t] = {"map_table": pub["map"].get(t), "mrr_table": pub["mrr"].get(t),
                               "map_from_ap": _mean(ap), "mrr_from_tp": _mean(tp)}
    for arm in r.arms:
        row: dict = {"map": _mean([arm.ap[b] for b in r.bugs]), "mrr": _mean([arm.tp[b] for b in r.bugs]),
                     "no_results": arm.no_results, "build_s": round(arm.build_s, 2), "search_s": round(arm.search_s, 2),
                     "vs": {}}
        ours_ap = [arm.ap[b] for b in bugs]
        for t in TOOLS:
            theirs = [pub["ap"][b][t] for b in bugs]
            row["vs"][t] = {"pearson_ap": pearson(ours_ap, theirs), "spearman_ap": spearman(ours_ap, theirs),
                            **wins([round(x, 4) for x in ours_ap], theirs)}
        out["arms"][arm.retriever] = row
    return out


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _f(x: float | None, digits: int = 4) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def report(results: list[SubjectResult], settings: dict) -> str:
    out = [f"Settings: {json.dumps(settings)}", "",
           "| subject | reports | queries | Java files | gold files found | reports skipped | commit |",
           "|---|---|---|---|---|---|---|"]
    for r in results:
        c = r.manifest["counts"]
        out.append(f"| {r.subject} | {c['bug_reports']} | {c['queries']} | {c['java_files']} (tree {c['tree_java_files']}) "
                   f"| {c['gold_files_found']} of {c['gold_files']} | {sum(r.manifest['skipped'].values())} "
                   f"| {r.manifest['ref']} {r.manifest['commit'][:12]} |")
    out += ["", "MAP and MRR with Bench4BL's definitions over every report of the XML (Old_MAP/Old_MRR beside; the "
            "mean of Old_AP/Old_TP after the slash):", "",
            "| subject | system | MAP | MRR | no results |", "|---|---|---|---|---|"]
    sums = [summary(r) for r in results]
    for s in sums:
        for t in TOOLS:
            p = s["published"][t]
            out.append(f"| {s['subject']} | {t} (published) | {_f(p['map_table'])} / {_f(p['map_from_ap'])} | "
                       f"{_f(p['mrr_table'])} / {_f(p['mrr_from_tp'])} | |")
        for name, a in s["arms"].items():
            out.append(f"| {s['subject']} | ours: {name} | {_f(a['map'])} | {_f(a['mrr'])} | {a['no_results']} |")
    out += ["", "Per report (AP): correlation with each tool, and reports where ours is above / level / below it:", "",
            "| subject | ours | vs | reports | Pearson | Spearman | above | level | below |",
            "|---|---|---|---|---|---|---|---|---|"]
    for s in sums:
        for name, a in s["arms"].items():
            for t, v in a["vs"].items():
                out.append(f"| {s['subject']} | {name} | {t} | {s['compared']} | {_f(v['pearson_ap'], 3)} | "
                           f"{_f(v['spearman_ap'], 3)} | {v['above']} | {v['level']} | {v['below']} |")
    return "\n".join(out) + "\n"


def cited(root: Path, record) -> tuple:
    """The analysis tables' MAP and MRR of each tool for every subject of ``record``: the values its anchors
    type (``Old_MAP``/``Old_MRR`` of a Bench4BL checkout, or of a mirror at HEAD)."""
    from hermes_eval.reproduce.kind import Published

    commit = None if (Path(root) / "analysis").is_dir() else _commit(root)
    out = []
    for v in record.variants:
        subject = dict(v.options)["subject"]
        for key, metric, name in (("map", "file_map", "Old_MAP"), ("mrr", "file_mrr@10", "Old_MRR")):
            _, rows = read_table(analysis_file(root, name))
            row = next((r for r in rows if r.get("Project") == subject), None)
            out += [Published(v.name, metric, float(row[t]), f"analysis/{name}.txt", commit, t)
                    for t in TOOLS if row is not None and t in row]
    return tuple(out)


def _commit(root: Path) -> str | None:
    proc = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True)
    return proc.stdout.strip() or None if proc.returncode == 0 else None


def reproduce(request):
    """The kind's entry: the variant's subject (else every one), the ``retrievers`` and ``chunker`` options, the
    Bench4BL checkout or mirror ``bench4bl=DIR`` (default under HERMES_MIRRORS)."""
    from hermes_eval.config.benchmarks import LOCATIONS
    from hermes_eval.reproduce.kind import Outcome

    variants = [request.record.variant(request.variant)] if request.variant else list(request.record.variants)
    retrievers = [w for w in request.option("retrievers", "bm25,lucene6_bm25").split(",") if w]
    chunker = request.option("chunker", "whole_file")
    bench4bl = Path(request.option("bench4bl", "") or Path(LOCATIONS["HERMES_MIRRORS"].value()) / MIRROR)
    cache = Path(request.option("cache", ".cache"))
    data = str(request.data) if request.data else None
    with tempfile.TemporaryDirectory() as tmp:
        results = [run_subject(v.name, retrievers, chunker, Path(tmp), cache, data, bench4bl) for v in variants]
    rows = tuple({"subject": r.subject, "bug": b, **{f"{a.retriever} ap": a.ap[b] for a in r.arms},
                  **{f"{a.retriever} tp": a.tp[b] for a in r.arms},
                  **{f"{t} ap": r.published["ap"].get(b, {}).get(t) for t in TOOLS}} for r in results for b in r.bugs)
    settings = {"retrievers": retrievers, "chunker": chunker, "bench4bl": str(bench4bl)}
    return Outcome("bench4bl_compare", rows, {r.subject: summary(r) for r in results}, report(results, settings),
                   settings, cited(bench4bl, request.record))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hermes_eval.reproduce.bench4bl_compare", description=__doc__.split("\n\n")[0])
    p.add_argument("--subjects", default="ZXing,SWT,AspectJ")
    p.add_argument("--retrievers", default="bm25,lucene6_bm25", help="retriever presets (their sparse leg)")
    p.add_argument("--chunker", default="whole_file")
    p.add_argument("--data", default=None, help="the record's data folder (default: the record's, under HERMES_MIRRORS)")
    p.add_argument("--bench4bl", type=Path, default=None, help=f"Bench4BL (default $HERMES_MIRRORS/{MIRROR})")
    p.add_argument("--datasets", type=Path, default=None, help="where the query sets are imported (default: a temporary folder)")
    p.add_argument("--cache", type=Path, default=Path(".cache"))
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args(argv)
    from hermes_eval.config.benchmarks import LOCATIONS, benchmark
    from hermes_eval.config.compose import CONF_DIR

    record = benchmark(RECORD, CONF_DIR)
    variants = {dict(v.options)["subject"]: v.name for v in record.variants}
    bench4bl = a.bench4bl or Path(LOCATIONS["HERMES_MIRRORS"].value()) / MIRROR
    wanted = [s.strip() for s in a.subjects.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in variants]
    if unknown:
        raise SystemExit(f"--subjects: {unknown[0]} is not a subject of conf/benchmarks/{RECORD}.yaml ({', '.join(variants)})")
    retrievers = [r.strip() for r in a.retrievers.split(",") if r.strip()]
    settings = {"retrievers": retrievers, "chunker": a.chunker, "bench4bl": str(bench4bl)}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        datasets = a.datasets or Path(tmp)
        results = []
        for s in wanted:
            results.append(run_subject(variants[s], retrievers, a.chunker, datasets, a.cache, a.data, bench4bl))
            print(f"{s}: {json.dumps(summary(results[-1])['arms'])}", file=sys.stderr)
    text = report(results, settings) + f"\nWall time: {time.perf_counter() - started:.1f} s\n"
    if a.out:
        a.out.write_text(text)
    print(text)
    if a.json:
        a.json.write_text(json.dumps({"settings": settings, "subjects": [
            {**summary(r), "manifest_counts": r.manifest["counts"], "skipped": r.manifest["skipped"],
             "per_report": {b: {"ours": {arm.retriever: {"ap": arm.ap[b], "tp": arm.tp[b]} for arm in r.arms},
                                **{t: {"ap": r.published["ap"].get(b, {}).get(t), "tp": r.published["tp"].get(b, {}).get(t)}
                                   for t in TOOLS}} for b in r.bugs}} for r in results]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
