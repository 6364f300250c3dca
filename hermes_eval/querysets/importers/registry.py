"""The formats ``hermes-eval datasets import`` knows: every module under ``hermes_eval/querysets/`` that declares
``IMPORT_FORMAT = "NAME"`` (and ``IMPORT_SUMMARY``) at top level, found by reading the sources, imported only when used.

A new format is its module alone: nothing here lists it.
"""
from __future__ import annotations

import ast
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from hermes_eval.core.errors import UserError

PACKAGE = "hermes_eval.querysets"  # where importer modules live (any subpackage)
_ROOT = Path(__file__).resolve().parents[1]  # its folder


@dataclass(frozen=True)
class ImporterEntry:
    """One benchmark format: the module that defines its ``Options`` and ``run``."""

    name: str
    module: str
    summary: str
    formerly: str | None = None  # the old name, accepted for one release

    def load(self) -> ModuleType:
        """The importer module (it satisfies :class:`~hermes_eval.querysets.importers.base.Importer`)."""
        return importlib.import_module(self.module)


def _declared(path: Path) -> dict[str, str]:
    """The module's top-level ``IMPORT_FORMAT`` and ``IMPORT_SUMMARY`` string constants (none without IMPORT_FORMAT)."""
    text = path.read_text(encoding="utf-8")
    if "IMPORT_FORMAT" not in text:
        return {}
    out = {}
    for node in ast.parse(text, str(path)).body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id in ("IMPORT_FORMAT", "IMPORT_SUMMARY", "IMPORT_FORMERLY")):
            if not isinstance(node.value, ast.Constant) or not isinstance(node.value.value, str):
                raise UserError(f"{path}: {node.targets[0].id} must be a plain string (the registry reads it "
                                f"without importing the module)")
            out[node.targets[0].id] = node.value.value
    return out


def discover(root: Path = _ROOT, package: str = PACKAGE) -> dict[str, ImporterEntry]:
    """Every importer module under ``root`` (the folder of ``package``), by its declared format name."""
    out: dict[str, ImporterEntry] = {}
    for path in sorted(root.rglob("*.py")):
        declared = _declared(path)
        if "IMPORT_FORMAT" not in declared:
            continue
        module = ".".join([package, *path.relative_to(root).with_suffix("").parts])
        name = declared["IMPORT_FORMAT"]
        if name in out:
            raise UserError(f"{path}: IMPORT_FORMAT {name!r} is also declared by {out[name].module}: rename one")
        if "IMPORT_SUMMARY" not in declared:
            raise UserError(f"{path}: IMPORT_FORMAT {name!r} has no IMPORT_SUMMARY: add one line saying what it reads")
        out[name] = ImporterEntry(name, module, declared["IMPORT_SUMMARY"], declared.get("IMPORT_FORMERLY"))
    return dict(sorted(out.items()))


IMPORTERS: dict[str, ImporterEntry] = discover()
# a format's old name (``IMPORT_FORMERLY``), accepted for one release
FORMERLY: dict[str, str] = {e.formerly: e.name for e in IMPORTERS.values() if e.formerly}


def current_name(name: str) -> str:
    """``name``, or the format an old name now is (saying so in one line on stderr)."""
    if name in FORMERLY and name not in IMPORTERS:
        print(f"datasets import {name}: this format is now {FORMERLY[name]!r} (the old name goes next release)",
              file=sys.stderr)
        return FORMERLY[name]
    return name


def importer(name: str) -> ModuleType:
    """The importer called ``name`` (or formerly so), or a one-line error listing the known ones."""
    name = current_name(name)
    if name not in IMPORTERS:
        raise UserError(f"datasets import: unknown format {name!r}; use one of {', '.join(sorted(IMPORTERS))}")
    return IMPORTERS[name].load()
