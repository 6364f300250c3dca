"""The dependency rules in pyproject.toml ([tool.importlinter]) hold, so a broken contract fails pytest too."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept():
    exe = Path(sys.executable).parent / "lint-imports"
    assert exe.exists(), f"{exe} is missing; install the dev extra: pip install -e '.[dev]'"
    # lint-imports puts its working directory first on sys.path, so this checks this checkout
    proc = subprocess.run([str(exe), "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def _contracts() -> dict[str, dict]:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in cfg["contracts"]}


@pytest.mark.parametrize("contract_id,allowed", [("judge-needs-only-core", {"core"}),
                                                 ("core-is-the-base", set())])
def test_only_core_contracts_forbid_every_other_child(contract_id, allowed):
    """These two contracts name the forbidden children of hermes_eval (subpackages and modules such as
    api.py); a new one must join the list."""
    contract = _contracts()[contract_id]
    (source,) = contract["source_modules"]
    own = source.removeprefix("hermes_eval.")
    pkg = ROOT / "hermes_eval"
    children = ({p.parent.name for p in pkg.glob("*/__init__.py")}
                | {p.stem for p in pkg.glob("*.py") if p.name != "__init__.py"})
    forbidden = {m.removeprefix("hermes_eval.") for m in contract["forbidden_modules"]}
    missing = children - forbidden - allowed - {own}
    assert not missing, f"pyproject.toml contract {contract_id!r}: add {sorted(missing)} to forbidden_modules"
    assert not forbidden - children, f"contract {contract_id!r} names modules that do not exist"


@pytest.mark.parametrize("contract_id", ["querysets-rooms", "retrievers-rooms"])
def test_layers_contracts_place_every_room(contract_id):
    """Each subpackage and module of a layered container sits on a layer: a new room must be placed."""
    contract = _contracts()[contract_id]
    (container,) = contract["containers"]
    pkg = ROOT / Path(*container.split("."))
    children = ({p.parent.name for p in pkg.glob("*/__init__.py")}
                | {p.stem for p in pkg.glob("*.py") if p.name != "__init__.py"})
    placed = {name.strip() for layer in contract["layers"] for name in layer.split("|")}
    assert children == placed, f"{contract_id}: unplaced {sorted(children - placed)}, stale {sorted(placed - children)}"


def test_at_most_ten_loose_modules_at_the_top_of_retrievers():
    loose = sorted(p.name for p in (ROOT / "retrievers").glob("*.py"))
    assert len(loose) <= 10, loose


def import_cycles(graph) -> list[tuple[str, ...]]:
    """A shortest cycle through each module that lies on one, as ``(a, b, ..., a)``. Every module counts,
    a package's ``__init__`` included (acyclic_siblings compares only the children of a package, so a
    circle through the package itself passes it). A module importing itself is no circle (gate/probe.py,
    run as a script, imports the copy of itself in the tree it measures)."""
    imports = {m: sorted(graph.find_modules_directly_imported_by(m) - {m}) for m in graph.modules}
    cycles = []
    for start in sorted(imports):
        came_from: dict[str, str] = {}
        frontier = [start]
        while frontier and start not in came_from:
            step = []
            for module in frontier:
                for imported in imports.get(module, ()):
                    if imported not in came_from:
                        came_from[imported] = module
                        step.append(imported)
            frontier = step
        if start in came_from:  # walk the path back from start to start
            path = [start]
            while len(path) == 1 or path[-1] != start:
                path.append(came_from[path[-1]])
            cycles.append(tuple(reversed(path)))
    return cycles


def test_no_module_imports_itself_round_a_cycle():
    import grimp

    graph = grimp.build_graph("hermes_eval", "retrievers", cache_dir=None)
    assert len(graph.modules) > 200  # the project's modules were found, not an empty graph
    assert import_cycles(graph) == []


def test_the_cycle_finder_sees_a_circle_through_a_package_init():
    import grimp

    graph = grimp.ImportGraph()
    for importer, imported in [("pkg", "pkg.api"), ("pkg.api", "pkg.chain"), ("pkg.chain", "pkg"),
                               ("pkg.chain", "pkg.core")]:
        graph.add_import(importer=importer, imported=imported)
    assert import_cycles(graph) == [("pkg", "pkg.api", "pkg.chain", "pkg"), ("pkg.api", "pkg.chain", "pkg", "pkg.api"),
                                    ("pkg.chain", "pkg", "pkg.api", "pkg.chain")]
    graph.remove_import(importer="pkg.chain", imported="pkg")
    assert import_cycles(graph) == []
