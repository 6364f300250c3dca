"""What every reranker owes the pipeline, for each implementation (dense rescoring, MMR, the
position-aware blend over a scorer, the LLM judge on a loopback chat server, the cross-encoder
on a tiny model built here): only the top ``depth`` move, the rest keep their order below,
scores never increase down the list, an empty list stays empty, the same answer twice."""
from __future__ import annotations

import inspect
import pkgutil

import pytest

import retrievers.rerankers as rerankers_pkg
from retrievers.kinds import missing_members
from retrievers.remote.chat_client import ChatClient
from retrievers.rerankers.base import Reranker
from retrievers.rerankers.blend import Blend
from retrievers.rerankers.cross_encoder import CrossEncoderReranker
from retrievers.rerankers.dense_rescore import DenseRescore
from retrievers.rerankers.llm import LLMReranker
from retrievers.rerankers.mmr import MMR

DEPTH = 4
CASES = {
    "dense_rescore": lambda env: DenseRescore(depth=DEPTH),
    "mmr": lambda env: MMR(depth=DEPTH),
    "blend_dense": lambda env: Blend(DenseRescore(), depth=DEPTH),
    "llm": lambda env: LLMReranker(ChatClient(env["chat"].url, model="json", timeout=5), depth=DEPTH),
    "blend_llm": lambda env: Blend(LLMReranker(ChatClient(env["chat"].url, model="json", timeout=5)), depth=DEPTH),
    "cross_encoder": lambda env: CrossEncoderReranker(model=str(env["tiny_model"]), depth=DEPTH),
}


def ids(hits):
    return [cid for cid, _ in hits]


@pytest.fixture
def env(request):
    """Only the cases that need the chat server or the tiny model start them."""
    case = request.node.callspec.params["case"]
    out = {}
    if "llm" in case:
        out["chat"] = request.getfixturevalue("chat")
    if case == "cross_encoder":
        out["tiny_model"] = request.getfixturevalue("tiny_model")
    return out


def test_every_reranker_class_is_in_the_suite():
    classes = {cls for m in pkgutil.iter_modules(rerankers_pkg.__path__)
               for _, cls in inspect.getmembers(__import__(f"retrievers.rerankers.{m.name}", fromlist=["x"]),
                          inspect.isclass)
               if cls.__module__ == f"retrievers.rerankers.{m.name}" and "rerank" in vars(cls)
               and cls is not Reranker}
    assert classes == {Blend, CrossEncoderReranker, DenseRescore, LLMReranker, MMR}


@pytest.mark.parametrize("case", sorted(CASES))
def test_reranker_contract(case, env, pipeline, fused):
    reranker = CASES[case](env)
    assert isinstance(reranker, Reranker) and missing_members(reranker, Reranker) == []
    out = reranker.rerank("parse json", fused, pipeline)
    assert sorted(ids(out)) == sorted(ids(fused))
    assert set(ids(out[:DEPTH])) == set(ids(fused[:DEPTH]))  # only the top `depth` move
    assert ids(out[DEPTH:]) == ids(fused[DEPTH:])             # the rest keep their order below
    scores = [s for _, s in out]
    assert all(a >= b for a, b in zip(scores, scores[1:])), out
    assert reranker.rerank("parse json", [], pipeline) == []
    assert CASES[case](env).rerank("parse json", fused, pipeline) == out


@pytest.mark.parametrize("case", sorted(CASES))
def test_needs_embedder_says_whether_the_reranker_reads_vectors(case, env, pipeline, fused):
    """The protocol's capability (False unless a reranker says otherwise) is what the run reads to load an
    embedder: one that claims it reads the embedder's vectors, one that does not reranks without one."""
    from dataclasses import replace

    reranker = CASES[case](env)
    assert isinstance(reranker.needs_embedder, bool)
    if reranker.needs_embedder:
        reranker.rerank("parse json", fused, pipeline)
        assert sum(pipeline.embedder.calls.values()) > 0
    else:
        out = reranker.rerank("parse json", fused, replace(pipeline, embedder=None))
        assert sorted(ids(out)) == sorted(ids(fused))
    assert reranker.needs_embedder == (case in ("dense_rescore", "mmr", "blend_dense"))
