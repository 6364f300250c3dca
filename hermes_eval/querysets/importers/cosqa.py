"""CoSQA code search (the CoCLR release): 500 web queries over 6,267 Python functions.

The folder holds ``code_idx_map.txt`` (function text -> index: the retrieval corpus) and
``cosqa-retrieval-{test,dev}-500.json`` (``doc`` the query, ``code`` its function,
``retrieval_idx`` that function's index). Each function becomes one file, judged whole.

``ids=unique`` (default): one document per distinct function text, as CoCLR evaluates.
``ids=pairs``: what MTEB/CoIR do as far as the shipped files show: one document id per
(query, code) pair of the test and dev files (their code repeated under each pair's id), plus one
per remaining function; a query's own pair is its only relevant id, so its identical twins are
judged irrelevant (CoIR-team/coir#18). MTEB's corpus also has an id per training pair (19,604),
which the CoCLR release does not ship: that part cannot be rebuilt here.
"""
from __future__ import annotations

from dataclasses import dataclass
import json
import re
import shutil
from pathlib import Path

from hermes_eval.core import Query, Span
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.importers.base import ImportOptions, option, positional
from hermes_eval.corpus import load_corpus
from hermes_eval.querysets.readers.jsonl import get, read_text

IMPORT_FORMAT = "cosqa"  # `datasets import` finds this module by it (importers/registry.py)
IMPORT_SUMMARY = "CoSQA (CoCLR release): web queries over Python functions"

SPLITS = ("test", "dev")
RUN_OVERRIDES = ("chunker=whole_file",)  # each function one chunk, unless the user overrides it


def _load_json(path: Path) -> object:
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: invalid JSON ({exc.msg} at line {exc.lineno}): use the CoCLR "
                        f"data/search files unchanged") from None


def _pairs(folder: Path, split: str, index: dict[str, int]) -> list[dict]:
    path = folder / f"cosqa-retrieval-{split}-500.json"
    rows = _load_json(path)
    if not isinstance(rows, list):
        raise UserError(f"{path}: expected a JSON list of {{doc, code, retrieval_idx}} entries")
    out = []
    for i, row in enumerate(rows):
        where = f"{path} entry {i}"
        if not isinstance(row, dict):
            raise UserError(f"{where}: expected an object with doc, code and retrieval_idx")
        code, doc = get(row, "code", str, where), get(row, "doc", str, where)
        idx = str(get(row, "retrieval_idx", (str, int), where))
        if index.get(code) is None or str(index[code]) != idx:
            raise UserError(f"{where}: field 'code' is not the function {idx} of code_idx_map.txt; "
                            f"use the test/dev files of the same CoCLR release")
        pair = str(row.get("idx") or f"{split}-{i}")
        out.append({"pair": re.sub(r"[^A-Za-z0-9_.-]+", "_", pair), "query": doc, "code": code,
                    "idx": idx, "qid": f"{split}-{i}"})
    return out


def _write(out: Path, rel: str, text: str) -> Span:
    (out / rel).parent.mkdir(parents=True, exist_ok=True)
    (out / rel).write_text(text + "\n", encoding="utf-8")
    return Span(rel, 1, max(1, len(text.split("\n"))))


@dataclass(frozen=True, kw_only=True)
class Options(ImportOptions):
    """``datasets import cosqa DIR [split=test|dev] [ids=unique|pairs]``."""

    folder: Path = positional("the folder with code_idx_map.txt and cosqa-retrieval-{test,dev}-500.json")
    split: str = option("test", "test or dev")
    ids: str = option("unique", "unique (one id per function) or pairs (MTEB's layout)")

    def __post_init__(self) -> None:
        if self.split not in SPLITS:
            raise UserError(f"split={self.split!r}: use split=test or split=dev")
        if self.ids not in ("unique", "pairs"):
            raise UserError(f"ids={self.ids!r}: use ids=unique (one id per function) or ids=pairs (MTEB's layout)")


def run(opts: Options) -> QuerySet:
    """Import a CoSQA folder into ``opts.dest``: queries + one file per function."""
    folder, split, ids, dest, name = Path(opts.folder), opts.split, opts.ids, Path(opts.dest), opts.name
    raw = _load_json(folder / "code_idx_map.txt")
    if not isinstance(raw, dict) or not raw:
        raise UserError(f"{folder / 'code_idx_map.txt'}: expected one JSON object, function text -> index")
    index = {str(k): int(v) for k, v in raw.items()}
    pairs = {s: _pairs(folder, s, index) for s in SPLITS}
    out = dest / "corpus"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    by_idx: dict[str, list[Span]] = {}
    own: dict[str, Span] = {}  # pair -> its document (ids=pairs)
    if ids == "pairs":
        for s in SPLITS:
            for p in pairs[s]:
                if p["pair"] not in own:
                    own[p["pair"]] = _write(out, f"pairs/{p['pair']}.py", p["code"])
                    by_idx.setdefault(p["idx"], []).append(own[p["pair"]])
    for code, idx in sorted(index.items(), key=lambda kv: kv[1]):
        if str(idx) not in by_idx:
            by_idx[str(idx)] = [_write(out, f"functions/{idx}.py", code)]
    queries = [Query(qid=p["qid"], query=p["query"], kind="cosqa",
                     gold=(own[p["pair"]] if ids == "pairs" else by_idx[p["idx"]][0],),
                     meta={"retrieval_idx": p["idx"], "pair": p["pair"]}) for p in pairs[split]]
    corpus = load_corpus([str(out)], name=name)
    documents = sum(len(v) for v in by_idx.values())
    manifest = {"generator": "import-cosqa", "generator_version": "1", "source": str(folder.resolve()),
                "split": split, "ids": ids, "run_overrides": list(RUN_OVERRIDES),
                "corpus_sources": [str(out.resolve())], "corpus_fingerprint": corpus.fingerprint,
                "counts": {"documents": documents, "functions": len(index), "queries": len(queries),
                           "distinct_gold_functions": len({p["idx"] for p in pairs[split]})},
                "skipped": {}}
    return QuerySet(name=name, queries=tuple(queries), manifest=manifest)
