"""The one interface every reproduction implements: record, variant and runs in; per-query table and summary out."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Protocol

from hermes_eval.config.benchmarks import Benchmark, expand, for_import


@dataclass(frozen=True)
class Request:
    """What a reproduction reads: the record, one of its variants (None: every one it covers), run folders of
    ours to set beside the published system (where it compares runs), the data folder to read instead of the
    record's (a checkout, a mirror, or its test slice) and options (``key=value`` words of its own)."""

    record: Benchmark
    variant: str | None = None
    runs: tuple[Path, ...] = ()
    data: Path | None = None
    options: tuple[tuple[str, str], ...] = ()

    def option(self, key: str, default: str) -> str:
        return dict(self.options).get(key, default)

    def data_folder(self) -> Path:
        """``data``, else the record's data folder with its placeholders filled (``--mirrors``/environment)."""
        if self.data is not None:
            return Path(self.data)
        path = self.record.data.path
        return Path(expand(path, for_import(self.variant or self.record.name, path, {})))


@dataclass(frozen=True)
class Published:
    """A published value a reproduction reads from the file it cites: it checks the record's anchor of the
    same query set, metric and (when given) tool, the one whose ``source`` names ``(tool)``."""

    queryset: str
    metric: str
    value: float
    file: str  # the file read, e.g. Baseline/Result/tomcat70.txt
    commit: str | None  # the commit it was read at (None: a checkout)
    tool: str | None = None


@dataclass(frozen=True)
class Outcome:
    """A reproduction's result: one row per query (report), the summary values, and the markdown the board's
    README shows (its section, between markers)."""

    name: str
    per_query: tuple[Mapping[str, Any], ...]
    summary: Mapping[str, Any]
    markdown: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    published: tuple[Published, ...] = ()  # the cited values it read (anchors are checked against them)


class Reproduction(Protocol):
    def __call__(self, request: Request) -> Outcome: ...
