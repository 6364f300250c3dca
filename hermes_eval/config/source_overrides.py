"""Source specs on the command line: ``corpus.sources=[pypi:evaluate==0.4.0, deb:x-dev=1.2-3]``.

Hydra's override grammar rejects ``=`` (and ``~``) inside an unquoted list element, so the pinned
forms ``pypi:NAME==VERSION`` and ``deb:PACKAGE=VERSION`` would need quoting by hand
(``'corpus.sources=["pypi:evaluate==0.4.0"]'``). Every entry point (compose, the CLI launch,
sweeps) passes its overrides through :func:`quote_source_lists` first, which quotes each element
of the lists given to a source key; elements already quoted are left as they are."""
from __future__ import annotations

import re
from typing import Sequence

# keys whose list elements are corpus source specs, or path globs (``[tT]`` is a list to Hydra)
SOURCE_KEYS: frozenset[str] = frozenset({"corpus.sources", "corpus.exclude"})
_KEY = re.compile(r"^(?P<prefix>\+{0,2}|~)(?P<key>[\w.@/-]+)=(?P<value>.*)$", re.DOTALL)
_QUOTES = ("'", '"')


def _split_top(body: str) -> list[str]:
    """``body`` split on commas outside quotes and brackets."""
    parts, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(body):
        if quote:
            if ch == quote and body[i - 1] != "\\":
                quote = ""
        elif ch in _QUOTES:
            quote = ch
        elif ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    return parts


def _quote(element: str) -> str:
    text = element.strip()
    if not text or (len(text) >= 2 and text[0] == text[-1] and text[0] in _QUOTES):
        return text
    quote = "'" if '"' in text else '"'
    return quote + text.replace("\\", "\\\\").replace(quote, "\\" + quote) + quote


def _quote_lists(value: str) -> str:
    """Each top-level ``[...]`` of ``value`` with its elements quoted (``[a],[b]`` is a sweep)."""
    out, i, quote = [], 0, ""
    while i < len(value):
        ch = value[i]
        if quote:
            quote = "" if ch == quote and value[i - 1] != "\\" else quote
        elif ch in _QUOTES:
            quote = ch
        elif ch == "[":
            end = _closing(value, i)
            if end is None:
                break
            body = value[i + 1:end]
            out.append("[" + ",".join(_quote(e) for e in _split_top(body)) + "]" if body.strip() else "[]")
            i = end + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out) + value[i:]


def _closing(value: str, start: int) -> int | None:
    depth, quote = 0, ""
    for j in range(start, len(value)):
        ch = value[j]
        if quote:
            quote = "" if ch == quote and value[j - 1] != "\\" else quote
        elif ch in _QUOTES:
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return j
    return None


def quote_source_lists(overrides: Sequence[str]) -> list[str]:
    """``overrides`` with the list elements of source keys quoted; every other override unchanged."""
    out = []
    for raw in overrides:
        m = _KEY.match(raw)
        if m is None or m.group("key") not in SOURCE_KEYS or "[" not in m.group("value"):
            out.append(raw)
            continue
        out.append(f"{m.group('prefix')}{m.group('key')}={_quote_lists(m.group('value'))}")
    return out
