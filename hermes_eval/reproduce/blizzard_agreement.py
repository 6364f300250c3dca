"""The BLIZZARD baseline (Lucene 6.2.0, StandardAnalyzer, BM25) reproduced bug by bug, without Java.

    hermes-eval benchmark blizzard --reproduce  (the record's reproduction: every project, its board's README)
    python -m hermes_eval.reproduce.blizzard_agreement [--package DIR] [--projects tomcat70,ecf]
        [--documents norm-class|raw] [--max-query-words 1024] [--query-encoding cp1252]
        [--out FILE.md] [--json FILE]

For each project: the package's corpus indexed in Lucene's document order (file names sorted as
strings, as the shipped index holds them) with :class:`retrievers.sparse.lucene.Lucene6BM25Index`
(documents through BLIZZARD's normalization, ``--documents norm-class``, or raw through
StandardAnalyzer, ``raw``), every ``Baseline/Query`` query ranked in full, and the rank of the first
gold file computed as ``LuceneSearcher.getFirstGoldRankClass`` does it (results mapped through the
``.ckeys`` file, a hit when the original path ends with a gold line; 1-based, -1 none). That rank is
compared with ``Baseline/QE`` (identical, within one, different), and Hit@10, MAP@10 and MRR@10 are
computed with the package's definitions (``BLIZZARDResultProvider``: the top 10 in dotted form, AP
divided by the gold files found in the top 10, each mean over the class's bug list) beside the same
metrics of the package's own top 10 (``Baseline/Result``). ``--package`` defaults to the mirror under
``HERMES_MIRRORS`` (``OWNER+NAME/repo``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from hermes_eval.judge.average_precision import average_precision as ap
from hermes_eval.querysets.readers.blizzard_package import CLASSES, PROJECTS, QUERY_ENCODING, Package
from retrievers.sparse.blizzard import NormClassAnalyzer
from retrievers.sparse.lucene import Lucene6BM25Index, StandardAnalyzer

MIRROR = "masud-technope+BLIZZARD-Replication-Package-ESEC-FSE2018/repo"
K = 10


def default_package() -> Path:
    return Path(os.environ.get("HERMES_MIRRORS", ".cache/mirrors")) / MIRROR


def first_gold_rank(originals: list[str], gold: list[str] | None) -> int:
    """``ClassResultRankMgr.getFirstGoldRank``: 1-based position of the first result whose original path
    ends with a gold line, -1 when none does (or the bug has no gold file)."""
    if not gold:
        return -1
    for i, path in enumerate(originals, start=1):
        if any(path.endswith(g) for g in gold):
            return i
    return -1


def found_indices(originals: list[str], gold: list[str] | None, k: int = K) -> list[int]:
    """``getCorrectRanksDotted(k)``: the top-k positions (1-based) that match a gold line, both in dotted
    form, one entry per (result, gold line) match."""
    dotted = [g.replace("\\", ".").replace("/", ".") for g in gold or []]
    return [i for i, p in enumerate(originals[:k], start=1) for g in dotted
            if p.replace("\\", ".").replace("/", ".").endswith(g)]


def average_precision(found: list[int]) -> float:
    """``BLIZZARDResultProvider.getAP``: precision at each distinct found rank, divided by their number (the
    one average precision, ``gold_found``)."""
    return ap(found, denominator="gold_found")


def top_metrics(found: dict[str, list[int]], bugs: list[str]) -> dict[str, float]:
    """Hit@10, MAP@10, MRR@10 over ``bugs`` (a bug without results scores 0)."""
    n = len(bugs) or 1
    hit = sum(1 for b in bugs if found.get(b))
    ap = sum(average_precision(found.get(b, [])) for b in bugs)
    rr = sum(1 / min(found[b]) for b in bugs if found.get(b))
    return {"bugs": len(bugs), "hit@10": hit / n, "map@10": ap / n, "mrr@10": rr / n}


@dataclass
class ProjectResult:
    project: str
    documents: int
    build_s: float
    search_s: float
    ranks: dict[str, int]  # ours
    package_ranks: dict[str, int]  # Baseline/QE
    ties: dict[str, int] = field(default_factory=dict)  # documents scored like our first gold file
    dropped: list[str] = field(default_factory=list)  # queries over Lucene's clause limit
    metrics: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)  # class -> system -> values

    def agreement(self) -> dict[str, int]:
        both = [b for b in self.package_ranks if b in self.ranks]
        diff = [abs(self.ranks[b] - self.package_ranks[b]) for b in both]
        return {"compared": len(both), "identical": sum(d == 0 for d in diff),
                "within_1": sum(d <= 1 for d in diff), "different": sum(d > 0 for d in diff),
                "qe_without_query": sum(1 for b in self.package_ranks if b not in self.ranks)}

    def disagreements(self) -> list[tuple[str, int, int, int]]:
        return [(b, self.package_ranks[b], self.ranks[b], self.ties.get(b, 0)) for b in self.package_ranks
                if b in self.ranks and self.ranks[b] != self.package_ranks[b]]


def run_project(pkg: Package, project: str, documents: str = "norm-class", max_query_words: int | None = 1024,
                query_encoding: str = QUERY_ENCODING) -> ProjectResult:
    mapping = pkg.mapping(project)
    names = sorted(pkg.names(f"Corpus/{project}"))  # Lucene's doc ids: File.list() order on NTFS
    start = time.perf_counter()
    texts = [(pkg.read(f"Corpus/{project}/{n}") or b"").decode("utf-8", "replace") for n in names]
    index = Lucene6BM25Index(tokenizer=NormClassAnalyzer() if documents == "norm-class" else StandardAnalyzer(),
                             query_tokenizer=StandardAnalyzer(), max_query_words=max_query_words)
    index.build(names, texts)
    built = time.perf_counter()
    queries = pkg.tsv(f"Baseline/Query/{project}.txt", query_encoding)
    package_ranks = {b: int(r) for b, r in pkg.tsv(f"Baseline/QE/{project}.txt").items() if r.strip().lstrip("-").isdigit()}
    ranks: dict[str, int] = {}
    ties: dict[str, int] = {}
    dropped: list[str] = []
    found: dict[str, list[int]] = {}
    for bug, query in queries.items():
        gold = pkg.gold(project, bug)
        if not query or index.clauses(query) is None:
            dropped += [bug] if query else []
            ranks[bug], found[bug] = -1, []
            continue
        ranked = index.rank(query)
        # results whose file the mapping lacks are skipped, as translateResults skips them
        kept = [(d, s) for d, s in ranked if names[d] in mapping]
        originals = [mapping[names[d]] for d, _ in kept]
        ranks[bug] = first_gold_rank(originals, gold)
        if ranks[bug] > 0:
            score = kept[ranks[bug] - 1][1]
            ties[bug] = sum(1 for _, s in kept if s == score)
        found[bug] = found_indices(originals, gold)
    searched = time.perf_counter()
    result = ProjectResult(project, len(names), built - start, searched - built, ranks, package_ranks, ties, dropped)
    package_found = _package_found(pkg, project)
    classes = pkg.classes(project)
    lists = {c: [b for b, k in classes.items() if k == c] for c in CLASSES}
    lists["ALL"] = [b.strip() for b in (pkg.text(f"BR-Classes/{project}/BR-ALL.txt") or "").split()] or list(classes)
    for c, bugs in lists.items():
        qe_found = {b: [r] for b, r in package_ranks.items() if 0 < r <= K}
        result.metrics[c] = {"ours": top_metrics(found, bugs), "package": top_metrics(package_found, bugs),
                             "package_qe": top_metrics(qe_found, bugs)}
    return result


def _package_found(pkg: Package, project: str) -> dict[str, list[int]]:
    """Found indices of the package's own top 10 (``Baseline/Result``: ``bug<TAB>dotted path`` lines)."""
    results: dict[str, list[str]] = {}
    for line in (pkg.text(f"Baseline/Result/{project}.txt") or "").splitlines():
        bug, tab, path = line.partition("\t")
        if tab:
            results.setdefault(bug.strip(), []).append(path.strip())
    return {b: found_indices(paths, pkg.gold(project, b)) for b, paths in results.items()}


