"""``hermes-eval datasets mine SOURCE [since=DATE] [until=DATE] ... name=NAME``: a repository's
history as a localization query set ("here is a change request: find the code").

One query per commit of the first-parent walk of ``ref`` that no filter (``filters.py``) skips:
the message without its trailers is the query; gold is the old-side lines it changes in existing
source files at its first parent (``changes.py``); the corpus is that parent's snapshot, read
from the repository (``git:PATH@PARENT``), each query searching its own snapshot (``meta.scope``),
so the run shares every unchanged file between snapshots: a snapshot set as the SWE-bench importer
builds it (``querysets/snapshot_set.py``), without the parents of commits skipped once their gold was read.
Each query carries its commit date and year, and ``already_localized`` when its message names a
gold file or symbol (``hygiene.py``); both are declared as strata (manifest ``strata``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from hermes_eval.core import Query, Span
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.corpus.git_source import repo_name
from hermes_eval.querysets.mined.changes import patch_ids
from hermes_eval.querysets.mined.commits import check_repository, parse_date, resolve_ref, split_source, walk
from hermes_eval.querysets.mined.filters import BOTS, Candidate, Walk, duplicates, first_reason, registry
from hermes_eval.querysets.mined.hygiene import gold_symbols, localized
from hermes_eval.querysets.mined.message import clean
from hermes_eval.querysets.importers.base import ImportOptions, option, positional
from hermes_eval.querysets.snapshot_set import git_snapshot, load_snapshots

IMPORT_FORMAT = "mined"  # `datasets import` finds this module by it (importers/registry.py)
IMPORT_FORMERLY = "history"  # its name before "history" meant the change-request board only; one release
IMPORT_SUMMARY = "a repository's own history (also `datasets mine SOURCE`): commit messages -> the lines they change"

# 2: words are runs holding a letter, version strings out; version bumps and changelog-only releases skipped
GENERATOR, VERSION = "mine-history", "2"
STRATA = {"year": "year", "localized": "localized"}  # stratum -> the query meta key naming it
# the reasons a commit is left out after the filters (``filter_order``), in the order they act: a twin of a
# kept commit, past limit=, no gold line in an indexed file. A board's set line lists them (report/set_manifest.py)
AFTER_FILTERS = ("duplicate", "over_limit", "gold_not_indexed")


@dataclass(frozen=True, kw_only=True)
class Options(ImportOptions):
    """``datasets mine SOURCE [ref=..] [since=..] [until=..] [max_files=10] [min_words=4] .. name=NAME``."""

    source: Path = positional("the repository: a local clone or a bare mirror (PATH, git:PATH or git:PATH@REF)")
    ref: str = option("HEAD", "the branch, tag or commit whose first-parent history is walked")
    since: str | None = option(None, "only commits with a committer date on or after this (YYYY-MM-DD or ISO 8601)")
    until: str | None = option(None, "only commits with a committer date before this (YYYY-MM-DD or ISO 8601)")
    max_files: int = option(10, "a commit changing more source files than this is tangled and skipped")
    min_words: int = option(4, "a message (trailers removed) with fewer words than this is skipped")
    keep_tests: bool = option(False, "test files are gold too, and test-only commits are kept")
    keep_docs: bool = option(False, "documentation (markdown, rst, text) is gold too, and docs-only commits kept")
    bots: tuple[str, ...] = option(BOTS, "authors whose 'Name <email>' holds one of these are skipped "
                                         "(comma-separated, case-insensitive; empty keeps every author)")
    limit: int | None = option(None, "at most this many queries: the newest are kept")
    repo: str | None = option(None, "the queries' repository (OWNER/NAME); default from the path "
                                    "(OWNER+NAME/repo gives OWNER/NAME)")

    def __post_init__(self) -> None:
        start, end = parse_date(self.since, "since"), parse_date(self.until, "until")
        if start and end and start >= end:
            raise UserError(f"since={self.since!r} is not before until={self.until!r}: widen the range")
        for key, low in (("max_files", 1), ("min_words", 0), ("limit", 1)):
            value = getattr(self, key)
            if value is not None and value < low:
                raise UserError(f"{key}={value}: must be at least {low}")

    @property
    def kinds(self) -> frozenset[str]:
        """The file kinds whose changed lines are gold."""
        return frozenset({"code"} | ({"test"} if self.keep_tests else set()) | ({"docs"} if self.keep_docs else set()))


def owner_name(path: Path) -> str:
    """``/m/psf+requests/repo`` -> ``psf/requests``; else the folder's name (``repo_name``)."""
    parts = [p for p in path.resolve().parts if p not in ("/", ".git", "repo")]
    last = parts[-1].removesuffix(".git") if parts else "repo"
    return last.replace("+", "/", 1) if "+" in last else repo_name(path)


