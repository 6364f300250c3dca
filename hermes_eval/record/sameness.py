"""Are two sweeps' records the same measurement? Compares every run folder of two runs/ trees.

Byte for byte: run.trec, qrels.trec, qrels.file.trec, qrels.line.trec, run.module.trec, qrels.module.trec. Cell for cell (exact,
bit-identical floats): per_query.parquet without its ``ms_*`` latency columns. record.json without
the fields below, which are timings, host facts or scheduling facts by design and differ between
two runs of the same code on the same machine:

- timings: ``wall_seconds``, ``finished_at``, ``latency_ms``, ``index.build_seconds``,
  ``index.build_seconds_total``, ``peak_rss_mb``;
- host and checkout: ``machine``, ``git_commit`` (the code under comparison differs on purpose);
- scheduling: ``snapshot_work`` (a snapshot's build seconds and the texts tokenized or embedded for
  it, which depend on the snapshots searched before it in the same process) and ``shards`` (how a
  sharded run was split); ``cache`` (which arm of a parallel sweep computed a shared chunking or index and which
  read it, and cache keys that hash the code's own source), ``index.sources`` (built or loaded) and
  ``embeddings`` (vectors computed here or read from the shared cache);
- ``files``: the checksums of the run files, which are compared themselves (per_query.parquet's
  checksum covers its latency columns).

The recorded ``config`` is compared with every ``_target_`` as its part's declared name
(:mod:`retrievers.identity.names`): a part that moved to another module is the same part, and its
config hash is unchanged.

With ``--allow-added``, fields and per-query columns that only the second tree's records have
(what newer code records in addition) are listed as added and not counted; every value both
sides record must still match, and a field the second side dropped is a difference.
"""
from __future__ import annotations

import json
from pathlib import Path

from retrievers.identity.names import named

EXACT_FILES = ("run.trec", "qrels.trec", "qrels.file.trec", "qrels.line.trec", "run.module.trec", "qrels.module.trec")
RECORD_EXCLUDED = ("wall_seconds", "finished_at", "latency_ms", "peak_rss_mb", "machine", "git_commit",
                   "cache", "embeddings", "files", "snapshot_work", "shards")
INDEX_EXCLUDED = ("build_seconds", "build_seconds_total", "sources")
LATENCY_PREFIX = "ms_"


def comparable_record(record: dict) -> dict:
    """``record`` without the fields listed in the module docstring."""
    out = {k: v for k, v in record.items() if k not in RECORD_EXCLUDED}
    if isinstance(out.get("config"), dict):
        out["config"] = named(out["config"])
    if isinstance(out.get("index"), dict):
        out["index"] = {k: v for k, v in out["index"].items() if k not in INDEX_EXCLUDED}
    return out


def _record_diffs(a, b, where: str, path: str = "") -> list[str]:
    """Differing values, recursing into objects; a key only in ``b`` is reported as ``added``."""
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return [] if a == b else [f"{where}/record.json: {path} differs"]
    out = []
    for key in sorted(set(a) | set(b)):
        sub = f"{path}.{key}" if path else key
        if key not in b:
            out.append(f"{where}/record.json: {sub} only in the first")
        elif key not in a:
            out.append(f"{where}/record.json: {sub} added")
        else:
            out += _record_diffs(a[key], b[key], where, sub)
    return out


def _per_query_diffs(a: Path, b: Path, where: str) -> list[str]:
    import pandas as pd

    fa, fb = pd.read_parquet(a), pd.read_parquet(b)
    keep = lambda df: [c for c in df.columns if not c.startswith(LATENCY_PREFIX)]  # noqa: E731
    ca, cb = keep(fa), keep(fb)
    out = [f"{where}/per_query.parquet: column {c} only in the first" for c in ca if c not in cb]
    out += [f"{where}/per_query.parquet: column {c} added" for c in cb if c not in ca]
    if len(fa) != len(fb):
        return out + [f"{where}/per_query.parquet: {len(fa)} rows vs {len(fb)}"]
    return out + [f"{where}/per_query.parquet: column {c} differs" for c in ca if c in cb
                  and (fa[c].dtype != fb[c].dtype or not fa[c].reset_index(drop=True).equals(fb[c].reset_index(drop=True)))]


def run_dir_diffs(a: Path, b: Path, where: str = "") -> list[str]:
    """Differences between two run folders (empty: the same measurement)."""
    where = where or a.name
    out: list[str] = []
    for name in EXACT_FILES:
        pa, pb = a / name, b / name
        if pa.exists() != pb.exists() or (pa.exists() and pa.read_bytes() != pb.read_bytes()):
            out.append(f"{where}/{name} differs")
    if (a / "per_query.parquet").exists() and (b / "per_query.parquet").exists():
        out += _per_query_diffs(a / "per_query.parquet", b / "per_query.parquet", where)
    elif (a / "per_query.parquet").exists() != (b / "per_query.parquet").exists():
        out.append(f"{where}/per_query.parquet: only in one")
    ra, rb = (json.loads((d / "record.json").read_text()) for d in (a, b))
    return out + _record_diffs(comparable_record(ra), comparable_record(rb), where)


def runs_diffs(a_root: Path, b_root: Path) -> tuple[int, list[str]]:
    """(run folders compared, differences) between two runs/ trees, matched by folder name."""
    names_a = {p.parent.name: p.parent for p in Path(a_root).glob("*/record.json")}
    names_b = {p.parent.name: p.parent for p in Path(b_root).glob("*/record.json")}
    out = [f"{n}: only in {a_root}" for n in sorted(set(names_a) - set(names_b))]
    out += [f"{n}: only in {b_root}" for n in sorted(set(names_b) - set(names_a))]
    for name in sorted(set(names_a) & set(names_b)):
        out += run_dir_diffs(names_a[name], names_b[name], name)
    return len(set(names_a) & set(names_b)), out


def is_addition(diff: str) -> bool:
    """A field or column only the second tree records (``--allow-added`` does not count it)."""
    return diff.endswith(" added")


def main(argv: list[str] | None = None) -> int:
    """``python -m hermes_eval.record.sameness [--allow-added] RUNS_A RUNS_B``: exit 0 when every
    record matches."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    allow_added = "--allow-added" in args
    args = [a for a in args if a != "--allow-added"]
    if len(args) != 2:
        print("usage: python -m hermes_eval.record.sameness [--allow-added] RUNS_A RUNS_B", file=sys.stderr)
        return 2
    n, diffs = runs_diffs(Path(args[0]), Path(args[1]))
    added = sorted({d.split(": ", 1)[1] for d in diffs if is_addition(d)}) if allow_added else []
    diffs = [d for d in diffs if not (allow_added and is_addition(d))]
    for d in diffs:
        print(d)
    if added:
        print(f"added by the second tree, not compared: {', '.join(added)}")
    print(f"{n} run folders compared, {len(diffs)} differences "
          f"(excluded: {', '.join(RECORD_EXCLUDED)}, index.{{{','.join(INDEX_EXCLUDED)}}}, ms_* columns)")
    return 1 if diffs or n == 0 else 0


if __name__ == "__main__":
    raise SystemExit(main())
