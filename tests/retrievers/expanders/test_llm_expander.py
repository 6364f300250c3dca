"""Query expansion: answer parsing, the LLM expander on a loopback chat server, and the
pipeline's query variants (lists <leg>@q0.., original weighted x2 as in repo-search)."""
from __future__ import annotations

import pytest
from loopback import EXPANSIONS, ChatServer, closed_port, serving

from retrievers.chunk import Chunk
from retrievers.fusion.rrf import WeightedRRF
from retrievers.remote.chat_client import ChatClient
from retrievers.pipeline import Depths, Pipeline
from retrievers.expanders.llm import LLMQueryExpander, parse_expansions
from retrievers.sparse.rank_bm25 import RankBM25Index


@pytest.mark.parametrize("answer", [
    '["read a file", "open file contents"]',
    '```json\n["read a file", "open file contents"]\n```',
    '{"queries": ["read a file", "open file contents"]}',
    'Sure:\n1. read a file\n2. "open file contents"\n3. a third one',
    "- read a file\n- open file contents",
])
def test_parse_expansions_forms(answer):
    assert parse_expansions(answer, "load file", 2) == ["read a file", "open file contents"]


def test_parse_expansions_drops_the_original_duplicates_and_blanks():
    assert parse_expansions('["Load  File", "x", "x", "", 3]', "load file", 5) == ["x"]
    assert parse_expansions("", "q", 2) == []


@pytest.mark.parametrize("model", ["json", "markdown", "plain"])
def test_llm_expander_on_a_real_server(model):
    chat = ChatServer()
    with serving(chat.handler()) as url:
        ex = LLMQueryExpander(ChatClient(url + "/v1", model=model, timeout=5))
        assert ex.expand("load file") == EXPANSIONS
    assert ex.stats["expanded"] == 1 and chat.requests == 1


def test_failed_expansion_searches_the_original_alone():
    ex = LLMQueryExpander(ChatClient(f"http://127.0.0.1:{closed_port()}/v1", timeout=1))
    assert ex.expand("load file") == []
    assert ex.stats["unreachable"] == 1


class FixedExpander:
    def __init__(self, alts):
        self.alts, self.stats = alts, {}

    def expand(self, query):
        return list(self.alts)


class SpyFusion(WeightedRRF):
    def fuse(self, lists, top_k):
        object.__setattr__(self, "seen", {k: list(v) for k, v in lists.items()})
        return super().fuse(lists, top_k)


CHUNKS = [Chunk("a.py", 1, 3, "def read_file(path): return open(path).read()"),
          Chunk("b.py", 1, 3, "def write_file(path, data): open(path, 'w').write(data)"),
          Chunk("c.py", 1, 3, "def load_config(path): return json.load(open(path))"),
          Chunk("d.py", 1, 3, "class Session: def request(self, method, url): pass")]


def bm25_pipeline(**kw) -> Pipeline:
    p = Pipeline(legs={"sparse": RankBM25Index()}, depths=Depths(10, 10, 10, 10), **kw)
    p.build(CHUNKS)
    return p


def test_variants_are_searched_on_every_leg_and_fused_with_the_original_weighted_twice():
    fusion = SpyFusion(k=60, weights={"sparse": 2.0, "sparse@q1": 1.0, "sparse@q2": 1.0}, top_rank_bonus=0.05)
    p = bm25_pipeline(fusion=fusion, expander=FixedExpander(["load config json", "session request"]))
    res = p.search("read file")
    assert list(fusion.seen) == ["sparse@q0", "sparse@q1", "sparse@q2"]
    plain = bm25_pipeline()
    assert fusion.seen["sparse@q0"] == plain.legs["sparse"].search(["read file"], 10)[0]
    want: dict[str, float] = {}
    for name, w in (("sparse@q0", 2.0), ("sparse@q1", 1.0), ("sparse@q2", 1.0)):
        for rank, (cid, _) in enumerate(fusion.seen[name], start=1):
            want[cid] = want.get(cid, 0.0) + w / (60 + rank)
        want[fusion.seen[name][0][0]] += 0.05
    assert res.hits == sorted(want.items(), key=lambda x: (-x[1], x[0]))
    assert set(res.timings_ns) == {"expand", "sparse", "fuse"}


def test_no_expander_path_is_unchanged():
    p = bm25_pipeline()
    res = p.search("read file")
    assert res.hits == p.legs["sparse"].search(["read file"], 10)[0]
    assert set(res.timings_ns) == {"sparse", "fuse"}
    assert bm25_pipeline(expander=FixedExpander([])).search("read file").hits == res.hits
