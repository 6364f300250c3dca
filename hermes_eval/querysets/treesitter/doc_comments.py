"""Doc comments of Go, Rust and JavaScript/TypeScript: which comments above a definition are its
documentation, and the prose a query takes from them.

- Go: the block of ``//`` lines directly above (no blank line), tool directives (``//go:``,
  ``//nolint``, ``// +build``) excluded.
- Rust: outer doc comments (``///``, ``/** */``) above the item, ``#[...]`` attributes between
  them and the item allowed; ``//!`` module docs and plain ``//`` comments are not item docs.
- JS/TS: the one JSDoc/TSDoc block (``/** ... */``) above (blank lines between allowed).

Prose: comment markers stripped, the first paragraph kept (a blank line, a heading, a code
fence or, in JSDoc, the first block tag ends it); JSDoc ``@description``/``@summary`` text is
used when there is no leading description, other block tags (``@param``, ``@returns``,
``@example`` ...) are dropped since they name parameters and types rather than purpose;
``{@link X|text}`` and markdown links keep their text; backticks and ``**`` go. A JSDoc block may
sit above its definition with blank lines between.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from hermes_eval.corpus.grammars import COMMENT_TYPES, rows, text_of


@dataclass(frozen=True)
class DocComment:
    """Lines ``start``..``end`` of a doc comment and its raw comment texts in order."""

    start: int
    end: int
    texts: tuple[str, ...]


_GO_DIRECTIVE = re.compile(r"^//(go:|line |export |nolint|\s*\+build|lint:|extern |sys )")


def _own_line(lines: list[str], node) -> bool:
    """Whether nothing but whitespace precedes ``node`` on its first line."""
    row, col = node.start_point
    return not lines[row].encode("utf-8")[:col].strip()


def _blank_between(lines: list[str], last: int, expect: int) -> bool:
    """Whether lines ``last+1``..``expect`` (1-based) are all blank."""
    return last < expect and all(not lines[n - 1].strip() for n in range(last + 1, expect + 1))


def _comments_above(anchor, lines: list[str], accept: Callable[[str], bool], skip: frozenset[str],
                    single: bool) -> DocComment | None:
    """The contiguous accepted comments ending on the line above ``anchor`` (or above the
    ``skip`` nodes, e.g. attributes, directly above it). A ``single`` block comment (JSDoc) may
    be separated from its definition by blank lines, as the TypeScript compiler allows."""
    expect = rows(anchor)[0] - 1
    found: list = []
    prev = anchor.prev_named_sibling
    while prev is not None:
        first, last = rows(prev)
        if last != expect and not (single and not found and _blank_between(lines, last, expect)):
            break
        if prev.type in skip and not found:
            expect = first - 1
        elif prev.type in COMMENT_TYPES and accept(text_of(prev)) and _own_line(lines, prev):
            found.append(prev)
            expect = first - 1
            if single:
                break
        else:
            break
        prev = prev.prev_named_sibling
    if not found:
        return None
    found.reverse()
    return DocComment(rows(found[0])[0], rows(found[-1])[1], tuple(text_of(n) for n in found))


def _go_doc(text: str) -> bool:
    return text.startswith("//") and not _GO_DIRECTIVE.match(text)


def _rust_doc(text: str) -> bool:
    return (text.startswith("///") and not text.startswith("////")) or \
        (text.startswith("/**") and not text.startswith(("/***", "/**/")))


def _jsdoc(text: str) -> bool:
    return text.startswith("/**") and not text.startswith("/**/")


def find_doc_comment(anchor, lines: list[str], language: str) -> DocComment | None:
    """The doc comment of the definition at ``anchor`` in a file of ``language``, or None."""
    if language == "go":
        return _comments_above(anchor, lines, _go_doc, frozenset(), single=False)
    if language == "rust":
        return _comments_above(anchor, lines, _rust_doc, frozenset({"attribute_item"}), single=False)
    return _comments_above(anchor, lines, _jsdoc, frozenset(), single=True)


_BLOCK = re.compile(r"^\s*/\*\*+|\*+/\s*$")
_STAR = re.compile(r"^\s*\*(?!/) ?")
_INLINE_LINK = re.compile(r"\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)(?:\s*[|\s]\s*([^}]*))?\}")
_MD_LINK = re.compile(r"\[([^\]]+)\](?:\([^)]*\)|\[[^\]]*\])?")
_TAG = re.compile(r"^@(\w+)\s*(.*)$")
_PROSE_TAGS = ("description", "desc", "summary", "classdesc")


def _block_lines(texts: tuple[str, ...]) -> list[str]:
    """The lines of ``/** ... */`` comments without their markers."""
    out: list[str] = []
    for text in texts:
        for line in text.split("\n"):
            out.append(_STAR.sub("", _BLOCK.sub("", line)).rstrip())
    return out


def _line_lines(texts: tuple[str, ...], marker: str) -> list[str]:
    out: list[str] = []
    for text in texts:
        if text.startswith("/*"):
            out.extend(_block_lines((text,)))
            continue
        body = text.rstrip("\n")[len(marker):]
        out.append(body[1:] if body.startswith(" ") else body)
    return out


def _first_paragraph(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        s = line.strip()
        if not s:
            if out:
                break
            continue
        if s.startswith(("```", "# ", "## ")) or (s.startswith("#") and s.strip("#") == ""):
            break
        out.append(s)
    return out


def _clean(parts: list[str]) -> str:
    text = " ".join(" ".join(parts).split())
    text = _INLINE_LINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), text)
    text = _MD_LINK.sub(lambda m: m.group(1), text)
    return " ".join(text.replace("`", "").replace("**", "").split())


def go_prose(texts: tuple[str, ...]) -> str:
    return _clean(_first_paragraph(_line_lines(texts, "//")))


def rust_prose(texts: tuple[str, ...]) -> str:
    return _clean(_first_paragraph(_line_lines(texts, "///")))


def jsdoc_prose(texts: tuple[str, ...]) -> str:
    """The description before the first block tag, else an ``@description``-like tag's text."""
    lines = _block_lines(texts)
    lead: list[str] = []
    tagged: list[str] = []
    tag: str | None = None
    for line in lines:
        m = _TAG.match(line.strip())
        if m:
            tag = m.group(1).lower()
            if tag in _PROSE_TAGS:
                tagged.append(m.group(2))
            continue
        if tag is None:
            lead.append(line)
        elif tag in _PROSE_TAGS:
            tagged.append(line)
    return _clean(_first_paragraph(lead)) or _clean(_first_paragraph(tagged))


PROSE: dict[str, Callable[[tuple[str, ...]], str]] = {
    "go": go_prose, "rust": rust_prose, "javascript": jsdoc_prose, "typescript": jsdoc_prose}

# Not prose about the definition: tool markers, licence headers, generated-code banners.
BOILERPLATE = re.compile(
    r"^(todo|fixme|xxx|hack|deprecated|eslint|istanbul|prettier|jshint|tslint|@ts-|c8 |"
    r"copyright|spdx-license|licensed under)\b|code generated .* do not edit|^see\s+\S+\.?$", re.I)


_MARKERS = re.compile(r"^\s*(?:/\*+|\*+/?|//[/!]?|#+)?\s?")
_END = re.compile(r"\*+/\s*$")


def prose_view(text: str) -> str:
    """``text`` as comment prose for finding copies of a query: comment markers at line starts
    (``//``, ``///``, ``*``, ``/**``, ``#``) and ends (``*/``) dropped, backticks and ``**`` gone,
    lines joined, whitespace collapsed, lower case."""
    lines = (_END.sub("", _MARKERS.sub("", line, count=1)) for line in text.split("\n"))
    return " ".join(" ".join(lines).replace("`", "").replace("**", "").lower().split())
