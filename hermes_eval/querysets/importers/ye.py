"""Ye, Bunescu & Liu's bug-localization benchmark (FSE 2014, "Learning to Rank Relevant Files for Bug
Reports using Domain Knowledge"; TSE 2016) as a file-level query set: bug report -> the source files
its fix changed.

The release (figshare doi 10.6084/m9.figshare.951967, copied in LeeeWee/BugLocator
``data/LearnToRankBugFiles/PROJECT.xlsx``) is one workbook per project, one row per bug report:
``id, bug_id, summary, description, report_time, report_timestamp, status, commit,
commit_timestamp, files`` and an unnamed 11th column, ``result`` (the ranks Ye et al.'s own ranker
gave the fixed files, ``rank:path ...``). Read with the standard library
(``querysets/readers/xlsx.py``), from a file or straight from the mirror
(``git:REPO@REV:PATH``).

- **Query**: the summary without its ``Bug NNNNN`` prefix (as LeeeWee's ``BugReportRepository``
  strips it: ``replaceAll("^Bug \\d+ ", "")``), then the description when there is one.
- **Gold**: the ``files`` column, each file whole (one span over all its lines) at the before-fix
  snapshot: a file-level benchmark, judged by the file-level metrics (``file_map``, ``file_mrr``,
  ``file_hit@k``: the field's Accuracy@k). A fixed file the fix itself adds is not in that
  snapshot: it is dropped from the gold and counted (``gold_files.added_by_fix``); so is one the
  corpus does not index (``gold_files.not_indexed``). A report left without gold is skipped and
  counted by reason.
- **Corpus**: the before-fix snapshot, the fix commit's first parent (``commit^``, as Ye et al.'s
  "before-fix version" and LeeeWee's ``checkout(commitID + "~")``); the release's 7-character SHAs
  are expanded in the project's mirror under ``--repos``. One snapshot per report, built as every
  snapshot set is (``querysets/snapshot_set.py``): corpus sources ``git:MIRROR@PARENT``, each under
  ``NAME@PARENT8/`` with ``meta.scope`` (stages/snapshots.py); the parent of a report skipped once its
  gold was read (``gold_not_indexed``) leaves the set when no kept report searches it
  (``counts.snapshots_of_skipped_reports``). Protocol (:data:`PROTOCOL`): ``.java`` files only, the
  source files Ye et al. rank.
- **Meta**: the report time as written (the release's timestamps are rounded to 10^4 s), the fix
  commit and its parent, the release's status, and ``ye_ranks``: the ``result`` column as
  {path: rank}, Ye et al.'s own ranks of the fixed files (empty for the reports their ranker was
  not tested on, mostly the oldest).
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from hermes_eval.querysets.localized import flags, report_localized
from hermes_eval.core import Query, Span
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.corpus.mirrors import find_repo
from hermes_eval.corpus.protocol import Protocol
from hermes_eval.querysets.importers.base import ImportOptions, option, positional
from hermes_eval.querysets.readers.xlsx import read_rows
from hermes_eval.querysets.snapshot_set import git_snapshot, load_snapshots

IMPORT_FORMAT = "ye"  # `datasets import` finds this module by it (importers/registry.py)
IMPORT_SUMMARY = "Ye et al.'s bug reports (PROJECT.xlsx) with the project's clone"

PROTOCOL = Protocol("ye", ("java",), (), "Ye, Bunescu & Liu FSE 2014 section 4 (ranking the project's source "
                    "files); LeeeWee/BugLocator indexes the checkout's .java files")
REQUIRED = ("bug_id", "summary", "description", "report_time", "commit", "files")
RESULT = "result"  # the 11th column, unnamed in the release (named so in mfejzer/tracking_buggy_files)
BUG_PREFIX = re.compile(r"^Bug \d+ ")


@dataclass(frozen=True, kw_only=True)
class Options(ImportOptions):
    """``datasets import ye PROJECT.xlsx --repos DIR repo=OWNER/NAME [limit=N]``."""

    workbook: str = positional("the release's workbook, e.g. Tomcat.xlsx (a file, or git:REPO@REV:PATH)")
    repos_dir: Path | None = option(None, "the folder holding the project's clone or mirror (--repos)")
    repo: str | None = option(None, "the project's repository, OWNER/NAME under --repos (e.g. apache/tomcat)")
    limit: int | None = option(None, "at most this many bug reports: the workbook's first, the most recently "
                               "fixed (the release lists its reports by fix commit time, newest first)")

    def __post_init__(self) -> None:
        if self.repos_dir is None:
            raise UserError("datasets import ye: pass --repos DIR, the folder holding the project's clone or mirror")
        if not self.repo or "/" not in self.repo:
            raise UserError("datasets import ye: pass repo=OWNER/NAME, the project's repository under --repos "
                            "(apache/tomcat, eclipse-aspectj/aspectj)")


@dataclass(frozen=True)
class Report:
    """One row of the workbook."""

    bug_id: str
    query: str
    report_time: str
    status: str
    commit: str  # as released: an abbreviated SHA
    files: tuple[str, ...]
    ranks: dict[str, int]


def query_text(summary: str, description: str) -> str:
    """The summary without its ``Bug NNNNN`` prefix, then the description (when there is one)."""
    summary = BUG_PREFIX.sub("", summary.strip())
    description = description.strip()
    return f"{summary}\n{description}" if description else summary


def parse_ranks(text: str, where: str) -> dict[str, int]:
    """``"1:a/B.java 21:c/D.java"`` -> {path: rank}."""
    out: dict[str, int] = {}
    for word in text.split():
        rank, colon, path = word.partition(":")
        if not (colon and rank.isdigit() and path):
            raise UserError(f"{where}: result {word!r} is not RANK:PATH")
        out[path] = int(rank)
    return out


def reports(source: str) -> list[Report]:
    """The workbook's bug reports, in its order."""
    rows = read_rows(source)
    if not rows:
        raise UserError(f"{source}: the workbook is empty; expected Ye et al.'s header row and one row per bug")
    header = [h.strip() for h in rows[0]]
    missing = [k for k in REQUIRED if k not in header]
    if missing:
        raise UserError(f"{source}: no column {missing[0]!r} in the header ({', '.join(header)}); expected Ye et "
                        f"al.'s {', '.join(REQUIRED)}")
    col = {h: i for i, h in enumerate(header) if h}
    col.setdefault(RESULT, len(header))  # unnamed in the release: the column after the header's last
    out = []
    for n, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        cell = {key: row[i].strip() if i < len(row) else "" for key, i in col.items()}
        where = f"{source} row {n}"
        bug_id, commit = cell["bug_id"], cell["commit"]
        if bug_id.endswith(".0"):  # a number cell written as a float
            bug_id = bug_id[:-2]
        if not bug_id or not re.fullmatch(r"[0-9a-fA-F]{4,40}", commit):
            raise UserError(f"{where}: bug_id {bug_id!r} and commit {commit!r}: expected a bug number and an "
                            f"abbreviated SHA")
        out.append(Report(bug_id, query_text(cell["summary"], cell["description"]), cell["report_time"],
                          cell.get("status", ""), commit, tuple(dict.fromkeys(cell["files"].split())),
                          parse_ranks(cell[RESULT], where)))
    return out


