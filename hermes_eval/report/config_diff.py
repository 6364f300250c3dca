"""What a reader needs to trust a row: its config diff against the baseline and its manifest."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MISSING = "∅"  # a key one side does not have
MANIFEST_SCALARS = ("config_hash", "git_commit", "seed", "finished_at", "wall_seconds", "peak_rss_mb",
                    "indexed_fingerprint", "hermes_eval_version")


@dataclass(frozen=True)
class DiffLine:
    """One config key whose value differs from the baseline's."""

    key: str
    baseline: str
    value: str


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """Nested dicts -> dotted keys (lists stay whole)."""
    if not isinstance(data, dict):
        return {prefix: data} if prefix else {}
    out: dict[str, Any] = {}
    for k, v in data.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict) and v:
            out.update(flatten(v, key))
        else:
            out[key] = v
    return out


def show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)


def config_diff(baseline_cfg: dict | None, cfg: dict | None) -> list[DiffLine]:
    """Keys whose values differ (hydra/paths excluded: they do not change what is measured)."""
    a, b = flatten(baseline_cfg or {}), flatten(cfg or {})
    keys = sorted(k for k in set(a) | set(b) if not k.startswith(("hydra.", "paths.")))
    return [DiffLine(k, show(a[k]) if k in a else MISSING, show(b[k]) if k in b else MISSING)
            for k in keys if a.get(k, MISSING) != b.get(k, MISSING)]


def manifest(record: dict) -> list[tuple[str, str]]:
    """(key, value) pairs: identity, fingerprints, versions, machine, commit."""
    rows = [(k, show(record[k])) for k in MANIFEST_SCALARS if record.get(k) is not None]
    corpus = record.get("corpus_info") or {}
    if corpus.get("fingerprint"):
        rows.append(("corpus fingerprint", f"{corpus['fingerprint']} ({corpus.get('files', '?')} files, "
                                           f"{corpus.get('lines', '?')} lines)"))
    qs = (record.get("queryset_info") or {}).get("manifest") or {}
    for k in ("name", "generator", "generator_version", "corpus_fingerprint", "fingerprint", "seed"):
        if qs.get(k) is not None:
            rows.append((f"queryset.{k}", show(qs[k])))
    rows += [(f"version.{k}", show(v)) for k, v in sorted((record.get("versions") or {}).items())]
    rows += [(f"machine.{k}", show(v)) for k, v in sorted((record.get("machine") or {}).items())]
    idx = record.get("index") or {}
    if idx.get("bytes"):
        rows.append(("index bytes", show(idx["bytes"])))
    return rows
