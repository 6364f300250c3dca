"""One line on a board saying what its query set is made of, from the set's manifest: the rows it
was imported or generated from, how many became queries, what was skipped and why, and task ids
the source repeated (renamed on import)."""
from __future__ import annotations


def set_line(manifest: dict) -> str:
    """'' when the manifest says nothing worth a line."""
    counts, skipped = manifest.get("counts") or {}, manifest.get("skipped") or {}
    repeated = manifest.get("repeated_task_ids") or {}
    parts = []
    if manifest.get("protocol"):
        parts.append(f"protocol {manifest['protocol']}" + (" (leaks by design)" if manifest.get("leaks_by_design") else ""))
    source = counts.get("rows", counts.get("candidates"))
    if source is not None and counts.get("queries") is not None:
        parts.append(f"{counts['queries']} queries from {source} source rows")
    kept = {k: v for k, v in skipped.items() if v}
    if kept:
        parts.append("skipped: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(kept.items())))
    if repeated:
        parts.append(f"{len(repeated)} task ids repeated over {sum(repeated.values())} rows in the source, "
                     f"renamed to unique ids")
    return "; ".join(parts)
