"""Corpus sources npm:NAME@VERSION and deb:PACKAGE=VERSION: pinned, fetched once into the cache,
fingerprinted in the corpus manifest. The artifacts are real (npm pack, dpkg-deb --build) and
built offline by the test; the network step (npm pack NAME@VERSION, apt-get download) never runs."""
from __future__ import annotations

import gzip

import pytest
from artifact_builders import seed_deb, seed_npm

from hermes_eval.core.errors import UserError
from hermes_eval.corpus import load_corpus
from hermes_eval.corpus.artifacts import sha256_of

JS = "/**\n * Add two numbers.\n */\nfunction add(a, b) {\n  return a + b;\n}\nmodule.exports = { add };\n"
TS = "/** A user. */\nexport interface User {\n  id: number;\n}\n"
RUST = "/// Adds one.\npub fn add_one(x: i32) -> i32 {\n    x + 1\n}\n"
GO = "package mux\n\n// Vars returns the route variables.\nfunc Vars() map[string]string {\n\treturn nil\n}\n"


def test_npm_tarball_is_unpacked_fingerprinted_and_prefixed(tmp_path):
    cache = tmp_path / "cache"
    tarball = seed_npm(cache, "tiny-lib", "1.2.3", {"lib/add.js": JS, "src/user.ts": TS, "README.md": "# tiny\n",
                                                    "dist/add.min.js": "function a(){}\n"}, tmp_path)
    one = load_corpus(["npm:tiny-lib@1.2.3"], cache_dir=cache, languages=["javascript", "typescript", "markdown"])
    assert [f.path for f in one.files] == ["README.md", "lib/add.js", "src/user.ts"]  # dist/ is skipped
    assert one.by_path()["lib/add.js"].text == JS and {f.repo for f in one.files} == {"tiny-lib"}
    assert one.summary()["source_fingerprints"] == {"npm:tiny-lib@1.2.3": f"sha256:{sha256_of(tarball)} "
                                                                           f"tiny-lib-1.2.3.tgz"}
    assert one.summary()["lines_by_language"] == {"javascript": 7, "markdown": 1, "typescript": 4}
    scoped = seed_npm(cache, "@acme/tools", "0.1.0", {"index.js": JS}, tmp_path)
    both = load_corpus(["npm:tiny-lib@1.2.3", "npm:@acme/tools@0.1.0"], cache_dir=cache)
    assert "@acme/tools/index.js" in both.by_path() and "tiny-lib/lib/add.js" in both.by_path()
    assert scoped.exists()  # fetched once: the artifact stays in the cache beside its unpacked tree


