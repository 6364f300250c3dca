"""No source file is over 400 lines (a module does one thing): every .py under the packages pyproject.toml ships
(``[tool.setuptools.packages.find] include``: hermes_eval, retrievers)."""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 400


def source_folders(root: Path = ROOT) -> list[Path]:
    """The top-level folders of the packages the project ships (their include patterns, ``NAME*``)."""
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    names = sorted({p.rstrip("*").split(".")[0] for p in patterns})
    return [root / n for n in names]


def too_long(folders: list[Path], limit: int = MAX_LINES) -> list[str]:
    """``path: N lines`` of every .py file under ``folders`` longer than ``limit`` lines."""
    out = []
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > limit:
                out.append(f"{path.relative_to(folder.parent)}: {n} lines")
    return out


def test_the_source_folders_are_the_shipped_packages():
    assert [f.name for f in source_folders()] == ["hermes_eval", "retrievers"]
    assert all(f.is_dir() for f in source_folders())


def test_no_source_file_is_over_400_lines():
    assert too_long(source_folders()) == [], "split these by concern (one job per module)"


def test_a_file_over_the_limit_is_named(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "sub" / "big.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "pkg" / "fits.py").write_text("x = 1\n" * MAX_LINES)
    assert too_long([tmp_path / "pkg"]) == [f"pkg/sub/big.py: {MAX_LINES + 1} lines"]
