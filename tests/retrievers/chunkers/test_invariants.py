"""The chunker contract, property-tested over every chunker in conf/chunker (and small-size
variants that force every splitting path) on generated files in every language."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunker_samples import CONFIGS, REAL_FILES, ROOT, SNIPPETS, check_invariants, from_config, real_file

from retrievers.chunkers.base import Chunker
from retrievers.kinds import missing_members

# small sizes make every strategy split, recurse and fill gaps on tiny inputs
STRESSED: dict[str, dict] = {
    "lines": {"size": 3, "overlap": 1},
    "heuristic": {"max_chars": 60, "overlap_lines": 2},
    "hermes_python": {"max_chars": 60, "fallback.max_chars": 60},
    "js_regex": {"max_chars": 80, "fallback.max_chars": 50},
    "cast": {"max_chunk_size": 25, "chunk_overlap": 1, "fallback.max_chars": 50},
    "treesitter": {"max_chars": 70, "fallback.max_chars": 50},
    "markdown": {"max_tokens": 12, "overlap_tokens": 4},
    "python_ast": {"max_lines": 4, "overlap": 1},
}
CHUNKERS = [(name, {}) for name in CONFIGS] + sorted(STRESSED.items())
IDS = [name if not over else f"{name}-small" for name, over in CHUNKERS]
LANGUAGES = sorted(SNIPPETS) + ["text"]
ODD_LINES = ["", "   ", "\t", "x" * 250, "}", "# Title", "```", "def", "fn f() {", "日本語のテキスト",
             "form\x0cfeed", "line\u2028separator", "  @decorator", "/* open comment", "'''", "-----"]
_chars = st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x00")


@st.composite
def source_files(draw) -> tuple[str, str]:
    """(language, text): a real snippet with lines dropped and odd lines mixed in, or noise."""
    language = draw(st.sampled_from(LANGUAGES))
    base = SNIPPETS.get(language, SNIPPETS["python"])[1].split("\n")
    real = st.lists(st.sampled_from(base + ODD_LINES), max_size=50)
    sliced = st.tuples(st.integers(0, len(base)), st.integers(0, len(base)), st.sets(st.integers(0, len(base))))
    kind = draw(st.sampled_from(["slice", "mix", "noise"]))
    if kind == "slice":
        a, b, drop = draw(sliced)
        lines = [line for i, line in enumerate(base[min(a, b):max(a, b)]) if i not in drop]
    elif kind == "mix":
        lines = draw(real)
    else:
        lines = draw(st.lists(st.text(_chars, max_size=30), max_size=20))
    text = "\n".join(lines) + ("\n" if draw(st.booleans()) else "")
    return language, text


@pytest.mark.parametrize("name, overrides", CHUNKERS, ids=IDS)
@settings(max_examples=35, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(source_files())
def test_contract_on_generated_files(name, overrides, source):
    language, text = source
    check_invariants(from_config(name, **overrides), f"dir/file.{language}", text, language)


@pytest.mark.parametrize("name, overrides", CHUNKERS, ids=IDS)
def test_contract_on_every_snippet(name, overrides):
    chunker = from_config(name, **overrides)
    for language, (path, text) in SNIPPETS.items():
        # a selective chunker (functions only) has no documents in a language it does not index
        assert check_invariants(chunker, path, text, language) or (chunker.selective and language != "python")


@pytest.mark.parametrize("name", CONFIGS)
def test_every_chunker_declares_its_capabilities(name):
    """``selective``, ``fallback`` and ``merge`` (the Chunker protocol), the protocol's defaults unless a
    chunker says otherwise: a fallback is itself a chunker, and merge keeps some of the chunker's own
    chunks (all of them, unchanged, unless it merges: centred windows keep identical texts once). What
    ``selective`` promises (coverage, or none) the contract tests check."""
    chunker = from_config(name)
    assert isinstance(chunker, Chunker) and missing_members(chunker, Chunker) == []
    assert isinstance(chunker.selective, bool) and chunker.selective == (name == "functions")
    assert chunker.fallback is None or missing_members(chunker.fallback, Chunker) == []
    chunks = [c for lang, (path, text) in sorted(SNIPPETS.items()) for c in chunker.chunk(path, text, lang)]
    kept = chunker.merge(chunks)
    assert {c.id for c in kept} <= {c.id for c in chunks}
    if type(chunker).merge is Chunker.merge:
        assert kept == chunks


@pytest.mark.parametrize("name", CONFIGS)
def test_contract_on_real_code(name):
    """Real code nobody here wrote: the installed `requests` package."""
    import requests

    chunker = from_config(name)
    folder = os.path.dirname(requests.__file__)
    for fname in sorted(os.listdir(folder)):
        if fname.endswith(".py"):
            with open(os.path.join(folder, fname), encoding="utf-8") as fh:
                check_invariants(chunker, f"requests/{fname}", fh.read(), "python")


@pytest.mark.parametrize("language", sorted(REAL_FILES))
@pytest.mark.parametrize("name, overrides", CHUNKERS, ids=IDS)
def test_contract_on_real_files_in_every_language(name, overrides, language):
    """Real Go, Rust, JavaScript, TypeScript, markdown (tests/retrievers/chunkers/polyglot/), Java and C
    (tests/slices/langs-java-c/), at
    the configured sizes and at the small sizes that force every split."""
    path, text = real_file(language)
    chunker = from_config(name, **overrides)
    assert check_invariants(chunker, path, text, language) or (chunker.selective and language != "python")


_IDS_SCRIPT = """
import json, sys
sys.path[:0] = [{tests!r}]
from chunker_samples import CONFIGS, SNIPPETS, from_config
out = {{}}
for name in CONFIGS:
    ch = from_config(name)
    out[name] = [c.id for lang, (path, text) in sorted(SNIPPETS.items()) for c in ch.chunk(path, text, lang)]
print(json.dumps(out, sort_keys=True))
"""


def test_ids_are_stable_across_processes():
    """Same input, other interpreter and hash seed: the same chunk ids."""
    script = _IDS_SCRIPT.format(tests=os.path.dirname(__file__))
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "987")]
    assert runs[0] == runs[1] and json.loads(runs[0])
