"""tantivy (the Rust engine repo-search uses) behind the Index protocol; BM25 k1=1.2, b=0.75.

Text goes in raw through one of tantivy's analyzers (``default``, ``en_stem``), or through a
pretokenizer (e.g. :class:`retrievers.sparse.tokenizer.CodeTokenizer`) as space-joined tokens. Queries
are quoted terms joined with OR, so the query parser never sees user syntax.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ClassVar, Sequence

from retrievers.index import Hit, check_k, settle_ties
from retrievers.sparse.terms import QuotedOr, unicode_words
from retrievers.identity.declare import declare

_LOCKS = (".tantivy-meta.lock", ".tantivy-writer.lock")


@declare("retrievers.sparse.tantivy_bm25.TantivyIndex")
@dataclass
class TantivyIndex:
    """A single-segment tantivy index in a private directory; saved as a copy of it."""

    tokenizer_name: str = "default"
    pretokenizer: Callable[[str], list[str]] | None = None
    heap_bytes: int = 64_000_000

    input: ClassVar[str] = "text"

    def __post_init__(self) -> None:
        self._ids: list[str] = []
        self._index = None
        self._dir: tempfile.TemporaryDirectory | None = None
        self._query = QuotedOr(self.pretokenizer or unicode_words)

    def _schema(self):
        import tantivy

        sb = tantivy.SchemaBuilder()
        sb.add_text_field("body", stored=False, tokenizer_name=self.tokenizer_name)
        sb.add_integer_field("row", stored=True, indexed=False)
        return sb.build()

    def build(self, ids: Sequence[str], docs: Sequence[str]) -> None:
        import tantivy

        self._ids = list(ids)
        self._dir = tempfile.TemporaryDirectory(prefix="hermes-tantivy-")
        index = tantivy.Index(self._schema(), path=self._dir.name)
        writer = index.writer(heap_size=self.heap_bytes, num_threads=1)  # one segment, fixed order
        for i, doc in enumerate(docs):
            text = " ".join(self.pretokenizer(doc)) if self.pretokenizer else doc
            writer.add_document(tantivy.Document(body=text, row=i))
        writer.commit()
        writer.wait_merging_threads()
        (Path(self._dir.name) / "hermes_ids.json").write_text(json.dumps(self._ids))
        self._open(Path(self._dir.name))

    def _open(self, path: Path) -> None:
        import tantivy

        self._index = tantivy.Index.open(str(path))
        self._index.reload()
        self._searcher = self._index.searcher()

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        k = check_k(k)
        return [self._search_one(q, k) for q in queries]

    def _search_one(self, query: str, k: int) -> list[Hit]:
        expr = self._query(query)
        if not expr or not self._ids:
            return []
        parsed = self._index.parse_query(expr, ["body"])
        searcher = self._searcher

        def fetch(want: int) -> list[Hit]:
            hits = searcher.search(parsed, limit=want).hits
            return [(self._ids[searcher.doc(addr)["row"][0]], float(score)) for score, addr in hits]

        return settle_ties(fetch, k, len(self._ids))

    def save(self, path: Path) -> None:
        if self._dir is None:
            raise RuntimeError("tantivy index: build or load before save")
        path.mkdir(parents=True, exist_ok=True)
        shutil.copytree(self._dir.name, path, dirs_exist_ok=True, ignore=shutil.ignore_patterns(*_LOCKS))

    def load(self, path: Path) -> None:
        """Open a private copy: opening writes lock files, and a saved folder (e.g. a checksummed
        cache entry) must stay exactly as saved."""
        self._dir = tempfile.TemporaryDirectory(prefix="hermes-tantivy-")
        shutil.copytree(path, self._dir.name, dirs_exist_ok=True, ignore=shutil.ignore_patterns(*_LOCKS))
        self._ids = json.loads((path / "hermes_ids.json").read_text())
        self._open(Path(self._dir.name))