def test_a_cached_npm_source_is_read_again_without_npm(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    seed_npm(cache, "tiny-lib", "1.0.0", {"index.js": JS}, tmp_path)
    first = load_corpus(["npm:tiny-lib@1.0.0"], cache_dir=cache).fingerprint
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    assert load_corpus(["npm:tiny-lib@1.0.0"], cache_dir=cache).fingerprint == first


def test_deb_rust_crate_is_indexed_from_the_cargo_registry_without_debian_files(tmp_path):
    cache = tmp_path / "cache"
    crate = "usr/share/cargo/registry/addone-0.1.0"
    deb = seed_deb(cache, "librust-addone-dev", "0.1.0-2", {
        f"{crate}/src/lib.rs": RUST, f"{crate}/README.md": "# addone\n\nAdds one.\n",
        f"{crate}/Cargo.toml": "[package]\nname = \"addone\"\n",
        "usr/share/doc/librust-addone-dev/copyright": "Format: https://www.debian.org/doc/\n",
        "usr/share/doc/librust-addone-dev/changelog.Debian.gz": gzip.compress(b"addone (0.1.0-2) unstable\n"),
    }, tmp_path)
    corpus = load_corpus(["deb:librust-addone-dev=0.1.0-2"], cache_dir=cache)
    assert [f.path for f in corpus.files] == ["addone-0.1.0/Cargo.toml", "addone-0.1.0/README.md",
                                              "addone-0.1.0/src/lib.rs"]
    assert {f.repo for f in corpus.files} == {"addone-0.1.0"}
    assert corpus.fingerprints == {"deb:librust-addone-dev=0.1.0-2": f"sha256:{sha256_of(deb)} {deb.name}"}


def test_deb_go_module_paths_are_import_paths(tmp_path):
    cache = tmp_path / "cache"
    seed_deb(cache, "golang-github-acme-mux-dev", "1.8.0-1",
             {"usr/share/gocode/src/github.com/acme/mux/mux.go": GO,
              "usr/share/gocode/src/github.com/acme/mux/go.mod": "module github.com/acme/mux\n",
              "usr/share/doc/golang-github-acme-mux-dev/copyright": "x\n"}, tmp_path)
    seed_deb(cache, "librust-addone-dev", "0.1.0-2", {"usr/share/cargo/registry/addone-0.1.0/src/lib.rs": RUST},
             tmp_path)
    corpus = load_corpus(["deb:golang-github-acme-mux-dev=1.8.0-1", "deb:librust-addone-dev=0.1.0-2"],
                         cache_dir=cache, languages=["go", "rust"])
    assert [(f.path, f.repo, f.language) for f in corpus.files] == [
        ("addone-0.1.0/src/lib.rs", "addone-0.1.0", "rust"),
        ("github.com/acme/mux/mux.go", "github.com/acme/mux", "go")]


def test_a_deb_without_a_source_tree_is_read_whole_without_its_debian_docs(tmp_path):
    cache = tmp_path / "cache"
    seed_deb(cache, "python3-tiny", "2.0-1", {"usr/lib/python3/dist-packages/tiny.py": "def f():\n    pass\n",
                                              "usr/share/doc/python3-tiny/README.md": "# tiny\n"}, tmp_path)
    corpus = load_corpus(["deb:python3-tiny=2.0-1"], cache_dir=cache)
    assert [f.path for f in corpus.files] == ["usr/lib/python3/dist-packages/tiny.py"]


def test_exclude_globs_drop_matching_corpus_paths(tmp_path):
    cache = tmp_path / "cache"
    seed_npm(cache, "tiny-lib", "1.0.0", {"lib/add.js": JS, "lib/add.min.js": "function a(){}\n",
                                          "CHANGELOG.md": "# 1.0.0\n", "types/index.d.ts": TS}, tmp_path)
    corpus = load_corpus(["npm:tiny-lib@1.0.0"], cache_dir=cache, languages=["javascript", "typescript", "markdown"],
                         exclude=["*.min.js", "*.d.ts", "CHANGELOG.md", "*/CHANGELOG.md"])
    assert [f.path for f in corpus.files] == ["lib/add.js"] and corpus.skipped["excluded"] == 3


@pytest.mark.parametrize("spec, words", [
    ("npm:lodash", "npm:lodash needs a version: write npm:lodash@VERSION"),
    ("npm:lodash@^4.17.0", "not an exact version"),
    ("npm:lodash@latest", "not an exact version"),
    ("npm:@scope/x", "npm:@scope/x needs a version"),
    ("npm:Bad Name@1.0.0", "not an npm package name"),
    ("deb:librust-anyhow-dev", "deb:librust-anyhow-dev needs a version: write deb:librust-anyhow-dev=VERSION"),
    ("deb:librust-anyhow-dev=latest", "not a Debian version"),
    ("deb:Bad_Pkg=1.0", "not a Debian package name"),
])
def test_unpinned_or_malformed_specs_name_the_fix(tmp_path, spec, words):
    with pytest.raises(UserError, match=words.replace("^", r"\^")):
        load_corpus([spec], cache_dir=tmp_path)


@pytest.mark.parametrize("spec, client", [("npm:tiny-lib@1.0.0", "npm"), ("deb:librust-x-dev=1.0-1", "apt-get")])
def test_a_missing_client_is_one_clear_line(tmp_path, monkeypatch, spec, client):
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    with pytest.raises(UserError, match=f"needs `{client}`, which is not on PATH"):
        load_corpus([spec], cache_dir=tmp_path)


def test_a_package_apt_does_not_know_says_to_update_or_check_the_version(tmp_path):
    """apt-get answers this from its local package lists: no network."""
    with pytest.raises(UserError, match=r"run `apt-get update`, or check the version with `apt-cache policy "
                                        r"no-such-package-hermes-eval`"):
        load_corpus(["deb:no-such-package-hermes-eval=1.0-1"], cache_dir=tmp_path)


def test_the_polyglot_corpus_pins_every_source_and_covers_six_languages():
    from hermes_eval.config.compose import compose
    from hermes_eval.config.settings import corpus_settings
    from hermes_eval.corpus import deb_source, npm_source

    c = corpus_settings(compose(["corpus=polyglot"]).corpus)
    parsers = {"npm": npm_source.SPEC.parse, "deb": deb_source.SPEC.parse}
    for spec in c.sources:
        scheme = spec.split(":", 1)[0]
        assert scheme in ("pypi", "npm", "deb") and ("==" in spec if scheme == "pypi" else parsers[scheme](spec))
    assert set(c.languages) == {"python", "go", "rust", "javascript", "typescript", "markdown"}
    assert "*.d.ts" in c.exclude and "*.min.js" in c.exclude
