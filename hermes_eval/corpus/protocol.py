"""A published corpus rule (a benchmark's protocol): which files of a snapshot are documents, and where the
rule is written down. SWE-bench's three are in ``querysets/readers/swebench_protocols.py``; Ye et al.'s in
``querysets/importers/ye.py``."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Protocol:
    """A published corpus rule: the languages kept and the paths dropped, and where it comes from."""

    name: str
    languages: tuple[str, ...]
    exclude: tuple[str, ...]
    source: str
    pooled: bool = False  # one corpus for all queries: no query is scoped to its own snapshot
    run: tuple[str, ...] = ()  # what a run of the set must also set (``dedupe=true``: identical files once)
