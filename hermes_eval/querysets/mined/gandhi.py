"""Gandhi, Gao & Callan 2025 (arXiv 2502.07067, Siddharth-Gandhi/ds): commit-level code search.

``datasets import gandhi RELEASE repo=OWNER/NAME --repos DIR [query=rewritten|original] [split=gold|train]``:
RELEASE is the authors' repository (a checkout or a git mirror, read at ``commit``, default HEAD), whose
``gold/OWNER_NAME/v2_OWNER_NAME_gpt4_gold.csv`` holds 100 commits per repository
(``querysets/readers/gandhi_gold.py``). One query per commit:

- ``query=rewritten`` (default): GPT-4's rewrite of the commit message as an issue written before the
  change (``transformed_message_gpt4``), the paper's test queries;
- ``query=original``: the commit message itself, subject and body, as the release stores it.

Gold: the files the commit changes (``actual_files_modified``), each whole, at the commit's first parent.
A gold file absent there (the commit adds it) is dropped and counted (``gold_absent_in_parent``; one the
corpus does not index, ``gold_not_indexed``); a commit left without gold is skipped and counted. The
corpus is each parent's snapshot read from the repository's clone or mirror under ``--repos``
(``git:MIRROR@PARENT``), each query searching its own (``meta.scope``): a snapshot set as the
SWE-bench importer and ``datasets mine`` build it (``querysets/snapshot_set.py``). Meta: the commit,
its committer date (``date``, ISO 8601; ``commit_date``, unix seconds as the release has it) and
``year``, and ``localized`` when the query names a gold file; the manifest declares the miner's strata.
"""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from hermes_eval.core import Query, Span
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.corpus import git_tree
from hermes_eval.corpus.mirrors import find_repo
from hermes_eval.querysets.mined.hygiene import localized
from hermes_eval.querysets.mined.mine import STRATA
from hermes_eval.querysets.importers.base import ImportOptions, choice, option, positional
from hermes_eval.querysets.readers.gandhi_gold import SPLITS, Release, Row, folder_of
from hermes_eval.querysets.snapshot_set import git_snapshot, load_snapshots

IMPORT_FORMAT = "gandhi"  # `datasets import` finds this module by it (importers/registry.py)
IMPORT_SUMMARY = "Gandhi et al. 2025 (Siddharth-Gandhi/ds): GPT-4-rewritten commit messages -> the files changed"

GENERATOR, VERSION = "import-gandhi", "1"
QUERIES = ("rewritten", "original")
RUN_OVERRIDES = ("chunker=whole_file",)  # the gold is whole files


@dataclass(frozen=True, kw_only=True)
class Options(ImportOptions):
    """``datasets import gandhi RELEASE repo=OWNER/NAME --repos DIR [query=..] [split=..] [commit=SHA]``."""

    release: Path = positional("the authors' repository Siddharth-Gandhi/ds: a checkout or a git mirror of it")
    repo: str = option("redis/redis", "the repository (OWNER/NAME) whose gold/ file is read and searched")
    repos_dir: Path | None = option(None, "the folder holding the repositories' clones or mirrors (--repos)")
    query: str = option("rewritten", "rewritten (GPT-4's issue-style rewrite, the paper's) or original "
                                     "(the commit message)")
    split: str = option("gold", "gold (the 100 test commits) or train (the 500 training commits)")
    commit: str | None = option(None, "the release mirror's commit to read (default HEAD; a checkout takes none)")

    def __post_init__(self) -> None:
        choice(self.query, "query", QUERIES)
        choice(self.split, "split", SPLITS)
        folder_of(self.repo)
        if self.repos_dir is None:
            raise UserError("datasets import gandhi: pass --repos DIR, the folder holding the repositories' "
                            "clones or mirrors (OWNER+NAME/repo)")


def first_parent(repo: Path, sha: str) -> tuple[str, str] | None:
    """(the commit's full sha, its first parent), or None when the repository lacks it or it is a root."""
    proc = subprocess.run(["git", "-C", str(repo), "rev-list", "--parents", "-n", "1", f"{sha}^{{commit}}", "--"],
                          capture_output=True, text=True)
    words = proc.stdout.split()
    if proc.returncode != 0 or len(words) < 2:
        return None
    return words[0], words[1]


