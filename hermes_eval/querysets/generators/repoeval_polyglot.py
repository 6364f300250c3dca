"""RepoEval-style function-level tasks from Go, Rust, JavaScript, TypeScript, Java and C code, judged as
the Python ``repoeval`` set is: query = the left context before the function body (``holes.left_context``),
``exclude`` = the body and everything after it in that file, gold = the definitions of the
repository symbols the body uses, resolved with tree-sitter (``ts_resolve.py``: within the file,
across the Go package, through Rust ``use crate::...`` / ``super::`` / ``self::`` paths and JS/TS
relative imports; Java types across the package and methods of the enclosing class; C names of
the file or of the one file defining them). Java and C when ``languages`` lists them
(``queryset=repoeval_function_polyglot_java_c``). Unresolvable names are not gold; a task left with no gold is skipped and
counted (``no_repo_symbol``, ``gold_after_hole``, ``gold_in_query_context``), as are files
tree-sitter cannot parse cleanly (``parse_error``). Every task carries ``meta.language`` and
``meta.answer_in_prompt`` with prompt_answer.py's reasons: ``symbols_in_prompt`` (every gold
symbol is already used by code on the prompt's fully visible lines inside a function) and
``line_repeated``. Sampling is balanced over languages, then repositories.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from hermes_eval.core import Query, Span
from hermes_eval.core.corpus import Corpus
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.holes import Hole, HoleRules
from hermes_eval.querysets.generators.prompt_answer import LINE_REPEATED, SYMBOLS_IN_PROMPT, first_full_line, line_repeated
from hermes_eval.querysets.generators.manifest import manifest
from hermes_eval.querysets.sampling import balanced_sample, unique_texts
from hermes_eval.querysets.generators.completion import HoleQueries, Judgement, n_lines
from hermes_eval.querysets.treesitter.definitions import FINDERS, TsDef
from hermes_eval.querysets.treesitter.holes import function_body_holes
from hermes_eval.querysets.treesitter.index import RepoIndex
from hermes_eval.querysets.treesitter.parsed import parsed_files
from hermes_eval.querysets.treesitter.resolve import used_definitions, used_on_lines
from retrievers.identity.declare import declare

LANGUAGES = ("go", "rust", "javascript", "typescript")  # what a config listing no languages reads


@dataclass(frozen=True)
class HoleContext:
    """What judging one hole needs: the repository index and the function whose body it is."""

    index: RepoIndex
    fn: TsDef


@declare("hermes_eval.querysets.repoeval_polyglot.PolyglotRepoEvalQueries")
@dataclass(frozen=True)
class PolyglotRepoEvalQueries(HoleQueries):
    """Generator config (function level only)."""

    level: str = "function"
    languages: tuple[str, ...] = LANGUAGES
    drop_gold_in_context: bool = True
    answer_line_min_chars: int = 25
    drop_answer_in_prompt: bool = False

    protocol: ClassVar[str] = "repoeval"

    def judge(self, hole: Hole, first: int, total: int, ctx: HoleContext) -> Judgement:
        defs = used_definitions(ctx.index, ctx.fn, hole.start, hole.end)
        if not defs:
            return "no_repo_symbol"
        after = [d for d in defs if not (d.path == hole.path and d.end >= hole.start)]
        if not after:
            return "gold_after_hole"
        fair = [d for d in after if not (self.drop_gold_in_context and d.path == hole.path
                                         and d.start < hole.start and d.end >= first)]
        if not fair:
            return "gold_in_query_context"
        gold = tuple(sorted({Span(d.path, d.start, d.end) for d in fair}))
        symbols = sorted({f"{d.path}:{d.symbol}" for d in fair})
        return gold, (Span(hole.path, hole.start, max(hole.end, total)),), {
            "symbols": symbols, "language": ctx.index.files[hole.path].file.language, "function": ctx.fn.symbol}

    def review(self, query: Query, hole: Hole, lines: list[str], ctx: HoleContext) -> Query | str:
        """Flag (or drop) a task whose answer is already in its prompt."""
        shown = first_full_line(query.query, lines, query.meta["context_start"])
        used = {f"{d.path}:{d.symbol}" for d in used_on_lines(ctx.index, hole.path, shown, hole.start - 1)}
        reason = SYMBOLS_IN_PROMPT if set(query.meta["symbols"]) <= used else \
            LINE_REPEATED if line_repeated(query.query, query.meta["ground_truth"], self.answer_line_min_chars) else None
        if reason is not None and self.drop_answer_in_prompt:
            return "answer_in_prompt"
        flags: dict = {"answer_in_prompt": reason is not None}
        if reason is not None:
            flags["answer_in_prompt_reason"] = reason
        return replace(query, meta=dict(query.meta, **flags))

    def generate(self, corpus: Corpus, name: str) -> QuerySet:
        if self.level != "function":
            raise UserError(f"queryset.generator.level={self.level!r}: the polyglot tasks are function-level only")
        unknown = sorted(set(self.languages) - set(FINDERS))
        if unknown:
            raise UserError(f"queryset.generator.languages: {unknown} are not parsed here; use some of {sorted(FINDERS)}")
        rules = HoleRules(self.min_target_chars, self.max_hole_lines, self.min_body_lines, self.max_body_lines)
        skipped: dict[str, int] = {"parse_error": 0}
        by_repo: dict[str, list] = {}
        for parsed in parsed_files(corpus, self.languages, skipped):
            by_repo.setdefault(parsed[0].repo, []).append(parsed)
        candidates: list[Query] = []
        holes = 0
        for repo in sorted(by_repo):
            index = RepoIndex(by_repo[repo])
            for f, _, defs in by_repo[repo]:
                lines = f.text.split("\n")
                total = n_lines(f.text)
                for hole, fn in function_body_holes(f.path, f.repo, defs, rules):
                    holes += 1
                    got = self.query_for(hole, lines, total, HoleContext(index, fn))
                    if isinstance(got, str):
                        skipped[got] = skipped.get(got, 0) + 1
                    else:
                        candidates.append(got)
        unique, skipped["duplicate_text"] = unique_texts(candidates)
        chosen = balanced_sample(unique, self.max_queries, self.seed)
        per_language: dict[str, int] = {}
        for q in chosen:
            per_language[q.meta["language"]] = per_language.get(q.meta["language"], 0) + 1
        return QuerySet(name=name, queries=tuple(chosen), manifest=manifest(
            f"{self.protocol}-{self.level}-polyglot", self.version, self.seed, self.params(), corpus,
            {"holes": holes, "candidates": len(candidates), "queries": len(chosen)}, skipped,
            protocol=self.protocol, leaks_by_design=self.leaks, per_language=dict(sorted(per_language.items()))))
