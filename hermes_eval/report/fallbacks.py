"""The note under a per-language table: which chunkers did not parse which languages themselves
(cAST on Go is the heuristic), from each record's ``chunks.fallback``."""
from __future__ import annotations

from typing import Iterable


def fallback_notes(records: Iterable[dict]) -> list[str]:
    """One line per chunker whose runs sent some languages to a fallback, e.g.
    ``cast: go, javascript, markdown, rust cut by its fallback (HeuristicChunker)``."""
    seen: dict[str, dict[str, str]] = {}
    for rec in records:
        fell = (rec.get("chunks") or {}).get("fallback") or {}
        name = str(((rec.get("config") or {}).get("chunker") or {}).get("name") or "?")
        if fell:
            seen.setdefault(name, {}).update(fell)
    lines = []
    for name in sorted(seen):
        by_cls: dict[str, list[str]] = {}
        for lang, cls in sorted(seen[name].items()):
            by_cls.setdefault(cls, []).append(lang)
        lines.append(f"{name}: " + "; ".join(f"{', '.join(langs)} cut by its fallback ({cls})"
                                             for cls, langs in sorted(by_cls.items())))
    return lines
