"""Gandhi et al.'s BM25 over past commit messages, on a tiny repository the test builds (never a mirror or
the network): the documents, the strictly-older rule, maxp, both MAP definitions, the Lucene 9 scoring
with -impact norms, and the BPE encoder."""
from __future__ import annotations

import math
import subprocess
from pathlib import Path

import numpy as np
import pytest

from hermes_eval.reproduce.commit_bm25 import CommitSearcher, average_precision, evaluate
from hermes_eval.reproduce.commit_index import build
from retrievers.sparse.bpe import BytePairEncoder, p50k_from_r50k, parse_ranks
from retrievers.sparse.lucene import Lucene9BM25Index, StandardAnalyzer, byte4_to_int, int_to_byte4

# (unix committer date, message, {path: text})
HISTORY = [
    (1000, "fix crash in parser", {"parser.c": "p1\n", "util.c": "u1\n"}),
    (2000, "parser crash again on empty input, parser", {"parser.c": "p2\n"}),
    (3000, "parser docs", {"README.md": "r\n"}),
    (4000, "parser crash in the lexer", {"lexer.c": "l\n"}),
]


def _repo(path: Path) -> list[str]:
    path.mkdir()
    shas = []
    for date, message, files in HISTORY:
        env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
               "GIT_AUTHOR_DATE": f"@{date} +0000", "GIT_COMMITTER_DATE": f"@{date} +0000", "HOME": str(path)}
        if not shas:
            subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True, env=env)
        for rel, text in files.items():
            (path / rel).write_text(text)
        subprocess.run(["git", "-C", str(path), "add", "-A"], check=True, env=env)
        subprocess.run(["git", "-C", str(path), "commit", "-q", "-m", message], check=True, env=env)
        shas.append(subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], check=True, capture_output=True,
                                   text=True, env=env).stdout.strip())
    return shas


@pytest.fixture
def searcher(tmp_path):
    shas = _repo(tmp_path / "repo")
    docs, counts = build(tmp_path / "repo", shas[-1], frozenset({".c"}))
    return CommitSearcher.build(docs, StandardAnalyzer(stopwords=False)), counts, shas


def test_one_document_per_changed_code_file_in_commit_id_order(searcher):
    s, counts, shas = searcher
    assert counts["documents"] == 4 and counts["commits_with_documents"] == 3 and counts["commits_walked"] == 4
    assert counts["skipped_changes"] == {"not_code_extension": 1}  # README.md
    assert [d.commit for d in s.docs] == sorted(d.commit for d in s.docs)
    assert {(d.commit, d.path) for d in s.docs} == {(shas[0], "parser.c"), (shas[0], "util.c"),
                                                   (shas[1], "parser.c"), (shas[3], "lexer.c")}
    assert all(d.message.strip() == HISTORY[shas.index(d.commit)][1] for d in s.docs)


def test_only_commits_strictly_older_than_the_query_are_kept(searcher):
    s, _, shas = searcher
    assert {s.docs[i].commit for i, _ in s.hits("parser crash", 5000)} == {shas[0], shas[1], shas[3]}
    assert {s.docs[i].commit for i, _ in s.hits("parser crash", 4000)} == {shas[0], shas[1]}  # not its own
    assert {s.docs[i].commit for i, _ in s.hits("parser crash", 2000)} == {shas[0]}
    assert s.files("parser crash", 1000) == []
    # theirs: the top `depth` of the whole index first, then the date filter (fewer may remain)
    top1 = s.hits("parser crash lexer", 5000, depth=1)
    assert [s.docs[i].path for i, _ in top1] == ["lexer.c"] and s.hits("parser crash lexer", 4000, depth=1) == []
    assert [s.docs[i].path for i, _ in s.hits("parser crash lexer", 4000, depth=1, collection="past")] != []


def test_a_file_scores_its_best_document(searcher):
    s, _, shas = searcher
    hits = s.hits("parser crash empty", 5000)
    by_path: dict[str, list[float]] = {}
    for i, score in hits:
        by_path.setdefault(s.docs[i].path, []).append(score)
    ranked = s.files("parser crash empty", 5000)
    assert len(by_path["parser.c"]) == 2 and ranked[0] == "parser.c"
    assert ranked == sorted(by_path, key=lambda p: -max(by_path[p]))
    assert set(ranked) == {"parser.c", "util.c", "lexer.c"}


def test_both_map_definitions_and_the_other_metrics_by_hand():
    ranked, gold = ["x", "g1", "y", "g2"], ["g1", "g2", "g3"]
    assert average_precision(ranked, set(gold), "retrieved") == pytest.approx((1 / 2 + 2 / 4) / 2)  # 0.5
    assert average_precision(ranked, set(gold), "gold") == pytest.approx((1 / 2 + 2 / 4) / 3)  # 0.3333
    m = evaluate(ranked, gold)
    assert m["MAP"] == pytest.approx(0.5) and m["MAP_std"] == pytest.approx(1 / 3)
    assert m["MRR"] == 0.5 and m["P@1"] == 0 and m["P@10"] == pytest.approx(0.2)
    assert m["R@10"] == pytest.approx(2 / 3) and m["R@100"] == m["R@10"]
    assert evaluate(["x"], ["g"])["MAP"] == 0 and evaluate(["g"], ["g"])["MAP"] == 1


