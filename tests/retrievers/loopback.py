"""Real HTTP servers on 127.0.0.1 for the LLM and service-adapter tests (stdlib only).

``ChatServer`` answers ``POST /chat/completions`` deterministically. Rerank prompts: a snippet is
relevant when it contains a query word (3+ letters), with confidence = the share of query words
it contains. Expansion prompts get two fixed alternatives. The model name picks the answer format:
``json``, ``markdown`` (fenced JSON), ``plain`` (yes/no), ``prose`` (a sentence), ``mute`` (no
verdict); ``slow`` holds its answer until ``release`` is set (at most ``slow_seconds``), ``wide`` sleeps ``wide_seconds`` (concurrency).
"""
from __future__ import annotations

import json
import re
import socket
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Iterator

_RERANK = re.compile(r"Query: (?P<query>.*?)\n\nSnippet from (?P<cid>\S+):\n```\n(?P<doc>.*)\n```", re.S)
EXPANSIONS = ["first alternative phrasing", "second alternative phrasing"]


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 3}


def verdict(query: str, doc: str) -> tuple[bool, float]:
    q = words(query)
    share = len(q & words(doc)) / len(q) if q else 0.0
    return share > 0, round(share, 4)


def render(model: str, relevant: bool, confidence: float) -> str:
    obj = json.dumps({"relevant": relevant, "confidence": confidence})
    if model.startswith("markdown"):
        return f"Here is my judgement:\n```json\n{obj}\n```"
    if model.startswith("plain"):
        return "yes" if relevant else "no"
    if model.startswith("prose"):
        return f"Verdict: {'yes' if relevant else 'no'}, because of the words."
    if model.startswith("mute"):
        return "I cannot judge this."
    return obj


def render_expansions(model: str) -> str:
    if model.startswith("markdown"):
        return "```json\n" + json.dumps(EXPANSIONS) + "\n```"
    if model.startswith("plain"):
        return "Alternatives:\n1. " + EXPANSIONS[0] + "\n2. " + EXPANSIONS[1]
    return json.dumps(EXPANSIONS)


class ChatServer:
    """Counts requests, records Authorization headers and the peak number in flight."""

    def __init__(self, slow_seconds: float = 1.0, wide_seconds: float = 0.2):
        self.slow_seconds, self.wide_seconds = slow_seconds, wide_seconds
        self.requests = 0
        self.inflight = self.max_inflight = 0
        self.answered = 0  # answers completed
        self.auth: list[str | None] = []
        self.release = threading.Event()  # lets held ``slow`` answers go
        self._lock = threading.Lock()

    def answer(self, body: dict, auth: str | None) -> str:
        with self._lock:
            self.requests += 1
            self.inflight += 1
            self.max_inflight = max(self.max_inflight, self.inflight)
            self.auth.append(auth)
        try:
            model = body["model"]
            if model.startswith("slow"):
                self.release.wait(self.slow_seconds)
            if model.startswith("wide"):
                time.sleep(self.wide_seconds)
            system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
            if "alternative phrasings" in system:
                return render_expansions(model)
            m = _RERANK.search(user)
            return render(model, *verdict(m["query"], m["doc"])) if m else "no"
        finally:
            with self._lock:
                self.inflight -= 1
                self.answered += 1

    def handler(self) -> type[BaseHTTPRequestHandler]:
        chat = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if self.path != "/v1/chat/completions":
                    return send(self, 404, {"error": "not found"})
                content = chat.answer(body, self.headers.get("Authorization"))
                send(self, 200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]})

            def log_message(self, *args) -> None:
                pass

        return Handler


def send(handler: BaseHTTPRequestHandler, status: int, body: dict, headers: dict | None = None) -> None:
    data = json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    for k, v in (headers or {}).items():
        handler.send_header(k, v)
    handler.end_headers()
    try:
        handler.wfile.write(data)
    except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout tests)
        pass


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler] | ThreadingHTTPServer) -> Iterator[str]:
    """Serve on 127.0.0.1 at an ephemeral port in a thread; yields the base URL."""
    server = handler if isinstance(handler, ThreadingHTTPServer) else ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def closed_port() -> int:
    """A loopback port nothing listens on (bound, read, released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def handler_from(fn: Callable[[BaseHTTPRequestHandler, dict], None]) -> type[BaseHTTPRequestHandler]:
    """A POST handler calling ``fn(handler, json_body)``."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802
            fn(self, json.loads(self.rfile.read(int(self.headers["Content-Length"]))))

        def log_message(self, *args) -> None:
            pass

    return Handler
