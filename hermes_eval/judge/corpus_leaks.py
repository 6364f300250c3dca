"""Where else in the indexed corpus a query's text occurs: corpus-wide leak detection.

The corpus is normalized once the way queries are (whitespace runs collapsed, lower case) into
one string, files separated by a NUL, with each non-blank line's offset kept so a match maps
back to ``path`` and line numbers. A query leaks at a place when its whole normalized text
occurs there (queries of at least ``min_query_chars``) or when the two share a verbatim run of
at least ``min_run`` characters. Places inside the query's gold, its ``exclude`` spans (never
shown) and its own origin (``Query.origin()``: the masked docstring, a task's left context)
are not leaks; every other place is, in any file: code, comments, markdown. Text found in more
than ``max_copies`` places of the corpus (a licence header, a common import block, a stock
sentence) is boilerplate, not a copy of this query, and is not followed.
"""
from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate
from dataclasses import dataclass
from typing import Iterator, Mapping, Sequence

from hermes_eval.core import Query, Span
from hermes_eval.core.queryset import scope_of
from hermes_eval.judge.leaks import normalize
from hermes_eval.judge.occurrences import Places, occurrences
from retrievers.identity.declare import PartId
from retrievers.progress import Tracker, track

SEP = "\0"
_INLINE_WS = re.compile(r"[^\S\n]+")


@dataclass(frozen=True)
class LeakRules:
    """Corpus-wide leak sizes (``hygiene.corpus_leak_*`` in the config)."""

    min_run: int = 200  # normalized characters of a verbatim run shared with the query
    min_query_chars: int = 30  # a shorter query never leaks corpus-wide (too generic)
    max_places: int = 5  # places named per query
    max_copies: int = 5  # text found in more places than this is boilerplate


def _body(text: str) -> str:
    """A file's normalized body: lower case, every whitespace run (inside a line, or a line break with the
    blank lines around it) one space, none at either end. It equals the body of :func:`_line_map`'s lines
    (each normalized as ``leaks.normalize`` does, blank ones left out, joined by a space), built by the
    C loops of ``str.split`` and ``str.join`` instead of a Python loop over the lines."""
    return " ".join(text.lower().split())


def _line_map(text: str) -> tuple[str, array, array]:
    """A file's normalized body (its lines normalized as ``leaks.normalize`` does, blank ones left
    out, joined by a space), each kept line's offset in it and its number. Whitespace runs inside
    lines are collapsed over the whole text at once (``[^\\S\\n]`` is ``\\s`` without the newline
    that separates lines): a regex pass per file, not per line. Only a file a match falls in needs it."""
    stripped = [line.strip() for line in _INLINE_WS.sub(" ", text.lower()).split("\n")]
    kept = [i for i, line in enumerate(stripped) if line]
    norms = [stripped[i] for i in kept]
    offsets = array("q", accumulate((len(n) + 1 for n in norms[:-1]), initial=0)) if norms else array("q")
    return " ".join(norms), offsets, array("l", (i + 1 for i in kept))


class CorpusText:
    """The normalized text of a corpus with a map from offsets back to file lines. ``memo`` (text ->
    its normalized body) lets several corpora that share files (snapshots of one repository) normalize
    each distinct text once. A file's line map is built when a match first falls in it."""

    def __init__(self, files: Mapping[str, str], memo: dict | None = None, tracker: Tracker | None = None):
        parts: list[str] = []
        self._paths: list[str] = []
        self._starts: list[int] = []  # offset of each file in ``text``
        self._texts: list[str] = []  # per file: its text, for its line map
        self._line_maps: dict[int, tuple[array, array]] = {}  # file -> (offset of each non-blank line, its number)
        memo = {} if memo is None else memo
        pos = 0
        for path in sorted(files):
            text = files[path]
            body = memo.get(text)
            if body is None:
                body = memo[text] = _body(text)
            self._paths.append(path)
            self._starts.append(pos)
            self._texts.append(text)
            parts.append(body)
            pos += len(body) + len(SEP)
            if tracker is not None:
                tracker.update()
        self.text = SEP.join(parts)

    def span(self, start: int, end: int) -> Span:
        """The file lines holding ``text[start:end]``."""
        f = bisect_right(self._starts, start) - 1
        if f not in self._line_maps:
            self._line_maps[f] = _line_map(self._texts[f])[1:]
        (at, numbers), base = self._line_maps[f], self._starts[f]
        first = numbers[bisect_right(at, start - base) - 1]
        last = numbers[bisect_right(at, max(start, end - 1) - base) - 1]
        return Span(self._paths[f], first, last)

    def matches(self, query: str, rules: LeakRules, found: Places | None = None) -> Iterator[tuple[int, int]]:
        """(start, end) of each place sharing the whole query or a ``min_run`` run with it; ``found``:
        the places of the query's needles (``needles``) when several queries were searched at once."""
        q = normalize(query)
        blocks = needles(q, rules)
        if not blocks:
            return
        if found is None:
            found = occurrences(self.text, blocks, rules.max_copies)
        if len(q) <= rules.min_run:
            yield from found[q]
            return
        b = len(blocks[0])
        seen: set[tuple[int, int]] = set()
        for k, block in enumerate(blocks):
            i = k * b
            for start, _ in found[block]:
                left = 0
                while i - left > 0 and start - left > 0 and q[i - left - 1] == self.text[start - left - 1]:
                    left += 1
                right = b
                while i + right < len(q) and start + right < len(self.text) and q[i + right] == self.text[start + right]:
                    right += 1
                run = (start - left, start + right)
                if left + right >= rules.min_run and run not in seen:
                    seen.add(run)
                    yield run


