"""Gandhi, Gao & Callan 2025's BM25 baseline (arXiv 2502.07067; Siddharth-Gandhi/ds, ``src/bm25_v2.py``,
``src/eval.py``) reproduced from the repository's git history, query by query, without Java.

    python -m hermes_eval.reproduce.commit_bm25 --repo redis/redis [--release DIR] [--mirrors DIR]
        [--query rewritten|original] [--until 2023-10-30] [--depth 1000] [--collection all|past]
        [--tokenizer p50k|words] [--norms impact|lucene] [--json FILE] [--out FILE.md]

- Index (``commit_index.py``): one document per (commit, changed code file), contents = the commit
  message, every commit reachable from the default branch's tip at ``--until`` (their scrape, before
  ``misc/repos_bm25_stats.csv`` was committed on 2023-10-30).
- Terms: the message's ``p50k_base`` BPE ids (``tiktoken``; ``retrievers/sparse/bpe.py``, ranks from the
  ``openai-whisper`` package with tiktoken's sha256), indexed ``-pretokenized``. ``--tokenizer words``
  is the comparison arm: Lucene's StandardAnalyzer words, lower-cased, no stop words removed.
- Ranking: Pyserini's ``LuceneSearcher`` defaults, Lucene 9 BM25 k1 0.9, b 0.4, built with ``-impact``
  (``--norms impact``: every stored length 1, ``retrievers.sparse.lucene.Lucene9BM25Index``); the top
  ``--depth`` documents of the whole index, ties by commit id, then those whose commit is strictly older
  than the query's commit are kept (``--collection all``, theirs). ``--collection past`` instead builds
  the collection of the older documents only (statistics included) and keeps its top ``--depth``.
- Files: each file's score is the best of its documents (``maxp``), files in that order (ties in the order
  of their best document).
- Metrics (``SearchEvaluator``): MAP as theirs (AP divided by the gold files *retrieved*, 0 when none) and
  standard (divided by |gold|), MRR, P@1, P@10, R@10, R@100, R@1000, each mean over queries rounded to 4
  places; gold = the release's ``actual_files_modified``, all of them.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from hermes_eval.core.errors import UserError
from hermes_eval.judge.average_precision import average_precision as ap
from hermes_eval.judge.average_precision import ranks_of
from hermes_eval.reproduce.commit_index import Doc, build
from hermes_eval.querysets.mined.commits import check_repository, git
from hermes_eval.corpus.mirrors import find_repo
from hermes_eval.querysets.readers.gandhi_gold import Release, Row
from retrievers.sparse.bpe import BytePairEncoder, check, p50k_from_r50k, parse_ranks
from retrievers.sparse.lucene import Lucene9BM25Index, StandardAnalyzer
from retrievers.sparse.memo import MemoTokenizer

RELEASE = "Siddharth-Gandhi+ds/repo"
RANKS_PACKAGE = "pypi:openai-whisper==20250625"  # ships whisper/assets/gpt2.tiktoken (r50k_base)
UNTIL = "2023-10-23"  # redis: the tip whose index has their 11,077 commits (misc/repos_bm25_stats.csv)
STATS = "misc/repos_bm25_stats.csv"  # their own BM25's MAP, MRR, P@k per repository
STATS_COMMIT = "1ccfa757bd50956cee89453fdca66c94c388dcb2"  # the commit the record's anchor cites
STATS_METRICS = {"MRR": "file_mrr@10"}  # their column -> the metric the record sets it beside
METRICS = ("MAP", "MAP_std", "MRR", "P@1", "P@10", "R@10", "R@100", "R@1000")


# --- metrics (src/eval.py SearchEvaluator) ----------------------------------------------------------------

def average_precision(ranked: Sequence[str], gold: set[str], denominator: str = "retrieved") -> float:
    """AP over the whole ranked list (the one average precision); ``retrieved``: divided by the gold files
    found (theirs, and BLIZZARD's: ``gold_found``), ``gold``: by |gold| (the standard: ``all_gold``)."""
    ranks = ranks_of(ranked, gold)
    return ap(ranks, 0, "gold_found") if denominator == "retrieved" else ap(ranks, len(gold), "all_gold")


def evaluate(ranked: Sequence[str], gold: Sequence[str]) -> dict[str, float]:
    g = set(gold)
    rel = [1 if f in g else 0 for f in ranked]
    first = next((i for i, r in enumerate(rel) if r), None)
    out = {"MAP": average_precision(ranked, g, "retrieved"), "MAP_std": average_precision(ranked, g, "gold"),
           "MRR": 1 / (first + 1) if first is not None else 0.0}
    for k in (1, 10):
        out[f"P@{k}"] = sum(rel[:k]) / k
    for k in (10, 100, 1000):
        out[f"R@{k}"] = len({f for f in ranked[:k] if f in g}) / len(g) if g else 0.0
    return out


def mean(results: list[dict[str, float]]) -> dict[str, float]:
    return {m: round(float(np.mean([r[m] for r in results])), 4) for m in METRICS} if results else {}


# --- the searcher -----------------------------------------------------------------------------------------

@dataclass
class CommitSearcher:
    """BM25 over the documents, their dates beside them, ranking files per query."""

    docs: list[Doc]
    index: Lucene9BM25Index

    @classmethod
    def build(cls, docs: list[Doc], tokenizer, impact_norms: bool = True) -> "CommitSearcher":
        index = Lucene9BM25Index(tokenizer=tokenizer, impact_norms=impact_norms)
        index.build([d.commit for d in docs], [d.message for d in docs])
        return cls(docs, index)

    def __post_init__(self) -> None:
        self.dates = np.array([d.date for d in self.docs], dtype=np.int64)

    def hits(self, query: str, date: int, depth: int = 1000, collection: str = "all") -> list[tuple[int, float]]:
        """(document, score) best first, ties in document order, only documents strictly older than ``date``."""
        terms = self.index.clauses(query)
        if not terms:
            return []
        older = self.dates < date
        matched, scores = self.index.scores(terms, older if collection == "past" else None)
        order = np.lexsort((matched, -scores.astype(np.float64)))[:depth]
        return [(int(matched[i]), float(scores[i])) for i in order if older[matched[i]]]

    def files(self, query: str, date: int, depth: int = 1000, collection: str = "all") -> list[str]:
        """Files by their best document's score (``maxp``), ties in first-appearance order."""
        best: dict[str, float] = {}
        for doc, score in self.hits(query, date, depth, collection):
            path = self.docs[doc].path
            if path not in best:
                best[path] = score
        return sorted(best, key=lambda p: -best[p])  # stable: first appearance breaks ties


# --- loading -----------------------------------------------------------------------------------------------

def p50k_ranks(cache: Path) -> dict[bytes, int]:
    """tiktoken's ``p50k_base`` ranks, built from the ``openai-whisper`` package's GPT-2 ranks (both
    checked against tiktoken's sha256)."""
    from hermes_eval.corpus.sources import resolve

    root = resolve(RANKS_PACKAGE, cache).root
    found = sorted(Path(root).rglob("whisper/assets/gpt2.tiktoken"))
    if not found:
        raise UserError(f"{RANKS_PACKAGE}: no whisper/assets/gpt2.tiktoken in {root}; the package layout changed")
    return parse_ranks(check(p50k_from_r50k(check(found[0].read_bytes(), "r50k_base")), "p50k_base"))


def tokenizer(kind: str, cache: Path):
    if kind == "p50k":
        return MemoTokenizer(BytePairEncoder(p50k_ranks(cache)))
    if kind == "words":
        return MemoTokenizer(StandardAnalyzer(stopwords=False))
    raise UserError(f"--tokenizer {kind}: use p50k or words")


def tip_at(repo: Path, until: str | None) -> str:
    """The default branch's newest first-parent commit before ``until`` (YYYY-MM-DD), or its tip."""
    args = ["rev-list", "-1", "--first-parent"] + ([f"--before={until}T00:00:00Z"] if until else []) + ["HEAD", "--"]
    tip = git(repo, *args).decode().strip()
    if not tip:
        raise UserError(f"--until {until}: no commit of {repo} before it")
    return tip


def code_extensions(release: Release) -> frozenset[str]:
    data = release.read("misc/code_extensions.json")
    if data is None:
        raise UserError(f"{release.root}: no misc/code_extensions.json (the release's list of code extensions)")
    return frozenset(json.loads(data))


def run(rows: list[Row], searcher: CommitSearcher, query: str = "rewritten", depth: int = 1000,
        collection: str = "all") -> tuple[dict[str, float], list[dict]]:
    per_query = []
    for row in rows:
        text = row.rewritten if query == "rewritten" else row.message
        ranked = searcher.files(text, row.date, depth, collection)
        per_query.append({"commit": row.commit, "gold": list(row.files), "retrieved": len(ranked),
                          **evaluate(ranked, row.files)})
    return mean(per_query), per_query


def cited(root: Path, record, commit: str | None = STATS_COMMIT) -> tuple:
    """Their published per-repository values (``misc/repos_bm25_stats.csv``, at ``commit`` of a mirror; a
    checkout as it is) for every repository of ``record``'s variants: the values its anchors type."""
    import csv
    import io

    from hermes_eval.querysets.readers.release_tree import is_git
    from hermes_eval.reproduce.kind import Published

    release = Release.open(root, commit if is_git(Path(root)) else None)
    data = release.read(STATS)
    if data is None:
        raise UserError(f"{root}: no {STATS} (their BM25 statistics): give the release of Siddharth-Gandhi/ds")
    rows = {r["repo_name"]: r for r in csv.DictReader(io.StringIO(data.decode("utf-8")))}
    out = []
    for v in record.variants:
        row = rows.get(dict(v.options)["repo"].replace("/", "_"))
        out += [Published(v.name, metric, float(row[column]), STATS, release.commit)
                for column, metric in STATS_METRICS.items() if row is not None]
    return tuple(out)


def reproduce(request):
    """The kind's entry: the variant's repository (else every one of the record's), its mirror under
    HERMES_MIRRORS (``mirrors=DIR``), the release as the record's data folder; options ``query``, ``tokenizer``,
    ``until``, ``depth``, ``collection``, ``norms``, ``cache``."""
    from hermes_eval.config.benchmarks import LOCATIONS
    from hermes_eval.reproduce.kind import Outcome

    variants = [request.record.variant(request.variant)] if request.variant else list(request.record.variants)
    repos = list(dict.fromkeys(dict(v.options)["repo"] for v in variants))
    mirrors = Path(request.option("mirrors", "") or LOCATIONS["HERMES_MIRRORS"].value())
    release = Release.open(request.data_folder())
    extensions = code_extensions(release)
    kind, query = request.option("tokenizer", "p50k"), request.option("query", "rewritten")
    until, depth, collection = request.option("until", UNTIL), int(request.option("depth", "1000")), request.option("collection", "all")
    rows, summary, table = [], {}, ["| repository | queries | " + " | ".join(METRICS) + " |",
                                    "|:--|--:|" + "--:|" * len(METRICS)]
    for repo in repos:
        mirror = find_repo(mirrors, repo)
        if mirror is None:
            raise UserError(f"commit_bm25: no mirror of {repo} under {mirrors}: clone it there (the record's "
                            f"data.mirrors says how) or give mirrors=DIR")
        mirror = check_repository(mirror)
        _, release_rows = release.rows(repo)
        docs, counts = build(mirror, tip_at(mirror, until), extensions)
        searcher = CommitSearcher.build(docs, tokenizer(kind, Path(request.option("cache", ".cache"))),
                                        impact_norms=request.option("norms", "impact") == "impact")
        means, per_query = run(release_rows, searcher, query, depth, collection)
        rows += [{"repository": repo, **q} for q in per_query]
        summary[repo] = {"metrics": means, "index": counts}
        table.append(f"| {repo} | {len(per_query)} | " + " | ".join(f"{means[m]:.4f}" for m in METRICS) + " |")
    settings = {"release": release.source, "tokenizer": kind, "query": query, "until": until, "depth": depth,
                "collection": collection}
    return Outcome("commit_bm25", tuple(rows), summary, "\n".join(table) + "\n", settings,
                   cited(request.data_folder(), request.record, request.option("stats_commit", STATS_COMMIT)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m hermes_eval.reproduce.commit_bm25",
                                 description=__doc__.split("\n\n")[0])
    mirrors = Path(os.environ.get("HERMES_MIRRORS", ".cache/mirrors"))
    ap.add_argument("--repo", action="append", required=True, help="OWNER/NAME (repeatable)")
    ap.add_argument("--release", type=Path, default=None, help="Siddharth-Gandhi/ds, a checkout or mirror "
                    "(default: under HERMES_MIRRORS)")
    ap.add_argument("--mirrors", type=Path, default=mirrors, help="the folder of OWNER+NAME/repo mirrors")
    ap.add_argument("--query", choices=("rewritten", "original", "both"), default="both")
    ap.add_argument("--until", default=UNTIL)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--collection", choices=("all", "past"), default="all")
    ap.add_argument("--tokenizer", action="append", choices=("p50k", "words"), default=None)
    ap.add_argument("--norms", choices=("impact", "lucene"), default="impact")
    ap.add_argument("--cache", type=Path, default=Path(".cache"))
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    release = Release.open(args.release or args.mirrors / RELEASE)
    extensions = code_extensions(release)
    report: dict = {"release": release.source, "until": args.until, "depth": args.depth,
                    "collection": args.collection, "norms": args.norms, "repos": {}}
    for repo in args.repo:
        mirror = find_repo(args.mirrors, repo)
        if mirror is None:
            raise UserError(f"--mirrors {args.mirrors}: no mirror of {repo}")
        mirror = check_repository(mirror)
        _, rows = release.rows(repo)
        tip = tip_at(mirror, args.until)
        t0 = time.perf_counter()
        docs, counts = build(mirror, tip, extensions)
        t_docs = time.perf_counter() - t0
        entry = {"tip": tip, "index": counts, "seconds": {"documents": round(t_docs, 1)}, "runs": {}}
        for kind in args.tokenizer or ["p50k"]:
            t1 = time.perf_counter()
            tok = tokenizer(kind, args.cache)
            searcher = CommitSearcher.build(docs, tok, impact_norms=args.norms == "impact")
            t_index = time.perf_counter() - t1
            entry["index"][f"unique_terms_{kind}"] = len(searcher.index._rows)
            entry["index"][f"total_terms_{kind}"] = int(searcher.index.lengths.sum())
            for q in (("rewritten", "original") if args.query == "both" else (args.query,)):
                t2 = time.perf_counter()
                means, per_query = run(rows, searcher, q, args.depth, args.collection)
                entry["runs"][f"{kind}/{q}"] = {"metrics": means, "queries": len(per_query),
                                                "seconds_search": round(time.perf_counter() - t2, 1),
                                                "seconds_index": round(t_index, 1), "per_query": per_query}
                print(f"{repo} {kind}/{q}: {json.dumps(means)}", flush=True)
        report["repos"][repo] = entry
        print(f"{repo}: tip {tip[:12]}, {json.dumps(counts)}, documents {t_docs:.1f} s", flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
