"""Strict reading of JSON-lines and TSV files: every error names the file, the line and the field."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from hermes_eval.core.errors import UserError

_MISSING = object()


def read_text(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read ({type(exc).__name__}): check the file") from None


def read_jsonl(path: Path) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line; invalid JSON or a non-object fails."""
    for n, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"{path} line {n}: invalid JSON ({exc.msg} at column {exc.colno}): "
                            f"fix that line") from None
        if not isinstance(obj, dict):
            raise UserError(f"{path} line {n}: expected a JSON object, got {type(obj).__name__}")
        yield n, obj


def get(obj: dict, dotted: str, types: type | tuple[type, ...], where: str, default: Any = _MISSING) -> Any:
    """``obj[a][b]`` for ``dotted`` = "a.b", checked against ``types``; errors name the field."""
    cur: Any = obj
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur or cur[part] is None:
            if default is not _MISSING:
                return default
            raise UserError(f"{where}: missing field {dotted!r}")
        cur = cur[part]
    if isinstance(cur, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise UserError(f"{where}: field {dotted!r} must be {_names(types)}, got bool")
    if not isinstance(cur, types):
        raise UserError(f"{where}: field {dotted!r} must be {_names(types)}, got {type(cur).__name__}")
    return cur


def _names(types: type | tuple[type, ...]) -> str:
    ts = types if isinstance(types, tuple) else (types,)
    return " or ".join(t.__name__ for t in ts)
