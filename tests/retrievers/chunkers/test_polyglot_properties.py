"""Property tests of every chunker in conf/chunker on real Go, Rust, JavaScript, TypeScript, markdown,
Java and C files (and Python from the installed `requests`): any window of lines of a real file, cut
anywhere (mid-function, mid-comment, mid-fence), is covered line for line by chunks that stay
inside the file, and chunking it twice gives the same chunks."""
from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunker_samples import CONFIGS, COVERING, REAL_FILES, check_invariants, from_config, lines_of, real_file


def _python_file() -> tuple[str, str]:
    import requests.sessions

    return "requests/sessions.py", Path(inspect.getfile(requests.sessions)).read_text(encoding="utf-8")


FILES = {**{lang: real_file(lang) for lang in REAL_FILES}, "python": _python_file()}
LANGUAGES = sorted(FILES)


@st.composite
def windows(draw) -> tuple[str, str, str]:
    """(language, path, text): a window of consecutive lines of a real file, with or without the
    final newline."""
    language = draw(st.sampled_from(LANGUAGES))
    path, text = FILES[language]
    lines = lines_of(text)
    start = draw(st.integers(0, len(lines) - 1))
    end = draw(st.integers(start + 1, min(len(lines), start + 160)))
    body = "\n".join(lines[start:end]) + ("\n" if draw(st.booleans()) else "")
    return language, path, body


@pytest.mark.parametrize("name", CONFIGS)
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(windows())
def test_every_chunker_covers_any_window_of_a_real_file(name, window):
    language, path, text = window
    check_invariants(from_config(name), path, text, language)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", COVERING)
def test_every_chunker_covers_each_whole_real_file(name, language):
    path, text = FILES[language]
    chunks = check_invariants(from_config(name), path, text, language)
    n = len(lines_of(text))
    assert chunks[0].start >= 1 and max(c.end for c in chunks) <= n
    assert min(c.start for c in chunks) == next(i for i, line in enumerate(lines_of(text), 1) if line.strip())


@pytest.mark.parametrize("name, language, symbols", [
    ("treesitter", "go", {"newRouteRegexp", "routeRegexp.Match"}),
    ("treesitter", "rust", {"Context<T, E> for Result<T, E>", "Display for ContextError<C, E>"}),
    ("treesitter", "javascript", {"Option", "Option.argParser"}),
    ("cast", "typescript", {"Reaction", "Reaction.track"}),
    ("treesitter", "typescript", {"IReactionPublic", "Reaction.track", "runReactions"}),
    ("js_regex", "typescript", {"Reaction", "IReactionDisposer"}),
    ("markdown", "markdown", {"ws: a Node.js WebSocket library > Installing"}),
    ("dispatch", "go", {"newRouteRegexp"}),
    ("dispatch", "markdown", {"ws: a Node.js WebSocket library > API docs"}),
    ("treesitter_java_c", "java", {"ApplicationMapping.recycle", "ApplicationMapping.MappingImpl"}),
    ("treesitter_java_c", "c", {"slowlogInit", "slowlogReset"}),
    ("cast", "java", {"ApplicationMapping.getHttpServletMapping", "ApplicationMapping.MappingImpl"}),
])
def test_structural_chunkers_name_the_real_definitions(name, language, symbols):
    path, text = FILES[language]
    assert symbols <= {c.symbol for c in from_config(name).chunk(path, text, language)}
