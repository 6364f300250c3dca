"""cAST through the ``astchunk`` package: AST nodes packed greedily up to a size in
non-whitespace characters, recursing into nodes that are too big (Python, Java, C#, TypeScript).

astchunk builds its tree-sitter parsers from the per-language grammar wheels
(``tree_sitter_python`` ...), so it runs offline; TypeScript uses the TSX grammar. We run its
steps (assign nodes to windows, add ``chunk_overlap`` nodes of overlap, build ASTChunks) and keep
its metadata in ``Chunk.meta``, with two corrections: its line numbers are 0-based tree-sitter
rows (we store 1-based), and a node ending at column 0 of a row really ends on the row before.
The text is the file's own lines, not astchunk's rebuilt text, and ``chunk_expansion`` headers
are not prepended (``meta["ancestors"]`` keeps them for an embedder that wants them). Other
languages, and any line astchunk leaves out (a leaf bigger than the cap), go to the fallback.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker, Piece, assemble, split_lines
from retrievers.chunkers.heuristic import HeuristicChunker
from retrievers.identity.declare import declare

# our language name -> astchunk's
LANGUAGES: dict[str, str] = {"python": "python", "java": "java", "csharp": "csharp",
                             "typescript": "typescript"}


@lru_cache(maxsize=16)
def _builder(language: str, max_chunk_size: int):
    from astchunk import ASTChunkBuilder

    return ASTChunkBuilder(max_chunk_size=max_chunk_size, language=language, metadata_template="default")


def _end_row(node) -> int:
    row, col = node.end_point
    return row - 1 if col == 0 and row > node.start_point.row else row


def _name(node) -> str | None:
    """The node's ``name`` field, looking through decorators and ``export`` wrappers."""
    name = node.child_by_field_name("name")
    if name is not None:
        return name.text.decode("utf-8", "replace")
    inner = node.child_by_field_name("definition") or node.child_by_field_name("declaration")
    return _name(inner) if inner is not None else None


@declare("retrievers.chunkers.cast.CASTChunker")
@dataclass(frozen=True)
class CASTChunker(Chunker):
    """astchunk's cAST for the languages it parses; ``fallback`` for the rest."""

    max_chunk_size: int = 1200
    chunk_overlap: int = 0
    fallback: HeuristicChunker = field(default_factory=HeuristicChunker)

    def native_languages(self) -> frozenset[str]:
        """The languages it cuts itself; a file of another goes to its ``fallback`` (chunkers/coverage.py)."""
        return frozenset(LANGUAGES)

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        if language not in LANGUAGES:
            return self.fallback.chunk(path, text, language)
        lines = split_lines(text)
        return assemble(path, lines, language, self._pieces(path, text, LANGUAGES[language]), self.fallback)

    def _pieces(self, path: str, text: str, language: str) -> list[Piece]:
        builder = _builder(language, self.max_chunk_size)
        tree = builder.parser.parse(text.encode("utf-8"))
        windows = list(builder.assign_tree_to_windows(code=text, root_node=tree.root_node))
        windows = builder.add_window_overlapping(windows, self.chunk_overlap)
        chunks = builder.convert_windows_to_chunks(windows, {"filepath": path}, chunk_expansion=False)
        out: list[Piece] = []
        for ch in chunks:
            nodes = [n.node for n in ch.ast_window]
            start = min(n.start_point.row for n in nodes) + 1
            end = max(_end_row(n) for n in nodes) + 1
            meta = {k: v for k, v in ch.metadata.items() if k != "filepath"}
            meta.update(start_line_no=start, end_line_no=end, line_count=end - start + 1,
                        ancestors=list(ch.chunk_ancestors))
            out.append(Piece(start, end, self._symbol(ch), meta))
        return out

    @staticmethod
    def _symbol(ch) -> str | None:
        """Dotted names of the enclosing definitions and of the first named node in the window."""
        first = ch.ast_window[0]
        names = [n for n in (_name(a) for a in first.ancestors) if n]
        own = next((n for n in (_name(x.node) for x in ch.ast_window) if n), None)
        if own:
            names.append(own)
        deduped = [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]
        return ".".join(deduped) or None
