"""CoSQA import from the CoCLR files (a slice of them, tests/slices/cosqa: real rows and functions,
fewer): one file per function, judged whole; MTEB's pair ids with twins judged irrelevant (counted
by hygiene), and dedupe=true collapsing them."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.corpus import load_corpus
from hermes_eval.corpus.dedupe import dedupe
from hermes_eval.judge.hygiene import check
from hermes_eval.querysets.importers.cosqa import Options, run

COSQA = Path(__file__).resolve().parents[3] / "slices" / "cosqa"  # see PROVENANCE.md there


def functions() -> dict[str, int]:
    """The slice's retrieval corpus: function text -> index (the release's 6,267, here fewer)."""
    return json.loads((COSQA / "code_idx_map.txt").read_text())


@pytest.fixture(scope="module")
def pairs(tmp_path_factory):
    dest = tmp_path_factory.mktemp("cosqa") / "pairs"
    qs = run(Options(folder=COSQA, dest=dest, name="cosqa-pairs", ids="pairs"))
    return qs, load_corpus([str(dest / "corpus")], name="cosqa-pairs")


def test_unique_ids_one_whole_file_per_function(tmp_path):
    qs = run(Options(folder=COSQA, dest=tmp_path / "u", name="cosqa", split="dev"))
    code = json.loads((COSQA / "cosqa-retrieval-dev-500.json").read_text())
    n = len(functions())
    assert n > len({row["code"] for row in code})  # the corpus holds more than the dev split's gold
    assert len(qs) == len(code) and qs.manifest["counts"]["documents"] == qs.manifest["counts"]["functions"] == n
    q = qs.queries[7]
    [g] = q.gold
    assert q.query == code[7]["doc"] and g.path == f"functions/{code[7]['retrieval_idx']}.py" and g.start == 1
    text = (tmp_path / "u" / "corpus" / g.path).read_text()
    assert text == code[7]["code"] + "\n" and g.end == len(code[7]["code"].split("\n"))
    assert qs.manifest["run_overrides"] == ["chunker=whole_file"]


def test_pair_ids_make_twins_hygiene_counts_them_and_dedupe_collapses_them(pairs):
    qs, corpus = pairs
    test = json.loads((COSQA / "cosqa-retrieval-test-500.json").read_text())
    dev = json.loads((COSQA / "cosqa-retrieval-dev-500.json").read_text())
    per_text: dict[str, set[str]] = {}
    for row in test + dev:
        per_text.setdefault(row["code"], set()).add(row["idx"])
    extra = sum(len(v) - 1 for v in per_text.values())  # pair ids beyond one per distinct text
    h = check(qs, corpus)
    assert h.duplicate_docs == extra > 0
    twins = sum(1 for row in test if len(per_text[row["code"]]) > 1)
    assert h.twin_gold == twins > 0 and len(h.named("twin_gold")) == twins
    slim, moved, counts = dedupe(corpus, qs)
    assert len(slim.files) == len(functions()) and counts["dropped_copies"] == extra
    h2 = check(moved, slim)
    assert (h2.duplicate_docs, h2.twin_gold, h2.gold_outside_corpus) == (0, 0, 0)
    kept = slim.by_path()
    for q in moved.queries:  # relevance carried over: gold now names the kept copy of the same text
        [g] = q.gold
        assert kept[g.path].text == test[int(q.qid.split("-")[1])]["code"] + "\n"


def test_bad_input_names_file_and_field(tmp_path):
    with pytest.raises(UserError, match="split='train'"):
        Options(folder=COSQA, dest=tmp_path / "x", name="c", split="train")
    bad = tmp_path / "bad"
    shutil.copytree(COSQA, bad)
    rows = json.loads((bad / "cosqa-retrieval-test-500.json").read_text())
    rows[3]["code"] = "def not_in_the_map(): pass"
    (bad / "cosqa-retrieval-test-500.json").chmod(0o644)
    (bad / "cosqa-retrieval-test-500.json").write_text(json.dumps(rows))
    with pytest.raises(UserError, match=r"cosqa-retrieval-test-500.json entry 3: field 'code'"):
        run(Options(folder=bad, dest=tmp_path / "y", name="c"))
