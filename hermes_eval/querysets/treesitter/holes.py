"""RepoEval-style function-body holes in Go, Rust, JS/TS, Java and C files parsed with tree-sitter.

The hole runs from the body's first line inside the braces (its first statement or comment) to
the function's closing-brace line; a body that opens on the signature's line, is shorter than
``min_body_lines`` or longer than ``max_body_lines``, or only says it is unimplemented
(``todo!()``, ``unimplemented!()``, ``panic("not implemented")``, ``throw new Error('not
implemented')``) is no hole.
"""
from __future__ import annotations

import re
from typing import Iterator

from hermes_eval.corpus.grammars import rows, text_of
from hermes_eval.querysets.holes import Hole, HoleRules
from hermes_eval.querysets.treesitter.definitions import TsDef

_UNIMPLEMENTED = re.compile(
    r"^\{\s*(todo!\(.*\)|unimplemented!\(.*\)|panic\(\"(not implemented|unimplemented|TODO)[^\"]*\"\)|"
    r"throw new Error\([\"'`][^\"'`]*not implemented[^\"'`]*[\"'`]\))\s*;?\s*\}$", re.I | re.S)


def function_body_holes(path: str, repo: str, defs: list[TsDef], rules: HoleRules) -> Iterator[tuple[Hole, TsDef]]:
    """(hole, its function) for each function or method body of a sensible length."""
    for d in defs:
        if d.body is None or d.kind not in ("function", "method") or not d.body.named_children:
            continue
        if _UNIMPLEMENTED.match(text_of(d.body)):
            continue
        opens, end = rows(d.body)
        start = rows(d.body.named_children[0])[0]
        if start <= opens:
            continue
        if rules.min_body_lines <= end - start + 1 <= rules.max_body_lines:
            yield Hole(path, repo, "function", start, end), d
