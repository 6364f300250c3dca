"""A docstring copied into a README is found by a real run's hygiene, with its place."""
from __future__ import annotations

import json

import pandas as pd

from hermes_eval.api import execute_config
from hermes_eval.config.compose import compose

DOCSTRING = "Compute the rolling checksum of a byte stream in fixed size windows."
MODULE = '''def rolling_checksum(data, window=64):
    """{doc}

    The checksum wraps at 2**32.
    """
    total = 0
    for i in range(0, len(data), window):
        total = (total + sum(data[i:i + window])) % 2**32
    return total


def other_helper(values):
    """Return the values sorted from the largest down to the smallest one."""
    return sorted(values, reverse=True)
'''


def test_a_planted_readme_copy_is_a_counted_and_placed_leak(tmp_path, shared_cache):
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "sums.py").write_text(MODULE.format(doc=DOCSTRING))
    (repo / "README.md").write_text(f"# sums\n\nUsage notes.\n\n{DOCSTRING}\n")
    cfg = compose([f"paths.runs={tmp_path / 'runs'}", f"paths.datasets={tmp_path / 'datasets'}",
                   f"paths.cache={shared_cache}", "corpus.name=sums", f"corpus.sources=[{repo}]",
                   "queryset=docstring", "queryset.generator.min_words=4", "retriever=bm25", "bootstrap=50", "warmup=0"])
    out = execute_config(cfg)
    assert out.status == "ok", out.record.get("error")
    h = out.record["hygiene"]
    qid = next(q for q in h["named"]["leak_elsewhere"])
    assert (h["queries"], h["leak"], h["leak_elsewhere"], h["leak_in_gold"]) == (2, 1, 1, 0)
    assert qid.endswith("rolling_checksum") and h["named"]["leak_places"] == {qid: ["README.md:5-5"]}
    per_query = pd.read_parquet(out.run_dir / "per_query.parquet").set_index("qid")
    assert json.loads(per_query.loc[qid, "leak_places"]) == ["README.md:5-5"]
    assert per_query.loc[qid, "hygiene_flags"] == "leak_elsewhere"
