"""The on-disk ``packages_distributions`` map: equal to importlib's, reused while nothing is installed, and
rebuilt the moment a distribution's metadata entry appears, changes or goes."""
from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata

from retrievers.identity import distributions


def test_the_map_is_importlibs_and_is_read_back(tmp_path):
    cache = tmp_path / "map.json"
    first = distributions.packages_distributions(cache)
    assert first == metadata.packages_distributions()
    stored = json.loads(cache.read_text())
    assert list(stored["maps"]) == [distributions.listing_key()]
    stored["maps"][distributions.listing_key()]["hermes_probe_only_in_cache"] = ["probe"]  # read back, not rebuilt
    cache.write_text(json.dumps(stored))
    assert distributions.packages_distributions(cache)["hermes_probe_only_in_cache"] == ["probe"]


def test_a_stale_or_broken_cache_is_rebuilt(tmp_path):
    cache = tmp_path / "map.json"
    cache.write_text(json.dumps({"maps": {"another environment": {"numpy": ["not-numpy"]}}}))
    assert distributions.packages_distributions(cache)["numpy"] == ["numpy"]
    assert json.loads(cache.read_text())["maps"]["another environment"] == {"numpy": ["not-numpy"]}  # kept
    for broken in ("{not json", '{"key": "the old one-map format", "map": {}}', '{"maps": [1]}'):
        cache.write_text(broken)
        assert distributions.packages_distributions(cache)["numpy"] == ["numpy"]
        assert list(json.loads(cache.read_text())["maps"]) == [distributions.listing_key()]


def test_listings_that_take_turns_each_keep_their_map(tmp_path, monkeypatch):
    """A process started in the checkout (its ``*.egg-info`` on ``sys.path``) and one started elsewhere take
    turns: each finds its own map instead of rebuilding the other's; the oldest of too many is dropped."""
    cache = tmp_path / "map.json"
    built = []
    monkeypatch.setattr(metadata, "packages_distributions",
                        lambda: built.append(1) or {"numpy": ["numpy"]})
    keys = iter([])
    monkeypatch.setattr(distributions, "listing_key", lambda: next(keys))
    keys = iter(["checkout", "elsewhere", "checkout", "elsewhere"])
    for _ in range(4):
        distributions.packages_distributions(cache)
    assert len(built) == 2
    names = [f"listing-{i}" for i in range(distributions.KEYS_KEPT + 1)]
    keys = iter(names + [names[0]])
    for _ in range(len(names) + 1):
        distributions.packages_distributions(cache)
    assert len(built) == 2 + len(names) + 1  # listing-0 was dropped as the oldest, so built again
    assert len(json.loads(cache.read_text())["maps"]) == distributions.KEYS_KEPT


def test_the_key_follows_installs(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "other.txt").write_text("")
    empty = distributions.listing_key([str(site)])
    (site / "other2.txt").write_text("")
    assert distributions.listing_key([str(site)]) == empty  # only metadata entries count
    workdir = tmp_path / "workdir"
    workdir.mkdir()  # a folder without distributions on the path (the working directory) changes nothing
    assert distributions.listing_key([str(site), str(workdir)]) == empty
    (site / "pkg-1.0.dist-info").mkdir()
    installed = distributions.listing_key([str(site)])
    assert installed != empty
    (site / "pkg-1.0.dist-info").rename(site / "pkg-1.1.dist-info")
    assert distributions.listing_key([str(site)]) not in (empty, installed)


def test_an_unwritable_place_still_answers(tmp_path):
    cache = tmp_path / "missing-dir" / "map.json"  # its folder does not exist: nothing can be written
    assert distributions.packages_distributions(cache) == metadata.packages_distributions()
    assert not cache.exists() and not list(tmp_path.rglob("*.tmp"))


def test_versions_are_importlibs_stored_beside_the_map_and_read_back(tmp_path, monkeypatch):
    cache = tmp_path / "map.json"
    distributions.packages_distributions(cache)
    for name in ("numpy", "hydra-core", "pytrec_eval-terrier"):
        assert distributions.version(name, cache) == metadata.version(name)
    try:
        distributions.version("no-such-distribution-anywhere", cache)
        raise AssertionError("an absent distribution must raise")
    except metadata.PackageNotFoundError:
        pass
    stored = json.loads(cache.read_text())
    key = distributions.listing_key()
    assert stored["versions"][key]["numpy"] == metadata.version("numpy")
    assert stored["versions"][key]["no-such-distribution-anywhere"] is None
    assert list(stored["maps"]) == [key]  # the map is kept when versions are added
    stored["versions"][key]["numpy"] = "0.0-probe"  # a new process reads it back instead of parsing metadata
    cache.write_text(json.dumps(stored))
    monkeypatch.setattr(distributions, "_loaded", {})
    monkeypatch.setattr(metadata, "version", lambda name: (_ for _ in ()).throw(AssertionError(name)))
    assert distributions.version("numpy", cache) == "0.0-probe"


def test_versions_follow_installs(tmp_path, monkeypatch):
    """Another listing key (a distribution installed or upgraded) asks importlib again."""
    cache = tmp_path / "map.json"
    asked = []
    monkeypatch.setattr(metadata, "version", lambda name: asked.append(name) or f"{len(asked)}.0")
    monkeypatch.setattr(distributions, "listing_key", lambda path=None: "before")
    assert distributions.version("pkg", cache) == "1.0" and distributions.version("pkg", cache) == "1.0"
    monkeypatch.setattr(distributions, "_loaded", {})
    monkeypatch.setattr(distributions, "listing_key", lambda path=None: "after")
    assert distributions.version("pkg", cache) == "2.0" and asked == ["pkg", "pkg"]
    assert set(json.loads(cache.read_text())["versions"]) == {"before", "after"}


def test_stored_versions_are_read_without_importing_importlib_metadata(tmp_path):
    """``importlib.metadata`` imports email, csv and zipfile: a process whose answers are stored never loads it."""
    cache = tmp_path / "map.json"
    code = ("import sys; from pathlib import Path; from retrievers.identity import distributions as d; "
            f"c = Path({str(cache)!r}); print(d.installed('numpy', c), d.installed('no-such-distribution-anywhere', c), "
            "len(d.packages_distributions(c)) > 10, 'importlib.metadata' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
            for _ in range(2)]
    assert runs[0] == [metadata.version("numpy"), "None", "True", "True"]  # the first process asked importlib
    assert runs[1] == [metadata.version("numpy"), "None", "True", "False"]
