"""A minimal blob-cached BM25 over a snapshot query set (a mined history, Ye et al., Gandhi, SWE-bench): the
floor that ``snapshot_sets.py`` holds the harness's BM25 arms to.

For each query, its snapshot (``meta.scope`` ``NAME@COMMIT8/``, the commit from the query set's
``corpus_sources`` ``git:REPO@COMMIT``) is listed with ``git ls-tree``; each file of the indexed languages
is read through a cache keyed by its git blob id (one ``git cat-file --batch`` per repository), so a file
unchanged between snapshots is read and tokenized once; a plain rank-bm25 ``BM25Okapi`` (the ``bm25``
preset's library) is built over the snapshot's files and the snapshot's queries take their top k. Nothing
else: no masking, chunking, hygiene, judging or records. It shares no code with the harness on purpose.
Tokens: alphanumeric runs, their camelCase parts plus the whole identifier, lower case.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from hermes_eval.costs.snapshot_reference import tokens

# the indexed languages' file names (the query set's ``corpus_languages``); none given: these all
SUFFIXES = {"python": (".py",), "java": (".java",), "c": (".c", ".h"), "cpp": (".cc", ".cpp", ".cxx", ".hpp", ".hh"),
            "javascript": (".js",), "typescript": (".ts",), "go": (".go",), "rust": (".rs",)}


class BlobCache:
    """One ``git cat-file --batch`` per repository; a blob's tokens kept by its id (token strings interned)."""

    def __init__(self, repo: Path, suffixes: tuple[str, ...]):
        self.repo, self.suffixes = repo, suffixes
        self.proc = subprocess.Popen(["git", "-C", str(repo), "cat-file", "--batch"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)
        self.tokens: dict[str, list[str]] = {}
        self.vocab: dict[str, str] = {}

    def tree(self, commit: str) -> list[tuple[str, str]]:
        """(path, blob id) of the indexed files at ``commit``."""
        out = subprocess.run(["git", "-C", str(self.repo), "ls-tree", "-r", "-z", commit], capture_output=True,
                             check=True).stdout.decode("utf-8", "surrogateescape")
        rows = []
        for entry in out.split("\0"):
            if entry:
                meta, path = entry.split("\t", 1)
                mode, kind, sha = meta.split()
                if kind == "blob" and mode != "120000" and path.endswith(self.suffixes):
                    rows.append((path, sha))
        return rows

    def tokenized(self, sha: str) -> list[str]:
        got = self.tokens.get(sha)
        if got is None:
            self.proc.stdin.write(sha.encode() + b"\n")
            self.proc.stdin.flush()
            size = int(self.proc.stdout.readline().split()[2])
            text = self.proc.stdout.read(size + 1)[:size].decode("utf-8", "replace")
            vocab = self.vocab
            got = self.tokens[sha] = [vocab.setdefault(t, t) for t in tokens(text)]
        return got

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()
        self.proc.stdout.close()


@dataclass
class Snapshot:
    scope: str
    files: int
    new_blobs: int  # blobs this snapshot read and tokenized (not in the cache)
    seconds: float  # list, read, tokenize, build BM25, search its queries


@dataclass
class Result:
    queries: int
    snapshots: list[Snapshot] = field(default_factory=list)
    rankings: dict[str, list[str]] = field(default_factory=dict)  # qid -> top-k paths inside the snapshot
    wall_s: float = 0.0


def load(queryset_dir: Path) -> tuple[list[dict], dict[str, tuple[Path, str]], tuple[str, ...]]:
    """The query set's queries (qid, query, scope, gold paths inside the snapshot), each scope's (repository,
    commit) and the indexed file suffixes, from its ``queries.parquet`` and ``manifest.json``."""
    import pyarrow.parquet as pq

    manifest = json.loads((queryset_dir / "manifest.json").read_text())
    sources = [s[len("git:"):].rsplit("@", 1) for s in manifest.get("corpus_sources", []) if s.startswith("git:")]
    langs = manifest.get("corpus_languages") or list(SUFFIXES)
    suffixes = tuple(x for lang in langs for x in SUFFIXES.get(lang, ()))
    rows, scopes = [], {}
    for r in pq.ParquetFile(queryset_dir / "queries.parquet").read().to_pylist():  # pyarrow alone: no pandas
        r = SimpleNamespace(**r)
        meta = json.loads(r.meta) if isinstance(r.meta, str) else dict(r.meta)
        scope = meta["scope"]
        if scope not in scopes:
            commit8 = scope.split("@", 1)[1].rstrip("/")
            [(repo, commit)] = [(Path(p), c) for p, c in sources if c.startswith(commit8)
                                and scope.split("@")[0] in p] or [(Path(p), c) for p, c in sources
                                                                  if c.startswith(commit8)][:1]
            scopes[scope] = (repo, commit)
        gold = r.gold if not isinstance(r.gold, str) else json.loads(r.gold.replace("'", '"'))
        rows.append({"qid": r.qid, "query": r.query, "scope": scope,
                     "gold": sorted({g["path"][len(scope):] for g in gold})})
    return rows, scopes, suffixes


def run(rows: list[dict], scopes: dict[str, tuple[Path, str]], suffixes: tuple[str, ...], k: int = 100,
        order: list[str] | None = None) -> Result:
    """Each snapshot (in ``order``, else as first seen) built and searched; the time of each."""
    from rank_bm25 import BM25Okapi

    start = time.perf_counter()
    by_scope: dict[str, list[dict]] = {}
    for r in rows:
        by_scope.setdefault(r["scope"], []).append(r)
    caches: dict[Path, BlobCache] = {}
    out = Result(queries=len(rows))
    try:
        for scope in order or list(by_scope):
            t = time.perf_counter()
            repo, commit = scopes[scope]
            cache = caches.get(repo) or caches.setdefault(repo, BlobCache(repo, suffixes))
            before = len(cache.tokens)
            tree = cache.tree(commit)
            docs = [cache.tokenized(sha) for _, sha in tree]
            bm25 = BM25Okapi(docs)
            for q in by_scope[scope]:
                scores = bm25.get_scores(tokens(q["query"]))
                top = sorted(range(len(tree)), key=lambda i: (-scores[i], tree[i][0]))[:k]
                out.rankings[q["qid"]] = [tree[i][0] for i in top]
            out.snapshots.append(Snapshot(scope, len(tree), len(cache.tokens) - before,
                                          round(time.perf_counter() - t, 4)))
    finally:
        for c in caches.values():
            c.close()
    out.wall_s = round(time.perf_counter() - start, 2)
    return out


def mrr(rankings: dict[str, list[str]], rows: list[dict]) -> float:
    """File MRR over the top k (a sanity check that the reference ranks as a BM25 should)."""
    total = 0.0
    for r in rows:
        gold = set(r["gold"])
        total += next((1 / (i + 1) for i, p in enumerate(rankings.get(r["qid"], [])) if p in gold), 0.0)
    return total / max(1, len(rows))


def main(argv: list[str] | None = None) -> int:
    """``python -m hermes_eval.costs.snapshot_sets_reference QUERYSET_DIR [ORDER_JSON]``: one JSON line (queries,
    snapshots, wall seconds, peak RSS MB, file MRR, per-snapshot seconds and new blobs in build order)."""
    import resource

    argv = sys.argv[1:] if argv is None else argv
    rows, scopes, suffixes = load(Path(argv[0]))
    order = json.loads(Path(argv[1]).read_text()) if len(argv) > 1 else None
    res = run(rows, scopes, suffixes, order=order)
    print(json.dumps({"queries": res.queries, "snapshots": len(res.snapshots), "wall_s": res.wall_s,
                      "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                      "file_mrr@100": round(mrr(res.rankings, rows), 4),
                      "per_snapshot": [[s.scope, s.files, s.new_blobs, s.seconds] for s in res.snapshots]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