def _select(opts: Options, repo: Path) -> tuple[list[Candidate], dict[str, int], dict]:
    """The kept commits (oldest first), the skip counts by reason, and what was walked."""
    head = resolve_ref(repo, opts.ref)
    commits = walk(repo, head, parse_date(opts.since, "since"), parse_date(opts.until, "until"))
    if not commits:
        raise UserError(f"SOURCE {repo}: no commit on {opts.ref} in since={opts.since} until={opts.until}; "
                        f"widen the range")
    context = Walk(repo, commits)
    filters = registry(opts.kinds, opts.min_words, opts.max_files, opts.bots)
    skipped = dict.fromkeys([*(f.reason for f in filters), *AFTER_FILTERS, "gold_spans_not_indexed"], 0)
    kept: list[Candidate] = []
    for commit in commits:
        cand = Candidate(commit, clean(commit.message, commit.trailers), context)
        reason = first_reason(filters, cand)
        if reason is None:
            kept.append(cand)
        else:
            skipped[reason] += 1
    twins = duplicates(kept, patch_ids(repo, {c.commit.sha: c.change.patch for c in kept}))
    skipped["duplicate"] = len(twins)
    kept = [c for c in kept if c.commit.sha not in twins]
    if opts.limit is not None and len(kept) > opts.limit:
        skipped["over_limit"] = len(kept) - opts.limit
        kept = kept[-opts.limit:]
    walked = {"ref": opts.ref, "ref_commit": head, "commits": len(commits),
              "first": commits[0].date, "last": commits[-1].date, "filter_order": [f.reason for f in filters]}
    if not kept:
        raise UserError(f"SOURCE {repo}: every one of {len(commits)} commits was skipped "
                        f"({', '.join(f'{k}: {v}' for k, v in skipped.items() if v)}); widen since=/until= or "
                        f"relax min_words=/max_files=")
    return kept, skipped, walked


def _query(c: Candidate, prefix: str, files: dict, kinds: frozenset[str], name: str, repo: str,
           skipped: dict[str, int]) -> Query | None:
    """The query of a kept commit, its gold in the parent snapshot (None: no gold span is indexed)."""
    runs = c.change.gold(kinds)
    spans = [Span(prefix + p, s, e) for p, rs in sorted(runs.items()) for s, e in rs]
    gold = tuple(g for g in spans if g.path in files and g.end <= max(files[g.path].n_lines, 1))
    skipped["gold_spans_not_indexed"] += len(spans) - len(gold)
    if not gold:
        skipped["gold_not_indexed"] += 1
        return None
    gold_paths = sorted({g.path[len(prefix):] for g in gold})
    symbols = {s for p in gold_paths
               for s in gold_symbols(files[prefix + p].text, files[prefix + p].language, p, runs[p])}
    flag = localized(c.query, gold_paths, symbols)
    commit = c.commit
    meta = {"scope": prefix, "base_commit": commit.parents[0], "commit": commit.sha, "date": commit.date,
            "year": commit.when.year, "author_date": commit.author_date, "subject": commit.subject,
            "created_files": sorted(str(f.new) for f in c.change.files if f.old is None),
            "already_localized": bool(flag), "localized_by": flag.to_dict(), "localized": flag.stratum}
    return Query(qid=f"{name}@{commit.sha[:12]}", query=c.query, gold=gold, kind="commit", repo=repo, meta=meta)


def located(opts: Options) -> Options:
    """``opts`` with a ``git:PATH[@REF]`` source read as ``PATH`` (and ``ref=REF``); a second, different ref
    given with ``ref=`` is refused."""
    path, at = split_source(str(opts.source))
    if at is not None and opts.ref not in (at, Options.ref):
        raise UserError(f"SOURCE {opts.source} and ref={opts.ref} name two refs: give one (git:PATH@REF is PATH "
                        f"ref=REF)")
    return replace(opts, source=path, ref=at or opts.ref)


def run(opts: Options) -> QuerySet:
    """Mine ``opts.source``'s history into a query set over its parent snapshots."""
    opts = located(opts)
    repo = check_repository(Path(opts.source))
    kept, skipped, walked = _select(opts, repo)
    loaded = load_snapshots((git_snapshot(repo, c.commit.parents[0]) for c in kept), name=opts.name,
                            cache_dir=opts.cache_dir)
    files = loaded.files
    name, label = repo_name(repo), opts.repo or owner_name(repo)
    queries = []
    for c in kept:
        prefix = loaded.prefix(git_snapshot(repo, c.commit.parents[0]))
        q = _query(c, prefix, files, opts.kinds, name, label, skipped)
        if q is not None:
            queries.append(q)
    if not queries:
        raise UserError(f"SOURCE {repo}: no kept commit has a gold line in an indexed file "
                        f"(skipped: {skipped}); check the repository's languages")
    built = loaded.searched(q.meta["scope"] for q in queries)  # a snapshot of skipped commits only leaves
    sources = list(built.sources)
    years: dict[str, int] = {}
    for q in queries:
        years[str(q.meta["year"])] = years.get(str(q.meta["year"]), 0) + 1
    manifest = {"generator": GENERATOR, "generator_version": VERSION, "source": str(repo), "repo": label,
                **walked, "since": opts.since, "until": opts.until,
                "options": {"max_files": opts.max_files, "min_words": opts.min_words, "keep_tests": opts.keep_tests,
                            "keep_docs": opts.keep_docs, "bots": list(opts.bots), "limit": opts.limit,
                            "gold_kinds": sorted(opts.kinds)},
                "corpus_sources": sources, "scoped": built.scoped, "corpus_fingerprint": built.fingerprint,
                "counts": {"queries": len(queries), "snapshots": len(sources), "per_year": dict(sorted(years.items())),
                           "already_localized": sum(1 for q in queries if q.meta["already_localized"])},
                "skipped": skipped, "strata": dict(STRATA), "corpus_exclude": [], "corpus_languages": [],
                "run_overrides": []}
    return QuerySet(name=opts.name, queries=tuple(queries), manifest=manifest)
