"""MTEB / CoIR retrieval tasks (corpus, queries, qrels) read through the ``datasets`` library.

``NAME_OR_DIR`` is a local folder in the layout MTEB and CoIR publish (``corpus``, ``queries``
and ``qrels`` as .jsonl / .parquet / .tsv files, or folders of them; qrels per split:
``qrels/test.tsv``, ``default/test.jsonl``...), else a hub dataset id (``mteb/cosqa``) loaded with
its ``corpus``, ``queries`` and ``default`` configs (needs a reachable hub). Each document is one
file (title, blank line, text), judged whole; qrels scores above 0 are kept as the gold span's
grade, so nDCG uses the graded relevance.
"""
from __future__ import annotations

from dataclasses import dataclass
import shutil
from pathlib import Path

from hermes_eval.core import Query, Span
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.importers.base import ImportOptions, option, positional
from hermes_eval.corpus import load_corpus
from hermes_eval.querysets.importers.beir import materialize_documents

IMPORT_FORMAT = "mteb"  # `datasets import` finds this module by it (importers/registry.py)
IMPORT_SUMMARY = "an MTEB/CoIR retrieval task folder or hub id"

BUILDERS = {".jsonl": "json", ".json": "json", ".parquet": "parquet", ".tsv": "csv", ".csv": "csv"}


def _files(folder: Path, part: str, split: str | None = None) -> list[Path]:
    """Data files of ``part`` (corpus, queries, qrels) in ``folder``; for qrels, of ``split``."""
    found: list[Path] = []
    for base in ([folder / part] if part != "qrels" else [folder / "qrels", folder / "default"]):
        for p in sorted([base] + (sorted(base.rglob("*")) if base.is_dir() else [])):
            in_split = split is None or p.stem.split("-")[0] == split or split in p.relative_to(base).parts[:-1]
            if p.is_file() and p.suffix in BUILDERS and in_split:  # qrels/test.tsv, default/test/0000.parquet
                found.append(p)
        for ext in BUILDERS:
            if part != "qrels" and (folder / f"{part}{ext}").is_file():
                found.append(folder / f"{part}{ext}")
    return found


def _load_local(files: list[Path], what: str, folder: Path) -> list[dict]:
    from datasets import load_dataset

    if not files:
        raise UserError(f"{folder}: no {what} file (.jsonl, .parquet or .tsv) found: use the MTEB/CoIR layout")
    builder = BUILDERS[files[0].suffix]
    kwargs = {"delimiter": "\t"} if files[0].suffix == ".tsv" else {}
    ds = load_dataset(builder, data_files=[str(f) for f in files], split="train", **kwargs)
    return [dict(r) for r in ds]


def _load_hub(name: str, config: str, split: str) -> list[dict]:
    from datasets import load_dataset

    try:
        return [dict(r) for r in load_dataset(name, config, split=split)]
    except Exception as exc:  # noqa: BLE001 - offline, unknown name, missing config: one line
        raise UserError(f"mteb task {name!r}: cannot load config {config!r} split {split!r} from the hub "
                        f"({type(exc).__name__}); no hub here: pass a local folder in the MTEB layout") from None


def _rows(source: str, split: str) -> tuple[list[dict], list[dict], list[dict]]:
    folder = Path(source)
    if folder.is_dir():
        return (_load_local(_files(folder, "corpus"), "corpus", folder),
                _load_local(_files(folder, "queries"), "queries", folder),
                _load_local(_files(folder, "qrels", split), f"qrels for split {split!r}", folder))
    return _load_hub(source, "corpus", split), _load_hub(source, "queries", split), _load_hub(source, "default", split)


def _field(row: dict, key: str, what: str, n: int) -> str:
    if row.get(key) is None:
        raise UserError(f"{what} row {n}: field {key!r} is missing: MTEB layout needs it")
    return str(row[key])


@dataclass(frozen=True, kw_only=True)
class Options(ImportOptions):
    """``datasets import mteb NAME_OR_DIR [split=test]``."""

    source: str = positional("a task folder (MTEB layout) or a hub dataset id")
    split: str = option("test", "the qrels split")


def run(opts: Options) -> QuerySet:
    """Import an MTEB/CoIR retrieval task into ``opts.dest``."""
    source, split, dest, name = opts.source, opts.split, Path(opts.dest), opts.name
    corpus_rows, query_rows, qrel_rows = _rows(source, split)
    docs = [(n, {"_id": _field(r, "_id", "corpus", n), "title": str(r.get("title") or ""),
                 "text": _field(r, "text", "corpus", n)}) for n, r in enumerate(corpus_rows, start=1)]
    if not docs:
        raise UserError(f"{source}: the corpus has no documents")
    out = dest / "corpus"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    mapping = materialize_documents(docs, f"{source} corpus", out)
    skipped = {"qrels_unknown_doc": 0, "qrels_not_relevant": 0, "no_relevant_doc": 0}
    rel: dict[str, dict[str, int]] = {}
    for n, r in enumerate(qrel_rows, start=1):
        qid, doc = _field(r, "query-id", "qrels", n), _field(r, "corpus-id", "qrels", n)
        try:
            grade = int(float(_field(r, "score", "qrels", n)))
        except ValueError:
            raise UserError(f"qrels row {n}: field 'score' must be a number, got {r['score']!r}") from None
        if grade <= 0:
            skipped["qrels_not_relevant"] += 1
        elif doc not in mapping:
            skipped["qrels_unknown_doc"] += 1
        else:
            rel.setdefault(qid, {})[doc] = max(grade, rel.get(qid, {}).get(doc, 0))
    queries = []
    for n, r in enumerate(query_rows, start=1):
        qid = _field(r, "_id", "queries", n)
        if qid not in rel:
            skipped["no_relevant_doc"] += 1
            continue
        gold = tuple(sorted(Span(mapping[d].path, mapping[d].start, mapping[d].end, g) for d, g in rel[qid].items()))
        queries.append(Query(qid=qid, query=_field(r, "text", "queries", n), gold=gold, kind="mteb",
                             meta={"mteb_docs": sorted(rel[qid])}))
    if not queries:
        raise UserError(f"{source}: no query has a relevant document in split {split!r}")
    corpus = load_corpus([str(out)], name=name)
    manifest = {"generator": "import-mteb", "generator_version": "1", "source": source, "split": split,
                "graded": any(g.grade != 1 for q in queries for g in q.gold), "run_overrides": ["chunker=whole_file"],
                "corpus_sources": [str(out.resolve())], "corpus_fingerprint": corpus.fingerprint,
                "counts": {"documents": len(docs), "judgments": len(qrel_rows), "queries": len(queries)},
                "skipped": skipped}
    return QuerySet(name=name, queries=tuple(queries), manifest=manifest)
