"""Cross-encoder reranking (sentence-transformers ``CrossEncoder``) with HERMES's timeout fallback."""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from retrievers.embedders.model_source import ModelUnavailable
from retrievers.rerankers.base import Hit, Reranker, Scorer, bump, by_scores, check_depth
from retrievers.identity.declare import declare


def _counters() -> dict:
    return {"queries": 0, "timeouts": 0, "errors": 0, "fallbacks": 0}


@declare("retrievers.rerankers.cross_encoder.CrossEncoderReranker")
@dataclass(frozen=True)
class CrossEncoderReranker(Reranker, Scorer):
    """Scores (query, chunk) pairs with any cross-encoder by hub name or local folder.

    Prediction runs on a small thread pool; when it takes longer than ``timeout`` seconds (or
    fails) the fused order is returned unchanged and the event is counted. ``timeout`` None waits.
    """

    model: str = "cross-encoder/ms-marco-MiniLM-L-6-v2"
    depth: int = 30
    timeout: float | None = 5.0
    workers: int = 2
    batch_size: int = 32
    max_length: int | None = 512
    max_chars: int = 4000
    device: str = "cpu"
    stats: dict = field(default_factory=_counters, compare=False)

    def __post_init__(self) -> None:
        check_depth(self.depth)
        if self.timeout is not None and self.timeout <= 0:
            raise ValueError(f"cross_encoder timeout must be > 0 seconds or null, got {self.timeout}")
        object.__setattr__(self, "_state", {"model": None, "pool": None, "lock": threading.Lock()})

    def _load(self):
        state = self._state
        with state["lock"]:
            if state["model"] is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                from sentence_transformers import CrossEncoder

                path = Path(self.model).expanduser()
                name = str(path.resolve()) if path.is_dir() else self.model
                try:
                    state["model"] = CrossEncoder(name, max_length=self.max_length, device=self.device)
                except Exception as exc:  # hub and format errors come in many types
                    raise ModelUnavailable(
                        f"cross-encoder {self.model!r} cannot be loaded ({type(exc).__name__}); no model hub "
                        f"is reachable here: set reranker.model to a local cross-encoder folder") from None
                state["pool"] = ThreadPoolExecutor(self.workers, thread_name_prefix="cross-encoder")
        return state["model"]

    def _predict(self, pairs: list[tuple[str, str]]) -> list[float]:
        scores = self._load().predict(pairs, batch_size=self.batch_size, show_progress_bar=False,
                                      convert_to_numpy=True)
        return [float(s) for s in scores]

    def score(self, query: str, hits: Sequence[Hit], pipeline: Any) -> list[float] | None:
        """Cross-encoder scores for ``hits``; None after a timeout or error (counted)."""
        bump(self.stats, "queries")
        if not hits:
            return []
        self._load()  # outside the timeout: a missing model fails the run, it is not a fallback
        pairs = [(query, pipeline.chunk(cid).text[: self.max_chars]) for cid, _ in hits]
        future = self._state["pool"].submit(self._predict, pairs)
        try:
            return future.result(timeout=self.timeout)
        except FutureTimeout:
            future.cancel()
            bump(self.stats, "timeouts")
        except Exception:  # noqa: BLE001 - any prediction failure degrades to the fused order
            bump(self.stats, "errors")
        bump(self.stats, "fallbacks")
        return None

    def rerank(self, query: str, hits: list[Hit], pipeline: Any) -> list[Hit]:
        head = hits[: self.depth]
        scores = self.score(query, head, pipeline)
        return list(hits) if scores is None else by_scores(hits, self.depth, scores)
