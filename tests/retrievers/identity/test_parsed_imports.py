"""Import statements kept on disk by content: what a second process reads back equals what parsing gives, for
every module of the project; an entry is read back, not parsed again; a torn or foreign file is parsed anew;
and a part's library closure is the same with the store as without one."""
from __future__ import annotations

import ast
import json
from pathlib import Path

from retrievers.identity import libraries, parsed_imports
from retrievers.identity.parsed_imports import Store

ROOT = Path(__file__).resolve().parents[3]


def _walk_by_hand(source: bytes) -> list[tuple]:
    """An independent reading of the statements: the import nodes, each rendered to its own tuple."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if type(node).__name__ == "Import":
            out += [("import", a.name) for a in node.names]
        elif type(node).__name__ == "ImportFrom":
            out.append(("from", node.level, node.module or "", tuple(a.name for a in node.names)))
    return out


def test_every_project_module_reads_back_what_parsing_gives(tmp_path):
    files = sorted((ROOT / "retrievers").rglob("*.py")) + sorted((ROOT / "hermes_eval").rglob("*.py"))
    assert len(files) > 100
    first = Store(tmp_path / "imports.json")
    parsed = {f: first.statements(f.read_bytes()) for f in files}
    first.flush()
    second = Store(tmp_path / "imports.json")
    for f in files:
        assert second.statements(f.read_bytes()) == parsed[f] == _walk_by_hand(f.read_bytes()), f
    assert not second._new  # nothing was parsed by the second store


def test_an_entry_is_read_back_and_a_torn_file_is_parsed_anew(tmp_path, monkeypatch):
    path = tmp_path / "imports.json"
    source = b"import os\nfrom . import sibling\nfrom ..pkg.mod import a, b\n"
    store = Store(path)
    assert store.statements(source) == [("import", "os"), ("from", 1, "", ("sibling",)),
                                        ("from", 2, "pkg.mod", ("a", "b"))]
    store.flush()
    data = json.loads(path.read_text())
    [digest] = data["entries"]
    data["entries"][digest] = [["import", "probe_only_in_the_file"]]
    path.write_text(json.dumps(data))
    monkeypatch.setattr(parsed_imports, "parse", lambda source: (_ for _ in ()).throw(AssertionError("parsed")))
    assert Store(path).statements(source) == [("import", "probe_only_in_the_file")]
    monkeypatch.undo()
    for torn in ("{not json", '{"format": 0, "entries": {}}', '{"format": 1, "entries": [1]}', "[]"):
        path.write_text(torn)
        assert Store(path).statements(source)[0] == ("import", "os")


def test_the_closure_is_the_same_with_and_without_a_stored_file(tmp_path, monkeypatch):
    modules = ["retrievers.sparse.rank_bm25", "retrievers.embedders.sentence_transformer", "hermes_eval.stages.chain"]
    stores = {"written": Store(tmp_path / "imports.json"), "unwritable": Store(tmp_path / "no" / "dir" / "x.json")}
    got = {}
    for name, store in stores.items():
        monkeypatch.setattr(libraries, "_STORE", store)
        libraries._module.cache_clear()
        got[name] = libraries.closure(modules)
        libraries._module.cache_clear()
        got[name + " again"] = libraries.closure(modules)  # the written store read back
    libraries._module.cache_clear()
    assert len({json.dumps([sorted(v[0].items()), sorted(v[1])]) for v in got.values()}) == 1
    assert {"numpy", "rank_bm25"} <= got["written"][1]
    assert (tmp_path / "imports.json").exists() and not (tmp_path / "no").exists()
