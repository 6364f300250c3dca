"""Every benchmark record's variants import from the record's slice (tests/slices/): the command
`hermes-eval benchmark` derives from the record runs, finds queries, puts every gold span inside a file of
the corpus it names, and honours each option the variant sets. Nothing here reads the shared benchmark
folder, a mirror or the network: SWE-bench's repositories are rebuilt at each instance from the old side of
its golden patch, and the variants that download release wheels are not run (they say so: `network`)."""
from __future__ import annotations

import ast
import csv
import io
import json
import os
import re
import subprocess
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import pytest

from hermes_eval.cli.benchmark import import_step
from hermes_eval.cli.main import main
from hermes_eval.config.benchmarks import Benchmark, Variant, benchmarks
from hermes_eval.config.compose import CONF_DIR
from hermes_eval.core.queryset import QuerySet
from hermes_eval.corpus import load_corpus
from hermes_eval.querysets.readers.swebench_protocols import protocol
from hermes_eval.querysets.readers.swebench_subsets import SUBSETS
from hermes_eval.querysets.store import load_queryset

ROOT = Path(__file__).resolve().parents[3]
RECORDS = benchmarks(CONF_DIR)
OFFLINE = [(b, v) for b in RECORDS.values() for v in b.variants if not v.network]
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+")


def _old_side(patch: str) -> dict[str, str]:
    """Each file a patch changes, rebuilt from its hunks' old side (context and removed lines at their line
    numbers, a placeholder line elsewhere), so that the patch applies to it as it did at base_commit."""
    files: dict[str, dict[int, str]] = {}
    path, line = None, 0
    for text in patch.splitlines():
        if text.startswith("--- a/"):
            path = text[6:]
            files[path] = {}
        elif (m := HUNK.match(text)) and path:
            line = int(m.group(1))
        elif path and text[:1] in (" ", "-") and not text.startswith("---"):
            files[path][line] = text[1:]
            line += 1
    return {p: "".join(f"{lines.get(i, f'# line {i}: not in the patch')}\n" for i in range(1, max(lines) + 3))
            for p, lines in files.items()}


def _swebench_slice(slice_dir: Path, tmp: Path, make_repo) -> tuple[Path, Path]:
    """(a data folder with the slice's instance files, their base commits those of repositories rebuilt
    under the mirrors folder returned)."""
    data, mirrors = tmp / "data", tmp / "mirrors"
    data.mkdir()
    files = {f.name: json.loads(f.read_text()) for f in sorted(slice_dir.glob("*.json"))}
    by_repo: dict[str, list[dict]] = {}
    for rows in files.values():
        for row in rows:
            by_repo.setdefault(row["repo"], []).append(row)
    sha: dict[str, str] = {}
    for repo, rows in by_repo.items():
        commits = make_repo(mirrors / repo.replace("/", "+"), [_old_side(r["golden_patch"]) for r in rows])
        sha.update({r["instance_id"]: c for r, c in zip(rows, commits)})
    for name, rows in files.items():
        (data / name).write_text(json.dumps([{**r, "base_commit": sha[r["instance_id"]]} for r in rows]))
    return data, mirrors


# the mirror folder of each project of Ye et al.'s release (the slice's workbooks are named by project)
YE_MIRRORS = {"Tomcat": "apache+tomcat", "AspectJ": "eclipse-aspectj+aspectj"}