def iso(unix: int) -> str:
    return datetime.fromtimestamp(unix, timezone.utc).isoformat()


def run(opts: Options) -> QuerySet:
    """Import one repository's gold (or train) commits of the release."""
    release = Release.open(Path(opts.release), opts.commit)
    rel, rows = release.rows(opts.repo, opts.split)
    mirror = find_repo(Path(opts.repos_dir), opts.repo)
    if mirror is None:
        raise UserError(f"--repos {opts.repos_dir}: no clone or mirror of {opts.repo} there (looked for "
                        f"{opts.repo.replace('/', '+')}/repo and the like); git clone --mirror it there")
    mirror = mirror.resolve()
    skipped = {"commit_missing": 0, "root_commit": 0, "no_gold": 0, "empty_query": 0}
    dropped = {"gold_absent_in_parent": 0, "gold_not_indexed": 0}
    picked: list[tuple[Row, str, str, set[str]]] = []
    for row in rows:
        found = first_parent(mirror, row.commit)
        if found is None:
            skipped["commit_missing" if subprocess.run(
                ["git", "-C", str(mirror), "cat-file", "-e", f"{row.commit}^{{commit}}"],
                capture_output=True).returncode else "root_commit"] += 1
            continue
        sha, parent = found
        present = {e.path for e in git_tree.tree(mirror, parent)}
        picked.append((row, sha, parent, present))
    loaded = load_snapshots((git_snapshot(mirror, parent) for _, _, parent, _ in picked), name=opts.name,
                            cache_dir=opts.cache_dir)
    files = loaded.files
    queries, years = [], {}
    for row, sha, parent, present in picked:
        prefix = loaded.prefix(git_snapshot(mirror, parent))
        text = (row.rewritten if opts.query == "rewritten" else row.message).strip()
        if not text:
            skipped["empty_query"] += 1
            continue
        absent = [p for p in row.files if p not in present]
        unindexed = [p for p in row.files if p in present and prefix + p not in files]
        dropped["gold_absent_in_parent"] += len(absent)
        dropped["gold_not_indexed"] += len(unindexed)
        kept = sorted(dict.fromkeys(p for p in row.files if prefix + p in files))
        if not kept:
            skipped["no_gold"] += 1
            continue
        gold = tuple(Span(prefix + p, 1, max(files[prefix + p].n_lines, 1)) for p in kept)
        flag = localized(text, kept, ())
        year = datetime.fromtimestamp(row.date, timezone.utc).year
        years[str(year)] = years.get(str(year), 0) + 1
        meta = {"scope": prefix, "base_commit": parent, "commit": sha, "date": iso(row.date),
                "commit_date": row.date, "year": year, "files_modified": list(row.files),
                "gold_absent_in_parent": absent, "already_localized": bool(flag), "localized_by": flag.to_dict(),
                "localized": flag.stratum, "original_message": row.message if opts.query == "rewritten" else None}
        queries.append(Query(qid=f"{folder_of(opts.repo)}@{sha[:12]}", query=text, gold=gold, kind=f"commit_{opts.query}",
                             repo=opts.repo, meta=meta))
    if not queries:
        raise UserError(f"{rel}: no commit kept (skipped: {skipped}); check that {mirror} is {opts.repo}")
    built = loaded.searched(q.meta["scope"] for q in queries)
    sources = list(built.sources)
    manifest = {"generator": GENERATOR, "generator_version": VERSION, "release": release.source, "file": rel,
                "repo": opts.repo, "mirror": str(mirror), "repos_dir": str(Path(opts.repos_dir).resolve()),
                "query": opts.query, "split": opts.split, "rows": len(rows),
                "corpus_sources": sources, "scoped": built.scoped, "corpus_fingerprint": built.fingerprint,
                "counts": {"queries": len(queries), "snapshots": len(sources), "per_year": dict(sorted(years.items())),
                           "gold_files": sum(len(q.gold) for q in queries),
                           "already_localized": sum(1 for q in queries if q.meta["already_localized"]), **dropped},
                "skipped": skipped, "strata": dict(STRATA), "corpus_exclude": [], "corpus_languages": [],
                "run_overrides": list(RUN_OVERRIDES)}
    return QuerySet(name=opts.name, queries=tuple(queries), manifest=manifest)
