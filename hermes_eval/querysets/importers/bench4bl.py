"""Bench4BL's old subjects (Lee et al., ISSTA 2018): the BugLocator bug reports of AspectJ, SWT and ZXing
(Zhou et al., ICSE 2012) over the one source version per subject Bench4BL evaluates them on, rebuilt
from the subject's git repository.

``datasets import bench4bl REPORTS REPOSITORY subject=S ref=REF [gold_match=path|suffix] [gold_strip=PREFIX]
[exclude=GLOBS] [reports_commit=SHA]``: REPORTS is ``SBugRepository.xml`` or the BugLocator data holding it (a
checkout or git mirror of LeeeWee/BugLocator, ``data/BugLocatorBugFiles/``); REPOSITORY the subject's clone or
mirror, read at REF (Bench4BL's version: a tag or commit; the record names each subject's) as a snapshot set
of one (``querysets/snapshot_set.py``). One query per report: its summary and description. Gold: the files the
fix changed, whole (a report's ``<fixedFiles>``), each matched to the tree's Java files by the subject's path
rule (``readers/buglocator_reports.PathRule``: ``gold_strip`` dropped from the front, then the path itself or,
``gold_match=suffix``, every file whose path ends with it). The corpus is the tree's Java files
(``git:REPOSITORY@SHA``, ``corpus_languages: [java]``, as Bench4BL counts ``.java`` files), minus ``exclude``.
A fixed file that names no corpus file is counted in the manifest (not in the tree at all, or in it but not
indexed); a report none of whose files is in the corpus is skipped and counted. ``meta.answers`` is the
report's number of fixed files, the denominator of Bench4BL's AP (``scripts/results/Evaluator.py``), and
``meta.gold_of`` each fixed file's corpus files, which ``hermes_eval.reproduce.bench4bl_compare`` ranks per
answer.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hermes_eval.querysets.localized import flags, report_localized
from hermes_eval.core import Query, Span
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.corpus import git_tree
from hermes_eval.corpus.git_source import resolve_commit
from hermes_eval.querysets.importers.base import ImportOptions, choice, option, positional
from hermes_eval.querysets.readers.buglocator_reports import MATCHES, PathRule, TreeIndex, parse, read
from hermes_eval.querysets.snapshot_set import git_snapshot, load_snapshots

IMPORT_FORMAT = "bench4bl"  # `datasets import` finds this module by it (importers/registry.py)
IMPORT_SUMMARY = "Bench4BL's old subjects: BugLocator bug reports -> Java files of one source version (git)"

LANGUAGES = ("java",)  # Bench4BL's Counting.getCodeCount: the files ending in .java
RUN_OVERRIDES = ("chunker=whole_file",)  # the tools rank whole files


@dataclass(frozen=True, kw_only=True)
class Options(ImportOptions):
    """``datasets import bench4bl REPORTS REPOSITORY subject=S ref=REF [gold_match=..] [gold_strip=..]``."""

    reports: Path = positional("SUBJECTBugRepository.xml, or the BugLocator data holding it (a checkout or git "
                               "mirror of LeeeWee/BugLocator)")
    repository: Path = positional("the subject's git repository (a clone or mirror)")
    subject: str | None = option(None, "the subject as the XML file names it: AspectJ, SWT or ZXing")
    ref: str | None = option(None, "the source version in REPOSITORY: a tag or commit (the record names "
                                   "Bench4BL's for each subject)")
    gold_match: str = option("path", "path (a fixed file is the tree's path) or suffix (every tree file whose "
                                     "path ends with it, at a folder boundary)")
    gold_strip: str | None = option(None, "a prefix dropped from each fixed file's path before matching")
    exclude: tuple[str, ...] = option((), "corpus paths never indexed (globs, comma-separated; * crosses folders)")
    reports_commit: str | None = option(None, "the commit of a BugLocator git mirror to read (default HEAD)")

    def __post_init__(self) -> None:
        for key in ("subject", "ref"):
            if not getattr(self, key):
                raise UserError(f"datasets import bench4bl: give {key}= (the record conf/benchmarks/bench4bl.yaml "
                                f"names each subject's)")
        choice(self.gold_match, "gold_match", MATCHES)


def run(opts: Options) -> QuerySet:
    subject, name = opts.subject, opts.name
    data, reports_source = read(Path(opts.reports), subject, opts.reports_commit)
    bugs = parse(data, f"{opts.reports} ({reports_source['file']})")
    if not bugs:
        raise UserError(f"{opts.reports}: {reports_source['file']} holds no <bug>: check the subject= option")
    repo = Path(opts.repository).expanduser().resolve()
    sha = resolve_commit(repo, opts.ref, f"git:{repo}@{opts.ref}")  # one line when either is missing
    loaded = load_snapshots([git_snapshot(repo, sha)], name=name, cache_dir=opts.cache_dir, languages=LANGUAGES,
                            exclude=opts.exclude)  # a snapshot set of one: no prefix, no scope
    lines = {path: f.n_lines for path, f in loaded.files.items()}
    indexed = TreeIndex.of(lines)
    tree_paths = [e.path for e in git_tree.tree(repo, sha)]
    tree = TreeIndex.of(tree_paths)
    rule = PathRule(opts.gold_match, opts.gold_strip or "")
    counts: Counter = Counter()
    skipped: Counter = Counter()
    queries: list[Query] = []
    for bug in bugs:
        gold_of = {g: rule.files(g, indexed) for g in dict.fromkeys(bug.files)}
        counts["gold_files"] += len(bug.files)
        for g, found in gold_of.items():
            counts["gold_files_found"] += bool(found)
            counts["gold_files_several_matches"] += len(found) > 1
            if not found:
                counts["gold_files_not_in_tree" if not rule.files(g, tree) else "gold_files_not_indexed"] += 1
        counts["gold_files_repeated"] += len(bug.files) - len(gold_of)
        hits = sorted({p for found in gold_of.values() for p in found})
        if not hits:
            skipped["no_gold_in_corpus"] += 1
            continue
        if not bug.text.strip():
            skipped["empty_report"] += 1
            continue
        meta = {"bug": bug.id, "answers": len(bug.files), "fixed_files": list(bug.files), "gold_of": gold_of,
                "report_time": bug.report_time, "commit_time": bug.commit_time,
                **flags(report_localized(bug.text, hits))}
        queries.append(Query(qid=f"{subject}/{bug.id}", query=bug.text, kind="bug_report", repo=subject,
                             gold=tuple(Span(p, 1, max(lines[p], 1)) for p in hits), meta=meta))
    if not queries:
        raise UserError(f"REPOSITORY {repo} at {opts.ref}: no report's fixed file is among its Java files "
                        f"(skipped: {dict(skipped)}); check ref=, gold_match= and gold_strip=")
    counts["gold_corpus_files"] = len({g.path for q in queries for g in q.gold})
    built = loaded.whole()  # one snapshot: the subject at ref
    manifest = {"generator": "import-bench4bl", "generator_version": "2", "subject": subject,
                "reports": reports_source, "repository": str(repo), "ref": opts.ref, "commit": sha,
                "gold_rule": {"match": rule.match, "strip": rule.strip},
                "corpus_sources": list(built.sources), "corpus_languages": list(LANGUAGES),
                "corpus_exclude": list(opts.exclude), "corpus_fingerprint": built.fingerprint, "run_overrides": list(RUN_OVERRIDES),
                "counts": {"queries": len(queries), "bug_reports": len(bugs), "java_files": len(lines),
                           "tree_java_files": sum(1 for p in tree_paths if p.endswith(".java")),
                           "tree_files": len(tree_paths), **dict(sorted(counts.items())),
                           "already_localized": sum(1 for q in queries if q.meta["already_localized"])},
                "strata": {"localized": "localized"},
                "skipped": dict(sorted(skipped.items()))}
    return QuerySet(name=name, queries=tuple(queries), manifest=manifest)
