"""The gold sets of Gandhi, Gao & Callan 2025 ("Repository-level Code Search with Neural Retrieval
Methods", arXiv 2502.07067; GitHub Siddharth-Gandhi/ds), read from a checkout or straight from a git
mirror of that repository (``release_tree.py``: nothing unpacked).

Per repository ``OWNER_NAME`` (lower case, e.g. ``redis_redis``, ``apache_kafka``):
``gold/OWNER_NAME/v2_OWNER_NAME_gpt4_gold.{csv,parquet}`` (100 test commits) and ``..._gpt4_train``
(500), one row per commit: ``commit_id``, ``commit_date`` (committer date, unix seconds),
``commit_message`` (the original message, subject and body), ``actual_files_modified`` (the code files
the commit changes, a Python list literal in the CSV) and ``transformed_message_gpt4`` (GPT-4's
rewrite of the message as an issue written before the change: ``src/openai_transform.py``).
"""
from __future__ import annotations

import ast
import csv
import io
from dataclasses import dataclass

from hermes_eval.core.errors import UserError
from hermes_eval.querysets.readers.release_tree import ReleaseTree

SPLITS = ("gold", "train")
COLUMNS = ("commit_id", "commit_date", "commit_message", "actual_files_modified", "transformed_message_gpt4")


def folder_of(repo: str) -> str:
    """``redis/redis`` -> ``redis_redis``: the release's folder name for a repository."""
    owner, sep, name = repo.partition("/")
    if not sep or not owner or not name:
        raise UserError(f"repo={repo!r}: give OWNER/NAME, e.g. redis/redis or apache/kafka")
    return f"{owner}_{name}".lower()


def gold_path(repo: str, split: str, ext: str) -> str:
    folder = folder_of(repo)
    return f"gold/{folder}/v2_{folder}_gpt4_{split}.{ext}"


@dataclass(frozen=True)
class Row:
    """One commit of a gold or train file."""

    commit: str
    date: int  # committer date, unix seconds (the release's commit_date)
    message: str  # the original commit message
    files: tuple[str, ...]  # actual_files_modified
    rewritten: str  # transformed_message_gpt4


class Release(ReleaseTree):
    """The release under ``root``: a folder (a checkout) or a git repository read at ``commit``."""

    MARKER = "gold"
    HINT = "give the release of Gandhi et al. (a checkout or a mirror of Siddharth-Gandhi/ds)"

    def rows(self, repo: str, split: str = "gold") -> tuple[str, list[Row]]:
        """(the file read, its rows): the CSV when present, else the parquet."""
        for ext in ("csv", "parquet"):
            rel = gold_path(repo, split, ext)
            data = self.read(rel)
            if data is not None:
                return rel, (parse_csv if ext == "csv" else parse_parquet)(data, rel)
        raise UserError(f"{self.root}: no {gold_path(repo, split, 'csv')} (nor .parquet): check repo= "
                        f"(the release has gold/ for angular, kafka, spark, django, react, transformers, julia, "
                        f"pytorch, redis and ruby)")


def _files(value, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            raise UserError(f"{where}: actual_files_modified is not a list literal: {value[:80]!r}") from None
    if not isinstance(value, (list, tuple)) or not all(isinstance(f, str) for f in value):
        raise UserError(f"{where}: actual_files_modified must be a list of paths, got {value!r}"[:200])
    return tuple(value)


def _row(rec: dict, where: str) -> Row:
    missing = [c for c in COLUMNS if c not in rec]
    if missing:
        raise UserError(f"{where}: column {missing[0]!r} is missing (columns: {', '.join(COLUMNS)})")
    try:
        date = int(rec["commit_date"])
    except (TypeError, ValueError):
        raise UserError(f"{where}: commit_date {rec['commit_date']!r} is not unix seconds") from None
    return Row(str(rec["commit_id"]).strip(), date, str(rec["commit_message"] or ""),
               _files(rec["actual_files_modified"], where), str(rec["transformed_message_gpt4"] or ""))


def parse_csv(data: bytes, rel: str = "csv") -> list[Row]:
    reader = csv.DictReader(io.StringIO(data.decode("utf-8")))
    return [_row(rec, f"{rel} row {i + 2}") for i, rec in enumerate(reader)]


def parse_parquet(data: bytes, rel: str = "parquet") -> list[Row]:
    import pyarrow.parquet as pq

    table = pq.read_table(io.BytesIO(data))
    return [_row(rec, f"{rel} row {i}") for i, rec in enumerate(table.to_pylist())]
