"""The bench's minimal reference and our code-BM25 arm agree query by query on .py files, on repositories
the test builds: two independent implementations of one ranking (tokenizer rule, BM25 Okapi, snapshots)."""
from __future__ import annotations

import json
import math

from hermes_eval.costs import snapshot_reference
from hermes_eval.cli.main import main

FILES = {
    "pkg/parser.py": "def parse_header(raw):\n    \"\"\"Split an HTTP header line.\"\"\"\n    return raw.split(':')\n",
    "pkg/client.py": "class HttpClient:\n    def send(self, request, timeout):\n        return request\n",
    "pkg/retry.py": "def retry_after(header, default):\n    return int(header or default)\n",
    "pkg/cookies.py": "def merge_cookies(jar, cookies):\n    jar.update(cookies)\n    return jar\n",
    "docs/guide.md": "# Guide\nretry after header client timeout\n",
}
PATCH = "diff --git a/{p} b/{p}\n--- a/{p}\n+++ b/{p}\n@@ -1,2 +1,2 @@\n-x\n+y\n"


def lite_set(tmp_path, git_repo, cases: list[tuple[int, str, str]]) -> tuple:
    """(the mirrors folder, the rows) of a SWE-bench-style set written to tmp_path/lite.json over a repository
    of two commits (FILES, then retry.py changed): ``cases`` are (commit 0 or 1, problem statement, gold path)."""
    repos = tmp_path / "mirrors"
    shas = git_repo(repos / "acme+http", [FILES, {"pkg/retry.py": "def retry_after(header, default, cap):\n"
                                                                   "    return min(cap, int(header or default))\n"}])
    rows = [{"instance_id": f"acme__http-{i}", "repo": "acme/http", "base_commit": shas[c], "problem_statement": q,
             "golden_patch": PATCH.format(p=gold)} for i, (c, q, gold) in enumerate(cases)]
    (tmp_path / "lite.json").write_text(json.dumps(rows))
    return repos, rows


def test_reference_and_our_arm_rank_the_same_files(tmp_path, git_repo):
    repos, rows = lite_set(tmp_path, git_repo, [
        (0, "Retry-After header is ignored by the client timeout", "pkg/retry.py"),
        (1, "merging cookies into the jar loses the cap", "pkg/cookies.py"),
        (1, "the client send request timeout header", "pkg/retry.py")])
    ref = snapshot_reference.run(rows, {"acme/http": repos / "acme+http"})
    base = [f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}"]
    assert main(["datasets", "import", "swebench", str(tmp_path / "lite.json"), "--repos", str(repos),
                 "languages=python", "name=ref", *base]) == 0
    assert main(["run", "queryset=imported", "queryset.name=ref", "corpus=imported", "retriever=bm25",
                 "chunker=whole_file", f"paths.runs={tmp_path / 'runs'}", "bootstrap=50", "warmup=0",
                 "+hygiene.tokenizer=approx", "progress=off", *base]) == 0
    [record] = [json.loads(p.read_text()) for p in (tmp_path / "runs").glob("*/record.json")]
    import pandas as pd

    ours = pd.read_parquet(next((tmp_path / "runs").glob("*/per_query.parquet"))).set_index("qid")["file_ndcg@10"]
    assert ref.instances == 3 and ref.distinct_blobs == 5  # 4 + the edited retry.py
    for qid, value in ref.per_query.items():
        assert math.isclose(ours[qid], value, abs_tol=1e-9), qid
    assert math.isclose(record["metrics"]["file_ndcg@10"]["mean"], ref.ndcg10, abs_tol=1e-9)
    assert 0 < ref.ndcg10 < 1  # not a trivial agreement: one query ranks its gold below another file
