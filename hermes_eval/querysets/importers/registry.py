"""The benchmarks ``hermes-eval datasets import`` knows, each imported lazily by its module name."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from hermes_eval.core.errors import UserError


@dataclass(frozen=True)
class ImporterEntry:
    """One benchmark format: the module that defines its ``Options`` and ``run``."""

    name: str
    module: str
    summary: str

    def load(self) -> ModuleType:
        """The importer module (it satisfies :class:`~hermes_eval.querysets.importers.base.Importer`)."""
        return importlib.import_module(self.module)


IMPORTERS: dict[str, ImporterEntry] = {e.name: e for e in (
    ImporterEntry("bench4bl", f"{__package__}.bench4bl",
                  "Bench4BL's old subjects: BugLocator bug reports -> Java files of one source version (git)"),
    ImporterEntry("beir", f"{__package__}.beir", "a BEIR folder: corpus.jsonl, queries.jsonl, qrels/SPLIT.tsv"),
    ImporterEntry("blizzard", f"{__package__}.blizzard", "BLIZZARD replication package: bug reports -> Java files"),
    ImporterEntry("cosqa", f"{__package__}.cosqa", "CoSQA (CoCLR release): web queries over Python functions"),
    ImporterEntry("gandhi", "hermes_eval.querysets.history.gandhi",
                  "Gandhi et al. 2025 (Siddharth-Gandhi/ds): GPT-4-rewritten commit messages -> the files changed"),
    ImporterEntry("history", "hermes_eval.querysets.history.mine",
                  "a repository's own history (also `datasets mine SOURCE`): commit messages -> the lines they change"),
    ImporterEntry("mteb", f"{__package__}.mteb", "an MTEB/CoIR retrieval task folder or hub id"),
    ImporterEntry("repoeval", f"{__package__}.repoeval", "RepoEval jsonl (RepoCoder) with its repository snapshot"),
    ImporterEntry("swebench", f"{__package__}.swebench", "SWE-bench instances with the repositories' clones"),
    ImporterEntry("ye", f"{__package__}.ye", "Ye et al.'s bug reports (PROJECT.xlsx) with the project's clone"),
)}


def importer(name: str) -> ModuleType:
    """The importer called ``name``, or a one-line error listing the known ones."""
    if name not in IMPORTERS:
        raise UserError(f"datasets import: unknown format {name!r}; use one of {', '.join(sorted(IMPORTERS))}")
    return IMPORTERS[name].load()
