"""bm25s's own English text tokenizer (what MTEB's BM25 baseline indexes with): lowercase, word
runs of 2+ characters, bm25s's English stopwords, then PyStemmer's Snowball stemmer."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from retrievers.sparse.base import Tokenizer
from retrievers.identity.declare import declare


@declare("retrievers.sparse.english.BM25STextTokenizer")
@dataclass(frozen=True)
class BM25STextTokenizer(Tokenizer):
    """``bm25s.tokenize(text, stopwords=..., stemmer=Stemmer(language))`` for one text."""

    stopwords: str | None = "en"
    stemmer_language: str | None = "english"
    _stemmer: Any = field(default=None, init=False, repr=False, compare=False)

    def _stem(self) -> Any:
        if self._stemmer is None and self.stemmer_language:
            import Stemmer  # PyStemmer

            object.__setattr__(self, "_stemmer", Stemmer.Stemmer(self.stemmer_language))
        return self._stemmer

    def __call__(self, text: str) -> list[str]:
        import bm25s

        return bm25s.tokenize([text], stopwords=self.stopwords, stemmer=self._stem(), return_ids=False,
                              show_progress=False)[0]
