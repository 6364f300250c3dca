"""Fusion tuning: a seeded qid split, tuned on train only, scored on the held-out test split."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import pandas as pd
import pytest

import hermes_eval.stages.tuning as ft
from hermes_eval.judge.relevance import ChunkLookup, overlaps_any
from hermes_eval.api import execute_config
from hermes_eval.core import Query, Span
from retrievers.chunk import Chunk
from retrievers.fusion.rrf import WeightedRRF
from retrievers.fusion.ranx_methods import RanxFusion
from retrievers.pipeline import Depths, Pipeline

ROOT = Path(__file__).resolve().parents[3]
QIDS = [f"q{i:03d}" for i in range(400)]


def test_split_is_disjoint_complete_and_seeded():
    train, test = ft.split_qids(QIDS, 0.3, seed=1)
    assert set(train).isdisjoint(test) and sorted(train + test) == QIDS
    assert 0.22 < len(train) / len(QIDS) < 0.38
    assert ft.split_qids(QIDS, 0.3, seed=1) == (train, test)
    assert ft.split_qids(QIDS[::-1], 0.3, seed=1)[0] == train[::-1]  # order does not matter
    assert ft.split_qids(QIDS[:50], 0.3, seed=1)[0] == [q for q in train if q in QIDS[:50]]
    assert ft.split_qids(QIDS, 0.3, seed=2)[0] != train


def test_bad_shares_are_refused():
    for share in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError):
            ft.TuningConfig(enabled=True, train_share=share)


# --- a pipeline over spy legs: 40 queries, each with one gold chunk; the dense leg ranks it first,
# the sparse leg ranks it 9th, so more dense weight is better. Legs record what they were asked.

CHUNKS = [Chunk(path=f"f{i:03d}.py", start=1, end=10, text=f"chunk {i}") for i in range(60)]


@dataclass
class SpyLeg:
    gold_rank: int
    input: ClassVar[str] = "text"
    asked: list[str] = field(default_factory=list)

    def search(self, queries, k):
        out = []
        for q in queries:
            self.asked.append(q)
            gold = int(q.split()[-1])
            others = [c.id for c in CHUNKS if c.id != CHUNKS[gold].id][: k - 1]
            ranked = others[: self.gold_rank - 1] + [CHUNKS[gold].id] + others[self.gold_rank - 1:]
            out.append([(cid, 1.0 / (r + 1)) for r, cid in enumerate(ranked[:k])])
        return out


def queries() -> list[Query]:
    return [Query(qid=f"q{i:02d}", query=f"find chunk {i}", gold=(Span(f"f{i:03d}.py", 1, 10),))
            for i in range(40)]


def fake_pipeline(fusion) -> Pipeline:
    """The real pipeline over the two spy legs."""
    return Pipeline(legs={"sparse": SpyLeg(gold_rank=9), "dense": SpyLeg(gold_rank=1)}, fusion=fusion,
                    depths=Depths(20, 20, 20, 20))


def test_grid_tuning_sees_only_train_queries(monkeypatch):
    scored: list[set[str]] = []
    real_per_query = ft.per_query

    def spy(qrels, rankings, metrics):
        scored.append(set(qrels) | set(rankings))
        return real_per_query(qrels, rankings, metrics)

    monkeypatch.setattr(ft, "per_query", spy)
    qs = queries()
    pipe = fake_pipeline(WeightedRRF(k=60, dense_weight=0.5))
    node = {"enabled": True, "train_share": 0.5, "metric": "mrr@10",
            "grid": {"dense_weight": [0.1, 0.5, 0.9], "k": [60]}}
    test_qs, record = ft.apply_fusion_tuning(node, pipe, qs, ChunkLookup(CHUNKS), seed=3)

    train_ids, test_ids = ft.split_qids([q.qid for q in qs], 0.5, 3)
    assert [q.qid for q in test_qs] == test_ids and set(train_ids).isdisjoint(test_ids)
    asked = {q for leg in pipe.legs.values() for q in leg.asked}
    assert asked == {q.query for q in qs if q.qid in train_ids}  # test queries never searched
    assert scored and all(s <= set(train_ids) for s in scored)  # nor scored
    assert record["evaluated_on"] == "test" and record["tuned_on"] == "train"
    assert record["train_qids"] == train_ids and record["n_test"] == len(test_ids)
    assert record["best_params"] == {"dense_weight": 0.9, "k": 60}
    assert pipe.fusion == WeightedRRF(k=60, dense_weight=0.9)
    assert [t["params"]["dense_weight"] for t in record["trials"]] == [0.1, 0.5, 0.9]
    assert record["trials"][2]["mrr@10"] > record["trials"][0]["mrr@10"]


def test_ranx_strategy_trains_a_trained_method():
    qs = queries()
    pipe = fake_pipeline(RanxFusion(method="posfuse", norm=None))
    node = {"enabled": True, "train_share": 0.5, "strategy": "ranx", "metric": "ndcg@10"}
    test_qs, record = ft.apply_fusion_tuning(node, pipe, qs, ChunkLookup(CHUNKS), seed=0)
    assert "probs" in pipe.fusion.params and record["best_params"]["probs"]
    json.dumps(record)  # numpy arrays became plain lists
    lists = {n: leg.search([test_qs[0].query], 20)[0] for n, leg in pipe.legs.items()}
    assert pipe.fusion.fuse(lists, 5)


@dataclass(frozen=True)
class TwoVariants:
    def expand(self, query):
        return ["again " + query]


def test_leg_lists_follow_the_pipelines_query_variants():
    pipe = fake_pipeline(WeightedRRF())
    pipe.expander = TwoVariants()
    lists = ft.leg_lists(pipe, queries()[:1]).lists
    assert set(lists["q00"]) == {"sparse@q0", "sparse@q1", "dense@q0", "dense@q1"}
    assert pipe.legs["dense"].asked == ["find chunk 0", "again find chunk 0"]


def test_disabled_evaluates_everything():
    qs = queries()
    pipe = fake_pipeline(WeightedRRF())
    out, record = ft.apply_fusion_tuning(None, pipe, qs, ChunkLookup(CHUNKS), seed=0)
    assert out == qs and record == {"enabled": False, "evaluated_on": "all queries"}
    assert not any(leg.asked for leg in pipe.legs.values())


def test_with_params_sets_fields_and_mapping_entries():
    f = ft.with_params(RanxFusion(method="rrf"), {"params.k": 10, "norm": "max", "weights.dense": 2.0})
    assert f == RanxFusion(method="rrf", norm="max", params={"k": 10}, weights={"dense": 2.0})
    with pytest.raises(ValueError):
        ft.with_params(WeightedRRF(), {"nope": 1})


def test_runner_scores_only_the_test_split(make_cfg):
    cfg = make_cfg("+fusion_tuning=grid", "fusion_tuning.grid.dense_weight=[0.2,0.8]",
                   "fusion_tuning.grid.k=[60]", "chunker=lines")
    out = execute_config(cfg)
    assert out.status == "ok", out.record.get("error")
    rec = out.record["fusion_tuning"]
    per_query = pd.read_parquet(out.run_dir / "per_query.parquet")
    assert rec["evaluated_on"] == "test" and rec["n_train"] > 0
    assert set(per_query["qid"]).isdisjoint(rec["train_qids"])
    assert len(per_query) == rec["n_test"] == out.record["queryset_info"]["n"]
    assert out.record["metrics"]["recall@10"]["n"] == rec["n_test"]
    assert rec["best_params"]["dense_weight"] in (0.2, 0.8)


# --- real parts with a reranker: rank_bm25, MiniLM exact search, dense rescoring on top. Tuning
# must score what the run scores: each candidate fusion finished by the pipeline, reranker included.

CODE = [
    ("io/read.py", "def read_file(path):\n    with open(path) as f:\n        return f.read()"),
    ("io/write.py", "def write_file(path, data):\n    with open(path, 'w') as f:\n        f.write(data)"),
    ("io/read_old.py", "def read_file_legacy(path):\n    f = open(path)\n    data = f.read()\n    f.close()\n    return data"),
    ("cfg/load.py", "def load_config(path):\n    return json.load(open(path))"),
    ("cfg/dump.py", "def dump_config(cfg, path):\n    json.dump(cfg, open(path, 'w'), indent=2)"),
    ("net/session.py", "class Session:\n    def request(self, method, url, timeout=None):\n        return self.send(method, url)"),
    ("net/connect.py", "def connect(host, port, timeout=5):\n    sock = socket.create_connection((host, port), timeout)\n    return sock"),
    ("cli/args.py", "def parse_args(argv):\n    parser = argparse.ArgumentParser()\n    return parser.parse_args(argv)"),
    ("web/render.py", "def render(template, **context):\n    return jinja2.Template(template).render(**context)"),
    ("util/retry.py", "def retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except OSError:\n            time.sleep(2 ** i)"),
    ("util/hash.py", "def sha256_file(path):\n    h = hashlib.sha256()\n    h.update(open(path, 'rb').read())\n    return h.hexdigest()"),
    ("util/walk.py", "def list_python_files(root):\n    return sorted(p for p in Path(root).rglob('*.py'))"),
    ("util/log.py", "def log_error(message):\n    logging.getLogger(__name__).error(message)"),
    ("util/env.py", "def env_flag(name, default=False):\n    return os.environ.get(name, str(default)).lower() in ('1', 'true')"),
]
CODE_CHUNKS = [Chunk(path, 1, text.count("\n") + 1, text) for path, text in CODE]
ASKED = [  # query, gold path, excluded path
    ("read the whole contents of a text file", "io/read.py", "io/read_old.py"),
    ("save data to a file on disk", "io/write.py", None),
    ("load json settings from a path", "cfg/load.py", None),
    ("write the configuration out as json", "cfg/dump.py", None),
    ("send an http request with a timeout", "net/session.py", None),
    ("open a tcp socket to a host", "net/connect.py", None),
    ("command line argument parsing", "cli/args.py", None),
    ("fill a jinja template", "web/render.py", None),
    ("try again after an error with backoff", "util/retry.py", None),
    ("checksum of a file's bytes", "util/hash.py", None),
    ("find every python source file under a directory", "util/walk.py", None),
    ("boolean setting from an environment variable", "util/env.py", "util/log.py"),
]


def span(path: str) -> Span:
    c = next(c for c in CODE_CHUNKS if c.path == path)
    return Span(path, c.start, c.end)


def code_queries() -> list[Query]:
    return [Query(qid=f"c{i:02d}", query=text, gold=(span(gold),), exclude=(span(ex),) if ex else ())
            for i, (text, gold, ex) in enumerate(ASKED)]


@pytest.fixture(scope="module")
def minilm():
    from retrievers.embedders.sentence_transformer import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(cache_dir=str(ROOT / ".cache" / "test-embeddings"))


def code_pipeline(embedder, reranker) -> Pipeline:
    from retrievers.dense.exact import ExactIndex
    from retrievers.sparse.rank_bm25 import RankBM25Index

    p = Pipeline(legs={"sparse": RankBM25Index(), "dense": ExactIndex()}, embedder=embedder,
                 fusion=WeightedRRF(k=60, dense_weight=0.5), depths=Depths(10, 10, 8, 5), reranker=reranker)
    p.build(CODE_CHUNKS)
    return p


def finished(pipe: Pipeline, fusion, qs: list[Query], lookup: ChunkLookup, overfetch: int) -> dict[str, list[str]]:
    """What the search stage would rank with ``fusion``: k + overfetch hits, excluded spans
    dropped, cut to k."""
    pipe.fusion = fusion
    out = {}
    for q in qs:
        hits = pipe.search(q.query, pipe.depths.k + overfetch).hits
        out[q.qid] = [cid for cid, _ in hits if not overlaps_any(lookup.by_id[cid], q.exclude)][: pipe.depths.k]
    return out


def test_grid_tuning_scores_the_reranked_rankings(monkeypatch, minilm):
    from retrievers.rerankers.dense_rescore import DenseRescore

    scored: list[dict[str, list[str]]] = []
    real_per_query = ft.per_query

    def spy(qrels, rankings, metrics):
        scored.append({qid: list(ids) for qid, ids in rankings.items()})
        return real_per_query(qrels, rankings, metrics)

    monkeypatch.setattr(ft, "per_query", spy)
    qs, lookup = code_queries(), ChunkLookup(CODE_CHUNKS)
    pipe = code_pipeline(minilm, DenseRescore(depth=6))
    start = pipe.fusion
    node = {"enabled": True, "train_share": 0.5, "metric": "mrr@10",
            "grid": {"dense_weight": [0.1, 0.5, 0.9], "k": [1, 60]}}
    overfetch = 2  # the search stage fetches k + overfetch and drops excluded hits from those
    _, record = ft.apply_fusion_tuning(node, pipe, qs, lookup, seed=2, overfetch=overfetch)
    train = [q for q in qs if q.qid in set(record["train_qids"])]
    assert len(train) >= 4 and len(scored) == len(record["trials"]) == 6
    assert any(q.exclude for q in train)  # the exclude drop is exercised

    plain = code_pipeline(minilm, None)
    reranker_matters = False
    for trial, ranked in zip(record["trials"], scored):
        candidate = ft.with_params(start, trial["params"])
        assert ranked == finished(pipe, candidate, train, lookup, overfetch)  # exactly what search returns
        reranker_matters |= ranked != finished(plain, candidate, train, lookup, overfetch)
    assert reranker_matters  # and that is not the fused ranking
    best = max(record["trials"], key=lambda t: t["mrr@10"])
    assert record["train_score"] == best["mrr@10"]
