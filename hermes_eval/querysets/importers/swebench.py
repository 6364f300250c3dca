"""SWE-bench (Lite / Verified) as a localization query set: issue text -> files and lines to change.

One query per instance: the problem statement. Gold is the golden patch at ``base_commit``:
its files (file level) and the old-side lines its hunks change (line level, ``patches.py``).
The corpus is each instance's repository at its ``base_commit``, read from a local clone or
mirror with ``git archive`` (corpus source ``git:PATH@COMMIT``); with several snapshots in one
set, each one's files sit under ``NAME@COMMIT8/`` and a query searches only its own snapshot
(``meta.scope``, honoured by the run; built by ``querysets/snapshot_set.py``). Instances whose
repository or commit is missing are skipped and counted; so are those whose patch only creates files.
"""
from __future__ import annotations

from dataclasses import dataclass
import json
from pathlib import Path

from hermes_eval.core import Query, Span
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.importers.base import ImportOptions, option, positional
from hermes_eval.corpus.dedupe import REPOSITORY_PATH
from hermes_eval.corpus.sources import resolve
from hermes_eval.corpus.wheel_source import repo_of
from hermes_eval.querysets.readers.swebench_protocols import protocol
from hermes_eval.querysets.readers.swebench_releases import RELEASES, RULE, nearest
from hermes_eval.querysets.readers.swebench_subsets import subset
from hermes_eval.corpus.git_source import resolve_commit
from hermes_eval.corpus.mirrors import find_repo
from hermes_eval.querysets.snapshot_set import Snapshot, git_snapshot, load_snapshots
from hermes_eval.querysets.readers.jsonl import get, read_text
from hermes_eval.querysets.readers.patches import parse_patch, ranges

IMPORT_FORMAT = "swebench"  # `datasets import` finds this module by it (importers/registry.py)
IMPORT_SUMMARY = "SWE-bench instances with the repositories' clones"

def _instances(path: Path) -> list[dict]:
    text = read_text(path)
    try:
        rows = json.loads(text)
    except json.JSONDecodeError:
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not isinstance(rows, list):
        raise UserError(f"{path}: expected a JSON list (or JSON lines) of SWE-bench instances")
    return rows


def _commit(repo_dir: Path, commit: str) -> str | None:
    try:
        return resolve_commit(repo_dir, commit, f"git:{repo_dir}@{commit}")
    except UserError:
        return None


@dataclass(frozen=True, kw_only=True)
class Options(ImportOptions):
    """``datasets import swebench FILE --repos DIR [repos=OWNER/NAME,...] [limit=N]``."""

    instances: Path = positional("the instances file (a JSON list or JSON lines)")
    repos_dir: Path | None = option(None, "the folder holding the repositories' clones or mirrors (--repos)")
    repos: tuple[str, ...] = option((), "only these repositories (OWNER/NAME, comma-separated)")
    limit: int | None = option(None, "at most this many instances per repository")
    subset: str | None = option(None, "only a published subset's instances: locagent274 (LocAgent's and "
                                      "SweRank's 274 Lite instances)")
    releases: bool = option(False, "the instances whose repository is not under --repos, each on the nearest "
                                   "release its golden patch applies to with exact context (django, matplotlib, "
                                   "scikit-learn: querysets/readers/swebench_releases.py); a labelled set of its own")
    exclude: tuple[str, ...] = option((), "corpus paths never indexed (globs, comma-separated; * crosses folders), "
                                          "e.g. LocAgent's test files: */test/*,*/tests/*,*/test_*.py,*_test.py")
    languages: tuple[str, ...] = option((), "only files of these languages are indexed (comma-separated, e.g. python)")
    protocol: str | None = option(None, "a published corpus rule: locagent (.py, LocAgent's test globs), "
                                        "coderag-bench (.py, CodeRAG-Bench's test-word rule) or mteb (.py, every "
                                        "snapshot pooled into one corpus, identical files once); adds to exclude= "
                                        "and sets languages=")

    def __post_init__(self) -> None:
        if self.repos_dir is None:
            raise UserError("datasets import swebench: pass --repos DIR, the folder holding the repositories' "
                            "clones or mirrors")


@dataclass(frozen=True)
class Target:
    """Where one instance is searched: its snapshot (git:PATH@SHA or wheel:NAME==VERSION), the patch as it
    applies there."""

    row: dict
    repo: str
    snapshot: Snapshot
    patch: str
    sha: str
    release: str | None = None


def _snapshot_target(row: dict, repo: str, root: Path, cache_dir, skipped: dict) -> Target | None:
    """The instance's own ``base_commit`` in its clone or mirror under ``root``."""
    repo_dir = find_repo(root, repo)
    if repo_dir is None:
        skipped["repo_missing"] += 1
        return None
    sha = _commit(repo_dir, row["base_commit"])
    if sha is None:
        skipped["commit_missing"] += 1
        return None
    return Target(row, repo, git_snapshot(repo_dir, sha), row["golden_patch"], sha)


def _release_target(row: dict, repo: str, root: Path, cache_dir, skipped: dict) -> Target | None:
    """For a repository not under ``root``: the nearest release its golden patch applies to exactly."""
    if find_repo(root, repo) is not None:
        skipped["repo_mirrored"] += 1  # searched in its own snapshot, in the snapshot set
        return None
    source = RELEASES.get(repo)
    if source is None:
        skipped["repo_missing"] += 1
        return None
    found = nearest(row["golden_patch"], source, lambda v: resolve(source.spec(v), Path(cache_dir)).root)
    if found is None:
        skipped["no_exact_release"] += 1
        return None
    version, patch = found
    return Target(row, repo, Snapshot(source.spec(version), f"{repo_of(source.dist, version)}/"), patch,
                  row["base_commit"], release=f"{source.dist}=={version}")


