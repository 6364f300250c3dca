"""retriever=http: score a running search service end to end, against real loopback servers."""
from __future__ import annotations

import json
import threading

import pytest
from loopback import closed_port, handler_from, send, serving

from hermes_eval.core.errors import UserError
from hermes_eval.api import execute_config
from hermes_eval.config.settings import settings_from
from hermes_eval.serve.server import build_pipeline, make_server
from retrievers.remote.search_service import HttpService, ServiceError, dig, fill

BM25 = ("retriever=bm25", "queryset.generator.max_queries=12", "bootstrap=100")


def http_cfg(url: str, *more: str) -> tuple[str, ...]:
    return ("retriever=http", f"retriever.service.base_url={url}", "retriever.service.timeout=10", *more)


def test_fill_substitutes_json_values_not_text():
    tpl = {"query": "{query}", "top_k": "{k}", "opts": ["q={query} k={k}", {"n": "{k}"}], "flag": True, "x": None}
    q = 'say "hi"\n{k} \\ path'
    body = fill(tpl, q, 7)
    assert body == {"query": q, "top_k": 7, "opts": [f"q={q} k=7", {"n": 7}], "flag": True, "x": None}
    assert json.loads(json.dumps(body))["query"] == q


def test_dig_follows_dotted_paths():
    data = {"a": {"b": [{"c": 1}, {"c": 2}]}, "t": 3.5}
    assert dig(data, "a.b.1.c") == 2 and dig(data, "t") == 3.5 and dig(data, "") is data
    assert dig(data, "a.x.c") is None and dig(data, "a.b.9") is None


def test_service_scores_equal_in_process_scores(make_cfg):
    served = build_pipeline(settings_from(make_cfg(*BM25)))
    with serving(make_server(served, "127.0.0.1", 0)) as url:
        remote = execute_config(make_cfg(*BM25[1:], *http_cfg(url)))
    local = execute_config(make_cfg(*BM25))
    assert local.status == "ok" and remote.status == "ok", remote.record.get("error")
    assert remote.record["system"] == "http" and remote.run_dir != local.run_dir
    assert json.dumps(remote.record["metrics"], sort_keys=True) == json.dumps(local.record["metrics"], sort_keys=True)
    import pandas as pd

    a, b = (pd.read_parquet(r.run_dir / "per_query.parquet") for r in (local, remote))
    assert a["top10"].tolist() == b["top10"].tolist() and a["top10_scores"].tolist() == b["top10_scores"].tolist()
    assert {"http", "server"} <= set(remote.record["latency_ms"]) and "sparse" not in remote.record["latency_ms"]
    assert remote.record["latency_ms"]["http"]["p50"] >= remote.record["latency_ms"]["server"]["p50"]
    assert remote.record["service"]["stats"]["requests"] == 12 + 2  # queries + warmup
    assert not any("FOREIGN" in w for w in remote.record["warnings"])


def repo_search_handler(pipeline, prefix: str):
    """repo-search's POST /api/search shape over an in-process pipeline (paths under ``prefix``)."""
    def answer(handler, body):
        if handler.path != "/api/search":
            return send(handler, 404, {"error": "not found"})
        res = pipeline.search(body["query"], body["limit"])
        rows = [{"repo_id": "r1", "repo_name": "requests", "file_path": prefix + c.path, "chunk_index": i,
                 "content": c.text, "language": c.language, "start_line": c.start, "end_line": c.end,
                 "bm25_score": s, "vector_score": None, "combined_score": s, "rerank_score": None}
                for i, (c, s) in enumerate((pipeline.chunk(cid), s) for cid, s in res.hits)]
        send(handler, 200, {"query": body["query"], "results": rows, "total_bm25_hits": len(rows),
                            "total_vector_hits": 0})
    return handler_from(answer)


def test_repo_search_style_service_with_its_own_chunking(make_cfg):
    """A service chunking in 100-line windows, scored by a run chunking with python_ast: its
    spans are judged by overlap, and file-level metrics equal an in-process run of its chunking."""
    windows = ("chunker=lines_repo_search", *BM25)
    served = build_pipeline(settings_from(make_cfg(*windows)))
    with serving(repo_search_handler(served, "data/repos/r1/")) as url:
        remote = execute_config(make_cfg(*BM25[1:], "chunker=python_ast", "retriever=http_repo_search",
                                  f"retriever.service.base_url={url}", "retriever.service.response.strip_prefix=data/repos/r1/"))
    local = execute_config(make_cfg(*windows))
    assert remote.status == "ok", remote.record.get("error")
    assert any("FOREIGN CHUNKS" in w for w in remote.record["warnings"])
    for m in ("file_recall@10", "file_mrr@10", "file_ndcg@10", "line_coverage@10", "budget_line_coverage@1k"):
        assert remote.record["metrics"][m] == local.record["metrics"][m], m
    assert remote.record["system"] == "http_repo_search" and "server" not in remote.record["latency_ms"]