def test_lucene9_bm25_with_impact_norms_ignores_document_length():
    idx = Lucene9BM25Index(tokenizer=StandardAnalyzer(stopwords=False), impact_norms=True)
    idx.build(["short", "long", "other"], ["a b", "a b c d e f g h", "z"])
    matched, scores = idx.scores(idx.clauses("a a"))
    assert matched.tolist() == [0, 1] and scores[0] == scores[1]
    avgdl = 11 / 3
    idf = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    # boost 2 (the term twice), length 1 for every document, no (k1 + 1) since Lucene 8
    assert scores[0] == pytest.approx(2 * idf * 1 / (1 + 0.9 * (1 - 0.4 + 0.4 * 1 / avgdl)), rel=1e-6)
    plain = Lucene9BM25Index(tokenizer=StandardAnalyzer(stopwords=False))
    plain.build(["short", "long", "other"], ["a b", "a b c d e f g h", "z"])
    _, s2 = plain.scores(plain.clauses("a"))
    assert s2[0] > s2[1]
    # only the older documents: their own collection statistics
    _, s3 = plain.scores(plain.clauses("a"), np.array([True, False, True]))
    assert s3[0] == pytest.approx(math.log(1 + 1.5 / 1.5) * 1 / (1 + 0.9 * (1 - 0.4 + 0.4 * 2 / 1.5)), rel=1e-6)


def test_smallfloat_lengths_are_exact_below_24_then_four_significant_bits():
    assert [byte4_to_int(int_to_byte4(n)) for n in (0, 1, 23, 24, 40)] == [0, 1, 23, 24, 40]
    assert byte4_to_int(int_to_byte4(100)) == 96 and byte4_to_int(int_to_byte4(1000)) == 984


def test_byte_pair_encoding_merges_the_lowest_ranked_pair_first():
    ranks = {b"a": 0, b"b": 1, b"c": 2, b" ": 3, b"ab": 4, b"bc": 5, b"abc": 6}
    enc = BytePairEncoder(ranks)
    assert enc.encode("abc") == [6]  # a whole piece that is a token
    assert enc.encode(" abc") == [3, 6]  # " abc": ab (4) merges before bc (5), then abc
    assert enc(" ab cab") == ["3", "4", "3", "2", "4"]
    p50k = parse_ranks(p50k_from_r50k(b"YQ== 0\nYg== 1\n"))
    assert p50k[b"  "] == 50257 and p50k[b" " * 25] == 50280 and len(p50k) == 2 + 24


def test_the_records_anchor_is_the_value_their_statistics_file_gives(tmp_path):
    """The gandhi record's MRR anchor, typed by hand, against misc/repos_bm25_stats.csv as the slice keeps it
    (Siddharth-Gandhi/ds 1ccfa757bd50, the commit the anchor cites), read the same from a git mirror at that
    commit; kafka has no row, so only redis is read."""
    from hermes_eval.config.benchmarks import benchmark
    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.reproduce.anchor_check import check
    from hermes_eval.reproduce.commit_bm25 import cited

    record = benchmark("gandhi", CONF_DIR)
    slice_ = Path(__file__).resolve().parents[2] / "slices" / "gandhi"
    read = cited(slice_, record)
    assert [(p.queryset, p.metric, p.commit) for p in read] == [("gandhi-redis", "file_mrr@10", None)]
    checked = check(record, read)
    assert len(checked) == len(record.anchors) >= 1 and all(c.agrees for c in checked), \
        [c.line(record) for c in checked]
    repo = tmp_path / "ds"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["cp", "-r", str(slice_ / "gold"), str(slice_ / "misc"), str(repo)], check=True)
    for cmd in (["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "slice"]):
        subprocess.run(["git", "-C", str(repo), *cmd], check=True)
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    (mirrored,) = cited(repo, record, head)
    assert mirrored.value == read[0].value and mirrored.commit == head


def test_the_kinds_entry_ranks_a_release_rows_files_from_the_mirrors_history(tmp_path):
    """commit_bm25 as a reproduction of the gandhi record: the variant's repository found under the mirrors
    folder (here the tiny repository), the release's gold row searched with its rewrite, older commits only."""
    import csv

    from hermes_eval.config.benchmarks import benchmark
    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.reproduce.kind import Request
    from hermes_eval.reproduce.registry import reproduction

    shas = _repo(tmp_path / "repo")
    mirrors = tmp_path / "mirrors"
    (mirrors / "redis+redis").mkdir(parents=True)
    (mirrors / "redis+redis" / "repo").symlink_to(tmp_path / "repo")
    release = tmp_path / "ds"
    (release / "gold" / "redis_redis").mkdir(parents=True)
    (release / "misc").mkdir()
    with open(release / "gold/redis_redis/v2_redis_redis_gpt4_gold.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["commit_id", "commit_date", "commit_message", "actual_files_modified", "transformed_message_gpt4"])
        w.writerow([shas[3], 4000, HISTORY[3][1], "['parser.c', 'gone.c']", "parser crash"])
    (release / "misc/code_extensions.json").write_text('[".c"]')
    (release / "misc/repos_bm25_stats.csv").write_text("repo_name,MAP,MRR\nredis_redis,0.25,0.5\n")
    out = reproduction("commit_bm25")(Request(benchmark("gandhi", CONF_DIR), "gandhi-redis", data=release, options=(
        ("mirrors", str(mirrors)), ("tokenizer", "words"))))
    (row,) = out.per_query
    assert row["repository"] == "redis/redis" and row["commit"] == shas[3]
    assert row["MRR"] == 1.0 and row["MAP"] == 1.0 and row["MAP_std"] == 0.5  # parser.c first; gone.c never
    assert "| redis/redis | 1 | 1.0000 | 0.5000 | 1.0000 |" in out.markdown
    assert [(p.queryset, p.metric, p.value) for p in out.published] == [("gandhi-redis", "file_mrr@10", 0.5)]
