"""`hermes-eval serve`: a reference search service (HERMES-style ``POST /search``) over a pipeline
built from the same config a run would build, so ``retriever=http`` can be checked against it.

Request ``{"query": "...", "top_k": 10}``; answer ``{"query", "results": [{"file_path",
"start_line", "end_line", "score", "language", "symbol_name", "code_text"}], "timings_ms":
{stage: ms, ..., "total": ms}}``. ``GET /health`` answers ``{"status": "ok"}``. Loopback only.
"""
from __future__ import annotations

import ipaddress
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from hermes_eval.cache.content import Cache
from hermes_eval.config.settings import RunSettings
from hermes_eval.core.errors import UserError
from hermes_eval.stages.build import build
from hermes_eval.stages.prepare import prepare
from retrievers.pipeline import Pipeline

MAX_BODY = 1 << 20


def build_pipeline(s: RunSettings) -> Pipeline:
    """The pipeline `hermes-eval run` builds for ``s``: the same prepare and build stages, so the
    same masked corpus, chunks and (cached) indexes."""
    if s.service is not None:
        raise UserError("serve needs an in-process retriever (not retriever=http)")
    cache = Cache(s.paths.cache)
    prepared = prepare(s, cache)
    return build(s, prepared.indexed, prepared.chunks).pipeline


def _handler(pipeline: Pipeline, lock: threading.Lock) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as a real client and server would use

        def _send(self, status: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 - http.server naming
            if self.path == "/health":
                self._send(200, {"status": "ok"})
            else:
                self._send(404, {"detail": "not found"})

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            if self.path != "/search":
                self.rfile.read(min(length, MAX_BODY))
                return self._send(404, {"detail": "not found"})
            if not 0 < length <= MAX_BODY:
                self.close_connection = True
                return self._send(400, {"detail": "a JSON body up to 1 MB is required"})
            try:
                req = json.loads(self.rfile.read(length))
                query, top_k = req["query"], int(req.get("top_k", 10))
                if not isinstance(query, str) or not query.strip() or top_k < 1:
                    raise ValueError
            except (ValueError, KeyError, TypeError):
                return self._send(422, {"detail": 'body must be {"query": non-empty string, "top_k": int >= 1}'})
            t = time.perf_counter_ns()
            with lock:  # one search at a time: the parts are not all thread-safe
                res = pipeline.search(query, top_k)
            total = time.perf_counter_ns() - t
            self._send(200, {"query": query, "results": [_result(pipeline, cid, s) for cid, s in res.hits],
                             "timings_ms": {**{k: v / 1e6 for k, v in res.timings_ns.items()}, "total": total / 1e6}})

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet by default
            pass

    return Handler


def _result(pipeline: Pipeline, cid: str, score: float) -> dict:
    c = pipeline.chunk(cid)
    return {"file_path": c.path, "start_line": c.start, "end_line": c.end, "score": score,
            "language": c.language, "symbol_name": c.symbol, "code_text": c.text}


def loopback_address(host: str) -> str:
    """``host`` as an IPv4 loopback address, or UserError."""
    addr = "127.0.0.1" if host == "localhost" else host
    try:
        ok = ipaddress.ip_address(addr).is_loopback and ipaddress.ip_address(addr).version == 4
    except ValueError:
        ok = False
    if not ok:
        raise UserError(f"serve binds to loopback only (127.0.0.1 or localhost), got --host {host!r}")
    return addr


def make_server(pipeline: Pipeline, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A server for ``pipeline`` bound to a loopback ``host`` (port 0: any free port)."""
    server = ThreadingHTTPServer((loopback_address(host), port), _handler(pipeline, threading.Lock()))
    server.daemon_threads = True
    return server


def serve(s: RunSettings, host: str, port: int) -> int:
    """Build the pipeline for ``s`` and serve it until interrupted."""
    loopback_address(host)
    pipeline = build_pipeline(s)
    try:
        server = make_server(pipeline, host, port)
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    h, p = server.server_address[:2]
    print(f"serving {s.label} on http://{h}:{p}  (POST /search, GET /health; Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
