"""TREC run and qrels files, so trec_eval (or ir_measures) can re-check every number."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping, Sequence

from hermes_eval.metrics import ordered_scores


def trec_id(doc: str) -> str:
    """TREC columns are whitespace-separated: encode spaces (and %) in document ids."""
    return doc.replace("%", "%25").replace(" ", "%20").replace("\t", "%09")


def _write(path: Path, lines: list[str]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text("".join(lines))
    os.replace(tmp, path)


def write_run(path: Path, rankings: Mapping[str, Sequence[str]], tag: str = "hermes") -> None:
    lines = []
    for qid in sorted(rankings):
        for rank, (doc, score) in enumerate(ordered_scores(rankings[qid]).items(), start=1):
            lines.append(f"{trec_id(qid)} Q0 {trec_id(doc)} {rank} {score:.6f} {tag}\n")
    _write(path, lines)


def write_qrels(path: Path, qrels: Mapping[str, Mapping[str, int]]) -> None:
    lines = [f"{trec_id(qid)} 0 {trec_id(doc)} {rel}\n"
             for qid in sorted(qrels) for doc, rel in sorted(qrels[qid].items())]
    _write(path, lines)
