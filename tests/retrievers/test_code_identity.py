"""Cache keys hold code identity: editing a chunker or anything it imports from the project changes
it, editing unrelated code does not; backends' tokenizers and library versions are part of it."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from retrievers.code_identity import closure, code_identity, library_version, target_modules

ROOT = Path(__file__).resolve().parents[2]
CHUNKER = {"_target_": "retrievers.chunkers.python_ast.PythonASTChunker",
           "fallback": {"_target_": "retrievers.chunkers.lines.LineChunker"}}


def _identity_in(tree: Path) -> str:
    code = ("from retrievers.code_identity import config_code_identity as c; "
            f"print(c({CHUNKER!r}, 'retrievers.chunkers.base'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, env={"PYTHONPATH": str(tree)},
                         capture_output=True, text=True, timeout=60, check=True)
    return out.stdout.strip()


def test_a_change_in_the_chunker_or_its_project_imports_changes_the_identity(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "retrievers", tree / "retrievers", ignore=shutil.ignore_patterns("__pycache__"))
    before = _identity_in(tree)
    assert _identity_in(tree) == before  # stable
    unrelated = tree / "retrievers" / "dense" / "exact.py"
    unrelated.write_text(unrelated.read_text() + "\n# unrelated edit\n")
    assert _identity_in(tree) == before
    imported = tree / "retrievers" / "chunkers" / "base.py"  # reached only through imports
    imported.write_text(imported.read_text() + "\n# a change the chunker imports\n")
    after = _identity_in(tree)
    assert after != before
    chunker = tree / "retrievers" / "chunkers" / "python_ast.py"
    chunker.write_text(chunker.read_text().replace("max_lines", "max_lines ", 1))
    assert _identity_in(tree) not in (before, after)


def test_a_backend_config_reaches_its_tokenizer_and_the_libraries_it_calls():
    leg = {"_target_": "retrievers.sparse.rank_bm25.RankBM25Index",
           "tokenizer": {"_target_": "retrievers.sparse.tokenizer.CodeTokenizer"}}
    assert target_modules(leg) == {"retrievers.sparse.rank_bm25", "retrievers.sparse.tokenizer"}
    sources, libs = closure(target_modules(leg))
    assert "retrievers.index" in sources and {"rank_bm25", "numpy"} <= libs
    import numpy

    assert library_version("numpy") == f"numpy=={numpy.__version__}"
    assert code_identity("retrievers.sparse.rank_bm25") != code_identity("retrievers.sparse.bm25s")