def report(results: list[ProjectResult], settings: dict) -> str:
    """The agreement and metric tables in markdown."""
    out = [f"Settings: {json.dumps(settings)}", "",
           "| project | documents | bugs in QE | compared | identical | within ±1 | different | over 1024 clauses "
           "| index s | search s |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        a = r.agreement()
        out.append(f"| {r.project} | {r.documents} | {len(r.package_ranks)} | {a['compared']} | {a['identical']} | "
                   f"{a['within_1']} | {a['different']} | {len(r.dropped)} | {r.build_s:.1f} | {r.search_s:.1f} |")
    out += ["", "| project | class | bugs | Hit@10 ours | package | MAP@10 ours | package | MRR@10 ours | package |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        for c in (*CLASSES, "ALL"):
            o, p = r.metrics[c]["ours"], r.metrics[c]["package"]
            out.append(f"| {r.project} | {c} | {o['bugs']} | {o['hit@10']:.3f} | {p['hit@10']:.3f} | {o['map@10']:.3f} | "
                       f"{p['map@10']:.3f} | {o['mrr@10']:.3f} | {p['mrr@10']:.3f} |")
    out += ["", "Disagreements (bug: package rank -> ours; documents tied with our first gold file):", ""]
    for r in results:
        d = r.disagreements()
        out.append(f"- {r.project}: " + (", ".join(f"{b}: {p} -> {o} (ties {t})" for b, p, o, t in d) or "none"))
    return "\n".join(out) + "\n"


# --- the reproduce kind (hermes_eval/reproduce/kind.py) ----------------------------------------------------------
METRICS = {"hit@10": "file_hit@10", "map@10": "file_map_found@10", "mrr@10": "file_mrr@10"}  # theirs -> ours


def _n(x: int) -> str:
    return f"{x:,}"


def board_table(results: list[ProjectResult]) -> str:
    """The board README's agreement table: first-gold ranks against ``Baseline/QE``, per project and all."""
    out = ["| project | documents | reports compared | identical rank | within ±1 | different |",
           "|:--|--:|--:|--:|--:|--:|"]
    total = Counter()
    for r in results:
        a = r.agreement()
        total.update({k: a[k] for k in ("compared", "identical", "within_1", "different")})
        out.append(f"| {r.project} | {_n(r.documents)} | {_n(a['compared'])} | {_n(a['identical'])} | "
                   f"{_n(a['within_1'])} | {_n(a['different'])} |")
    if len(results) > 1:
        out.append(f"| **all** | | **{_n(total['compared'])}** | **{_n(total['identical'])}** | "
                   f"**{_n(total['within_1'])}** | **{_n(total['different'])}** |")
    return "\n".join(out) + "\n"


def projects_of(request) -> tuple[str, ...]:
    """The variant's project, else the ``projects`` option (comma-separated or all), else the record's."""
    if request.variant:
        return (dict(request.record.variant(request.variant).options)["project"],)
    wanted = request.option("projects", "")
    if wanted == "all":
        return PROJECTS
    if wanted:
        return tuple(w for w in wanted.split(",") if w)
    return tuple(dict.fromkeys(dict(v.options)["project"] for v in request.record.variants))


def reproduce(request):
    """The kind's entry: every project's agreement, per query, and the package's metrics for the anchors."""
    from hermes_eval.reproduce.kind import Outcome, Published

    pkg = Package.open(request.data_folder(), request.option("commit", "") or None)
    documents = request.option("documents", "norm-class")
    words = int(request.option("max_query_words", "1024")) or None
    encoding = request.option("query_encoding", QUERY_ENCODING)
    try:
        results = [run_project(pkg, p, documents, words, encoding) for p in projects_of(request)]
    finally:
        pkg.close()
    commit = pkg.source.get("commit")
    rows = tuple({"project": r.project, "bug": b, "package_rank": r.package_ranks.get(b), "rank": rank,
                  "ties": r.ties.get(b, 0), "over_clause_limit": b in r.dropped}
                 for r in results for b, rank in r.ranks.items())
    published = tuple(Published(v.name, METRICS[m], r.metrics["ALL"]["package"][m], f"Baseline/Result/{r.project}.txt",
                                commit)
                      for r in results for v in request.record.variants
                      if dict(v.options).get("project") == r.project and dict(v.options).get("query") == "baseline"
                      for m in METRICS)
    summary = {r.project: {"agreement": r.agreement(), "metrics": r.metrics, "disagreements": r.disagreements()}
               for r in results}
    settings = {"package": pkg.source, "documents": documents, "max_query_words": words, "query_encoding": encoding}
    return Outcome("blizzard_agreement", rows, summary, board_table(results), settings, published)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hermes_eval.reproduce.blizzard_agreement", description=__doc__.split("\n\n")[0])
    p.add_argument("--package", type=Path, default=None, help=f"the package (default $HERMES_MIRRORS/{MIRROR})")
    p.add_argument("--commit", default=None)
    p.add_argument("--projects", default="tomcat70", help=f"comma-separated, or all ({', '.join(PROJECTS)})")
    p.add_argument("--documents", choices=("norm-class", "raw"), default="norm-class")
    p.add_argument("--max-query-words", type=int, default=1024, help="0: no cut")
    p.add_argument("--query-encoding", default=QUERY_ENCODING, help="how to read Baseline/Query (the run: cp1252)")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args(argv)
    pkg = Package.open(a.package or default_package(), a.commit)
    projects = PROJECTS if a.projects == "all" else tuple(a.projects.split(","))
    settings = {"package": pkg.source, "documents": a.documents, "max_query_words": a.max_query_words or None,
                "query_encoding": a.query_encoding}
    started = time.perf_counter()
    results = []
    try:
        for project in projects:
            results.append(run_project(pkg, project, a.documents, a.max_query_words or None, a.query_encoding))
            print(f"{project}: {results[-1].agreement()}", file=sys.stderr)
    finally:
        pkg.close()
    text = report(results, settings) + f"\nWall time: {time.perf_counter() - started:.1f} s\n"
    if a.out:
        a.out.write_text(text)
    print(text)
    if a.json:
        a.json.write_text(json.dumps({"settings": settings, "projects": [
            {"project": r.project, "agreement": r.agreement(), "metrics": r.metrics, "ranks": r.ranks,
             "package_ranks": r.package_ranks, "ties": r.ties, "dropped": r.dropped, "build_s": r.build_s,
             "search_s": r.search_s} for r in results]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
