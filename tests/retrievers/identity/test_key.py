"""Keys hash discrete output only, ranked ids hold near-equal scores as one tie group, and every data file a
part reads is declared on it and hashed into its key."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from retrievers.identity.declare import PartId, declare
from retrievers.identity.key import FloatInKey, identity_of, output_digest, part_key
from retrievers.identity.names import declared_parts, load_target
from retrievers.identity.probe import LONG_QUERY_WORDS, long_query, probe_files, probe_texts, ranked_ids

RETRIEVERS = Path(__file__).resolve().parents[3] / "retrievers"
DOCS = {".md"}  # a data folder's README is for people, not read by the part


@pytest.mark.parametrize("value", [0.5, np.float32(1.0), [("a", 1.25)], {"v": np.zeros(3, dtype=np.float32)},
                                   np.ones(2, dtype=np.float64), object()])
def test_a_key_refuses_floats_and_anything_not_plain(value):
    with pytest.raises(FloatInKey):
        output_digest(value)


def test_discrete_output_is_hashed_as_it_is():
    assert output_digest([("a", 1, True, None)]) == output_digest([["a", np.int64(1), True, None]])
    assert output_digest(np.arange(3)) == output_digest([0, 1, 2]) != output_digest([0, 1, 3])


def test_ranked_ids_group_scores_within_the_tie_tolerance():
    hits = [[("b", 2.0), ("a", 2.0 * (1 - 1e-7)), ("c", 1.5), ("e", 1.0), ("d", 1.0)]]
    assert ranked_ids(hits) == [[["a", "b"], ["c"], ["d", "e"]]]
    # the order another SIMD path gives near-equal scores does not change the groups
    swapped = [[("a", 2.0), ("b", 2.0 * (1 - 1e-7)), ("c", 1.5), ("d", 1.0), ("e", 1.0)]]
    assert output_digest(ranked_ids(swapped)) == output_digest(ranked_ids(hits))
    apart = [[("b", 2.0), ("a", 1.9), ("c", 1.5)]]
    assert ranked_ids(apart) == [[["b"], ["a"], ["c"]]]


def test_the_probe_reads_every_language_and_a_query_past_every_cut():
    languages = {lang for _, _, lang in probe_files()}
    assert {"python", "go", "rust", "javascript", "typescript", "markdown", "java", "c"} <= languages
    texts = probe_texts()
    assert any("class Shape" in t or "Shapes" in t for t in texts) and any("ring_push" in t for t in texts)
    assert len(long_query().split()) == LONG_QUERY_WORDS > 1024


def test_a_resource_file_is_in_its_parts_key(tmp_path):
    words = tmp_path / "stop.txt"
    words.write_text("the\na\n")
    part = PartId("test.Part", 1, (str(words),))
    before = identity_of([part], ["x"])
    assert before.resources == (("test.Part", "stop.txt", before.resources[0][2]),)
    from retrievers.identity import key

    words.write_text("the\nan\n")
    key._file_sha.cache_clear()
    assert part_key([part], ["x"]) != before.key
    assert part_key([PartId("test.Part", 1)], ["x"]) != before.key


def test_declare_refuses_a_resource_that_is_not_there():
    with pytest.raises(FileNotFoundError, match="no-such-file.txt"):
        declare("test.Missing", resources=("no-such-file.txt",))(type("Missing", (), {"__module__": __name__}))


def test_every_data_file_under_retrievers_is_declared_by_the_part_that_reads_it():
    declared = set()
    for _, path in declared_parts():
        ident = getattr(load_target(path), "__part__", None)
        if ident is not None:
            declared |= {str(Path(r).resolve()) for r in ident.resources}
    data = {str(p.resolve()) for p in RETRIEVERS.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
            and "probe_files" not in p.parts and p.suffix not in DOCS}
    assert data, "no data files found"
    assert sorted(data - declared) == [], "declare these on the part that reads them: @declare(..., resources=(...))"
