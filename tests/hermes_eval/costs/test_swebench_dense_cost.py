"""The dense cost bench's parts: the sample of distinct snapshot blobs it times the embedder on, and its table."""
from __future__ import annotations

import json

from hermes_eval.costs.swebench_dense_cost import judged, markdown, sample_texts

FILES = {"pkg/a.py": "def a():\n    return 1\n", "pkg/b.py": "def b():\n    return 2\n", "pkg/empty.py": "\n\n",
         "README.md": "# not python\n"}


def test_the_sample_is_the_distinct_py_blobs_of_the_instances_snapshots(tmp_path, git_repo):
    mirrors = tmp_path / "mirrors"
    shas = git_repo(mirrors / "acme+lib", [FILES, {"pkg/b.py": "def b():\n    return 3\n"}, {"pkg/c.py": "c = 1\n"}])
    rows = [{"repo": "acme/lib", "base_commit": sha, "instance_id": f"i{k}"} for k, sha in enumerate(shas[:2])]
    rows.append({"repo": "other/missing", "base_commit": shas[2], "instance_id": "gone"})  # not mirrored
    (tmp_path / "lite.json").write_text(json.dumps(rows))
    texts = sample_texts(tmp_path / "lite.json", mirrors, n=100)
    # a.py once although both snapshots hold it, both b.py texts, no blank file, no c.py (a later commit)
    assert sorted(texts) == sorted([FILES["pkg/a.py"], FILES["pkg/b.py"], "def b():\n    return 3\n"])
    two = sample_texts(tmp_path / "lite.json", mirrors, n=2, seed=1)
    assert len(two) <= 2 and set(two) <= set(texts)
    assert two == sample_texts(tmp_path / "lite.json", mirrors, n=2, seed=1)  # the seed fixes the sample


def test_the_arm_is_judged_on_the_clipped_heads_bound():
    """Heads run faster than whole files, so their bound is the tighter: an arm within 1.3x of the
    whole-file bound but not of the heads bound misses."""
    before, after = {"whole": 20.0, "heads": 30.0}, {"whole": 22.0, "heads": 34.0}
    verdict = judged(3200, 140.0, before, after)
    assert verdict["bound_whole_s"] == 152.4 and verdict["bound_heads_s"] == 100.0  # 3200 / 21, 3200 / 32
    assert verdict["ratio_whole"] == 0.92 and verdict["ratio_heads"] == 1.4 and not verdict["passed"]
    assert judged(3200, 125.0, before, after)["passed"]


def test_the_table_shows_both_bounds_and_the_verdict():
    r = {"instances": 140, "import_s": 40.0, "sample": 256, "cold_s": 900.0, "peak_rss_mb": 1800.0, "computed": 25000,
         "cached": 100000, "encode_s": 700.0, "arm_texts_per_s": 35.7, "file_ndcg@10": 0.2, "target_ratio": 1.3,
         "rates_before": {"whole": 20.0, "heads": 30.0}, "rates_after": {"whole": 22.0, "heads": 32.0},
         "bound_heads_s": 806.5, "ratio_heads": 1.12, "bound_whole_s": 1190.5, "ratio_whole": 0.76, "passed": True}
    text = "\n".join(markdown(r))
    assert "| dense/whole_file | 900.0 | 806.5 | 1.12 | 1190.5 | 0.76 | <= 1.3x | 1800.0 | 0.2 | pass |" in text
    assert "whole files 20.0 / 22.0, clipped heads 30.0 / 32.0" in text
    assert "**miss**" in "\n".join(markdown(dict(r, ratio_heads=1.4, passed=False)))
    assert "skipped: needs" in "\n".join(markdown({"skipped": "needs the mirrors"}))
