"""BEIR folders (corpus.jsonl, queries.jsonl, qrels/SPLIT.tsv) in and out of the span model.

Import: a corpus whose doc ids all look like chunk ids (``path:start-end``, what ``export``
writes) is rebuilt as files at those paths and judged with those spans; any other (foreign)
corpus is materialized as one file per document, judged as whole-file spans. The qrels header
line is detected (its score column is not an integer), never assumed: a first line that is a
judgment is kept. Export: the masked corpus cut by a chunker into documents, gold chunks as
qrels; ``exclude`` has no BEIR equivalent, so it travels in each query's metadata.
"""
from __future__ import annotations

from dataclasses import dataclass
import hashlib
import json
import re
import shutil
from pathlib import Path

from hermes_eval.corpus import load_corpus
from hermes_eval.core.corpus import Corpus
from hermes_eval.core.errors import UserError
from hermes_eval.querysets.readers.jsonl import get, read_jsonl, read_text
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.importers.base import ImportOptions, choice, option, positional
from hermes_eval.querysets.store import parse_query
from hermes_eval.core import Query, Span
from retrievers.chunk import parse_chunk_id

IMPORT_FORMAT = "beir"  # `datasets import` finds this module by it (importers/registry.py)
IMPORT_SUMMARY = "a BEIR folder: corpus.jsonl, queries.jsonl, qrels/SPLIT.tsv"

HEADER = ("query-id", "corpus-id", "score")


def read_qrels(path: Path) -> tuple[list[tuple[str, str, int]], bool]:
    """(judgments, had_header) from a BEIR (qid, docid, score) or TREC (qid, iter, docid, score) TSV."""
    out: list[tuple[str, str, int]] = []
    header = False
    for n, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        cols = line.split("\t") if "\t" in line else line.split()
        if len(cols) not in (3, 4):
            raise UserError(f"{path} line {n}: expected 3 columns (query-id, corpus-id, score) or 4 "
                            f"(TREC), got {len(cols)}")
        qid, doc, score = (cols[0], cols[1], cols[2]) if len(cols) == 3 else (cols[0], cols[2], cols[3])
        try:
            value = int(float(score.strip()))
        except ValueError:
            if not out and not header:
                header = True  # the first line names the columns
                continue
            raise UserError(f"{path} line {n}: field 'score' must be an integer, got {score.strip()!r}") from None
        out.append((qid.strip(), doc.strip(), value))
    return out, header


def _qrels_file(folder: Path, split: str) -> Path:
    qdir = folder / "qrels"
    want = qdir / f"{split}.tsv"
    if want.is_file():
        return want
    found = sorted(qdir.glob("*.tsv")) if qdir.is_dir() else []
    if len(found) == 1:
        return found[0]
    raise UserError(f"{want}: not found (qrels files: {[p.name for p in found] or 'none'}); pass split=NAME")


def _safe_name(doc_id: str, taken: set[str]) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", doc_id).strip("._")[:100] or "doc"
    if name != doc_id or name.lower() in taken:
        name = f"{name}-{hashlib.sha1(doc_id.encode()).hexdigest()[:8]}"
    taken.add(name.lower())
    return f"docs/{name}.txt"


def _materialize(docs: list[tuple[int, dict]], corpus_file: Path, out: Path, spans: bool) -> dict[str, Span]:
    """Write the corpus under ``out``; doc id -> its span there."""
    where = lambda n: f"{corpus_file} line {n}"  # noqa: E731
    mapping: dict[str, Span] = {}
    if spans:
        files: dict[str, dict[int, str]] = {}
        for n, d in docs:
            path, start, end = parse_chunk_id(d["_id"])
            if path.startswith("/") or ".." in Path(path).parts or start < 1 or end < start:
                raise UserError(f"{where(n)}: field '_id' {d['_id']!r} is not a valid path:start-end inside the corpus")
            lines = get(d, "text", str, where(n)).split("\n")
            if len(lines) != end - start + 1:
                raise UserError(f"{where(n)}: field 'text' has {len(lines)} lines but '_id' spans "
                                f"{end - start + 1}")
            slot = files.setdefault(path, {})
            for i, text in enumerate(lines):
                slot.setdefault(start + i, text)
            mapping[d["_id"]] = Span(path, start, end)
        for path, slot in files.items():
            target = out / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("\n".join(slot.get(i, "") for i in range(1, max(slot) + 1)) + "\n")
        return mapping
    return materialize_documents(docs, str(corpus_file), out)


def materialize_documents(docs: list[tuple[int, dict]], source: str, out: Path) -> dict[str, Span]:
    """One file per document under ``out`` (title, blank line, text: what MTEB indexes as one
    document); doc id -> its whole-file span. ``source`` names the file in errors."""
    mapping: dict[str, Span] = {}
    taken: set[str] = set()
    for n, d in docs:
        where = f"{source} line {n}"
        title, text = get(d, "title", str, where, ""), get(d, "text", str, where)
        body = f"{title}\n\n{text}" if title.strip() else text
        path = _safe_name(d["_id"], taken)
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(body + "\n")
        mapping[d["_id"]] = Span(path, 1, max(1, len(body.split("\n"))))
    return mapping


