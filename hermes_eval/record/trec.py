"""TREC run and qrels files, written and read back, so trec_eval (or ir_measures) can re-check every number."""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

from hermes_eval.cache.content import atomic_write_bytes, atomic_write_parts
from hermes_eval.core.order import ordered_scores
from hermes_eval.judge.relevance import NO_RESULTS


def trec_id(doc: str) -> str:
    """TREC columns are whitespace-separated: encode spaces (and %) in document ids."""
    return doc.replace("%", "%25").replace(" ", "%20").replace("\t", "%09")


def _write(path: Path, lines: list[str]) -> None:
    """Atomically, through a temporary file private to this writer."""
    atomic_write_bytes(path, "".join(lines).encode())


def write_run(path: Path, rankings: Mapping[str, Sequence[str]], tag: str = "hermes") -> None:
    """One line per ranked document; a query with an empty ranking gets one :data:`NO_RESULTS`
    line, so tools that score only the queries of the run still score it (0)."""
    lines = []
    for qid in sorted(rankings):
        scored = ordered_scores(rankings[qid]) or {NO_RESULTS: 0.0}
        for rank, (doc, score) in enumerate(scored.items(), start=1):
            lines.append(f"{trec_id(qid)} Q0 {trec_id(doc)} {rank} {score:.6f} {tag}\n")
    _write(path, lines)


def write_qrels(path: Path, qrels: Mapping[str, Mapping[str, int]]) -> None:
    """One line per judged document, query by query: written as it is made (line-level qrels of a history
    set run to millions of lines, 170 MB for Ye Tomcat: never held as one string)."""
    def blocks():
        for qid in sorted(qrels):
            q = trec_id(qid)
            yield "".join(f"{q} 0 {trec_id(doc)} {rel}\n" for doc, rel in sorted(qrels[qid].items())).encode()

    atomic_write_parts(path, blocks())


def untrec(token: str) -> str:
    """Inverse of :func:`trec_id`."""
    return token.replace("%09", "\t").replace("%20", " ").replace("%25", "%")


def read_run(path: Path) -> dict[str, list[str]]:
    """qid -> document ids in rank order (a :data:`NO_RESULTS` line reads as an empty ranking)."""
    rows: dict[str, list[tuple[int, str]]] = {}
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4:
            got = rows.setdefault(untrec(parts[0]), [])
            if untrec(parts[2]) != NO_RESULTS:
                got.append((int(parts[3]), untrec(parts[2])))
    return {q: [d for _, d in sorted(v)] for q, v in rows.items()}


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """qid -> {document id: relevance}."""
    out: dict[str, dict[str, int]] = {}
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4:
            out.setdefault(untrec(parts[0]), {})[untrec(parts[2])] = int(parts[3])
    return out
