"""Doc comment -> definition queries in every language with doc comments: Python docstrings
(``docstrings.py``), Go, Rust, JavaScript/TypeScript, Java (Javadoc) and C (the comment right above)
doc comments (``treesitter/doc_comments.py``). Java and C are read when ``languages`` lists them
(``queryset=doc_comments_java_c``), not by default: the key of a config listing none is unchanged.

Query = the comment's first paragraph of prose; gold = the definition's lines (Rust attributes
included, the comment itself not: it sits above). The whole doc comment is recorded as the
query's ``mask`` (and so its origin): the runner removes it from the indexed corpus
(``corpus/masking.py``: comment nodes inside the span go, code stays), otherwise the query
retrieves itself. Each query carries ``meta.language``; sampling is balanced over languages,
then repositories. Skipped and counted: comments under ``min_words`` words (``short_comment``),
tool markers / licence / generated banners (``boilerplate``), JSDoc with only tags
(``tags_only``), doc comments over ``max_comment_lines`` (``long_comment``), files tree-sitter
cannot parse cleanly (``parse_error``: definitions there would be guesses), texts shared by
several definitions (``duplicate_text``), and the remaining texts found anywhere else in the
corpus outside their own comment (``text_elsewhere``: compared as prose, ``doc_comment_text.prose_view``), such
as the same doc repeated above a re-export, which would otherwise leak into the index.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from hermes_eval.core import Query, Span
from hermes_eval.core.corpus import Corpus
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.treesitter.doc_comments import BOILERPLATE, PROSE, find_doc_comment, prose_view
from hermes_eval.querysets.generators.docstrings import docstring_candidates
from hermes_eval.querysets.generators.manifest import manifest
from hermes_eval.querysets.sampling import balanced_sample, unique_texts
from hermes_eval.querysets.treesitter.parsed import parsed_files
from retrievers.identity.declare import declare

# what a config listing no languages reads; READABLE: every language with a doc comment reader
LANGUAGES = ("python", "go", "rust", "javascript", "typescript")
READABLE = ("python", *PROSE)


@declare("hermes_eval.querysets.doc_comments.DocCommentQueries")
@dataclass(frozen=True)
class DocCommentQueries:
    """Generator config; ``generate(corpus, name)`` returns a QuerySet."""

    languages: tuple[str, ...] = LANGUAGES
    min_words: int = 4
    max_comment_lines: int = 80
    max_queries: int = 300
    seed: int = 0
    version: str = "1"

    def candidates(self, corpus: Corpus, skipped: dict[str, int]) -> list[Query]:
        """Every doc-comment query of ``corpus`` in ``languages`` (before de-duplication)."""
        unknown = sorted(set(self.languages) - set(READABLE))
        if unknown:
            raise UserError(f"queryset.generator.languages: {unknown} have no doc comment reader; "
                            f"use some of {list(READABLE)}")
        out: list[Query] = []
        if "python" in self.languages:
            py_skipped: dict[str, int] = {}
            for q in docstring_candidates(corpus, self.min_words, py_skipped):
                out.append(replace(q, meta=dict(q.meta, language="python")))
            skipped["short_comment"] = skipped.get("short_comment", 0) + py_skipped.pop("short_docstring", 0)
            for k, v in py_skipped.items():
                skipped[k] = skipped.get(k, 0) + v
        langs = tuple(lang for lang in self.languages if lang != "python")
        for f, root, defs in parsed_files(corpus, langs, skipped):
            lines = f.text.split("\n")
            for d in defs:
                got = self._query(f, lines, d)
                if isinstance(got, str):
                    skipped[got] = skipped.get(got, 0) + 1
                elif got is not None:
                    out.append(got)
        return out

    def _query(self, f, lines: list[str], d) -> Query | str | None:
        doc = find_doc_comment(d.anchor, lines, f.language)
        if doc is None:
            return None
        if doc.end - doc.start + 1 > self.max_comment_lines:
            return "long_comment"
        text = PROSE[f.language](doc.texts)
        if not text:
            return "tags_only"
        if BOILERPLATE.search(text):
            return "boilerplate"
        if len(text.split()) < self.min_words:
            return "short_comment"
        mask = [Span(f.path, doc.start, doc.end).to_dict()]
        return Query(qid=f"{f.path}:{d.start}:{d.symbol}", query=text, gold=(Span(f.path, d.start, d.end),),
                     kind="doc_comment", repo=f.repo,
                     meta={"symbol": d.symbol, "language": f.language, "definition": d.kind, "mask": mask,
                           "starts_with_symbol": text.split()[0].strip(".,:") == d.name})

    @staticmethod
    def _not_elsewhere(corpus: Corpus, queries: list[Query]) -> list[Query]:
        """The queries whose prose occurs nowhere in the corpus but in their own comment."""
        views = {f.path: prose_view(f.text) for f in corpus.files}
        whole = "\n".join(views.values())
        lines = {f.path: f.text.split("\n") for f in corpus.files}
        kept = []
        for q in queries:
            text = prose_view(q.query)
            own = "".join(prose_view("\n".join(lines[m["path"]][m["start"] - 1:m["end"]]))
                          for m in q.meta["mask"])
            if whole.count(text) - own.count(text) <= 0:
                kept.append(q)
        return kept

    def generate(self, corpus: Corpus, name: str) -> QuerySet:
        skipped: dict[str, int] = {k: 0 for k in ("short_comment", "boilerplate", "tags_only", "long_comment",
                                                  "parse_error", "text_elsewhere", "duplicate_text")}
        candidates = self.candidates(corpus, skipped)
        unique, skipped["duplicate_text"] = unique_texts(candidates)
        alone = self._not_elsewhere(corpus, unique)
        skipped["text_elsewhere"] = len(unique) - len(alone)
        chosen = balanced_sample(alone, self.max_queries, self.seed)
        per_language: dict[str, int] = {}
        for q in chosen:
            per_language[q.meta["language"]] = per_language.get(q.meta["language"], 0) + 1
        return QuerySet(name=name, queries=tuple(chosen), manifest=manifest(
            "doc_comment", self.version, self.seed,
            {"languages": list(self.languages), "min_words": self.min_words,
             "max_comment_lines": self.max_comment_lines, "max_queries": self.max_queries}, corpus,
            {"candidates": len(candidates), "queries": len(chosen)}, skipped,
            per_language=dict(sorted(per_language.items()))))
