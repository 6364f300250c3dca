"""File extension -> language name."""
from __future__ import annotations

from typing import Iterable

EXTENSIONS: dict[str, str] = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    ".jsx": "javascript", ".ts": "typescript", ".tsx": "typescript", ".go": "go", ".rs": "rust",
    ".java": "java", ".kt": "kotlin", ".scala": "scala", ".cs": "csharp", ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".rb": "ruby",
    ".php": "php", ".swift": "swift", ".m": "objc", ".lua": "lua", ".pl": "perl", ".r": "r", ".tcl": "tcl",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".sql": "sql", ".html": "html",
    ".htm": "html", ".css": "css", ".scss": "css", ".vue": "vue", ".svelte": "svelte",
    ".md": "markdown", ".markdown": "markdown", ".rst": "rst", ".txt": "text",
    ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".ini": "ini", ".cfg": "ini",
    ".xml": "xml", ".proto": "protobuf", ".jinja": "jinja", ".j2": "jinja",
}
FILENAMES = {"Makefile": "make", "Dockerfile": "docker", "CMakeLists.txt": "cmake"}


def detect_language(path: str) -> str | None:
    """The language of ``path``, or None when it is not a source or text file we index. The name and
    suffix as :class:`~pathlib.PurePosixPath` gives them, cut from the string (asked for every file of
    every snapshot: 170k times per SWE-bench Lite arm)."""
    name = path.rstrip("/").rpartition("/")[2]
    dot = name.rfind(".")
    suffix = name[dot:] if 0 < dot < len(name) - 1 else ""
    return FILENAMES.get(name) or EXTENSIONS.get(suffix.lower())

# the language stratum of a query whose gold spans files of several languages, and of one without gold
MIXED = "mixed"
NO_GOLD = "(none)"
OTHER = "other"  # a gold file whose extension names no language


def gold_language(paths: Iterable[str]) -> str:
    """A query's language stratum: the language of its gold file(s), from their paths (so it holds
    for any query set, imported or generated); ``mixed`` when they differ."""
    langs = {detect_language(p) or OTHER for p in paths}
    if not langs:
        return NO_GOLD
    return langs.pop() if len(langs) == 1 else MIXED

# languages detect_language knows that are prose or settings, not code a change request points at
DOCS = frozenset({"markdown", "rst", "text"})
CONFIG = frozenset({"json", "yaml", "toml", "ini", "xml", "make", "docker", "cmake"})


def is_code(path: str) -> bool:
    """Whether ``path`` is source code: a language is detected and it is neither docs nor config."""
    language = detect_language(path)
    return language is not None and language not in DOCS and language not in CONFIG


def is_docs(path: str) -> bool:
    """Whether ``path`` is documentation prose (markdown, reStructuredText, plain text)."""
    return detect_language(path) in DOCS