def run(opts: Options) -> QuerySet:
    """Import a SWE-bench instances file with the repositories under ``opts.repos_dir``."""
    path, root, name = Path(opts.instances), Path(opts.repos_dir), opts.name
    wanted = set(opts.repos)
    limit = opts.limit
    chosen = subset(opts.subset)
    rule = protocol(opts.protocol)
    exclude = tuple(opts.exclude) + (rule.exclude if rule else ())
    languages = tuple(opts.languages) or (rule.languages if rule else ())
    skipped = {"repo_missing": 0, "commit_missing": 0, "only_new_files": 0, "not_selected": 0,
               "over_limit": 0, "not_in_subset": 0}
    if opts.releases:
        skipped.update(repo_mirrored=0, no_exact_release=0)
    missing: set[str] = set()
    picked: list[Target] = []
    per_repo: dict[str, int] = {}
    for i, row in enumerate(_instances(path)):
        where = f"{path} instance {i}"
        if not isinstance(row, dict):
            raise UserError(f"{where}: expected an object with instance_id, repo, base_commit, ...")
        repo = get(row, "repo", str, where)
        for key in ("instance_id", "base_commit", "problem_statement", "golden_patch"):
            get(row, key, str, where)
        if chosen is not None and not chosen.keeps(row["instance_id"]):
            skipped["not_in_subset"] += 1
            continue
        if wanted and repo not in wanted:
            skipped["not_selected"] += 1
            continue
        target = (_release_target if opts.releases else _snapshot_target)(row, repo, root, opts.cache_dir, skipped)
        if target is None:
            if find_repo(root, repo) is None and not (opts.releases and repo in RELEASES):
                missing.add(repo)
            continue
        if limit is not None and per_repo.get(repo, 0) >= limit:
            skipped["over_limit"] += 1
            continue
        per_repo[repo] = per_repo.get(repo, 0) + 1
        picked.append(target)
    loaded = load_snapshots((t.snapshot for t in picked), name=name, cache_dir=opts.cache_dir, exclude=exclude,
                            languages=languages)
    files = loaded.files
    skipped["gold_spans_not_indexed"] = 0
    queries = []
    pooled = bool(rule and rule.pooled)
    for t in picked:
        prefix = loaded.prefix(t.snapshot)
        scope = "" if pooled else prefix  # a pooled set's queries search every snapshot
        changes, created = parse_patch(t.patch)
        spans = [Span(prefix + c.path, s, e) for c in changes for s, e in ranges(c)]
        gold = tuple(g for g in spans if g.path in files and g.end <= max(files[g.path].n_lines, 1))
        skipped["gold_spans_not_indexed"] += len(spans) - len(gold)
        if not gold:
            skipped["only_new_files" if not spans else "gold_not_indexed"] = \
                skipped.get("only_new_files" if not spans else "gold_not_indexed", 0) + 1
            continue
        meta = {"scope": scope, "base_commit": t.sha, "created_files": created,
                "hunks": {c.path: [list(h) for h in c.hunks] for c in changes}}
        if t.release:
            meta["release"] = t.release  # a stand-in for base_commit (swebench_releases.py)
        queries.append(Query(qid=t.row["instance_id"], query=t.row["problem_statement"], gold=gold, kind="swebench",
                             repo=t.repo, meta=meta))
    if not queries:
        raise UserError(f"{path}: no instance has its repository under {root} (missing: "
                        f"{', '.join(sorted(missing)) or 'none'}); mirror one there or pass repos=OWNER/NAME")
    built = loaded.searched(q.meta["scope"] for q in queries)  # a pooled set's are all searched
    sources = list(built.sources)
    manifest = {"generator": "import-swebench", "generator_version": "1", "source": str(path.resolve()),
                "repos_dir": str(root.resolve()), "corpus_sources": sources,
                "scoped": built.scoped and not pooled,
                "releases": {"rule": RULE, "per_repo": {r: sorted({q.meta["release"] for q in queries
                                                                          if q.repo == r}) for r in sorted(per_repo)}}
                if opts.releases else None,
                "corpus_fingerprint": built.fingerprint,
                "counts": {"queries": len(queries), "snapshots": len(sources),
                           "per_repo": {r: sum(1 for q in queries if q.repo == r) for r in sorted(per_repo)}},
                "missing_repos": sorted(missing), "skipped": skipped, "corpus_exclude": list(exclude),
                "corpus_languages": list(languages),
                "protocol": rule.name if rule else None, "protocol_source": rule.source if rule else None,
                # a pooled corpus keeps one copy of a repository's file, whatever snapshot holds it (dedupe=true)
                "dedupe_by": REPOSITORY_PATH if pooled else None,
                # the run must index the same files (the set is tied to its corpus fingerprint)
                "run_overrides": ([f"'++corpus.exclude=[{','.join(exclude)}]'"] if exclude else [])
                + ([f"'++corpus.languages=[{','.join(languages)}]'"] if languages else [])
                + list(rule.run if rule else ()),
                "subset": None if chosen is None else {"name": chosen.name, "of": chosen.of, "source": chosen.source,
                                                       "excluded": len(chosen.excluded)}}
    return QuerySet(name=name, queries=tuple(queries), manifest=manifest)