def test_unreachable_service_fails_the_run_in_one_line(make_cfg):
    url = f"http://127.0.0.1:{closed_port()}"
    out = execute_config(make_cfg(*BM25[1:], *http_cfg(url)))
    assert out.status == "failed"
    assert "\n" not in out.record["error"] and url in out.record["error"] and "unreachable" in out.record["error"]


def test_slow_service_times_out_instead_of_hanging():
    release, answered = threading.Event(), threading.Event()

    def slow(handler, body):
        release.wait(60)  # holds the answer until the client has given up
        send(handler, 200, {"results": []})
        answered.set()

    with serving(handler_from(slow)) as url:
        svc = HttpService(base_url=url, timeout=0.2)
        try:
            with pytest.raises(ServiceError, match="no answer within 0.2s"):
                svc.search("q", 5)
            assert not answered.is_set()  # the error came while the service still held its answer
        finally:
            release.set()


def test_redirect_to_another_host_is_refused():
    other_hits = []

    def other(handler, body):
        other_hits.append(body)
        send(handler, 200, {"results": []})

    with serving(handler_from(other)) as elsewhere:
        def redirect(handler, body):
            send(handler, 307, {}, {"Location": elsewhere + "/search"})

        with serving(handler_from(redirect)) as url:
            with pytest.raises(ServiceError, match="redirect.*refused"):
                HttpService(base_url=url).search("q", 5)
    assert other_hits == []


def test_bad_answers_and_configs_are_clear():
    def wrong(handler, body):
        send(handler, 200, {"hits": [{"file": "a.py"}]})

    with serving(handler_from(wrong)) as url:
        with pytest.raises(ServiceError, match="no result list at 'results'"):
            HttpService(base_url=url).search("q", 3)
        with pytest.raises(ServiceError, match="lacks 'file_path'"):
            HttpService(base_url=url, response={"results": "hits"}).search("q", 3)
        svc = HttpService(base_url=url, response={"results": "hits", "path": "file", "start": None, "end": None})
        with pytest.raises(ServiceError):
            svc.search("q", 3)
    with pytest.raises(ValueError, match="base_url"):
        HttpService(base_url="ftp://example.org")
    with pytest.raises(ValueError, match="placeholder"):
        HttpService(request={"q": "fixed"})
    with pytest.raises(ValueError, match="endpoint"):
        HttpService(endpoint="http://elsewhere/search")


def test_zero_based_lines_and_scoreless_results_keep_service_order():
    def answer(handler, body):
        send(handler, 200, {"data": {"items": [{"p": "/srv/x.py", "s": 0, "e": 4}, {"p": "/srv/y.py", "s": 9, "e": 9},
                                               {"p": "/srv/x.py", "s": 0, "e": 4}]}, "took": 0.004})

    with serving(handler_from(answer)) as url:
        svc = HttpService(base_url=url, request='{"q": "{query}", "size": "{k}"}',
                          response={"results": "data.items", "path": "p", "start": "s", "end": "e", "score": None,
                                    "server_time": "took", "server_time_unit": "s", "strip_prefix": "/srv/",
                                    "first_line": 0})
        res = svc.search("q", 5)
    assert res.hits == [("x.py:1-5", 3.0), ("y.py:10-10", 2.0)]
    assert res.timings_ns["server"] == 4_000_000


def test_serve_binds_loopback_only(make_cfg):
    with pytest.raises(UserError, match="loopback"):
        make_server(object(), "0.0.0.0", 0)


def test_foreign_chunks_are_cut_from_the_corpus():
    from hermes_eval.core.corpus import CorpusFile
    from hermes_eval.stages.foreign import ForeignChunks

    fc = ForeignChunks([CorpusFile("a.py", "r", "python", "l1\nl2\nl3\nl4")])
    by_id: dict = {}
    fc.add([("a.py:2-3", 1.0), ("gone.py:1-2", 0.5), ("a.py:2-3", 0.1)], by_id)
    assert by_id["a.py:2-3"].text == "l2\nl3" and by_id["a.py:2-3"].language == "python"
    assert by_id["gone.py:1-2"].text == "" and fc.ids == ["a.py:2-3", "gone.py:1-2"]
    with pytest.raises(UserError, match="path:start-end"):
        fc.add([("a.py:3-1", 1.0)], by_id)
