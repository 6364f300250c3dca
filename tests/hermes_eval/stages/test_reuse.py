"""A finished record is reused only when its parts' identities equal what the tree computes now: a
version bump or a change in a part's output reruns the arms built from that part, and only those."""
from __future__ import annotations

import json

import pytest

import hermes_eval
from hermes_eval.cache import indexes
from hermes_eval.cli.job import summary_line
from hermes_eval.config.settings import settings_from
from hermes_eval.stages import prepare
from hermes_eval.stages.reuse import NO_PARTS, changed_parts, part_identities
from retrievers.chunkers.python_ast import PythonASTChunker
from retrievers.identity.declare import ATTRIBUTE, PartId, declared
from retrievers.sparse.rank_bm25 import RankBM25Index


@pytest.fixture
def fresh_identities(monkeypatch):
    """In-process identity memos emptied (a new process computes them from the code as it is)."""
    monkeypatch.setattr(prepare, "_CHUNKER_IDS", {})
    monkeypatch.setattr(indexes, "_LEG_IDS", {})


def _arms(make_cfg, tmp_path):
    return {name: make_cfg("retriever=bm25", f"chunker={name}", runs=tmp_path / "runs")
            for name in ("lines", "python_ast")}


def _bump(monkeypatch, cls, version: int) -> None:
    ident = declared(cls)
    monkeypatch.setattr(cls, ATTRIBUTE, PartId(ident.name, version, ident.resources))


def test_a_version_bump_reruns_the_arms_of_that_part_and_only_those(make_cfg, tmp_path, monkeypatch,
                                                                      fresh_identities):
    arms = _arms(make_cfg, tmp_path)
    first = {n: hermes_eval.run(cfg) for n, cfg in arms.items()}
    assert all(o.status == "ok" and not o.skipped for o in first.values())
    assert first["lines"].record["parts"]["chunker"]["parts"] == ["retrievers.chunkers.lines.LineChunker@1"]

    _bump(monkeypatch, PythonASTChunker, 2)
    monkeypatch.setattr(prepare, "_CHUNKER_IDS", {})
    again = {n: hermes_eval.run(cfg) for n, cfg in arms.items()}
    assert again["lines"].skipped and again["lines"].rerun is None
    ast = again["python_ast"]
    assert not ast.skipped and ast.status == "ok" and ast.rerun == "chunker python_ast 1→2"
    assert ast.run_dir == first["python_ast"].run_dir  # the same run, made again in its folder
    assert summary_line(ast).startswith(f"[rerun] {ast.run_dir} (chunker python_ast 1→2)  R@10=")
    assert ast.record["rerun"] == "chunker python_ast 1→2"
    assert ast.record["parts"]["chunker"]["parts"][0] == "retrievers.chunkers.python_ast.PythonASTChunker@2"
    assert ast.record["config_hash"] == first["python_ast"].record["config_hash"]  # what boards show
    stored = json.loads((ast.run_dir / "record.json").read_text())
    assert stored["parts"] == ast.record["parts"]
    third = {n: hermes_eval.run(cfg) for n, cfg in arms.items()}  # now both records match the tree
    assert all(o.skipped for o in third.values())


def test_a_leg_bump_reruns_every_arm_of_that_leg(make_cfg, tmp_path, monkeypatch, fresh_identities):
    arms = _arms(make_cfg, tmp_path)
    for cfg in arms.values():
        assert hermes_eval.run(cfg).status == "ok"
    _bump(monkeypatch, RankBM25Index, 7)
    monkeypatch.setattr(indexes, "_LEG_IDS", {})
    again = {n: hermes_eval.run(cfg) for n, cfg in arms.items()}
    assert {n: o.rerun for n, o in again.items()} == {n: "sparse rank_bm25 1→7" for n in arms}


def test_a_changed_output_under_the_same_version_reruns(make_cfg, tmp_path, monkeypatch, fresh_identities):
    """A planted behaviour change the author did not declare: the chunks of the probe files differ."""
    arms = _arms(make_cfg, tmp_path)
    for cfg in arms.values():
        assert hermes_eval.run(cfg).status == "ok"
    real = PythonASTChunker.chunk

    def planted(self, path, text, language):
        return list(real(self, path, text, language))[:-1]  # a file's last definition lost

    monkeypatch.setattr(PythonASTChunker, "chunk", planted)
    monkeypatch.setattr(prepare, "_CHUNKER_IDS", {})
    again = {n: hermes_eval.run(cfg) for n, cfg in arms.items()}
    assert again["lines"].skipped
    assert again["python_ast"].rerun == "chunker python_ast: output on the probe changed (version still 1)"


def test_a_record_without_identities_is_not_reused(make_cfg, tmp_path):
    cfg = make_cfg("retriever=bm25", "chunker=lines", runs=tmp_path / "runs")
    first = hermes_eval.run(cfg)
    path = first.run_dir / "record.json"
    record = json.loads(path.read_text())
    del record["parts"]
    path.write_text(json.dumps(record))
    again = hermes_eval.run(cfg)
    assert not again.skipped and again.rerun == NO_PARTS


def test_identities_name_what_changed():
    now = {"chunker": {"preset": "cast", "key": "b", "parts": ["x.CASTChunker@1", "x.HeuristicChunker@2"],
                       "libraries": ["astchunk==0.2.0"], "probe": "p", "resources": [], "python": "3.11.7"}}
    before = {"chunker": dict(now["chunker"], key="a", parts=["x.CASTChunker@1", "x.HeuristicChunker@1"])}
    assert changed_parts(before, now) == "chunker cast: HeuristicChunker 1→2"
    top = {"chunker": dict(now["chunker"], key="a", parts=["x.CASTChunker@0", "x.HeuristicChunker@2"])}
    assert changed_parts(top, now) == "chunker cast 0→1"
    libs = {"chunker": dict(now["chunker"], key="a", libraries=["astchunk==0.1.0"])}
    assert changed_parts(libs, now) == "chunker cast: libraries astchunk==0.1.0 → astchunk==0.2.0"
    assert changed_parts(now, now) is None
    assert changed_parts({}, now) == "chunker cast added"
    assert changed_parts(None, now) == NO_PARTS


def test_a_dense_arm_records_its_embedder_by_model_files_not_vectors(make_cfg, tmp_path):
    s = settings_from(make_cfg("retriever=hybrid", "chunker=lines", runs=tmp_path / "runs"))
    parts = part_identities(s)
    assert set(parts) == {"chunker", "sparse", "dense", "embedder", "fusion"}
    emb = parts["embedder"]
    assert emb["parts"] == ["retrievers.embedders.SentenceTransformerEmbedder@1"]
    assert emb["key"].startswith(f"{s.embedder.build().identity.split('|')[0]}|msl=256|norm=True|code=")
    assert any(lib.startswith("sentence-transformers==") for lib in emb["libraries"])
