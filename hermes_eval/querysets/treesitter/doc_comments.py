"""Doc comments of Go, Rust, JavaScript/TypeScript, Java and C: which comments above a definition are
its documentation, and the prose a query takes from them.

- Go: the block of ``//`` lines directly above (no blank line), tool directives (``//go:``,
  ``//nolint``, ``// +build``) excluded.
- Rust: outer doc comments (``///``, ``/** */``) above the item, ``#[...]`` attributes between
  them and the item allowed; ``//!`` module docs and plain ``//`` comments are not item docs.
- JS/TS: the one JSDoc/TSDoc block (``/** ... */``) above (blank lines between allowed).
- Java: the one Javadoc block (``/** ... */``) above (annotations are part of the declaration).
- C: the comments (``/* ... */`` or ``//``) directly above, no blank line between (C has no doc
  comment syntax: the comment right above a function is what documents it).
Java and C are declared in ``languages.toml`` (``doc``: which reader of ``ACCEPT`` and ``PROSE``).

Prose: comment markers stripped, the first paragraph kept (a blank line, a heading, a code
fence or, in JSDoc, the first block tag ends it); JSDoc ``@description``/``@summary`` text is
used when there is no leading description, other block tags (``@param``, ``@returns``,
``@example`` ...) are dropped since they name parameters and types rather than purpose;
``{@link X|text}`` and markdown links keep their text; backticks and ``**`` go. A JSDoc block may
sit above its definition with blank lines between. Javadoc: ``{@code x}`` and ``{@literal x}`` keep
their text, HTML tags go and ``<p>`` ends the paragraph. C: ``/* */`` and ``//`` markers stripped alike.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from hermes_eval.corpus.grammars import COMMENT_TYPES, rows, text_of
from hermes_eval.querysets.treesitter.table import TABLE


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


def _c_comment(text: str) -> bool:
    return text.startswith("//") or (text.startswith("/*") and not text.startswith("/**/"))


# the comment readers languages.toml names
ACCEPT: dict[str, Callable[[str], bool]] = {"javadoc": _jsdoc, "c_comment": _c_comment}


@dataclass(frozen=True)
class DocStyle:
    """Which comments above a definition document it: ``accept`` reads one comment's text, ``skip`` are
    node types allowed between the comments and the definition, ``single``: one block comment (blank
    lines allowed before the definition), else a run of comments without a blank line."""

    accept: Callable[[str], bool]
    skip: frozenset[str] = frozenset()
    single: bool = False


_JSDOC = DocStyle(_jsdoc, single=True)
DOC_STYLES: dict[str, DocStyle] = {
    "go": DocStyle(_go_doc), "rust": DocStyle(_rust_doc, frozenset({"attribute_item"})),
    "javascript": _JSDOC, "typescript": _JSDOC,
    **{lang: DocStyle(ACCEPT[spec["doc"]["accept"]], frozenset(spec["doc"].get("skip", ())), spec["doc"]["single"])
       for lang, spec in TABLE.items()},
}


def find_doc_comment(anchor, lines: list[str], language: str) -> DocComment | None:
    """The doc comment of the definition at ``anchor`` in a file of ``language``, or None."""
    style = DOC_STYLES.get(language, _JSDOC)
    return _comments_above(anchor, lines, style.accept, style.skip, style.single)


_BLOCK = re.compile(r"^\s*/\*\*+|\*+/\s*$")
_STAR = re.compile(r"^\s*\*(?!/) ?")
_INLINE_LINK = re.compile(r"\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)(?:\s*[|\s]\s*([^}]*))?\}")
_MD_LINK = re.compile(r"\[([^\]]+)\](?:\([^)]*\)|\[[^\]]*\])?")
_TAG = re.compile(r"^@(\w+)\s*(.*)$")
_PROSE_TAGS = ("description", "desc", "summary", "classdesc")


def _block_lines(texts: tuple[str, ...], block: re.Pattern = _BLOCK) -> list[str]:
    """The lines of ``/** ... */`` comments (``block``: their opening and closing markers) without their markers."""
    out: list[str] = []
    for text in texts:
        for line in text.split("\n"):
            out.append(_STAR.sub("", block.sub("", line)).rstrip())
    return out


def _line_lines(texts: tuple[str, ...], marker: str, block: re.Pattern = _BLOCK) -> list[str]:
    out: list[str] = []
    for text in texts:
        if text.startswith("/*"):
            out.extend(_block_lines((text,), block))
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
    return _tagged_prose(_block_lines(texts))


_C_BLOCK = re.compile(r"^\s*/\*+|\*+/\s*$")


def c_prose(texts: tuple[str, ...]) -> str:
    """The first paragraph of ``/* ... */`` and ``//`` comments."""
    return _clean(_first_paragraph(_line_lines(texts, "//", _C_BLOCK)))


_JAVADOC_INLINE = re.compile(r"\{@(?:code|literal|value)\s+([^}]*)\}")
_PARAGRAPH = re.compile(r"</?p\b[^>]*>", re.I)
_HTML_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*\b[^>]*>")


def javadoc_prose(texts: tuple[str, ...]) -> str:
    """:func:`jsdoc_prose` of Javadoc: ``{@code x}`` is ``x``, ``<p>`` starts a paragraph, other HTML tags go."""
    lines: list[str] = []
    for line in _block_lines(texts):
        line = _JAVADOC_INLINE.sub(lambda m: m.group(1).strip(), line)
        for k, part in enumerate(_PARAGRAPH.split(line)):
            if k:
                lines.append("")
            lines.append(_HTML_TAG.sub("", part))
    return _tagged_prose(lines)


def _tagged_prose(lines: list[str]) -> str:
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


_PROSE_READERS: dict[str, Callable[[tuple[str, ...]], str]] = {"javadoc": javadoc_prose, "c": c_prose}
PROSE: dict[str, Callable[[tuple[str, ...]], str]] = {
    "go": go_prose, "rust": rust_prose, "javascript": jsdoc_prose, "typescript": jsdoc_prose,
    **{lang: _PROSE_READERS[spec["doc"]["prose"]] for lang, spec in TABLE.items()}}

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
