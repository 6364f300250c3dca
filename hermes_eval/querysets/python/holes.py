"""RepoEval-style holes in a Python file: one finder per level (line, API call, function body)."""
from __future__ import annotations

import ast
from typing import Callable, Iterator

from hermes_eval.querysets.holes import Hole, HoleRules
from hermes_eval.querysets.python.definitions import iter_defs
from hermes_eval.querysets.python.index import ModuleIndex
from hermes_eval.querysets.python.resolve import called_definitions

_NOT_A_LINE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Pass)
_SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)


def _is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
        and isinstance(node.value.value, str)


def line_holes(path: str, repo: str, lines: list[str], tree: ast.Module, index: ModuleIndex,
               rules: HoleRules) -> Iterator[Hole]:
    """One hole per line that starts a statement (no defs, imports, docstrings, ``pass``)."""
    starts = {n.lineno for n in ast.walk(tree)
              if isinstance(n, ast.stmt) and not isinstance(n, _NOT_A_LINE) and not _is_docstring(n)}
    for n in sorted(starts):
        text = lines[n - 1].strip()
        if len(text) >= rules.min_target_chars and not text.startswith(("#", "@")):
            yield Hole(path, repo, "line", n, n)


def api_holes(path: str, repo: str, lines: list[str], tree: ast.Module, index: ModuleIndex,
              rules: HoleRules) -> Iterator[Hole]:
    """One hole per simple statement that calls a repository-defined function, method or class."""
    seen: set[int] = set()
    for node in sorted((n for n in ast.walk(tree) if isinstance(n, _SIMPLE)), key=lambda n: n.lineno):
        if node.lineno in seen or _is_docstring(node) or node.end_lineno - node.lineno + 1 > rules.max_hole_lines:
            continue
        if called_definitions(index, path, node.lineno, node.end_lineno):
            seen.add(node.lineno)
            yield Hole(path, repo, "api", node.lineno, node.end_lineno)


def _trivial(body: list[ast.stmt]) -> bool:
    """Only ``pass``, ``...`` or ``raise NotImplementedError``."""
    for s in body:
        if isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)):
            continue
        if isinstance(s, ast.Raise) and "NotImplementedError" in ast.dump(s):
            continue
        return False
    return True


def function_holes(path: str, repo: str, lines: list[str], tree: ast.Module, index: ModuleIndex,
                   rules: HoleRules) -> Iterator[Hole]:
    """One hole per function or method body (after its docstring) of a sensible length."""
    for _, node in iter_defs(tree):
        if isinstance(node, ast.ClassDef):
            continue
        has_doc = _is_docstring(node.body[0])
        body = node.body[1:] if has_doc else node.body
        if not body or _trivial(body):
            continue
        start = node.body[0].end_lineno + 1 if has_doc else body[0].lineno
        if rules.min_body_lines <= node.end_lineno - start + 1 <= rules.max_body_lines:
            yield Hole(path, repo, "function", start, node.end_lineno)


FINDERS: dict[str, Callable[..., Iterator[Hole]]] = {
    "line": line_holes, "api": api_holes, "function": function_holes}
