"""BLIZZARD (Rahman & Roy, ESEC/FSE 2018): bug reports of six Java projects localized to source files.

``datasets import blizzard PACKAGE project=tomcat70 [query=raw|baseline] [commit=SHA]``: PACKAGE is the
replication package (masud-technope/BLIZZARD-Replication-Package-ESEC-FSE2018), a checkout or a git
mirror of it (read at ``commit``, default HEAD). One query per bug report of the project:

- ``query=raw`` (default): the report as filed, title and body (``BR-Raw``);
- ``query=baseline``: the package's own preprocessed query (``Baseline/Query``), what its Lucene
  baseline searched (run it with ``retriever=blizzard_lucene`` to reproduce that baseline), read in
  Windows-1252 as that run read it (non-ASCII words come out as it saw them: ``donâ€™t``).

Gold: the corpus files BLIZZARD counts as hits for the report's change set (``Goldset``): a file whose
original path ends with a gold line, judged whole. The corpus is the package's one snapshot per project
(``Corpus/P/N.java``), written under the set's folder at each file's real path (from
``Lucene-Index2File-Mapping/P.ckeys``, the Windows prefix up to the project's folder dropped). It holds
only ``.java`` files: gold lines it cannot match (``webapps/docs/changelog.xml``, …) are counted in the
manifest, and a report none of whose gold lines is in the corpus is skipped and counted, as it can
never be hit. So is gold in a file the corpus loader leaves out (a ``build/`` folder, a size over its limit:
eclipse.pde.ui keeps sources under ``build/``): dropped from the report's gold, and the report skipped when
nothing else is left (``gold_only_where_the_loader_skips``). ``meta.report_class`` is the report's class,
``ST`` (stack traces), ``PE`` (program entities) or ``NL`` (natural language only), from ``BR-Classes``;
``meta.baseline_rank`` the baseline's first-hit rank from ``Baseline/QE`` (-1: none), which
``hermes_eval.reproduce.blizzard_agreement`` compares with ours query by query.
"""
from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hermes_eval.querysets.localized import flags, report_localized
from hermes_eval.core import Query, Span
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.corpus import load_corpus
from hermes_eval.corpus.scan import MAX_FILE_BYTES, SKIP_DIRS
from hermes_eval.querysets.importers.base import ImportOptions, choice, option, positional
from hermes_eval.querysets.readers.blizzard_package import PROJECTS, QUERY_ENCODING, Package, repo_path

IMPORT_FORMAT = "blizzard"  # `datasets import` finds this module by it (importers/registry.py)
IMPORT_SUMMARY = "BLIZZARD replication package: bug reports -> Java files"

QUERIES = ("raw", "baseline")
RUN_OVERRIDES = ("chunker=whole_file",)  # BLIZZARD's documents are whole files


@dataclass(frozen=True, kw_only=True)
class Options(ImportOptions):
    """``datasets import blizzard PACKAGE project=P [query=raw|baseline] [commit=SHA]``."""

    package: Path = positional("the BLIZZARD replication package: a checkout or a git mirror of it")
    project: str = option("tomcat70", f"one of {', '.join(PROJECTS)}")
    query: str = option("raw", "raw (the report's title and body) or baseline (the package's preprocessed query)")
    commit: str | None = option(None, "the mirror's commit to read (default HEAD; a checkout takes none)")

    def __post_init__(self) -> None:
        choice(self.project, "project", PROJECTS)
        choice(self.query, "query", QUERIES)


def _lines(text: str) -> int:
    """Lines as the chunkers count them (split on ``\\n``; a trailing newline adds none), at least 1."""
    n = text.count("\n") + (0 if text.endswith("\n") else 1)
    return max(1, n)


def _loader_skips(rel: str, size: int) -> bool:
    """True when the corpus loader leaves this file out (a skipped folder, or over its size limit)."""
    return size > MAX_FILE_BYTES or any(p in SKIP_DIRS or p.startswith(".") for p in rel.split("/")[:-1])


def run(opts: Options) -> QuerySet:
    pkg = Package.open(Path(opts.package), opts.commit)
    try:
        return _run(opts, pkg)
    finally:
        pkg.close()