def _ye_slice(slice_dir: Path, tmp: Path, make_repo) -> tuple[Path, Path]:
    """(a data folder with the slice's workbooks, their commits those of repositories built under the mirrors
    folder returned): per bug, a commit holding its gold files as they are before the fix (the slice's
    snapshots/PROJECT/BUG/) and a non-Java note, then the fix, which changes them and adds the others."""
    from hermes_eval.querysets.readers.xlsx import read_rows, write_rows

    data, mirrors = tmp / "data", tmp / "mirrors"
    data.mkdir()
    for book in sorted(slice_dir.glob("*.xlsx")):
        rows = read_rows(book)
        commits = []
        for row in rows[1:]:
            folder = slice_dir / "snapshots" / book.stem / row[1]
            before = {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*") if p.is_file()}
            commits.append({**before, "NOTES.txt": f"before the fix of bug {row[1]}\n"})
            commits.append({p: before.get(p, "") + "// fixed\n" for p in row[9].split()})
        shas = make_repo(mirrors / YE_MIRRORS[book.stem] / "repo", commits)
        fixed = [[*r[:7], shas[2 * i + 1][:7], *r[8:]] for i, r in enumerate(rows[1:])]  # the fix's short SHA
        write_rows(data / book.name, [rows[0], *fixed])
    return data, mirrors


def _gandhi_slice(slice_dir: Path, tmp: Path, make_repo) -> tuple[Path, Path]:
    """(a copy of the slice whose commit ids are those of repositories rebuilt under the mirrors folder:
    per row, a parent holding the row's files and the commit that edits them)."""
    data, mirrors = tmp / "data", tmp / "mirrors"
    for path in sorted(slice_dir.glob("gold/*/*.csv")):
        rows = list(csv.DictReader(io.StringIO(path.read_text())))
        commits = []
        for k, row in enumerate(rows):
            files = ast.literal_eval(row["actual_files_modified"])  # a list literal, as the release writes it
            commits += [{f: f"// {f} before {k}\n" for f in files}, {f: f"// {f} after {k}\n" for f in files}]
        owner, _, name = path.parent.name.partition("_")
        shas = make_repo(mirrors / f"{owner}+{name}", commits)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows({**row, "commit_id": shas[2 * k + 1]} for k, row in enumerate(rows))
        target = data / path.relative_to(slice_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(out.getvalue())
    return data, mirrors


def _bench4bl_slice(slice_dir: Path, tmp: Path, make_repo) -> tuple[Path, Path]:
    """(the slice, holding the BugLocator XMLs; a mirrors folder with one repository per subject built from
    ``sources/OWNER+NAME/``, its one commit tagged with the ref each variant of the record names)."""
    mirrors = tmp / "mirrors"
    refs = {Path(v.paths[1]).parent.name: dict(v.options)["ref"] for v in RECORDS["bench4bl"].variants}
    for folder in sorted((slice_dir / "sources").iterdir()):
        repo = mirrors / folder.name / "repo"
        make_repo(repo, [{str(f.relative_to(folder)): f.read_text(encoding="utf-8")
                          for f in sorted(folder.rglob("*.java"))}])
        subprocess.run(["git", "-C", str(repo), "tag", refs[folder.name]], check=True, capture_output=True)
    return slice_dir, mirrors


def _history_slice(slice_dir: Path, tmp: Path, make_repo) -> tuple[Path, Path]:
    """(the mirrors folder, which is also the data folder: each ``OWNER+NAME.json`` of the slice built as the
    repository ``OWNER+NAME/repo``, one commit per entry at its date, by its author)."""
    mirrors = tmp / "mirrors"
    for script in sorted(slice_dir.glob("*.json")):
        repo = mirrors / script.stem / "repo"
        repo.mkdir(parents=True)
        for commit in json.loads(script.read_text())["commits"]:
            name, _, email = commit["author"].partition(" <")
            env = {"PATH": os.environ["PATH"], "HOME": str(repo), "GIT_CONFIG_NOSYSTEM": "1",
                   **{f"GIT_{who}_{key}": value for who in ("AUTHOR", "COMMITTER")
                      for key, value in (("NAME", name), ("EMAIL", email.rstrip(">")), ("DATE", commit["date"]))}}
            if not (repo / ".git").exists():
                subprocess.run(["git", "-C", str(repo), "init", "-q", "-b", "main"], check=True, env=env)
            for rel, text in commit["files"].items():
                (repo / rel).parent.mkdir(parents=True, exist_ok=True)
                (repo / rel).write_text(text)
            for args in (["add", "-A"], ["commit", "-q", "-m", commit["message"]]):
                subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)
    return mirrors, mirrors


# how a record's slice becomes a data folder (and a mirrors folder) for its importer
SLICES: dict[str, Callable[..., tuple[Path, Path | None]]] = {
    "bench4bl": _bench4bl_slice,
    "blizzard": lambda slice_dir, tmp, make_repo: (slice_dir, None),
    "cosqa": lambda slice_dir, tmp, make_repo: (slice_dir, None),
    "gandhi": _gandhi_slice,
    "history": _history_slice,
    "repoeval": lambda slice_dir, tmp, make_repo: (slice_dir, None),
    "swebench": _swebench_slice,
    "ye": _ye_slice,
}


def _named_by_fixed_file(path: str, fixed: list[str], match: str, strip: str) -> bool:
    """Whether one of a report's fixed files names ``path`` under the rule (``strip`` dropped, then the path
    itself or, ``match=suffix``, a tail of it at a folder boundary)."""
    keys = [f[len(strip):] if strip and f.startswith(strip) else f for f in fixed]
    return any(path == k or (match == "suffix" and path.endswith("/" + k)) for k in keys)


def _repos(value: str) -> set[str]:
    return set(value.split(","))


# each option a record sets, checked on what the import made: (value, query set, mirrors) -> holds
OPTION_CHECKS: dict[tuple[str, str], Callable[[str, QuerySet, Path | None], bool]] = {
    ("bench4bl", "subject"): lambda v, qs, _: qs.manifest["subject"] == v and {q.repo for q in qs.queries} == {v}
        and all(q.qid.startswith(f"{v}/") for q in qs.queries),
    ("bench4bl", "ref"): lambda v, qs, _: qs.manifest["ref"] == v and qs.manifest["corpus_sources"] == [
        f"git:{qs.manifest['repository']}@{qs.manifest['commit']}"],
    ("bench4bl", "gold_match"): lambda v, qs, _: qs.manifest["gold_rule"]["match"] == v and all(
        _named_by_fixed_file(g.path, q.meta["fixed_files"], v, qs.manifest["gold_rule"]["strip"])
        for q in qs.queries for g in q.gold),
    ("bench4bl", "gold_strip"): lambda v, qs, _: qs.manifest["gold_rule"]["strip"] == v and not any(
        g.path.startswith(v) for q in qs.queries for g in q.gold),
    ("blizzard", "project"): lambda v, qs, _: qs.manifest["project"] == v and {q.repo for q in qs.queries} == {v},
    ("blizzard", "query"): lambda v, qs, _: qs.manifest["query"] == v and {q.kind for q in qs.queries} == {
        f"bug_report_{v}"},
    ("cosqa", "ids"): lambda v, qs, _: qs.manifest["ids"] == v and all(
        g.path.startswith({"pairs": "pairs/", "unique": "functions/"}[v]) for q in qs.queries for g in q.gold),
    ("swebench", "repos_dir"): lambda v, qs, mirrors: qs.manifest["repos_dir"] == str(Path(v).resolve()) == str(
        mirrors.resolve()),
    ("swebench", "repos"): lambda v, qs, _: {q.repo for q in qs.queries} <= _repos(v),
    ("swebench", "limit"): lambda v, qs, _: max(Counter(q.repo for q in qs.queries).values()) <= int(v),
    ("swebench", "subset"): lambda v, qs, _: qs.manifest["subset"]["name"] == v and all(
        SUBSETS[v].keeps(q.qid) for q in qs.queries),
    ("swebench", "protocol"): lambda v, qs, _: qs.manifest["protocol"] == v
        and set(protocol(v).exclude) <= set(qs.manifest["corpus_exclude"])
        and qs.manifest["corpus_languages"] == list(protocol(v).languages)
        and all(q.meta["scope"] == "" for q in qs.queries) == protocol(v).pooled,
    ("ye", "repos_dir"): lambda v, qs, mirrors: qs.manifest["repos_dir"] == str(Path(v).resolve()) == str(
        mirrors.resolve()),
    ("ye", "repo"): lambda v, qs, _: qs.manifest["repo"] == v and {q.repo for q in qs.queries} == {v}
        and all(any(s.endswith(f"@{q.meta['base_commit']}") for s in qs.manifest["corpus_sources"])
                for q in qs.queries),
    ("ye", "limit"): lambda v, qs, _: len(qs) <= int(v),
    ("gandhi", "repos_dir"): lambda v, qs, mirrors: qs.manifest["repos_dir"] == str(Path(v).resolve()) == str(
        mirrors.resolve()),
    ("gandhi", "repo"): lambda v, qs, _: qs.manifest["repo"] == v and {q.repo for q in qs.queries} == {v},
    ("gandhi", "query"): lambda v, qs, _: qs.manifest["query"] == v and {q.kind for q in qs.queries} == {f"commit_{v}"},
    ("history", "since"): lambda v, qs, _: qs.manifest["since"] == v and all(
        datetime.fromisoformat(q.meta["date"]) >= datetime.fromisoformat(v).replace(tzinfo=timezone.utc)
        for q in qs.queries),
    ("history", "until"): lambda v, qs, _: qs.manifest["until"] == v and all(
        datetime.fromisoformat(q.meta["date"]) < datetime.fromisoformat(v).replace(tzinfo=timezone.utc)
        for q in qs.queries),
    ("history", "repo"): lambda v, qs, _: qs.manifest["repo"] == v and {q.repo for q in qs.queries} == {v},
    ("repoeval", "protocol"): lambda v, qs, _: qs.manifest["protocol"] == v,
    ("repoeval", "repos"): lambda v, qs, _: {q.repo for q in qs.queries} <= _repos(v)
        and set(qs.manifest["repos"]) == _repos(v),
    ("repoeval", "context_lines"): lambda v, qs, _: qs.manifest["params"]["context_lines"] == (
        None if v == "none" else int(v)) and (v == "none" or all(q.query.count("\n") < int(v) for q in qs.queries)),
}


def test_every_option_a_record_sets_has_a_check_and_only_release_variants_need_the_network():
    used = {(b.importer, k) for b, v in OFFLINE for k, _ in v.options}
    assert used - set(OPTION_CHECKS) == set(), "add a check of these options to OPTION_CHECKS"
    assert {b.importer for b in RECORDS.values()} <= set(SLICES)
    networked = [v.name for b in RECORDS.values() for v in b.variants if v.network]
    assert networked and all(dict(v.options).get("releases") == "true" for b in RECORDS.values()
                             for v in b.variants if v.network)
    assert all((ROOT / b.slice).is_dir() and any((ROOT / b.slice).iterdir()) for b in RECORDS.values())


@pytest.mark.parametrize("record,variant", OFFLINE, ids=[f"{b.name}:{v.name}" for b, v in OFFLINE])
def test_each_variant_imports_from_its_slice(record: Benchmark, variant: Variant, tmp_path, git_repo):
    data, mirrors = SLICES[record.importer](ROOT / record.slice, tmp_path, git_repo)
    paths = [f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}"]
    step = import_step(record, variant, {"HERMES_MIRRORS": str(mirrors) if mirrors else None}, paths, data=str(data))
    assert step.words[:3] == ("datasets", "import", record.importer)
    assert main(list(step.words)) == 0
    qs = load_queryset(tmp_path / "ds" / variant.name)
    assert len(qs) > 0 and qs.name == variant.name
    subprocess.run(["git", "init", "-q", str(tmp_path / "ds")], check=True)  # the import leaves a checkout clean
    assert subprocess.run(["git", "-C", str(tmp_path / "ds"), "status", "--porcelain", "--untracked-files=all"],
                          check=True, capture_output=True, text=True).stdout == ""
    m = qs.manifest
    corpus = load_corpus(m["corpus_sources"], name=variant.name, cache_dir=str(tmp_path / "cache"),
                         exclude=tuple(m.get("corpus_exclude") or ()), languages=m.get("corpus_languages") or None)
    lines = {f.path: f.n_lines for f in corpus.files}
    outside = [(q.qid, g) for q in qs.queries for g in q.gold
               if g.path not in lines or not 1 <= g.start <= g.end <= max(lines[g.path], 1)]
    assert outside == []
    for key, value in variant.options:
        assert OPTION_CHECKS[(record.importer, key)](value.replace("{HERMES_MIRRORS}", str(mirrors)), qs, mirrors), \
            f"{variant.name}: option {key}={value} not honoured"


# options that select queries, each checked where it must remove some: the variant imported without the option,
# then with a value that keeps fewer than the slice holds; what is kept must be what the rule names
REPOEVAL_TASKS = "function_level_completion_2k_context_codex.test.jsonl"
NARROWING = [(b, v, key) for b, v in OFFLINE for key in ("limit", "repos") if key in dict(v.options)]
# the value each variant is narrowed to and the qids it must keep, in order, read by hand off the slice files
# (no import run): tests/slices/ye/PROVENANCE.md lists Tomcat.xlsx's rows in the workbook's order, 55630,
# 55181, 54671, 49014 (limit keeps the first rows; the first two both have a gold file before their fix);
# tests/slices/swebench-instances/lite.json holds psf__requests-863, psf__requests-2317, pallets__flask-4045
# in this order (limit is per repository: each one's first instances)
BY_HAND = {
    ("ye-tomcat-recent200", "limit"): ("2", ["55630", "55181"]),
    ("swe-lite", "limit"): ("1", ["psf__requests-863", "pallets__flask-4045"]),
    ("swe-lite", "repos"): ("psf/requests", ["psf__requests-863", "psf__requests-2317"]),
}


def _import(record: Benchmark, variant: Variant, options: dict[str, str], tmp: Path, git_repo) -> QuerySet:
    from dataclasses import replace

    tmp.mkdir(parents=True)
    data, mirrors = SLICES[record.importer](ROOT / record.slice, tmp, git_repo)
    narrowed = replace(variant, options=tuple(options.items()))
    paths = [f"paths.datasets={tmp / 'ds'}", f"paths.cache={tmp / 'cache'}"]
    step = import_step(record, narrowed, {"HERMES_MIRRORS": str(mirrors) if mirrors else None}, paths, data=str(data))
    assert main(list(step.words)) == 0
    return load_queryset(tmp / "ds" / variant.name)


@pytest.mark.parametrize("record,variant,key", NARROWING, ids=[f"{b.name}:{v.name}:{k}" for b, v, k in NARROWING])
def test_a_selecting_option_keeps_exactly_what_it_names(record: Benchmark, variant: Variant, key: str, tmp_path,
                                                         git_repo):
    others = {k: v for k, v in variant.options if k != key}
    every = {**others, "repos": "all"} if (record.importer, key) == ("repoeval", "repos") else others  # its default is a list
    whole = [(q.qid, q.repo) for q in _import(record, variant, every, tmp_path / "whole", git_repo).queries]
    if record.importer == "repoeval":  # tasks can be skipped for other reasons: the rule applied to the whole set
        value = whole[0][1]
        expected = [qid for qid, repo in whole if repo == value]
    else:
        value, expected = BY_HAND[(variant.name, key)]
    narrowed = _import(record, variant, {**others, key: value}, tmp_path / "kept", git_repo)
    kept = [q.qid for q in narrowed.queries]
    assert kept == expected
    if record.importer == "repoeval":  # only one repository's files are in the slice, so what the option removes
        # shows in its count: every task of another repository dropped, counted from the jsonl
        tasks = [json.loads(line)["metadata"]["fpath_tuple"][0]
                 for line in (ROOT / record.slice / REPOEVAL_TASKS).read_text().splitlines() if line.strip()]
        assert narrowed.manifest["skipped"]["repo_not_selected"] == sum(t != value for t in tasks) > 0
    else:
        assert set(kept) < {qid for qid, _ in whole}  # the option removed some of what the slice yields
