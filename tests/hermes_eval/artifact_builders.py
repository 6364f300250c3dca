"""Real npm tarballs and Debian packages built offline from a folder (``npm pack`` of a local
folder, ``dpkg-deb --build``), placed where the download step of ``npm:``/``deb:`` would put
them, so tests run the real unpack, fingerprint and scan path without a registry."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from hermes_eval.corpus import deb_source, npm_source
from hermes_eval.corpus.artifacts import download_dir


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, body in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body if isinstance(body, bytes) else body.encode())
    return root


def npm_tarball(work: Path, name: str, version: str, files: dict[str, str]) -> Path:
    """``npm pack`` of a folder holding ``files`` and a package.json for NAME@VERSION."""
    folder = write_tree(work / f"pkg-{name.replace('/', '+')}", files)
    (folder / "package.json").write_text(json.dumps({"name": name, "version": version}))
    out = work / "packed"
    out.mkdir(exist_ok=True)
    proc = subprocess.run(["npm", "pack", str(folder), "--pack-destination", str(out), "--ignore-scripts",
                           "--silent", "--offline"], capture_output=True, text=True, check=True)
    return out / proc.stdout.strip().splitlines()[-1]


def seed_npm(cache: Path, name: str, version: str, files: dict[str, str], work: Path) -> Path:
    """An npm tarball of ``files`` in the cache where ``npm:NAME@VERSION`` downloads to."""
    tarball = npm_tarball(work, name, version, files)
    dl = download_dir(npm_source.cache_dir(cache, name, version))
    dl.mkdir(parents=True, exist_ok=True)
    return tarball.rename(dl / tarball.name)


def deb_package(work: Path, package: str, version: str, files: dict[str, str | bytes]) -> Path:
    """``dpkg-deb --build`` of a folder holding ``files`` and a DEBIAN/control for the package."""
    folder = write_tree(work / f"deb-{package}", files)
    (folder / "DEBIAN").mkdir(exist_ok=True)
    (folder / "DEBIAN" / "control").write_text(
        f"Package: {package}\nVersion: {version}\nArchitecture: all\nMaintainer: Test <t@example.org>\n"
        f"Description: test package\n built by the hermes-eval tests\n")
    out = work / f"{package}_{version}_all.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "--build", str(folder), str(out)], capture_output=True,
                   check=True)
    return out


def seed_deb(cache: Path, package: str, version: str, files: dict[str, str | bytes], work: Path) -> Path:
    """A .deb of ``files`` in the cache where ``deb:PACKAGE=VERSION`` downloads to."""
    deb = deb_package(work, package, version, files)
    dl = download_dir(deb_source.cache_dir(cache, package, version))
    dl.mkdir(parents=True, exist_ok=True)
    return deb.rename(dl / deb.name)


def seed_wheel(cache: Path, name: str, version: str, files: dict[str, str]) -> Path:
    """A wheel (a zip, as pip downloads it) of ``files`` where ``pypi:NAME==VERSION`` downloads to."""
    import zipfile

    dl = download_dir(cache / "pypi" / f"{name}-{version}")
    dl.mkdir(parents=True, exist_ok=True)
    wheel = dl / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for rel, text in sorted(files.items()):
            z.writestr(rel, text)
        z.writestr(f"{name}-{version}.dist-info/METADATA", f"Name: {name}\nVersion: {version}\n")
    return wheel
