"""Markdown heading -> section queries: the heading's text asks for the prose under it.

Query = a heading's text with inline markdown dropped (links keep their text; backticks,
``*`` and ``_`` emphasis go). Gold = the section's own lines after the heading, up to the next
heading of any level (``retrievers.chunkers.markdown.sections``, headings in fenced code
ignored), so a heading with no prose of its own before its first subsection is no query.

How it avoids leaking: the heading line (and a setext underline) is the query's ``mask`` and
origin, so the runner blanks it from the indexed corpus and hygiene's corpus-leak check does not
count it. A candidate is skipped when its text, normalized (lower case, whitespace collapsed,
backticks / ``*`` / ``_`` dropped), occurs anywhere else in the corpus (``text_in_gold`` when
in its own section, which would be self-retrieval; ``text_elsewhere`` otherwise: a table of
contents entry, link text, another heading containing it, the same words in code), and when
several headings share a text (``duplicate_text``). What is left shares no verbatim copy of its
text with the index, which hygiene (``self_retrieval``, ``leak_elsewhere``) re-checks on every
run. Also skipped: headings under ``min_words`` words (``short_heading``) and sections with fewer
than ``min_body_lines`` non-blank lines (``empty_section``). Each query has
``meta.language = "markdown"`` and the heading path.

Not done: link text -> target section queries (``[text](other.md#anchor)``): the link text
stays in the index next to the link, so every one would have to be masked in its source file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from hermes_eval.core import Query, Span
from hermes_eval.core.corpus import Corpus
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.generators.manifest import manifest
from hermes_eval.querysets.sampling import stratified_sample, unique_texts
from retrievers.identity.declare import declare

_ATX = re.compile(r"^ {0,3}#{1,6}(\s|$)")
_LINK = re.compile(r"!?\[([^\]]*)\](\([^)]*\)|\[[^\]]*\])?")
_HTML = re.compile(r"<[^>]+>")
_MARKUP = re.compile(r"[`*_]")


def heading_text(title: str) -> str:
    """A heading's words: links keep their text, HTML tags and emphasis marks go."""
    text = _LINK.sub(lambda m: m.group(1), title)
    text = _HTML.sub(" ", text)
    return " ".join(_MARKUP.sub("", text).split()).strip(" #:")


def normalized(text: str) -> str:
    """The form texts are compared in: lower case, markup marks dropped, whitespace collapsed."""
    return " ".join(_MARKUP.sub("", text).lower().split())


@declare("hermes_eval.querysets.markdown_sections.MarkdownSectionQueries")
@dataclass(frozen=True)
class MarkdownSectionQueries:
    """Generator config; ``generate(corpus, name)`` returns a QuerySet."""

    min_words: int = 2
    min_body_lines: int = 1
    max_queries: int = 300
    seed: int = 0
    version: str = "1"

    def generate(self, corpus: Corpus, name: str) -> QuerySet:
        from retrievers.chunkers.markdown import sections

        skipped = {k: 0 for k in ("short_heading", "empty_section", "text_in_gold", "text_elsewhere",
                                  "duplicate_text")}
        whole = "\n".join(normalized(line) for f in corpus.files for line in f.text.split("\n"))
        candidates: list[Query] = []
        for f in corpus.files:
            if f.language != "markdown":
                continue
            lines = f.text.split("\n")
            for s in sections(lines):
                if s.level == 0:
                    continue
                head_end = s.start if _ATX.match(lines[s.start - 1]) else s.start + 1
                text = heading_text(s.path[-1])
                body = [line for line in lines[head_end:s.end] if line.strip()]
                if len(text.split()) < self.min_words:
                    skipped["short_heading"] += 1
                elif len(body) < self.min_body_lines:
                    skipped["empty_section"] += 1
                elif normalized(text) in normalized("\n".join(body)):
                    skipped["text_in_gold"] += 1
                elif whole.count(normalized(text)) > 1:
                    skipped["text_elsewhere"] += 1
                else:
                    candidates.append(Query(
                        qid=f"{f.path}:{s.start}:section", query=text,
                        gold=(Span(f.path, head_end + 1, s.end),), kind="markdown_section", repo=f.repo,
                        meta={"language": "markdown", "heading_path": list(s.path), "level": s.level,
                              "mask": [Span(f.path, s.start, head_end).to_dict()]}))
        unique, skipped["duplicate_text"] = unique_texts(candidates)
        chosen = stratified_sample(unique, self.max_queries, self.seed)
        return QuerySet(name=name, queries=tuple(chosen), manifest=manifest(
            "markdown_section", self.version, self.seed,
            {"min_words": self.min_words, "min_body_lines": self.min_body_lines,
             "max_queries": self.max_queries}, corpus,
            {"candidates": len(candidates), "queries": len(chosen)}, skipped))
