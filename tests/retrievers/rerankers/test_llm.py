"""The LLM reranker against a real chat server on loopback (tests/retrievers/loopback.py)."""
from __future__ import annotations

import json

import pytest
from loopback import closed_port, handler_from, send, serving, verdict

from retrievers.remote.chat_client import ChatClient, parse_json_answer
from retrievers.rerankers.blend import Blend
from retrievers.rerankers.llm import LLMReranker, judgement

QUERY = "parse json config"


def expected_order(pipeline, fused, depth):
    """P(relevant) per the server's rule, best first, ties in fused order; then the tail."""
    def p(cid):
        rel, conf = verdict(QUERY, pipeline.texts[cid])
        return 0.5 + conf / 2 if rel else 0.5 - conf / 2
    head = [c for c, _ in fused[:depth]]
    return sorted(head, key=lambda c: (-p(c), head.index(c))) + [c for c, _ in fused[depth:]]


@pytest.mark.parametrize("model", ["json", "markdown", "prose"])
def test_each_answer_format_reranks(chat, pipeline, fused, model):
    r = LLMReranker(ChatClient(chat.url, model=model, timeout=5), depth=5, concurrency=2)
    out = r.rerank(QUERY, fused, pipeline)
    if model == "prose":  # yes/no only: every relevant doc scores 1.0, ties stay in fused order
        rel = [c for c, _ in fused[:5] if verdict(QUERY, pipeline.texts[c])[0]]
        assert [c for c, _ in out[: len(rel)]] == rel
    else:
        assert [c for c, _ in out] == expected_order(pipeline, fused, 5)
    assert [c for c, _ in out] != [c for c, _ in fused]
    assert r.stats["requests"] == 5 and r.stats["fallbacks"] == 0 and r.stats["unparsed"] == 0


def test_plain_yes_no_and_unparseable(chat, pipeline, fused):
    plain = LLMReranker(ChatClient(chat.url, model="plain"), depth=6)
    top = plain.rerank(QUERY, fused, pipeline)[0][0]
    assert verdict(QUERY, pipeline.texts[top])[0]
    mute = LLMReranker(ChatClient(chat.url, model="mute"), depth=6)
    assert [c for c, _ in mute.rerank(QUERY, fused, pipeline)] == [c for c, _ in fused]  # all 0.5
    assert mute.stats["unparsed"] == 6 and mute.stats["fallbacks"] == 0


@pytest.mark.parametrize("answer,p", [
    ('{"relevant": true, "confidence": 0.8}', 0.9),
    ('```json\n{"relevant": false, "confidence": 0.8}\n```', pytest.approx(0.1)),
    ('Sure! {"relevant": "yes", "confidence": "0.5"} hope that helps', 0.75),
    ('{"relevant": true}', 1.0),
    ("Yes.", 1.0), ("no, unrelated", 0.0), ("NO", 0.0), ("maybe", None),
])
def test_judgement_parsing(answer, p):
    assert judgement(answer) == p


def test_parse_json_answer_forms():
    assert parse_json_answer('```\n[1, 2]\n```') == [1, 2]
    assert parse_json_answer("text [\"a\"] text") == ["a"]
    assert parse_json_answer("nothing here") is None


def test_requests_run_in_parallel_bounded_by_concurrency(chat, pipeline, fused):
    r = LLMReranker(ChatClient(chat.url, model="wide", timeout=5), depth=6, concurrency=3)
    r.rerank(QUERY, fused, pipeline)
    assert 2 <= chat.max_inflight <= 3  # the server saw requests overlap, never more than allowed
    assert r.stats["requests"] == 6


def test_timeout_keeps_fused_order_and_is_counted(chat, pipeline, fused):
    chat.slow_seconds = 60.0  # the server holds every answer until the test releases it
    r = LLMReranker(ChatClient(chat.url, model="slow", timeout=0.2), depth=6, concurrency=2)
    try:
        assert r.rerank(QUERY, fused, pipeline) == fused
        assert chat.answered == 0  # it returned before any answer could come: abandoned, not waited for
    finally:
        chat.release.set()
    assert r.stats["timeouts"] >= 1 and r.stats["fallbacks"] == 1


def test_unreachable_endpoint_degrades_and_is_counted(pipeline, fused):
    r = LLMReranker(ChatClient(f"http://127.0.0.1:{closed_port()}/v1", timeout=2), depth=4)
    assert r.rerank(QUERY, fused, pipeline) == fused
    assert r.stats["unreachable"] >= 1 and r.stats["fallbacks"] == 1
    blend = Blend(r, depth=4)
    assert blend.rerank(QUERY, fused, pipeline) == fused and blend.stats["fallbacks"] == 1


def test_redirects_are_refused(pipeline, fused):
    def redirect(handler, body):
        send(handler, 307, {}, {"Location": "http://198.51.100.7/v1/chat/completions"})

    with serving(handler_from(redirect)) as url:
        r = LLMReranker(ChatClient(url + "/v1", timeout=2), depth=3)
        assert r.rerank(QUERY, fused, pipeline) == fused
    assert r.stats["errors"] >= 1 and r.stats["fallbacks"] == 1


def test_api_key_comes_from_the_named_env_var(chat, pipeline, fused, monkeypatch):
    monkeypatch.setenv("HERMES_TEST_LLM_KEY", "sk-test-secret-4242")
    client = ChatClient(chat.url, model="json", api_key_env="HERMES_TEST_LLM_KEY")
    LLMReranker(client, depth=2).rerank(QUERY, fused, pipeline)
    assert chat.auth == ["Bearer sk-test-secret-4242"] * 2
    assert "sk-test-secret" not in repr(client)
    monkeypatch.delenv("HERMES_TEST_LLM_KEY")
    LLMReranker(client, depth=1).rerank(QUERY, fused, pipeline)
    assert chat.auth[-1] is None


def test_a_run_records_stats_but_never_the_key(chat, make_cfg, monkeypatch):
    from hermes_eval.api import execute_config

    monkeypatch.setenv("HERMES_TEST_LLM_KEY", "sk-test-secret-4242")
    out = execute_config(make_cfg("retriever=bm25", "reranker=blend_llm", "reranker.depth=3",
                           f"reranker.scorer.client.base_url={chat.url}", "reranker.scorer.client.model=markdown",
                           "reranker.scorer.client.api_key_env=HERMES_TEST_LLM_KEY",
                           "queryset.generator.max_queries=8", "bootstrap=50"))
    assert out.status == "ok", out.record.get("error")
    stats = out.record["reranker"]["stats"]["scorer"]
    assert stats["requests"] == 3 * (8 + 2) and stats["fallbacks"] == 0  # queries + warmup
    assert "rerank" in out.record["latency_ms"] and out.record["system"].endswith("+rerank=blend_llm@3")
    assert chat.auth[0] == "Bearer sk-test-secret-4242"
    for f in out.run_dir.rglob("*"):
        assert b"sk-test-secret" not in f.read_bytes(), f
    assert json.loads((out.run_dir / "record.json").read_text())["config"]["reranker"]["scorer"]["client"][
        "api_key_env"] == "HERMES_TEST_LLM_KEY"
