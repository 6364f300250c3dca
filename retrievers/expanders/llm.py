"""LLM query expansion: alternative phrasings of a query (repo-search asks for two)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from retrievers.remote.chat_client import FAILURE_KEY, ChatClient, HttpFailure, parse_json_answer, strip_fences
from retrievers.identity.declare import declare

SYSTEM_PROMPT = ("You rewrite code search queries. Give {n} alternative phrasings of the user's query "
                 "that could match the same code (other words, identifiers, or the API involved). "
                 'Reply with a JSON list of {n} strings only, e.g. ["...", "..."].')
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)]|[Qq]uery\s*\d*:)\s*")


def parse_expansions(answer: str, original: str, n: int) -> list[str]:
    """Up to ``n`` distinct phrasings from a JSON list (bare, fenced, or inside an object such
    as ``{"queries": [...]}``), else one per non-empty line; the original query is dropped."""
    data = parse_json_answer(answer)
    if isinstance(data, dict):
        data = next((v for v in data.values() if isinstance(v, list)), None)
    if isinstance(data, list):
        items = [x for x in data if isinstance(x, str)]
    else:
        items = [_BULLET.sub("", line) for line in strip_fences(answer).splitlines()]
    out: list[str] = []
    seen = {" ".join(original.lower().split())}
    for item in items:
        text = item.strip().strip('"\'`').strip()
        key = " ".join(text.lower().split())
        if text and key not in seen and not text.endswith(":"):
            seen.add(key)
            out.append(text)
    return out[:n]


def _counters() -> dict:
    return {"queries": 0, "expanded": 0, "timeouts": 0, "unreachable": 0, "errors": 0, "empty": 0}


@declare("retrievers.query_expansion.LLMQueryExpander")
@dataclass(frozen=True)
class LLMQueryExpander:
    """``expand(query)`` -> up to ``n`` alternatives; on any failure no alternatives (counted),
    so the original query is still searched."""

    client: ChatClient
    n: int = 2
    system_prompt: str = SYSTEM_PROMPT
    stats: dict = field(default_factory=_counters, compare=False)

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError(f"query expansion n must be >= 1, got {self.n}")

    def expand(self, query: str) -> list[str]:
        self.stats["queries"] += 1
        try:
            answer = self.client.chat([{"role": "system", "content": self.system_prompt.replace("{n}", str(self.n))},
                                       {"role": "user", "content": query}])
        except HttpFailure as exc:
            self.stats[FAILURE_KEY[exc.kind]] += 1
            return []
        out = parse_expansions(answer, query, self.n)
        self.stats["expanded" if out else "empty"] += 1
        return out
