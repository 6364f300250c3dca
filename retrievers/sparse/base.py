"""The tokenizer protocol: what a lexical index (rank_bm25, bm25s, jaccard, the FTS5 and tantivy
pretokenizers) turns a text into, and what a tokenizer can do beyond that."""
from __future__ import annotations

from typing import Callable, Protocol, Sequence, runtime_checkable

from retrievers.sparse.term_counts import TermCounts


@runtime_checkable
class Tokenizer(Protocol):
    """Text -> the tokens an index counts. A tokenizer subclasses this protocol and so starts from its
    capabilities' defaults, None (it has no such shortcut):

    - ``counts(text)``: (number of tokens, each token's frequency), equal to counting ``self(text)`` but
      cheaper (CodeTokenizer splits each distinct word once); None: the tokens listed are counted;
    - ``term_counts(texts)``: each text's term counts, ids in the tokenizer's ``terms`` vocabulary
      (MemoTokenizer counts each distinct text once); None: an index counts what it tokenizes.
    """

    counts: Callable[[str], tuple[int, dict[str, int]]] | None = None
    term_counts: Callable[[Sequence[str]], list[TermCounts]] | None = None

    def __call__(self, text: str) -> list[str]: ...
