"""What every importer shares: its typed options, and the protocol the registry relies on.

An importer reads a published benchmark into ``dest`` (queries, and the corpus files they refer
to when the benchmark ships its documents) and returns the query set; the CLI only turns words
into the importer's options. A field marked :func:`positional` is given on the command line as a
bare word, in field order; every other field as ``key=value``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet


def positional(help: str) -> Any:
    """A required option given as a bare word (``help`` names it in usage errors)."""
    return field(metadata={"positional": True, "help": help})


def option(default: Any, help: str) -> Any:
    """An optional ``key=value`` option."""
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True, kw_only=True)
class ImportOptions:
    """Options every importer takes: the set's name, its folder, and the cache for corpora."""

    name: str
    dest: Path
    cache_dir: Path = Path(".cache")


def choice(value: Any, key: str, allowed: tuple[Any, ...]) -> None:
    """A one-line error unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        raise UserError(f"{key}={value!r}: use one of {', '.join(map(str, allowed))}")


class Importer(Protocol):
    """``run(options) -> QuerySet``, with ``Options`` its options type (a subclass of ImportOptions)."""

    Options: type[ImportOptions]

    def run(self, options: ImportOptions) -> QuerySet: ...
