"""The folders a record's strings name (``{BENCH_DATA}``, ``{HERMES_MIRRORS}``) and placeholder expansion."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True)
class Location:
    """A folder the user chooses: a make variable and a ``hermes-eval benchmark`` option, which runs read
    from the environment variable ``env`` (``default`` when it is unset)."""

    env: str
    default: str
    help: str

    def interpolation(self) -> str:
        return "${oc.env:%s,%s}" % (self.env, self.default)

    def value(self, given: str | None = None) -> str:
        return given or os.environ.get(self.env) or self.default


LOCATIONS: dict[str, Location] = {
    "BENCH_DATA": Location("HERMES_BENCH_DATA", "../shared/benchmarks",
                           "the benchmark data folder (its README gives every file's provenance and licence)"),
    "HERMES_MIRRORS": Location("HERMES_MIRRORS", ".cache/mirrors",
                               "the folder of git mirrors, OWNER+NAME/repo (SWE-bench)"),
}
_PLACEHOLDER = re.compile(r"\{(data|name|%s)\}" % "|".join(LOCATIONS))


def expand(text: str, values: Mapping[str, str]) -> str:
    """``text`` with its placeholders replaced (``{data}`` first expanded itself)."""
    return _PLACEHOLDER.sub(lambda m: expand(values[m.group(1)], values) if m.group(1) == "data"
                            else values[m.group(1)], text)


def for_runs(name: str, data: str) -> dict[str, str]:
    """Placeholder values as an overlay writes them: the locations as environment interpolations."""
    return {"name": name, "data": data, **{k: loc.interpolation() for k, loc in LOCATIONS.items()}}


def for_import(name: str, data: str, given: Mapping[str, str | None]) -> dict[str, str]:
    """Placeholder values for an import: the folders given, else the environment's, else the defaults."""
    return {"name": name, "data": data, **{k: loc.value(given.get(k)) for k, loc in LOCATIONS.items()}}
