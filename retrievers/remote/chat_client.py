"""A minimal OpenAI-compatible chat client (``POST {base_url}/chat/completions``) and the
answer parsers the LLM reranker and query expander share."""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from retrievers.remote.transport import HttpFailure, JsonPoster
from retrievers.identity.declare import declare

__all__ = ["FAILURE_KEY", "ChatClient", "HttpFailure", "parse_json_answer", "strip_fences"]

FAILURE_KEY = {"timeout": "timeouts", "unreachable": "unreachable", "error": "errors"}
"""HttpFailure.kind -> the stats counter it bumps."""

_FENCE = re.compile(r"```[A-Za-z0-9_-]*\s*\n?(.*?)```", re.S)


@declare("retrievers.llm_client.ChatClient")
@dataclass(frozen=True)
class ChatClient:
    """Chat completions from one endpoint. The API key is read at call time from the
    environment variable named ``api_key_env``; its value is never stored on the client."""

    base_url: str = "http://127.0.0.1:11434/v1"
    model: str = "llama3.2"
    timeout: float = 10.0
    api_key_env: str | None = None
    temperature: float = 0.0
    max_tokens: int = 128
    extra_body: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_poster", JsonPoster(self.base_url, self.timeout))

    def _headers(self) -> dict[str, str]:
        if not self.api_key_env:
            return {}
        key = os.environ.get(self.api_key_env)
        return {"Authorization": f"Bearer {key}"} if key else {}

    def chat(self, messages: Sequence[Mapping[str, str]]) -> str:
        """The first choice's message text; raises HttpFailure (kind timeout/unreachable/error)."""
        body = {"model": self.model, "messages": [dict(m) for m in messages],
                "temperature": self.temperature, "max_tokens": self.max_tokens, **self.extra_body}
        answer = self._poster.post("/chat/completions", body, self._headers())
        try:
            content = answer["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise HttpFailure("error", f"{self.base_url}/chat/completions: no choices[0].message.content "
                              f"in the answer") from None
        return content if isinstance(content, str) else ""


def strip_fences(text: str) -> str:
    """The body of the first markdown code fence in ``text``, or ``text`` itself."""
    m = _FENCE.search(text)
    return m.group(1).strip() if m else text.strip()


def parse_json_answer(text: str) -> Any:
    """JSON from a model answer: bare, fenced (```json ... ```), or the first {...}/[...] inside
    prose; None when there is none."""
    body = strip_fences(text)
    try:
        return json.loads(body)
    except ValueError:
        pass
    for open_, close in (("{", "}"), ("[", "]")):
        start, end = body.find(open_), body.rfind(close)
        if 0 <= start < end:
            try:
                return json.loads(body[start:end + 1])
            except ValueError:
                continue
    return None