def batch_check(repo: Path, objects: list[str]) -> list[tuple[str, str] | None]:
    """``git cat-file --batch-check`` of each object name: (sha, type), or None when it does not resolve
    (missing or ambiguous). One git process for all."""
    if not objects:
        return []
    proc = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch-check=%(objectname) %(objecttype)"],
                          input="".join(f"{o}\n" for o in objects), capture_output=True, text=True)
    if proc.returncode != 0:
        raise UserError(f"{repo}: git cat-file failed ({proc.stderr.strip()[:200]}); is it a git repository?")
    out: list[tuple[str, str] | None] = []
    for line in proc.stdout.splitlines():
        parts = line.split()
        out.append((parts[0], parts[1]) if len(parts) == 2 and parts[1] in ("commit", "blob", "tree") else None)
    if len(out) != len(objects):
        raise UserError(f"{repo}: git cat-file answered {len(out)} lines for {len(objects)} names")
    return out


@dataclass(frozen=True)
class Target:
    """Where one report is searched: its fix commit, the parent, the gold files there."""

    report: Report
    fix: str
    parent: str
    present: tuple[str, ...]  # gold files in the parent
    added: tuple[str, ...]  # gold files the fix adds


def _targets(reps: list[Report], repo_dir: Path, skipped: dict) -> list[Target]:
    fixes = batch_check(repo_dir, [f"{r.commit}^{{commit}}" for r in reps])
    parents = batch_check(repo_dir, [f"{f[0]}^1^{{commit}}" if f else "0" * 40 for f in fixes])
    kept = []
    for r, f, p in zip(reps, fixes, parents):
        if f is None:
            skipped["commit_missing"] += 1
        elif p is None:
            skipped["no_parent"] += 1
        else:
            kept.append((r, f[0], p[0]))
    blobs = batch_check(repo_dir, [f"{p}:{path}" for r, _, p in kept for path in r.files])
    out, i = [], 0
    for r, fix, parent in kept:
        found = [b is not None and b[1] == "blob" for b in blobs[i:i + len(r.files)]]
        i += len(r.files)
        out.append(Target(r, fix, parent, tuple(f for f, ok in zip(r.files, found) if ok),
                          tuple(f for f, ok in zip(r.files, found) if not ok)))
    return out


