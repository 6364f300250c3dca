"""Pipeline.search is legs_for then finish, on real parts (rank_bm25, MiniLM exact search, the
dense rescoring reranker); finish scores other fusions of the same legs, as tuning does."""
from __future__ import annotations

import pytest

from retrievers.chunk import Chunk
from retrievers.dense.exact import ExactIndex
from retrievers.fusion.rrf import WeightedRRF
from retrievers.pipeline import Depths, Pipeline
from retrievers.rerankers.dense_rescore import DenseRescore
from retrievers.sparse.rank_bm25 import RankBM25Index

TEXTS = [
    "def read_file(path):\n    with open(path) as f:\n        return f.read()",
    "def write_file(path, data):\n    with open(path, 'w') as f:\n        f.write(data)",
    "def load_config(path):\n    return json.load(open(path))",
    "def dump_config(cfg, path):\n    json.dump(cfg, open(path, 'w'), indent=2)",
    "class Session:\n    def request(self, method, url, timeout=None):\n        return self.send(method, url)",
    "def connect(host, port, timeout=5):\n    sock = socket.create_connection((host, port), timeout)\n    return sock",
    "def parse_args(argv):\n    parser = argparse.ArgumentParser()\n    return parser.parse_args(argv)",
    "def render(template, **context):\n    return jinja2.Template(template).render(**context)",
    "def retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except OSError:\n            time.sleep(2 ** i)",
    "def sha256_file(path):\n    h = hashlib.sha256()\n    h.update(open(path, 'rb').read())\n    return h.hexdigest()",
    "def list_python_files(root):\n    return sorted(p for p in Path(root).rglob('*.py'))",
    "def log_error(message):\n    logging.getLogger(__name__).error(message)",
]
CHUNKS = [Chunk(f"m{i:02d}.py", 1, t.count("\n") + 1, t) for i, t in enumerate(TEXTS)]
QUERIES = ["read the contents of a file", "open a network connection with a timeout",
           "load json settings", "hash a file"]


class FixedExpander:
    def __init__(self, alts):
        self.alts, self.stats = alts, {}

    def expand(self, query):
        return list(self.alts)


def build(embedder, **kw) -> Pipeline:
    kw.setdefault("fusion", WeightedRRF(k=60, dense_weight=0.5))
    kw.setdefault("legs", {"sparse": RankBM25Index(), "dense": ExactIndex()})
    p = Pipeline(embedder=embedder, depths=Depths(8, 8, 6, 4), **kw)
    p.build(CHUNKS)
    return p


@pytest.mark.parametrize("reranker", [None, DenseRescore(depth=5)], ids=["fused", "reranked"])
@pytest.mark.parametrize("expander", [None, FixedExpander(["file io"])], ids=["plain", "expanded"])
def test_search_is_legs_for_then_finish(embedder, reranker, expander):
    p = build(embedder, reranker=reranker, expander=expander)
    for q in QUERIES:
        res = p.search(q, 3)
        lists, leg_ns = p.legs_for(q)
        hits, end_ns = p.finish(q, lists)
        assert res.hits == hits[:3]
        assert list(res.timings_ns) == list(leg_ns) + list(end_ns)
    want = (["expand"] if expander else []) + ["embed", "sparse", "dense", "fuse"] + (["rerank"] if reranker else [])
    assert list(res.timings_ns) == want
    variants = [q] + (expander.alts if expander else [])
    names = [f"{leg}@q{i}" for leg in ("sparse", "dense") for i in range(len(variants))] if expander else ["sparse", "dense"]
    assert list(lists) == names
    assert lists[names[0]] == p.legs["sparse"].search(variants, 8)[0]
    assert len(hits) == 6  # fused_top_k


def test_finish_with_another_fusion_is_the_pipeline_with_that_fusion(embedder):
    own, other = WeightedRRF(k=60, dense_weight=0.5), WeightedRRF(k=1, dense_weight=0.9, top_rank_bonus=0.1)
    p = build(embedder, fusion=own, reranker=DenseRescore(depth=3))
    q = build(embedder, fusion=other, reranker=DenseRescore(depth=3))
    differ = 0
    for text in QUERIES:
        lists, _ = p.legs_for(text)
        theirs = p.finish(text, lists, fusion=other)[0]
        assert theirs == q.search(text, 6).hits
        assert p.finish(text, lists)[0] == p.search(text, 6).hits
        differ += theirs != p.search(text, 6).hits
    assert differ  # the two fusions do rank differently here
    assert p.fusion == own  # a candidate fusion is used, not kept


def test_finish_gives_the_reranker_the_vector_of_its_own_query(embedder):
    p = build(embedder, reranker=DenseRescore(depth=6))
    gathered = []
    for text in QUERIES:  # every query's legs first, as tuning gathers them
        lists, _ = p.legs_for(text)
        assert p.last_query_vector[0] == text
        gathered.append((text, lists, p.last_query_vector[1]))
    for text, lists, vec in gathered:
        hits, _ = p.finish(text, lists, query_vector=vec)
        assert p.last_query_vector[0] == text and p.last_query_vector[1] is vec
        assert hits == p.search(text, 6).hits


def test_one_list_is_taken_as_it_is():
    p = build(None, legs={"sparse": RankBM25Index()})
    lists, timings = p.legs_for(QUERIES[0])
    assert list(timings) == ["sparse"]
    hits, timings = p.finish(QUERIES[0], lists, fusion=WeightedRRF(k=1))
    assert hits == lists["sparse"][:6] and list(timings) == ["fuse"]
    assert p.search(QUERIES[0]).hits == hits[:4]
