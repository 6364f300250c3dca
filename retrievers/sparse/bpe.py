"""OpenAI's byte-level BPE (``tiktoken``'s encodings) in Python: text -> token ids, without ``tiktoken``.

``tiktoken`` fetches its encoding files from the network the first time; here the ranks come from a file
a package ships (``retrievers`` stays offline). GPT-2's ranks (``r50k_base``) are the ``gpt2.tiktoken``
that ``openai-whisper`` packages; ``p50k_base`` (Codex) is those 50,256 ranks plus 24 tokens for runs of 2
to 25 spaces at ranks 50,257-50,280 (:func:`p50k_from_r50k`): the file this builds has tiktoken's own
sha256 for ``p50k_base.tiktoken`` (:data:`SHA256`), so the ranks are exactly tiktoken's.

Encoding is tiktoken's ``encode_ordinary`` (``encode(text, disallowed_special=())`` when no special token
is allowed): the text is cut by the encoding's pattern, each piece that is a token is one id, the others
are merged pair by pair, always the adjacent pair whose merge has the lowest rank (leftmost first), as
``tiktoken/_educational.py`` and its Rust core do. Each distinct piece is merged once (a cache).
"""
from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import ClassVar

from retrievers.sparse.base import Tokenizer

# tiktoken_ext/openai_public.py: r50k_base and p50k_base share this pattern
R50K_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
SHA256 = {"r50k_base": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
          "p50k_base": "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069"}


def p50k_from_r50k(r50k: bytes) -> bytes:
    """``p50k_base.tiktoken`` from ``r50k_base.tiktoken`` (GPT-2's ranks): 24 space runs appended."""
    body = r50k if r50k.endswith(b"\n") else r50k + b"\n"
    extra = b"".join(base64.b64encode(b" " * n) + b" %d\n" % (50257 + n - 2) for n in range(2, 26))
    return body + extra


def check(data: bytes, name: str) -> bytes:
    """``data`` when its sha256 is tiktoken's for the encoding ``name``; else a ValueError."""
    got = hashlib.sha256(data).hexdigest()
    if got != SHA256[name]:
        raise ValueError(f"{name}: the ranks file's sha256 is {got}, not tiktoken's {SHA256[name]}")
    return data


def parse_ranks(data: bytes) -> dict[bytes, int]:
    """A ``.tiktoken`` file (``base64(token) rank`` per line) as {token bytes: rank}."""
    return {base64.b64decode(tok): int(rank) for tok, rank in (line.split() for line in data.splitlines() if line)}


@dataclass
class BytePairEncoder(Tokenizer):
    """``tiktoken.Encoding(...).encode_ordinary`` over ``ranks``; called, the ids as strings (what
    ``' '.join(map(str, ids)).split()`` gives: Gandhi et al.'s pretokenized Lucene terms)."""

    ranks: dict[bytes, int]
    pattern: str = R50K_PATTERN
    name: str = "p50k_base"
    _cache: dict[str, tuple[int, ...]] = field(default_factory=dict, repr=False)

    input: ClassVar[str] = "text"

    def __post_init__(self) -> None:
        import regex

        self._pattern = regex.compile(self.pattern)

    def _merge(self, piece: bytes) -> tuple[int, ...]:
        ranks = self.ranks
        parts = [piece[i:i + 1] for i in range(len(piece))]
        while len(parts) > 1:
            best, at = None, -1
            for i in range(len(parts) - 1):
                rank = ranks.get(parts[i] + parts[i + 1])
                if rank is not None and (best is None or rank < best):
                    best, at = rank, i
            if best is None:
                break
            parts[at:at + 2] = [parts[at] + parts[at + 1]]
        return tuple(ranks[p] for p in parts)

    def encode(self, text: str) -> list[int]:
        out: list[int] = []
        cache = self._cache
        for piece in self._pattern.findall(text):
            ids = cache.get(piece)
            if ids is None:
                raw = piece.encode("utf-8", "surrogatepass")
                rank = self.ranks.get(raw)
                ids = cache[piece] = (rank,) if rank is not None else self._merge(raw)
            out.extend(ids)
        return out

    def __call__(self, text: str) -> list[str]:
        return [str(i) for i in self.encode(text)]
