"""POST JSON to one fixed origin: no proxies, no redirects, socket timeouts, one-line errors."""
from __future__ import annotations

import http.client
import json
import socket
import threading
from dataclasses import dataclass, field
from typing import Any, Mapping
from urllib.parse import urlsplit


class HttpFailure(RuntimeError):
    """A request that did not produce a JSON answer; ``kind`` is timeout, unreachable or error."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Origin:
    """scheme://host:port plus a path prefix, parsed from a base URL and checked."""

    scheme: str
    host: str
    port: int
    prefix: str

    @classmethod
    def parse(cls, base_url: str) -> "Origin":
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http(s) URL with a host, got {base_url!r}")
        if parts.query or parts.fragment or parts.username:
            raise ValueError(f"base_url must not carry a query, fragment or credentials: {base_url!r}")
        port = parts.port or (443 if parts.scheme == "https" else 80)
        return cls(parts.scheme, parts.hostname, port, parts.path.rstrip("/"))

    def url(self, endpoint: str) -> str:
        return f"{self.scheme}://{self.host}:{self.port}{self.prefix}{endpoint}"


@dataclass
class JsonPoster:
    """POSTs JSON to paths under one base URL over a kept-alive connection per thread.

    Never follows redirects (a 3xx is an error naming its Location) and ignores proxy variables,
    so nothing but the configured origin is ever contacted.
    """

    base_url: str
    timeout: float = 30.0
    _local: threading.local = field(default_factory=threading.local, init=False, repr=False)

    def __post_init__(self) -> None:
        self.origin = Origin.parse(self.base_url)
        if self.timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds, got {self.timeout}")

    def _connection(self) -> http.client.HTTPConnection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            cls = http.client.HTTPSConnection if self.origin.scheme == "https" else http.client.HTTPConnection
            conn = cls(self.origin.host, self.origin.port, timeout=self.timeout)
            self._local.conn = conn
        return conn

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def post(self, endpoint: str, body: Any, headers: Mapping[str, str] | None = None) -> Any:
        """The decoded JSON answer to ``body`` POSTed at ``endpoint`` (a path under the base URL)."""
        if not endpoint.startswith("/") or endpoint.startswith("//"):
            raise ValueError(f"endpoint must be a path starting with '/', got {endpoint!r}")
        data = json.dumps(body).encode()
        hdrs = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        url = self.origin.url(endpoint)
        for attempt in (0, 1):  # a kept-alive connection the server closed is retried once, fresh
            conn = self._connection()
            reused = conn.sock is not None
            try:
                conn.request("POST", self.origin.prefix + endpoint, body=data, headers=hdrs)
                resp = conn.getresponse()
                payload = resp.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as exc:
                self.close()
                if attempt or not reused:
                    raise HttpFailure("unreachable", f"{url}: connection lost ({type(exc).__name__})") from None
            except (TimeoutError, socket.timeout):
                self.close()
                raise HttpFailure("timeout", f"{url}: no answer within {self.timeout:g}s") from None
            except OSError as exc:
                self.close()
                reason = exc.strerror or type(exc).__name__
                raise HttpFailure("unreachable", f"{url} is unreachable ({reason})") from None
        if resp.will_close:
            self.close()
        if 300 <= resp.status < 400:
            raise HttpFailure("error", f"{url} answered HTTP {resp.status} redirect to "
                              f"{resp.getheader('Location')!r}; redirects are refused (only the "
                              f"configured base_url is contacted)")
        if resp.status >= 400:
            snippet = " ".join(payload[:200].decode("utf-8", "replace").split())
            raise HttpFailure("error", f"{url} answered HTTP {resp.status}: {snippet}")
        try:
            return json.loads(payload)
        except ValueError:
            raise HttpFailure("error", f"{url} answered with invalid JSON") from None
