"""Score a running search service as a black box: POST each query, map its answer to chunk ids.

The request body is a JSON template whose string values may hold ``{query}`` and ``{k}``: a
value that is exactly one placeholder becomes the JSON value itself (``"{k}"`` -> ``10``), one
inside other text is replaced as text. The answer is mapped by dotted paths: where the result
list is, and in each result where the file path, start line, end line and score are. Hits come
back as ``path:start-end`` ids in the service's order.
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from retrievers.remote.transport import HttpFailure, JsonPoster
from retrievers.index import Hit, SearchResult, check_k
from retrievers.identity.declare import declare

_PLACEHOLDER = re.compile(r"\{query\}|\{k\}")
TIME_UNITS_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}


class ServiceError(RuntimeError):
    """The search service could not be reached or answered something unusable."""


def fill(template: Any, query: str, k: int) -> Any:
    """``template`` with ``{query}``/``{k}`` substituted as JSON values (see module doc)."""
    values = {"{query}": query, "{k}": k}
    if isinstance(template, str):
        if template in values:
            return values[template]
        # one pass, so a query that itself contains "{k}" stays as typed
        return _PLACEHOLDER.sub(lambda m: str(values[m.group(0)]), template)
    if isinstance(template, Mapping):
        return {key: fill(value, query, k) for key, value in template.items()}
    if isinstance(template, (list, tuple)):
        return [fill(value, query, k) for value in template]
    return template


def dig(data: Any, path: str | None) -> Any:
    """The value at dotted ``path`` (list items by index, e.g. ``data.hits.0``); None if absent."""
    if not path:
        return data
    for part in path.split("."):
        if isinstance(data, Mapping):
            data = data.get(part)
        elif isinstance(data, list) and part.lstrip("-").isdigit() and -len(data) <= int(part) < len(data):
            data = data[int(part)]
        else:
            return None
    return data


@dataclass(frozen=True)
class ResponseMapping:
    """Where things are in the service's answer; dotted paths, ``None`` when it has no such field."""

    results: str = "results"
    path: str = "file_path"
    start: str = "start_line"
    end: str = "end_line"
    score: str | None = "score"
    # server-reported search time (a stage of its own, beside the round trip) and its unit
    server_time: str | None = None
    server_time_unit: str = "ms"
    # a prefix the service puts before corpus-relative paths (e.g. its checkout folder)
    strip_prefix: str = ""
    # 0 when the service counts lines from 0; end lines are inclusive either way
    first_line: int = 1

    def __post_init__(self) -> None:
        if self.server_time_unit not in TIME_UNITS_NS:
            raise ValueError(f"server_time_unit must be one of {sorted(TIME_UNITS_NS)}, got "
                             f"{self.server_time_unit!r}")
        if self.first_line not in (0, 1):
            raise ValueError(f"first_line must be 0 or 1, got {self.first_line}")


@declare("retrievers.http_service.HttpService")
@dataclass(frozen=True)
class HttpService:
    """A whole-pipeline stand-in for the runner: ``build`` does nothing, ``search`` asks the
    service. Stages: ``http`` (round trip) and ``server`` (what the service reports, if mapped)."""

    base_url: str = "http://127.0.0.1:8000"
    endpoint: str = "/search"
    request: Any = field(default_factory=lambda: {"query": "{query}", "top_k": "{k}"})
    response: ResponseMapping | Mapping[str, Any] = field(default_factory=ResponseMapping)
    timeout: float = 30.0
    headers: Mapping[str, str] = field(default_factory=dict)
    # NAME of an environment variable holding a bearer token; the token never enters a config
    api_key_env: str | None = None
    stats: dict = field(default_factory=lambda: {"requests": 0, "results": 0})

    def __post_init__(self) -> None:
        derived = {"request": json.loads(self.request) if isinstance(self.request, str) else self.request,
                   "response": ResponseMapping(**self.response) if isinstance(self.response, Mapping)
                   else self.response,
                   # the runner's view of a pipeline: no legs to build, save or fuse, no embedder
                   "legs": {}, "embedder": None, "build_sources": {},
                   "_poster": JsonPoster(self.base_url, self.timeout)}
        for name, value in derived.items():
            object.__setattr__(self, name, value)
        if "{query}" not in json.dumps(self.request):
            raise ValueError("service request template has no \"{query}\" placeholder")
        if not self.endpoint.startswith("/") or self.endpoint.startswith("//"):
            raise ValueError(f"service endpoint must be a path under base_url, got {self.endpoint!r}")

    def _headers(self) -> dict[str, str]:
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        return {**self.headers, **({"Authorization": f"Bearer {key}"} if key else {})}

    def build(self, chunks: Sequence[Any] = (), vectors: Any = None, store: Any = None) -> dict[str, float]:
        """Nothing to build: the service indexed its corpus itself."""
        return {}

    def search(self, query: str, k: int = 10) -> SearchResult:
        """The service's top ``k`` for ``query`` as ``path:start-end`` hits, in its order."""
        k = check_k(k)
        body, headers = fill(self.request, query, k), self._headers()
        t = time.perf_counter_ns()
        try:
            answer = self._poster.post(self.endpoint, body, headers)
        except HttpFailure as exc:
            raise ServiceError(f"search service: {exc} (set retriever.service.base_url/timeout)") from None
        timings = {"http": time.perf_counter_ns() - t}
        m = self.response
        server = dig(answer, m.server_time) if m.server_time else None
        if isinstance(server, (int, float)) and not isinstance(server, bool):
            timings["server"] = int(server * TIME_UNITS_NS[m.server_time_unit])
        self.stats["requests"] += 1
        hits = self._hits(answer)
        self.stats["results"] += len(hits)
        return SearchResult(hits=hits[:k], timings_ns=timings)

    def _hits(self, answer: Any) -> list[Hit]:
        m = self.response
        rows = dig(answer, m.results)
        if not isinstance(rows, list):
            raise ServiceError(f"search service answer has no result list at {m.results!r} "
                               f"(set retriever.service.response.results)")
        hits: list[Hit] = []
        seen: set[str] = set()
        for rank, row in enumerate(rows):
            path, start, end = dig(row, m.path), dig(row, m.start), dig(row, m.end)
            if not isinstance(path, str) or not _is_int(start) or not _is_int(end):
                raise ServiceError(f"search result {rank} lacks {m.path!r}/{m.start!r}/{m.end!r} "
                                   f"(set retriever.service.response.path/start/end)")
            if m.strip_prefix and path.startswith(m.strip_prefix):
                path = path[len(m.strip_prefix):]
            shift = 1 - m.first_line
            cid = f"{path.lstrip('/')}:{int(start) + shift}-{int(end) + shift}"
            if cid in seen:
                continue
            seen.add(cid)
            score = dig(row, m.score) if m.score else None
            ok = isinstance(score, (int, float)) and not isinstance(score, bool)
            hits.append((cid, float(score) if ok else float(len(rows) - rank)))
        return hits


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) or isinstance(value, float) and value.is_integer()