def _run(opts: Options, pkg: Package) -> QuerySet:
    project, dest, name = opts.project, Path(opts.dest), opts.name
    mapping = pkg.mapping(project)
    if not mapping:
        raise UserError(f"{pkg.root}: no Lucene-Index2File-Mapping/{project}.ckeys: use the whole package")
    out = dest / "corpus"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    originals: dict[str, str] = {}  # repo-relative path -> original path (slashed)
    lines: dict[str, int] = {}
    counts: Counter = Counter()
    unloaded: set[str] = set()  # written, but left out by the corpus loader (a build/ folder, a size over its limit)
    for number in pkg.names(f"Corpus/{project}"):
        data = pkg.read(f"Corpus/{project}/{number}")
        if number not in mapping or data is None:
            counts["corpus_files_unmapped" if number not in mapping else "corpus_files_missing"] += 1
            continue
        rel = repo_path(mapping[number], project)
        if rel in originals:
            counts["corpus_paths_repeated"] += 1
            continue
        if b"\0" in data[:8192]:
            counts["corpus_files_binary"] += 1
            continue
        text = data.decode("utf-8", "replace")  # as Lucene read them (InputStreamReader, UTF-8)
        counts["corpus_files_not_utf8"] += "\ufffd" in text and text != data.decode("utf-8", "ignore")
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        originals[rel], lines[rel] = mapping[number], _lines(text)
        counts["corpus_files"] += 1
        if _loader_skips(rel, len(text.encode("utf-8"))):
            unloaded.add(rel)
    counts["corpus_files_the_loader_skips"] = len(unloaded)
    by_name: dict[str, list[str]] = {}
    for rel, orig in originals.items():
        by_name.setdefault(orig.rsplit("/", 1)[-1], []).append(rel)
    classes = pkg.classes(project)
    qe = pkg.tsv(f"Baseline/QE/{project}.txt")
    baseline = pkg.tsv(f"Baseline/Query/{project}.txt", QUERY_ENCODING) if opts.query == "baseline" else {}
    bugs = sorted((b[:-4] for b in pkg.names(f"Goldset/{project}") if b.endswith(".txt")), key=_bug_key)
    queries: list[Query] = []
    skipped: Counter = Counter()
    for bug in bugs:
        gold = pkg.gold(project, bug) or []
        hits = sorted({rel for g in gold for rel in _matching(g, originals, by_name)})
        counts["gold_lines"] += len(gold)
        missing = [g for g in gold if not _matching(g, originals, by_name)]
        counts["gold_lines_not_in_corpus"] += len(missing)
        counts["gold_lines_not_java_not_in_corpus"] += sum(1 for g in missing if not g.strip().endswith(".java"))
        if not hits:
            skipped["no_gold_in_corpus"] += 1
            continue
        # a gold file the loader leaves out can never be retrieved (eclipse.pde.ui keeps sources under build/)
        loaded = [rel for rel in hits if rel not in unloaded]
        if len(loaded) < len(hits):  # counted only where it happens: tomcat70's manifest stays as it was
            counts["gold_files_the_loader_skips"] += len(hits) - len(loaded)
        if not loaded:
            skipped["gold_only_where_the_loader_skips"] += 1
            continue
        hits = loaded
        if opts.query == "baseline":
            text = baseline.get(bug)
            if text is None or not text.strip():
                skipped["no_baseline_query"] += 1
                continue
        else:
            report = pkg.report(project, bug)
            if report is None:
                skipped["no_report"] += 1
                continue
            text = "\n".join(p for p in report if p)
        meta = {"report_class": classes.get(bug, ""), "bug": bug, "gold_lines": gold,
                "baseline_rank": int(qe[bug]) if bug in qe and qe[bug].strip().lstrip("-").isdigit() else None,
                **flags(report_localized(text, hits))}
        queries.append(Query(qid=f"{project}/{bug}", query=text, kind=f"bug_report_{opts.query}",
                             repo=project, gold=tuple(Span(rel, 1, lines[rel]) for rel in hits), meta=meta))
    corpus = load_corpus([str(out)], name=name)
    manifest = {"generator": "import-blizzard", "generator_version": "2", "source": pkg.source,
                "project": project, "query": opts.query, "run_overrides": list(RUN_OVERRIDES),
                "corpus_sources": [str(out.resolve())], "corpus_fingerprint": corpus.fingerprint,
                "counts": {"queries": len(queries), "bug_reports": len(bugs), **dict(sorted(counts.items())),
                           "report_classes": dict(sorted(Counter(q.meta["report_class"] for q in queries).items())),
                           "already_localized": sum(1 for q in queries if q.meta["already_localized"])},
                "strata": {"localized": "localized"},
                "skipped": dict(sorted(skipped.items()))}
    return QuerySet(name=name, queries=tuple(queries), manifest=manifest)


def _bug_key(bug: str) -> tuple:
    return (0, int(bug), "") if bug.isdigit() else (1, 0, bug)


def _matching(gold: str, originals: dict[str, str], by_name: dict[str, list[str]]) -> list[str]:
    """The corpus files whose original path ends with ``gold`` (BLIZZARD's ``endsWith``)."""
    if "/" in gold:  # the match ends with the gold's whole file name
        pool = by_name.get(gold.rsplit("/", 1)[-1], [])
    else:
        pool = list(originals)
    return [rel for rel in pool if originals[rel].endswith(gold)]
