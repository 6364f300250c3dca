"""The corpus rules of the published SWE-bench retrieval protocols (``datasets import swebench ...
protocol=NAME``): which files of a snapshot are documents. Each is read from the authors' code.

- ``locagent``: LocAgent's and SweRank's function corpus: ``.py`` files only, test files dropped by
  the globs of LocAgent's retriever (``plugins/location_tools/retriever/bm25_retriever.py`` in
  gersteinlab/LocAgent: ``**/test/**``, ``**/tests/**``, ``**/test_*.py``, ``**/*_test.py``); the
  documents are functions (``chunker=functions``), files ranked by their best function.
- ``coderag-bench``: CodeRAG-Bench's SWE-bench corpus (``retrieval/create/swebench_repo.py`` in
  code-rag-bench/code-rag-bench): every ``.py`` file whose path, lower-cased and split on space,
  ``_``, ``/`` and ``.``, has no word ``test``, ``tests`` or ``testing`` (its ``is_test``); whole files.
- ``mteb``: MTEB's SWEbenchCodeRetrieval (``mteb/tasks/retrieval/code/swebench_code_retrieval.py`` in
  embeddings-benchmark/mteb, dataset ``embedding-benchmark/SWEbenchCodeRetrieval`` revision
  ``440b0e73``, added by mteb PR #4365): one corpus pooled over every instance's snapshot, ``.py``
  files, tests included, identical files kept once ("content-hash deduplicated"), whole files; every
  query searches the whole pool (no snapshot scope); relevant = the golden patch's files.
"""
from __future__ import annotations

from hermes_eval.core.errors import UserError
from hermes_eval.corpus.protocol import Protocol

CODERAG_TEST_WORDS = ("test", "tests", "testing")
_SEPARATORS = (" ", "_", "/", ".")


def _any_case(word: str) -> str:
    return "".join(f"[{c.lower()}{c.upper()}]" for c in word)


def word_globs(words: tuple[str, ...]) -> tuple[str, ...]:
    """Globs (``*`` crosses folders) matching a corpus path whose ``rel`` has one of ``words`` as a whole
    word between separators, in any case: CodeRAG-Bench's ``is_test``. A word always has a separator
    after it (every document ends in ``.py``); before it, a separator or the start of the path (a
    corpus of one snapshot has no ``NAME@COMMIT8/`` prefix)."""
    return tuple(f"{start}{_any_case(w)}{after}*" for w in words for start in ("", *(f"*{b}" for b in _SEPARATORS))
                 for after in _SEPARATORS)


PROTOCOLS = {p.name: p for p in (
    Protocol("locagent", ("python",), ("test/*", "*/test/*", "tests/*", "*/tests/*", "test_*.py", "*/test_*.py",
                                       "*_test.py"),
             "gersteinlab/LocAgent plugins/location_tools/retriever/bm25_retriever.py"),
    Protocol("coderag-bench", ("python",), word_globs(CODERAG_TEST_WORDS),
             "code-rag-bench/code-rag-bench retrieval/create/swebench_repo.py (is_test, list_files)"),
    Protocol("mteb", ("python",), (),
             "embeddings-benchmark/mteb mteb/tasks/retrieval/code/swebench_code_retrieval.py "
             "(embedding-benchmark/SWEbenchCodeRetrieval@440b0e73, mteb PR #4365)", pooled=True, run=("dedupe=true",)),
)}


def protocol(name: str | None) -> Protocol | None:
    """The protocol called ``name`` (None for ours: every file of the snapshot), or a one-line error."""
    if not name:
        return None
    if name not in PROTOCOLS:
        raise UserError(f"protocol={name!r} is not a SWE-bench protocol: use one of {', '.join(PROTOCOLS)}")
    return PROTOCOLS[name]
