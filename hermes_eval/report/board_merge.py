"""A board's committed results with new runs merged in (``leaderboard --merge``): a board whose sets were run
on several machines, or some of them again, keeps every set's results. A new run replaces the result of the
same config hash in place; a query set whose new runs were made on a different set (its queries, corpus or
generator changed: a re-import) drops the results nobody re-ran on it, each named in one line."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from hermes_eval.report.board_inputs import BoardInputs

# what says two runs' query sets are the same set, whatever machine imported them (paths differ)
SET_IDENTITY = ("corpus_fingerprint", "generator", "generator_version", "counts", "skipped")


@dataclass(frozen=True)
class Merged:
    """The merged inputs, and the results dropped because their query set changed under them."""

    inputs: BoardInputs
    dropped: tuple[str, ...]  # "QUERYSET: RUN" of each result dropped


def set_identity(record: Mapping) -> tuple:
    """What identifies a run's query set across machines (its manifest's content, not its paths)."""
    manifest = ((record.get("queryset_info") or {}).get("manifest") or {})
    return tuple(repr(manifest.get(k)) for k in SET_IDENTITY)


def merge(old: BoardInputs, new: BoardInputs) -> Merged:
    """``new`` merged into ``old``: see the module docstring. Records keep the old board's order, new runs
    that replace none come after it in their own order."""
    fresh = {str(r.get("config_hash")): r for r in new.records}
    sets = {str(r.get("queryset")): set_identity(r) for r in new.records if r.get("status") == "ok"}
    records, runs, dropped, placed = [], {}, [], set()
    for rec in old.records:
        key, qs = str(rec.get("config_hash")), str(rec.get("queryset"))
        if key in fresh:
            records.append(fresh[key])
            placed.add(key)
        elif qs in sets and set_identity(rec) != sets[qs]:
            dropped.append(f"{qs}: {rec.get('_dir')}")
        else:
            records.append(rec)
            if key in old.runs:
                runs[key] = old.runs[key]
    records += [r for k, r in fresh.items() if k not in placed]
    runs.update(new.runs)
    kept_sets = {str(r.get("queryset")) for r in records}
    codes = {qs: c for qs, c in old.codes.items() if qs in kept_sets and qs not in new.codes}
    codes.update(new.codes)
    return Merged(BoardInputs(records, runs, codes), tuple(dropped))


__all__ = ["Merged", "SET_IDENTITY", "merge", "set_identity"]
