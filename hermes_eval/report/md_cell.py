"""One markdown table cell, safe to paste any text into (every markdown page of the reports uses it)."""
from __future__ import annotations

_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;"}
_MD_PUNCT = "\\`*_[]()#!~"


def md_cell(text: object, limit: int | None = None) -> str:
    """One table cell: newlines folded, HTML and pipes as entities, markdown punctuation escaped."""
    s = " ".join(("" if text is None else str(text)).split())
    if limit is not None and len(s) > limit:
        s = s[: limit - 1] + "…"
    out = []
    for ch in s:
        if ch in _ENTITIES:
            out.append(_ENTITIES[ch])
        elif ch in _MD_PUNCT:
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


__all__ = ["md_cell"]
