"""The gandhi importer on a tiny repository the test builds: whole-file gold at the first parent, files
the commit adds dropped and counted, a commit left without gold skipped and counted, both query texts."""
from __future__ import annotations

import csv
import io

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.corpus import load_corpus
from hermes_eval.querysets.mined.gandhi import Options, run

ROWS = [  # (files the commit writes, actual_files_modified, message, rewrite, unix date)
    ({"src/a.c": "int a2;\n", "src/b.c": "int b2;\nint bb2;\n"}, ["src/a.c", "src/b.c"],
     "Fix a and b\n\nboth overflowed", "a and b overflow on large input", 1606770233),
    ({"src/c.c": "int c;\n", "src/a.c": "int a3;\n"}, ["src/c.c", "src/a.c"],
     "Add c, touch a", "a needs a helper", 1672531200),
    ({"src/new.c": "int n;\n"}, ["src/new.c"], "Add new", "nothing does new things", 1700000000),
]


def _release(tmp_path, shas, name="redis_redis"):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["commit_id", "commit_date", "commit_message", "actual_files_modified", "transformed_message_gpt4"])
    for sha, (_, files, message, rewrite, date) in zip(shas, ROWS):
        w.writerow([sha, date, message, repr(files), rewrite])
    path = tmp_path / "ds" / "gold" / name / f"v2_{name}_gpt4_gold.csv"
    path.parent.mkdir(parents=True)
    path.write_text(out.getvalue())
    return tmp_path / "ds"


@pytest.fixture
def imported(tmp_path, git_repo):
    base = {"src/a.c": "int a;\n", "src/b.c": "int b;\n"}
    shas = git_repo(tmp_path / "mirrors" / "redis+redis", [base] + [files for files, *_ in ROWS])[1:]
    release = _release(tmp_path, shas)

    def load(**kw):
        return run(Options(name="g", dest=tmp_path / "out", cache_dir=tmp_path / "cache", release=release,
                           repos_dir=tmp_path / "mirrors", **kw))
    return load, shas


def test_gold_is_the_changed_files_whole_at_the_parent_and_added_files_are_counted(imported, tmp_path):
    load, shas = imported
    qs = load(repo="redis/redis")
    assert [q.query for q in qs.queries] == ["a and b overflow on large input", "a needs a helper"]
    first, second = qs.queries
    assert [(g.path.split("/", 1)[1], g.start, g.end) for g in first.gold] == [("src/a.c", 1, 1), ("src/b.c", 1, 1)]
    assert [g.path.split("/", 1)[1] for g in second.gold] == ["src/a.c"]  # src/c.c is new in that commit
    assert second.meta["gold_absent_in_parent"] == ["src/c.c"]
    assert first.meta["commit"] == shas[0] and first.meta["base_commit"] != shas[0]
    assert first.meta["year"] == 2020 and first.meta["date"].startswith("2020-11-30")
    assert first.gold[0].path.startswith(first.meta["scope"]) and first.meta["scope"]
    m = qs.manifest
    assert m["counts"]["gold_absent_in_parent"] == 2 and m["counts"]["queries"] == 2
    assert m["skipped"]["no_gold"] == 1  # the third commit only adds a file
    assert m["strata"] == {"year": "year", "localized": "localized"} and m["rows"] == 3
    # the snapshots the two queries search; the third commit's parent (shas[1]) left with its skipped query
    mirror = (tmp_path / "mirrors" / "redis+redis").resolve()
    assert m["corpus_sources"] == sorted(f"git:{mirror}@{q.meta['base_commit']}" for q in qs.queries)
    assert m["counts"]["snapshots"] == 2
    assert not any(s.endswith(shas[1]) for s in m["corpus_sources"])
    assert load_corpus(m["corpus_sources"], cache_dir=str(tmp_path / "cache")).fingerprint == m["corpus_fingerprint"]


def test_query_original_is_the_commit_message(imported):
    load, _ = imported
    qs = load(repo="redis/redis", query="original")
    assert qs.queries[0].query == "Fix a and b\n\nboth overflowed" and qs.queries[0].kind == "commit_original"


def test_a_repository_without_a_gold_file_or_mirror_is_one_line(imported):
    load, _ = imported
    with pytest.raises(UserError, match="no gold/apache_kafka/v2_apache_kafka_gpt4_gold.csv"):
        load(repo="apache/kafka")
    with pytest.raises(UserError, match="query='x'"):
        load(repo="redis/redis", query="x")
