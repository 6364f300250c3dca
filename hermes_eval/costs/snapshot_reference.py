"""A minimal, independent SWE-bench file-level BM25: the floor a snapshot-aware harness is held to.

Reads each instance's ``base_commit`` straight from the repository with ``git ls-tree`` and one
``git cat-file --batch`` per repository, tokenizes every distinct ``.py`` blob once (code
tokenizer: alphanumeric runs, camelCase/snake_case parts plus the whole identifier, lower case),
ranks the snapshot's ``.py`` files with BM25 Okapi (rank-bm25's formula: k1 1.5, b 0.75, idf floor
epsilon 0.25 x the mean idf) and scores file nDCG@10 against the golden patch's files. It shares
no code with the harness on purpose: ``make costs`` times our arm against it in one run.
"""
from __future__ import annotations

import math
import re
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_DIFF_FILE = re.compile(r"^--- a/(.+)$", re.M)


def tokens(text: str) -> list[str]:
    out: list[str] = []
    for word in _WORD.findall(text):
        parts = _CAMEL.findall(word)
        out.extend(p.lower() for p in parts)
        if len(parts) > 1:
            out.append(word.lower())
    return out


class Blobs:
    """One ``git cat-file --batch`` process per repository; each blob read and tokenized once."""

    def __init__(self, repo: Path):
        self.repo = repo
        self.proc = subprocess.Popen(["git", "-C", str(repo), "cat-file", "--batch"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)
        self.counts: dict[str, tuple[Counter, int]] = {}

    def tree(self, commit: str) -> list[tuple[str, str]]:
        """(path, blob sha) of every ``.py`` file at ``commit``."""
        out = subprocess.run(["git", "-C", str(self.repo), "ls-tree", "-r", "-z", commit], capture_output=True,
                             check=True).stdout.decode("utf-8", "surrogateescape")
        rows = []
        for entry in out.split("\0"):
            if not entry:
                continue
            meta, path = entry.split("\t", 1)
            mode, kind, sha = meta.split()
            if kind == "blob" and mode != "120000" and path.endswith(".py"):
                rows.append((path, sha))
        return rows

    def read(self, sha: str) -> bytes:
        """The blob's bytes."""
        self.proc.stdin.write(sha.encode() + b"\n")
        self.proc.stdin.flush()
        size = int(self.proc.stdout.readline().split()[2])
        return self.proc.stdout.read(size + 1)[:size]

    def counted(self, sha: str) -> tuple[Counter, int]:
        if sha not in self.counts:
            toks = tokens(self.read(sha).decode("utf-8", "replace"))
            self.counts[sha] = (Counter(toks), len(toks))
        return self.counts[sha]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()
        self.proc.stdout.close()


def bm25_rank(docs: list[tuple[str, Counter, int]], query: list[str], k1: float = 1.5, b: float = 0.75,
              epsilon: float = 0.25) -> list[str]:
    """Paths of the files holding a query term, by BM25 Okapi score (rank-bm25's idf and floor), ties by path."""
    n = len(docs)
    lengths = np.array([length for _, _, length in docs], dtype=np.float64)
    avgdl = float(lengths.mean()) if n else 0.0
    df: Counter = Counter()
    for _, counts, _ in docs:
        df.update(counts.keys())
    idf = {t: math.log(n - f + 0.5) - math.log(f + 0.5) for t, f in df.items()}
    floor = epsilon * (sum(idf.values()) / len(idf)) if idf else 0.0
    idf = {t: (v if v >= 0 else floor) for t, v in idf.items()}
    scores = np.zeros(n)
    norm = k1 * (1 - b + b * lengths / avgdl) if avgdl else np.ones(n)
    for term in query:
        if term not in idf:
            continue
        tf = np.array([counts.get(term, 0) for _, counts, _ in docs], dtype=np.float64)
        scores += idf[term] * tf * (k1 + 1) / (tf + norm)
    terms = set(query)
    matched = [i for i in range(n) if not terms.isdisjoint(docs[i][1])]  # as an engine: matching documents only
    order = sorted(matched, key=lambda i: (-scores[i], docs[i][0]))
    return [docs[i][0] for i in order]


def ndcg10(ranked: list[str], gold: set[str]) -> float:
    dcg = sum(1 / math.log2(i + 2) for i, p in enumerate(ranked[:10]) if p in gold)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(gold), 10)))
    return dcg / ideal if ideal else 0.0


@dataclass(frozen=True)
class Result:
    instances: int
    distinct_blobs: int
    files: int
    ndcg10: float
    per_query: dict


def run(instances: Iterable[dict], repo_dir: dict[str, Path]) -> Result:
    """File nDCG@10 of BM25 over each instance's own snapshot; ``repo_dir``: repo -> its clone or mirror."""
    readers: dict[str, Blobs] = {}
    per_query: dict[str, float] = {}
    files = 0
    try:
        for row in instances:
            repo = row["repo"]
            if repo not in repo_dir:
                continue
            reader = readers.setdefault(repo, Blobs(repo_dir[repo]))
            tree = reader.tree(row["base_commit"])
            files += len(tree)
            docs = [(path, *reader.counted(sha)) for path, sha in tree]
            gold = set(_DIFF_FILE.findall(row["golden_patch"]))
            per_query[row["instance_id"]] = ndcg10(bm25_rank(docs, tokens(row["problem_statement"])), gold)
    finally:
        for r in readers.values():
            r.close()
    mean = sum(per_query.values()) / len(per_query) if per_query else 0.0
    return Result(len(per_query), sum(len(r.counts) for r in readers.values()), files, mean, per_query)


def mirror_dirs(rows: Iterable[dict], mirrors: Path) -> dict[str, Path]:
    """repo -> its repository under ``mirrors`` (a mirror ``OWNER+NAME/repo``, or ``OWNER+NAME`` bare or
    with a work tree), for those there."""
    dirs = {}
    for r in rows:
        owner, _, name = r["repo"].partition("/")
        for cand in (mirrors / f"{owner}+{name}" / "repo", mirrors / f"{owner}+{name}"):
            if (cand / "HEAD").is_file() or (cand / ".git" / "HEAD").is_file():
                dirs[r["repo"]] = cand
    return dirs


def main(argv: list[str] | None = None) -> int:
    """``python -m hermes_eval.costs.snapshot_reference INSTANCES MIRRORS [REPO ...]``: prints one JSON
    line (instances, distinct blobs, files, nDCG@10, wall seconds, peak RSS in MB)."""
    import argparse
    import json
    import resource
    import time

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("instances")
    ap.add_argument("mirrors")
    ap.add_argument("repos", nargs="*")
    args = ap.parse_args(argv)
    rows = json.loads(Path(args.instances).read_text())
    dirs = mirror_dirs(rows, Path(args.mirrors))
    rows = [r for r in rows if r["repo"] in dirs and (not args.repos or r["repo"] in args.repos)]
    start = time.perf_counter()
    res = run(rows, dirs)
    print(json.dumps({"instances": res.instances, "distinct_blobs": res.distinct_blobs, "files": res.files,
                      "ndcg@10": round(res.ndcg10, 4), "wall_s": round(time.perf_counter() - start, 2),
                      "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
