"""One line on a board saying what its query set is made of, from the set's manifest: the rows it
was imported or generated from, how many became queries, what was skipped and why, and task ids
the source repeated (renamed on import). A set mined from a history (``filter_order`` in its
manifest) says how many commits were walked and every filter's count, zeros too, in the order asked."""
from __future__ import annotations


def _label(key: str) -> str:
    return key.replace("_", " ")


def mined_parts(manifest: dict) -> list[str]:
    """A mined set's walk, queries and every filter's count (empty for any other set)."""
    order = manifest.get("filter_order")
    if not order:
        return []
    from hermes_eval.querysets.mined.mine import AFTER_FILTERS  # the miner's reasons after its filters

    counts, skipped = manifest.get("counts") or {}, manifest.get("skipped") or {}
    walked = f"{manifest.get('commits', '?')} commits walked"
    if manifest.get("first") and manifest.get("last"):
        walked += f" ({str(manifest['first'])[:10]} to {str(manifest['last'])[:10]})"
    kept = f"{counts.get('queries', '?')} queries, {counts.get('already_localized', 0)} already localized"
    filters = ", ".join(f"{_label(k)} {skipped.get(k, 0)}" for k in [*order, *AFTER_FILTERS])
    return [walked, kept, f"skipped by filter: {filters}"]


def set_line(manifest: dict) -> str:
    """'' when the manifest says nothing worth a line."""
    counts, skipped = manifest.get("counts") or {}, manifest.get("skipped") or {}
    repeated = manifest.get("repeated_task_ids") or {}
    parts = mined_parts(manifest)
    if parts:
        return "; ".join(parts)
    if manifest.get("protocol"):
        parts.append(f"protocol {manifest['protocol']}" + (" (leaks by design)" if manifest.get("leaks_by_design") else ""))
    source = counts.get("rows", counts.get("candidates"))
    if source is not None and counts.get("queries") is not None:
        parts.append(f"{counts['queries']} queries from {source} source rows")
    kept = {k: v for k, v in skipped.items() if v}
    if kept:
        parts.append("skipped: " + ", ".join(f"{_label(k)} {v}" for k, v in sorted(kept.items())))
    if repeated:
        parts.append(f"{len(repeated)} task ids repeated over {sum(repeated.values())} rows in the source, "
                     f"renamed to unique ids")
    return "; ".join(parts)