def run(opts: Options) -> QuerySet:
    """Import one project's workbook with the project's repository under ``opts.repos_dir``."""
    root, name = Path(opts.repos_dir), opts.name
    repo_dir = find_repo(root, opts.repo)
    if repo_dir is None:
        raise UserError(f"datasets import ye: no clone or mirror of {opts.repo} under {root} (looked for "
                        f"{opts.repo.replace('/', '+')}/repo and the like); git clone --mirror it there")
    reps = reports(opts.workbook)
    skipped = {"commit_missing": 0, "no_parent": 0, "duplicate_bug": 0, "only_added_files": 0,
               "gold_not_indexed": 0, "over_limit": 0}
    seen: set[str] = set()
    unique = []
    for r in reps:
        if r.bug_id in seen:
            skipped["duplicate_bug"] += 1
            continue
        seen.add(r.bug_id)
        unique.append(r)
    targets = []
    for t in _targets(unique, repo_dir, skipped):
        if not t.present:
            skipped["only_added_files"] += 1
            continue
        if opts.limit is not None and len(targets) >= opts.limit:
            skipped["over_limit"] += 1
            continue
        targets.append(t)
    if not targets:
        raise UserError(f"{opts.workbook}: no bug report has its fix commit and a gold file before it in "
                        f"{repo_dir} (skipped: {skipped})")
    loaded = load_snapshots((git_snapshot(repo_dir, t.parent) for t in targets), name=name,
                            cache_dir=opts.cache_dir, languages=PROTOCOL.languages)
    files = loaded.files
    gold_files = {"in_release": 0, "added_by_fix": 0, "not_indexed": 0, "gold": 0}
    queries = []
    for t in targets:
        prefix = loaded.prefix(git_snapshot(repo_dir, t.parent))
        gold = tuple(Span(prefix + p, 1, max(files[prefix + p].n_lines, 1))
                     for p in t.present if prefix + p in files)
        gold_files["in_release"] += len(t.report.files)
        gold_files["added_by_fix"] += len(t.added)
        gold_files["not_indexed"] += len(t.present) - len(gold)
        gold_files["gold"] += len(gold)
        if not gold:
            skipped["gold_not_indexed"] += 1
            continue
        r = t.report
        meta = {"scope": prefix, "base_commit": t.parent, "fix_commit": t.fix, "release_commit": r.commit,
                "report_time": r.report_time, "status": r.status, "ye_ranks": dict(r.ranks),
                "gold_files_added_by_fix": list(t.added),
                "gold_files_not_indexed": [p for p in t.present if prefix + p not in files],
                **flags(report_localized(r.query, (g.path[len(prefix):] for g in gold)))}
        queries.append(Query(qid=r.bug_id, query=r.query, gold=gold, kind="bug-report", repo=opts.repo, meta=meta))
    if not queries:
        raise UserError(f"{opts.workbook}: no bug report kept a gold file in the corpus (skipped: {skipped})")
    built = loaded.searched(q.meta["scope"] for q in queries)
    sources = list(built.sources)
    manifest = {"generator": "import-ye", "generator_version": "2", "source": str(opts.workbook),
                "repos_dir": str(root.resolve()), "repo": opts.repo, "corpus_sources": sources,
                "scoped": built.scoped, "corpus_fingerprint": built.fingerprint,
                "counts": {"reports": len(reps), "queries": len(queries), "snapshots": len(sources),
                           "snapshots_of_skipped_reports": built.unsearched,
                           "with_ye_ranks": sum(1 for q in queries if q.meta["ye_ranks"]),
                           "already_localized": sum(1 for q in queries if q.meta["already_localized"])},
                "strata": {"localized": "localized"},
                "skipped": skipped, "gold_files": gold_files, "corpus_exclude": list(PROTOCOL.exclude),
                "corpus_languages": list(PROTOCOL.languages), "protocol": PROTOCOL.name,
                "protocol_source": PROTOCOL.source,
                "run_overrides": [f"'++corpus.languages=[{','.join(PROTOCOL.languages)}]'"]}
    return QuerySet(name=name, queries=tuple(queries), manifest=manifest)
