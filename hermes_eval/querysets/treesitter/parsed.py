"""The Go, Rust, JavaScript, TypeScript, Java and C files of a corpus parsed with tree-sitter."""
from __future__ import annotations

from typing import Iterable, Iterator

from hermes_eval.core.corpus import Corpus, CorpusFile
from hermes_eval.corpus.grammars import parse
from hermes_eval.querysets.treesitter.definitions import FINDERS, TsDef, definitions


def parsed_files(corpus: Corpus, languages: Iterable[str],
                 skipped: dict[str, int]) -> Iterator[tuple[CorpusFile, object, list[TsDef]]]:
    """(file, root node, definitions) for each file of ``languages`` that has a definition
    finder; a file tree-sitter parses only with errors counts as ``parse_error`` and is left out."""
    wanted = set(languages) & set(FINDERS)
    for f in corpus.files:
        if f.language not in wanted:
            continue
        tree = parse(f.text, f.language, f.path)
        if tree is None:
            continue
        if tree.root_node.has_error:
            skipped["parse_error"] = skipped.get("parse_error", 0) + 1
            continue
        yield f, tree.root_node, definitions(tree.root_node, f.language, f.path)
