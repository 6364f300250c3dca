"""The RepoEval release, imported under CodeRAG-Bench's protocol and ours, from a slice of it
(tests/slices/repoeval: every task of a few files of each repository, those files, and the whole
release's task list with ids and paths only). CodeRAG-Bench's qids, windows and qrels are rebuilt
here from its script's rules (retrieval/create/repoeval_repo.py), independently of the importer and
the chunker, on two of its repositories, and must come out identical."""
from __future__ import annotations

import glob
import json
import os
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from hermes_eval.config.parts import instantiate_part
from hermes_eval.core.errors import UserError
from hermes_eval.corpus import load_corpus
from hermes_eval.judge.relevance import ChunkLookup, chunk_qrels
from hermes_eval.querysets.importers.repoeval import CODERAG_REPOS, Options, run
from hermes_eval.querysets.readers.task_ids import unique_task_ids
from hermes_eval.stages.snapshots import chunk_by_content
from retrievers.chunkers.centred_windows import CentredWindowChunker

RELEASE = Path(__file__).resolve().parents[3] / "slices" / "repoeval"  # see PROVENANCE.md there
TASKS = RELEASE / "function_level_completion_2k_context_codex.test.jsonl"
REPOS = RELEASE / "repositories" / "function_level"
SMALL = ("amazon-science_patchcore-inspection", "maxhumber_redframes")  # 16 and 49 files in the release, 1 and 5 here


@pytest.fixture(scope="module")
def coderag(tmp_path_factory):
    return run(Options(tasks=TASKS, snapshot=REPOS, dest=tmp_path_factory.mktemp("d") / "c", name="c",
                       protocol="coderag-bench"))


def script_tasks() -> list[dict]:
    """The release's rows with the script's task-id rewrite, in file order."""
    rows = [json.loads(line) for line in TASKS.read_text().splitlines()]
    counter: Counter = Counter()
    for t in rows:
        repo = t["metadata"]["task_id"].replace("--", "_").split("/")[0]
        t["metadata"]["task_id"] = t["metadata"]["task_id"].replace("--", "_").replace("idx", str(counter[repo]))
        counter[repo] += 1
    return rows


