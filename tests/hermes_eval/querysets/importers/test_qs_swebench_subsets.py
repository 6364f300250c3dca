"""LocAgent's 274: SWE-bench Lite minus the 26 instances its evaluation skips, as an import option."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.querysets.importers import swebench
from hermes_eval.querysets.readers.swebench_subsets import LOCAGENT_274, subset

# all 300 Lite instances, identifying fields only: tests/slices/swebench (PROVENANCE.md there)
LITE = Path(__file__).resolve().parents[3] / "slices" / "swebench" / "lite.json"


def _ids(path: Path) -> list[str]:
    text = path.read_text()
    rows = json.loads(text) if text.lstrip().startswith("[") else [json.loads(ln) for ln in text.splitlines() if ln]
    return [r["instance_id"] for r in rows]


def test_the_26_are_lite_instances_and_274_remain():
    ids = _ids(LITE)
    assert len(ids) == 300 and LOCAGENT_274.excluded <= set(ids)
    assert sum(LOCAGENT_274.keeps(i) for i in ids) == 274


def test_import_keeps_the_subset_and_counts_what_it_left_out(tmp_path, git_repo):
    from test_qs_swebench import CALC, PATCH

    repos = tmp_path / "mirrors"
    [sha] = git_repo(repos / "sympy+sympy", [{"pkg/calc.py": CALC}])
    rows = [{"instance_id": iid, "repo": "sympy/sympy", "base_commit": sha, "problem_statement": "div by zero",
             "golden_patch": PATCH} for iid in ("sympy__sympy-15345", "sympy__sympy-20000")]
    (tmp_path / "lite.json").write_text(json.dumps(rows))
    qs = swebench.run(swebench.Options(instances=tmp_path / "lite.json", dest=tmp_path / "ds", name="swe-274",
                                       repos_dir=repos, cache_dir=tmp_path / "cache", subset="locagent274"))
    assert [q.qid for q in qs.queries] == ["sympy__sympy-20000"]  # 15345 is one of LocAgent's 26
    assert qs.manifest["skipped"]["not_in_subset"] == 1
    assert qs.manifest["subset"]["name"] == "locagent274" and qs.manifest["subset"]["excluded"] == 26


def test_an_unknown_subset_is_one_line_naming_the_known_ones():
    with pytest.raises(UserError, match="subset='lite250' .*locagent274"):
        subset("lite250")
    assert subset(None) is None