@dataclass(frozen=True, kw_only=True)
class Options(ImportOptions):
    """``datasets import beir FOLDER [split=test] [mode=spans|documents]``."""

    folder: Path = positional("the BEIR folder (corpus.jsonl, queries.jsonl, qrels/)")
    split: str = option("test", "the qrels file qrels/SPLIT.tsv")
    mode: str | None = option(None, "spans (ids are path:start-end) or documents; default: spans when every id parses")

    def __post_init__(self) -> None:
        if self.mode is not None:
            choice(self.mode, "mode", ("spans", "documents"))


def run(opts: Options) -> QuerySet:
    """Import a BEIR folder into ``opts.dest``: queries + the ``corpus/`` they refer to."""
    folder, dest, name = Path(opts.folder), Path(opts.dest), opts.name
    if not folder.is_dir():
        raise UserError(f"{folder}: BEIR folder not found")
    corpus_file, queries_file = folder / "corpus.jsonl", folder / "queries.jsonl"
    docs = []
    for n, d in read_jsonl(corpus_file):
        d["_id"] = str(get(d, "_id", (str, int), f"{corpus_file} line {n}"))
        docs.append((n, d))
    if not docs:
        raise UserError(f"{corpus_file}: no documents")
    mode = opts.mode or ("spans" if all(parse_chunk_id(d["_id"]) for _, d in docs) else "documents")
    qrels_path = _qrels_file(folder, opts.split)
    judgments, header = read_qrels(qrels_path)
    out = dest / "corpus"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    mapping = _materialize(docs, corpus_file, out, spans=mode == "spans")
    skipped = {"qrels_unknown_doc": 0, "qrels_unknown_query": 0, "qrels_not_relevant": 0,
               "no_relevant_doc": 0}
    rel: dict[str, list[str]] = {}
    for qid, doc, score in judgments:
        if score <= 0:
            skipped["qrels_not_relevant"] += 1
        elif doc not in mapping:
            skipped["qrels_unknown_doc"] += 1
        else:
            rel.setdefault(qid, []).append(doc)
    queries, seen = [], set()
    for n, row in read_jsonl(queries_file):
        where = f"{queries_file} line {n}"
        qid, text = str(get(row, "_id", (str, int), where)), get(row, "text", str, where)
        seen.add(qid)
        meta = row.get("metadata") if isinstance(row.get("metadata"), dict) else {}
        if mode == "spans" and "gold" in meta:  # our own export: the exact spans travel along
            q = parse_query({"qid": qid, "query": text, "gold": meta["gold"], "exclude": meta.get("exclude"),
                             "kind": meta.get("kind") or "beir", "repo": meta.get("repo")}, where)
        elif qid in rel:
            docs_of = sorted(set(rel[qid]))
            q = Query(qid=qid, query=text, gold=tuple(sorted({mapping[d] for d in docs_of})), kind="beir",
                      meta={"beir_docs": docs_of})
        else:
            skipped["no_relevant_doc"] += 1
            continue
        queries.append(q)
    skipped["qrels_unknown_query"] = sum(1 for q in rel if q not in seen)
    if not queries:
        raise UserError(f"{folder}: no query has a relevant document in {qrels_path.name}")
    corpus = load_corpus([str(out)], name=name)
    manifest = {"generator": "import-beir", "generator_version": "1", "source": str(folder.resolve()),
                "split": qrels_path.stem, "qrels_header": header, "doc_mode": mode,
                "corpus_sources": [str(out.resolve())], "corpus_fingerprint": corpus.fingerprint,
                "counts": {"documents": len(docs), "judgments": len(judgments), "queries": len(queries)},
                "skipped": skipped}
    return QuerySet(name=name, queries=tuple(queries), manifest=manifest)


def export_beir(qs: QuerySet, corpus: Corpus, chunker, out: Path) -> dict:
    """Write ``qs`` over ``corpus`` (already masked) cut by ``chunker`` as a BEIR folder."""
    from hermes_eval.judge.relevance import ChunkLookup, chunk_qrels
    from retrievers.chunkers.base import chunk_files

    chunks = chunk_files(chunker, [(f.path, f.text, f.language) for f in corpus.files])
    qrels = chunk_qrels(qs.queries, ChunkLookup(chunks))
    out.mkdir(parents=True, exist_ok=True)
    (out / "qrels").mkdir(exist_ok=True)
    with open(out / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for c in chunks:
            fh.write(json.dumps({"_id": c.id, "title": c.path, "text": c.text,
                                 "metadata": {"path": c.path, "start": c.start, "end": c.end,
                                              "language": c.language}}) + "\n")
    with open(out / "queries.jsonl", "w", encoding="utf-8") as fh:
        for q in qs.queries:
            fh.write(json.dumps({"_id": q.qid, "text": q.query, "metadata": {
                "kind": q.kind, "repo": q.repo, "gold": [s.to_dict() for s in q.gold],
                "exclude": [s.to_dict() for s in q.exclude]}}) + "\n")
    with open(out / "qrels" / "test.tsv", "w", encoding="utf-8") as fh:
        fh.write("\t".join(HEADER) + "\n")
        for qid in sorted(qrels):
            for doc in sorted(qrels[qid]):
                fh.write(f"{qid}\t{doc}\t1\n")
    return {"documents": len(chunks), "queries": len(qs.queries),
            "judgments": sum(len(v) for v in qrels.values()),
            "queries_without_judgment": sum(1 for v in qrels.values() if not v),
            "queries_with_exclude": sum(1 for q in qs.queries if q.exclude)}
