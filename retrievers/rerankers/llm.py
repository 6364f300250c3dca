"""LLM yes/no + confidence reranking over an OpenAI-compatible chat API (repo-search)."""
from __future__ import annotations

import re
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Sequence

from retrievers.remote.chat_client import FAILURE_KEY, ChatClient, parse_json_answer
from retrievers.rerankers.base import Hit, Reranker, Scorer, bump, by_scores, check_depth
from retrievers.identity.declare import declare

SYSTEM_PROMPT = ("You judge code search results. Given a search query and a code snippet, decide "
                 "whether the snippet is relevant to the query. Reply with JSON only: "
                 '{"relevant": true or false, "confidence": a number from 0 to 1}.')
_WORD = re.compile(r"\b(yes|no|true|false|relevant|irrelevant)\b", re.I)
_POSITIVE = {"yes", "true", "relevant"}


def judgement(answer: str) -> float | None:
    """P(relevant) from a model answer: JSON ``{"relevant", "confidence"}`` (bare or fenced), else
    the first yes/no word (1.0 or 0.0); None when the answer says neither."""
    data = parse_json_answer(answer)
    if isinstance(data, dict) and "relevant" in data:
        rel = data["relevant"]
        rel = rel.strip().lower() in _POSITIVE if isinstance(rel, str) else bool(rel)
        try:
            conf = min(max(float(data.get("confidence", 1.0)), 0.0), 1.0)
        except (TypeError, ValueError):
            conf = 1.0
        return 0.5 + conf / 2 if rel else 0.5 - conf / 2
    m = _WORD.search(answer)
    return None if m is None else (1.0 if m.group(1).lower() in _POSITIVE else 0.0)


def _counters() -> dict:
    return {"queries": 0, "requests": 0, "timeouts": 0, "unreachable": 0, "errors": 0,
            "unparsed": 0, "fallbacks": 0}


@declare("retrievers.rerankers.llm.LLMReranker")
@dataclass(frozen=True)
class LLMReranker(Reranker, Scorer):
    """One chat request per candidate, ``concurrency`` at a time; candidates are ordered by
    P(relevant). A timeout, unreachable endpoint or HTTP error on any request abandons the rest
    and keeps the fused order (counted); an answer with no verdict scores 0.5 (``unparsed``)."""

    client: ChatClient
    depth: int = 30
    concurrency: int = 4
    max_chars: int = 2000
    system_prompt: str = SYSTEM_PROMPT
    stats: dict = field(default_factory=_counters, compare=False)

    def __post_init__(self) -> None:
        check_depth(self.depth)
        if self.concurrency < 1:
            raise ValueError(f"llm concurrency must be >= 1, got {self.concurrency}")
        object.__setattr__(self, "_pool", ThreadPoolExecutor(self.concurrency, thread_name_prefix="llm-rerank"))

    def _ask(self, query: str, cid: str, text: str) -> str:
        user = f"Query: {query}\n\nSnippet from {cid}:\n```\n{text[: self.max_chars]}\n```\nIs it relevant?"
        return self.client.chat([{"role": "system", "content": self.system_prompt},
                                 {"role": "user", "content": user}])

    def score(self, query: str, hits: Sequence[Hit], pipeline: Any) -> list[float] | None:
        """P(relevant) per hit; None when a request failed (the failure kind is counted)."""
        bump(self.stats, "queries")
        futures = [self._pool.submit(self._ask, query, cid, pipeline.chunk(cid).text) for cid, _ in hits]
        done, pending = wait(futures, return_when=FIRST_EXCEPTION)
        for f in pending:
            f.cancel()
        wait(pending)
        failures = [f.exception() for f in futures if not f.cancelled() and f.exception() is not None]
        bump(self.stats, "requests", sum(1 for f in futures if not f.cancelled()))
        if failures:
            for exc in failures:
                bump(self.stats, FAILURE_KEY.get(getattr(exc, "kind", ""), "errors"))
            bump(self.stats, "fallbacks")
            return None
        scores = []
        for f in futures:
            p = judgement(f.result())
            if p is None:
                bump(self.stats, "unparsed")
            scores.append(0.5 if p is None else p)
        return scores

    def rerank(self, query: str, hits: list[Hit], pipeline: Any) -> list[Hit]:
        head = hits[: self.depth]
        scores = self.score(query, head, pipeline) if head else []
        return list(hits) if scores is None else by_scores(hits, self.depth, scores)
