"""The query-set facts of the tree-sitter languages declared as data (``languages.toml`` beside this
file): definition kinds, doc-comment style, binders and name scope of Java and C."""
from __future__ import annotations

import tomllib
from pathlib import Path

TABLE_PATH = Path(__file__).resolve().parent / "languages.toml"
TABLE: dict[str, dict] = tomllib.loads(TABLE_PATH.read_text(encoding="utf-8"))