def needles(q: str, rules: LeakRules) -> list[str]:
    """What is searched for a normalized query ``q``: nothing when it is too short, the whole query
    when it is no longer than ``min_run``, else its blocks ``q[i:i+b]`` at every ``i % b == 0`` with
    ``b = min_run // 2``: any shared run of ``min_run`` characters holds one of them whole."""
    if len(q) < rules.min_query_chars:
        return []
    if len(q) <= rules.min_run:
        return [q]
    b = max(1, rules.min_run // 2)
    return [q[i:i + b] for i in range(0, len(q) - b + 1, b)]


def _inside(place: Span, spans: tuple[Span, ...]) -> bool:
    return any(s.overlaps(place.path, place.start, place.end) for s in spans)


def leak_places(q: Query, text: CorpusText, rules: LeakRules, found: Places | None = None) -> list[Span]:
    """Places outside the query's gold, exclude and origin spans where its text occurs, in
    corpus order, each file region once (``found``: as ``CorpusText.matches`` takes it)."""
    allowed = tuple(q.gold) + tuple(q.exclude) + q.origin()
    out: list[Span] = []
    for start, end in text.matches(q.query, rules, found):
        place = text.span(start, end)
        if not _inside(place, allowed) and place not in out:
            out.append(place)
    return sorted(out)


def corpus_leak_places(queries: Sequence[Query], files: Mapping[str, str], rules: LeakRules,
                       scopes: Sequence[str] = ()) -> dict[str, tuple[Span, ...]]:
    """qid -> its leak places, for the queries that leak; the corpus is normalized once. With
    snapshot ``scopes`` (one corpus holding a repository at several commits) a query is checked
    against its own snapshot alone, the only one it searches: one snapshot's text is held at a time,
    a text normalized once for consecutive snapshots that share it (the memo keeps one snapshot's texts),
    and a text counts as boilerplate by its copies there."""
    if not [s for s in scopes if s]:  # one pooled corpus: normalized once, every needle found in one scan
        with track("leak check", len(files), "files") as tracker:
            text = CorpusText(files, tracker=tracker)
        return _leaks_in(text, queries, rules)
    groups: dict[str, list[Query]] = {}
    for q in queries:
        own = scope_of((q.gold or q.exclude or (Span("", 1, 1),))[0].path, scopes)
        groups.setdefault(own, []).append(q)
    by_scope: dict[str, dict[str, str]] = {}
    for path, body in files.items():
        by_scope.setdefault(scope_of(path, scopes), {})[path] = body
    memo: dict = {}
    out: dict[str, tuple[Span, ...]] = {}
    with track("leak check", len(groups), "snapshots") as tracker:
        for own, group in groups.items():
            files_here = by_scope.get(own, {})
            text = CorpusText(files_here, memo)
            # keep only this snapshot's texts: the next one shares most of them, older ones are dropped
            memo = {body: memo[body] for body in files_here.values()}
            out.update(_leaks_in(text, group, rules))
            tracker.update()
    return {q.qid: out[q.qid] for q in queries if q.qid in out}


def _leaks_in(text: CorpusText, queries: Sequence[Query], rules: LeakRules) -> dict[str, tuple[Span, ...]]:
    """qid -> leak places of the queries that leak in ``text``, every query's needles searched at once."""
    found = occurrences(text.text, (n for q in queries for n in needles(normalize(q.query), rules)), rules.max_copies)
    return {q.qid: tuple(places) for q in queries if (places := leak_places(q, text, rules, found))}


LEAK_CHECK = PartId("hermes_eval.judge.corpus_leaks", 1)  # bump when leak places are found differently


@lru_cache(maxsize=1)
def leak_check_key() -> str:
    """This check's identity: its declared version and the places it finds for two probe queries, one
    quoting a probe file (the quote is its leak) and one quoting nothing."""
    from retrievers.identity.key import part_key
    from retrievers.identity.probe import first_probe_files

    files = {path: text for path, text, _ in first_probe_files()}
    quote = next(iter(files.values()))[200:420]
    queries = [Query("quotes", f"why does this fail? {quote}", (Span("GUIDE.md", 1, 2),)),
               Query("plain", "how do I compute the area of a circle", (Span("GUIDE.md", 1, 2),))]
    return part_key([LEAK_CHECK], corpus_leak_places(queries, files, LeakRules(min_run=100, min_query_chars=20,
                                                                                 max_copies=5)))