def script_qrels(repo: str, tasks: list[dict], window_size: int, slice_size: int) -> dict[str, set[str]]:
    """Windows of ``window_size`` lines every window_size // slice_size (code.splitlines()), identical
    texts merged (first member kept),
    relevant when the first member is in the task's file and any member overlaps
    [context_start_lineno, lineno + 1); ids as ours: path:start-end, 1-based inclusive."""
    windows = []
    for fn in sorted(glob.glob(f"{REPOS}/{repo}/**/*.py", recursive=True)):
        fpath = tuple(os.path.relpath(fn, REPOS).split(os.sep))
        lines = open(fn, encoding="utf8").read().splitlines()
        for line_no in range(0, len(lines), window_size // slice_size):
            start = max(0, line_no - window_size // 2)
            end = min(len(lines), line_no + window_size - window_size // 2)
            if lines[start:end]:
                windows.append(("\n".join(lines[start:end]), fpath, start, end))
    merged: dict[str, list] = defaultdict(list)
    for text, fpath, start, end in windows:
        merged[text].append((fpath, start, end))
    out: dict[str, set[str]] = defaultdict(set)
    for t in tasks:
        meta = t["metadata"]
        if not meta["task_id"].startswith(repo + "/"):
            continue
        lo, hi = meta["context_start_lineno"], meta["lineno"] + 1
        for members in merged.values():
            (fpath, start, end) = members[0]
            if fpath == tuple(meta["fpath_tuple"]) and any(s < hi and e > lo for _, s, e in members):
                out[meta["task_id"]].add(f"{'/'.join(fpath)}:{start + 1}-{end}")
    return out


def release_tasks() -> list[dict]:
    """The whole release's 455 rows, task_id and fpath_tuple only, in file order."""
    return [json.loads(line) for line in (RELEASE / "release_tasks.jsonl").read_text().splitlines()]


def in_small(t: dict) -> bool:
    return t["metadata"]["fpath_tuple"][0] in SMALL


def test_the_published_subset_with_unique_ids_and_counted_repeats(coderag):
    release = release_tasks()
    # the six repositories of the whole release are CodeRAG-Bench's Table 1: RepoEval (function), 373 examples
    assert len(release) == 455 and sum(t["fpath_tuple"][0] in CODERAG_REPOS for t in release) == 373
    _, repeated = unique_task_ids([t["task_id"] for t in release], "release")
    assert len(repeated) == 8 and repeated["deepmind--tracr/idx"] == 146
    rows = [json.loads(line)["metadata"] for line in TASKS.read_text().splitlines()]
    files = {tuple(r["fpath_tuple"]) for r in rows}  # the slice: every release task of its files, in order
    assert [(r["task_id"], r["fpath_tuple"]) for r in rows] == \
        [(t["task_id"], t["fpath_tuple"]) for t in release if tuple(t["fpath_tuple"]) in files]
    m = coderag.manifest
    want = [t["metadata"]["task_id"] for t in script_tasks()
            if t["metadata"]["fpath_tuple"][0] in CODERAG_REPOS]
    assert m["repos"] == sorted(CODERAG_REPOS) and m["skipped"]["repo_not_selected"] == len(rows) - len(want) > 0
    counts = Counter(r["task_id"] for r in rows)
    assert len(m["repeated_task_ids"]) == 8 and m["repeated_task_ids"] == {t: n for t, n in counts.items() if n > 1}
    assert len(coderag.queries) == len(want)
    assert [q.qid for q in coderag.queries] == want  # the script's ids, in its order
    assert all(q.meta["scope"] == q.qid.split("/")[0] + "/" for q in coderag.queries)  # own repository
    q = coderag.queries[0]
    row = next(t for t in script_tasks() if t["metadata"]["task_id"] == q.qid)
    assert q.query == row["prompt"].rstrip("\n") and q.exclude == ()  # the whole prompt, nothing masked


# the script's defaults now, and at first; the windows are the presets' (conf/chunker/), composed as a run
# composes them, so a preset that drifts from the script fails here
@pytest.mark.parametrize("preset, window_size, slice_size", [("coderag_windows", 50, 5), ("repocoder_windows", 20, 2)])
def test_qrels_equal_the_scripts_on_two_repositories(coderag, make_cfg, preset, window_size, slice_size):
    corpus = load_corpus([str(REPOS / r) for r in SMALL], name="small", languages=["python"])
    # the importer's paths start with the repository folder, as load_corpus names one source each
    assert {f.path.split("/")[0] for f in corpus.files} == set(SMALL)
    chunker = instantiate_part(make_cfg(f"chunker={preset}").chunker)
    assert isinstance(chunker, CentredWindowChunker)
    chunks, _ = chunk_by_content(chunker, corpus, [r + "/" for r in SMALL])
    queries = [q for q in coderag.queries if q.repo in SMALL]
    ours = chunk_qrels(queries, ChunkLookup(chunks))
    tasks = script_tasks()
    theirs = {qid: rel for r in SMALL for qid, rel in script_qrels(r, tasks, window_size, slice_size).items()}
    assert len(queries) == sum(map(in_small, tasks)) and all(theirs.get(q.qid) for q in queries)
    assert {q.qid: set(ours[q.qid]) for q in queries} == {q.qid: theirs.get(q.qid, set()) for q in queries}


def test_our_protocol_keeps_the_tasks_it_can_judge_and_says_why_not(tmp_path):
    qs = run(Options(tasks=TASKS, snapshot=REPOS, dest=tmp_path / "m", name="m", repos=",".join(SMALL),
                     context_lines=None))
    skipped = qs.manifest["skipped"]
    tasks = script_tasks()
    n_small = sum(map(in_small, tasks))
    assert len(qs.queries) + sum(v for k, v in skipped.items() if k != "repo_not_selected") == n_small
    assert skipped["repo_not_selected"] == len(tasks) - n_small and skipped["ground_truth_mismatch"] == 0
    assert qs.queries  # some kept, so the checks below check something
    for q in qs.queries:
        assert q.gold and q.exclude and q.meta["scope"] == q.repo + "/"
        assert any(e.start <= q.meta["hole"][0] <= e.end for e in q.exclude)  # the hole is not searchable
        assert not any(g.path == e.path and g.end >= e.start for g in q.gold for e in q.exclude)


def test_an_unknown_repository_is_named(tmp_path):
    with pytest.raises(UserError, match=r"repos='nope' has no task here"):
        run(Options(tasks=TASKS, snapshot=REPOS, dest=tmp_path / "x", name="x", repos="nope,deepmind_tracr"))
