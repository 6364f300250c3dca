"""The snapshot-set cost's reference reads each snapshot through its blob cache (a file unchanged between
snapshots is read and tokenized once) and ranks as BM25 should; the bench's section renders."""
from __future__ import annotations

from hermes_eval.cli.main import main
from hermes_eval.costs import snapshot_sets, snapshot_sets_reference
from tests.hermes_eval.costs.test_snapshot_reference import lite_set


def test_reference_reads_what_changed_and_ranks_gold_first(tmp_path, git_repo):
    repos, _ = lite_set(tmp_path, git_repo, [(0, "Retry-After header is ignored by the client timeout", "pkg/retry.py"),
                                             (1, "merging cookies into the jar", "pkg/cookies.py")])
    assert main(["datasets", "import", "swebench", str(tmp_path / "lite.json"), "--repos", str(repos),
                 "languages=python", "name=ref", f"paths.datasets={tmp_path / 'ds'}",
                 f"paths.cache={tmp_path / 'cache'}"]) == 0
    queries, scopes, suffixes = snapshot_sets_reference.load(tmp_path / "ds" / "ref")
    assert suffixes == (".py",) and len(scopes) == 2
    res = snapshot_sets_reference.run(queries, scopes, suffixes)
    assert [(s.files, s.new_blobs) for s in res.snapshots] == [(4, 4), (4, 1)]  # only retry.py changed
    assert snapshot_sets_reference.mrr(res.rankings, queries) == 1.0
    lines = snapshot_sets.markdown({"queryset": "ref", "queries": 2, "snapshots": 2, "rounds": 1,
                                   "reference_seconds": [1.0], "reference_peak_rss_mb": 50,
                                   "reference_file_mrr@100": 1.0, "target_ratio": 4.0, "max_rss_mb": 2048,
                                   "reference_by_k": snapshot_sets._bins([(1.0, 4), (0.1, 1)]),
                                   "rows": [{"arm": "bm25/whole_file", "seconds": [2.0], "ratio": 2.0,
                                             "ratio_spread": [2.0, 2.0], "peak_rss_mb": 300, "file_mrr": 1.0,
                                             "by_k": snapshot_sets._bins([(0.5, 4), (0.05, 1)]), "passed": True}]})
    assert any(line.startswith("| bm25/whole_file | 2.0 | 2.0 |") for line in lines)
    assert any(line.startswith("| 2 | 1 | 0.05 | 1 | 0.1 | 1 |") for line in lines)
