"""Command-line words -> an importer's typed options (``hermes-eval datasets import FORMAT ...``).

Bare words fill the options' positional fields in order; ``key=value`` words fill the field of
that name, converted to its declared type (int, bool, path, a comma-separated tuple, or none for
an optional field). Every error is one line naming the option and what it takes.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from pathlib import Path
from typing import Any

from hermes_eval.core.errors import UserError

NONE_WORDS = ("none", "null")
TRUE_WORDS, FALSE_WORDS = ("1", "true", "yes"), ("0", "false", "no")
# options the command line gives as a flag: `datasets import swebench FILE --repos DIR`
FLAGS = {"repos_dir": "--repos"}
# options the CLI fills itself
SUPPLIED = frozenset({"name", "dest", "cache_dir"})


def _fields(cls: type) -> dict[str, dataclasses.Field]:
    return {f.name: f for f in dataclasses.fields(cls)}


def option_names(cls: type) -> set[str]:
    """The ``key=value`` options of an importer's options type."""
    return {n for n, f in _fields(cls).items() if not f.metadata.get("positional")}


def usage(fmt: str, cls: type) -> str:
    """``FORMAT PATH.. [--repos DIR] [key=..] ..``: the words an importer's options type takes, in field order."""
    fields = list(_fields(cls).values())
    words = [fmt, *(f.name.upper() for f in fields if f.metadata.get("positional"))]
    words += [f"{FLAGS[f.name]} DIR" for f in fields if f.name in FLAGS]
    words += [f"[{f.name}=..]" for f in fields
              if not f.metadata.get("positional") and f.name not in FLAGS and f.name not in SUPPLIED]
    return " ".join(words)


def _convert(value: str, kind: Any, key: str, fmt: str) -> Any:
    args = typing.get_args(kind)
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        if type(None) in args and value.lower() in NONE_WORDS:
            return None
        errors = []
        for arm in sorted((a for a in args if a is not type(None)), key=lambda a: a is str):  # str last
            try:
                return _convert(value, arm, key, fmt)
            except UserError as exc:
                errors.append(str(exc))
        raise UserError(errors[0] if errors else f"datasets import {fmt}: option {key}={value!r} is not valid")
    if typing.get_origin(kind) is typing.Literal:
        if value in args:
            return value
        raise UserError(f"{key}={value!r}: use one of {', '.join(map(str, args))}")
    if kind is bool:
        if value.lower() in TRUE_WORDS + FALSE_WORDS:
            return value.lower() in TRUE_WORDS
        raise UserError(f"datasets import {fmt}: option {key}={value!r} must be true or false")
    if kind is int:
        try:
            return int(value)
        except ValueError:
            raise UserError(f"{key}={value!r}: must be an integer or none") from None
    if kind is Path:
        return Path(value)
    if typing.get_origin(kind) is tuple:
        return tuple(v for v in value.split(",") if v)
    return value


def build_options(cls: type, fmt: str, words: list[str], pairs: dict[str, str], **fixed: Any) -> Any:
    """``cls`` (a frozen options dataclass) from bare ``words``, ``key=value`` ``pairs`` and ``fixed``
    values the CLI supplies itself (name, dest, cache_dir, repos_dir)."""
    fields = _fields(cls)
    hints = typing.get_type_hints(cls)
    slots = [f for f in fields.values() if f.metadata.get("positional")]
    if len(words) != len(slots):
        want = " ".join(f.name.upper() for f in slots)
        what = "; ".join(f"{f.name.upper()}: {f.metadata.get('help', '')}" for f in slots)
        raise UserError(f"datasets import {fmt}: give {want} ({what}); got {len(words)} path(s)")
    unknown = sorted(set(pairs) - option_names(cls))
    if unknown:
        raise UserError(f"datasets import {fmt}: option {unknown[0]}= does not apply; its options: "
                        f"{', '.join(sorted(option_names(cls) - {'dest', 'cache_dir'}))}")
    values: dict[str, Any] = {f.name: _convert(w, hints[f.name], f.name, fmt) for f, w in zip(slots, words)}
    values.update({k: _convert(v, hints[k], k, fmt) for k, v in pairs.items()})
    values.update({k: v for k, v in fixed.items() if k in fields and v is not None})
    return cls(**values)
