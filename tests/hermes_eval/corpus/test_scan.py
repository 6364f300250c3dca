"""Scanner: what it skips, what it keeps, and the fingerprint."""
from __future__ import annotations

import os

import pytest

from hermes_eval.corpus import load_corpus
from hermes_eval.core.errors import UserError


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "mod.py").write_text("def f():\n    return 1\n")
    (root / "pkg" / "lib.js").write_text("function g() { return 2; }\n")
    (root / "README.md").write_text("# Title\n\ntext\n")
    for skipped in (".git", "node_modules", ".venv", "build", "__pycache__", "x.egg-info"):
        (root / skipped).mkdir()
        (root / skipped / "junk.py").write_text("x = 1\n")
    (root / ".hidden.py").write_text("secret = 1\n")
    (root / "blob.py").write_bytes(b"\x00\x01\x02binary")
    (root / "latin1.py").write_bytes("caf\xe9 = 1\n".encode("latin-1"))
    (root / "big.py").write_text("x = 1\n" * 200_000)
    (root / "image.png").write_bytes(b"\x89PNG")
    outside = tmp_path / "outside.py"
    outside.write_text("leak = 1\n")
    os.symlink(outside, root / "link_out.py")
    os.symlink(root, root / "pkg" / "loop")
    return root


def test_scanner_keeps_source_and_skips_the_rest(tree):
    c = load_corpus([str(tree)], name="t")
    assert [f.path for f in c.files] == ["README.md", "pkg/lib.js", "pkg/mod.py"]
    assert {f.path: f.language for f in c.files} == {"README.md": "markdown", "pkg/lib.js": "javascript",
                                                       "pkg/mod.py": "python"}
    assert c.skipped["binary"] == 1 and c.skipped["not_utf8"] == 1 and c.skipped["too_large"] == 1
    assert c.skipped["symlink_outside_root"] == 1 and c.skipped["hidden"] == 1
    assert c.skipped["skipped_dir"] >= 6


def test_fingerprint_changes_with_content_and_is_stable(tree):
    a = load_corpus([str(tree)]).fingerprint
    assert load_corpus([str(tree)]).fingerprint == a
    (tree / "pkg" / "mod.py").write_text("def f():\n    return 2\n")
    assert load_corpus([str(tree)]).fingerprint != a


def test_installed_distribution_source(tmp_path):
    c = load_corpus(["pkg:requests"], cache_dir=tmp_path)
    paths = [f.path for f in c.files]
    assert "requests/api.py" in paths and all(p.startswith("requests/") for p in paths)
    assert {f.repo for f in c.files} == {"requests"}


@pytest.mark.parametrize("spec,needle", [("/no/such/dir", "does not exist"),
                                         ("pkg:no-such-distribution-xyz", "not installed"),
                                         ("pypi:requests", "must pin a version")])
def test_bad_sources_name_the_fix(tmp_path, spec, needle):
    with pytest.raises(UserError, match=needle):
        load_corpus([spec], cache_dir=tmp_path)


def test_empty_corpus_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="no indexable files"):
        load_corpus([str(tmp_path / "empty")])


def test_a_file_behind_an_inner_symlink_is_indexed_once_under_its_real_path(tmp_path):
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "real.py").write_text('def f():\n    """Return one for the caller."""\n    return 1\n')
    os.symlink(root / "pkg" / "real.py", root / "a_alias.py")  # sorts before the real file
    os.symlink("real.py", root / "pkg" / "z_alias.py")          # relative link
    os.symlink(root / "missing.py", root / "dangling.py")
    c = load_corpus([str(root)], name="t")
    assert [f.path for f in c.files] == ["pkg/real.py"]
    assert c.skipped["symlink_duplicate"] == 2 and c.skipped["broken_symlink"] == 1


def test_a_utf8_bom_is_dropped_and_the_file_parses(tmp_path):
    import ast

    root = tmp_path / "repo"
    root.mkdir()
    (root / "bom.py").write_bytes(b"\xef\xbb\xbf" + b'def f():\n    """Add one to the value given."""\n')
    (f,) = load_corpus([str(root)], name="t").files
    assert not f.text.startswith("\ufeff")
    assert ast.get_docstring(ast.parse(f.text).body[0]) == "Add one to the value given."
