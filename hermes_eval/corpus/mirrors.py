"""Where a repository's local clone or bare mirror sits under a folder of them (``--repos DIR``,
``HERMES_MIRRORS``): ``OWNER+NAME/repo`` as the mirror tooling lays them out, or the usual other names."""
from __future__ import annotations

from pathlib import Path

CANDIDATES = ("{owner}+{name}/repo", "{owner}+{name}", "{owner}/{name}", "{owner}__{name}", "{name}")


def find_repo(root: Path, repo: str) -> Path | None:
    """The clone or mirror of ``owner/name`` under ``root``, or None."""
    owner, _, name = repo.partition("/")
    for pattern in CANDIDATES:
        for cand in (root / pattern.format(owner=owner, name=name),
                     root / (pattern.format(owner=owner, name=name) + ".git")):
            if (cand / "HEAD").is_file() or (cand / ".git").exists():
                return cand
    return None
