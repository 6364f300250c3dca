"""A record's checksums of its run files, so an edited, cut or missing file is caught on reading.

A run writes ``run.trec``, its qrels and ``per_query.parquet`` first and then ``record.json``, whose
``files`` field holds each file's sha256. :func:`damage` says what no longer matches, in one phrase.
Records from before checksums existed have no ``files`` and are taken as they are.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

RUN_FILES = ("run.trec", "qrels.trec", "qrels.file.trec", "qrels.line.trec", "run.module.trec", "qrels.module.trec",
             "per_query.parquet")


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_sums(run_dir: Path) -> dict[str, str]:
    """sha256 of each run file present in ``run_dir``."""
    return {name: sha256_of(Path(run_dir) / name) for name in RUN_FILES if (Path(run_dir) / name).is_file()}


def damage(run_dir: Path, record: dict) -> str | None:
    """What in ``run_dir`` no longer matches ``record`` (a missing or changed run file), or None."""
    sums = record.get("files")
    if record.get("status") != "ok" or not isinstance(sums, dict):
        return None
    for name, want in sorted(sums.items()):
        path = Path(run_dir) / name
        if not path.is_file():
            return f"{name} is missing"
        if sha256_of(path) != want:
            return f"{name} does not match its record (sha256 differs: edited or cut after the run)"
    return None
