"""detect_language cuts name and suffix from the string exactly as PurePosixPath does."""
from __future__ import annotations

import random
from pathlib import PurePosixPath

from hermes_eval.corpus.languages import EXTENSIONS, FILENAMES, detect_language


def _by_pathlib(path: str) -> str | None:
    p = PurePosixPath(path)
    return FILENAMES.get(p.name) or EXTENSIONS.get(p.suffix.lower())


def test_detect_language_equals_the_pathlib_rule_on_file_paths():
    rng = random.Random(7)
    parts = ["src", "a.b", ".hidden", "pkg.v2", "x", "tests", "..", "Makefile"]
    names = ["mod.py", "MOD.PY", "Makefile", "Dockerfile", "CMakeLists.txt", ".py", "py.", "a.tar.gz", "noext",
             ".bashrc", "x.min.js", "setup.cfg", "weird..py", "a.", "..", "...py", "file.H", "README"]
    paths = [name for name in names] + ["/".join(rng.choices(parts, k=rng.randint(0, 4)) + [rng.choice(names)])
                                       for _ in range(5_000)]
    paths += [p + "/" for p in paths[:200]] + ["/" + p for p in paths[:200]]
    for path in paths:
        assert detect_language(path) == _by_pathlib(path), path
    assert detect_language("lib/Makefile") == "make" and detect_language("a/.py") is None
