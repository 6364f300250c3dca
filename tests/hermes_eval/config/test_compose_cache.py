"""Composed configs read back from disk: equal to Hydra's own composition, recomposed the moment a config
file, the overlay code, a ``HERMES_*`` variable or the overrides change, and never hiding a refusal."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from omegaconf import OmegaConf
from omegaconf.errors import ConfigAttributeError

from hermes_eval.config import compose_cache
from hermes_eval.config.compose import CONF_DIR, _composed, compose
from hermes_eval.core.errors import UserError

ROOT = CONF_DIR.parent


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(compose_cache.ENV, str(tmp_path / "compose"))
    return tmp_path / "compose"


def test_read_back_equals_hydras_composition_and_stays_strict(store):
    overrides = ["retriever=hybrid", "chunker=whole_file", "fusion.dense_weight=0.4"]
    first = compose(overrides)
    assert len(list(store.glob("*.pickle"))) == 1
    again = compose(overrides)
    fresh = _composed(overrides)
    assert OmegaConf.to_container(again) == OmegaConf.to_container(fresh) == OmegaConf.to_container(first)
    assert again.fusion.dense_weight == 0.4
    with pytest.raises(ConfigAttributeError):  # Hydra's struct flag came back with it
        again.not_a_key = 1


def test_every_input_of_composition_is_in_the_key(tmp_path, store, monkeypatch):
    conf = tmp_path / "conf"
    (conf / "group").mkdir(parents=True)
    (conf / "config.yaml").write_text("a: 1\n")
    made = []

    def compose_counted(overrides):
        made.append(1)
        return {"n": len(made)}

    def read(overrides=("a=2",)):
        return compose_cache.cached(list(overrides), conf, compose_counted)

    assert read() == read() == {"n": 1}
    (conf / "config.yaml").write_text("a: 10\n")  # another size
    assert read() == {"n": 2}
    (conf / "group" / "new.yaml").write_text("b: 1\n")  # a new option
    assert read() == {"n": 3}
    assert read(("a=3",)) == {"n": 4}
    monkeypatch.setenv("HERMES_MIRRORS", str(tmp_path / "elsewhere"))  # record paths expand it
    assert read() == {"n": 5}
    assert read() == {"n": 5}
    key = compose_cache.key(["a=2"], conf)
    code = compose_cache.CODE_DIR / "benchmark_overlays.py"
    stat = code.stat()
    os.utime(code, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))  # the code making overlays changed
    try:
        assert compose_cache.key(["a=2"], conf) != key
    finally:
        os.utime(code, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert compose_cache.key(["a=2"], conf) == key


def test_a_refusal_is_never_stored(store):
    for _ in range(2):
        with pytest.raises(UserError, match="retriever"):
            compose(["retriever=no_such_retriever"])
        with pytest.raises(UserError, match="sinse"):
            compose(["+sinse=2023"])
    assert not list(store.glob("*.pickle"))


def test_a_torn_file_is_composed_again_and_off_turns_it_off(tmp_path, store, monkeypatch):
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "config.yaml").write_text("a: 1\n")
    made = []
    compose_cache.cached([], conf, lambda o: made.append(1) or "first")
    [stored] = store.glob("*.pickle")
    stored.write_bytes(stored.read_bytes()[:3])
    assert compose_cache.cached([], conf, lambda o: made.append(1) or "again") == "again"
    assert compose_cache.cached([], conf, lambda o: "not called") == "again"
    searched = ["hydra.searchpath=[file:///elsewhere]"]  # a folder the key cannot list
    assert compose_cache.cached(searched, conf, lambda o: "1") == "1"
    assert compose_cache.cached(searched, conf, lambda o: "2") == "2"
    monkeypatch.setenv(compose_cache.ENV, "off")
    assert compose_cache.cached([], conf, lambda o: "composed") == "composed"
    assert compose_cache.folder() is None


def test_the_store_is_pruned_to_its_newest(tmp_path, store, monkeypatch):
    monkeypatch.setattr(compose_cache, "KEEP", 4)
    conf = tmp_path / "conf"
    conf.mkdir()
    for i in range(5):
        compose_cache.cached([f"a={i}"], conf, lambda o, i=i: i)
    kept = sorted(store.glob("*.pickle"))
    assert len(kept) == 2  # 5 > 4: the oldest 3 went
    assert compose_cache.cached(["a=4"], conf, lambda o: "recomposed") == 4  # the newest stayed


def test_a_second_process_does_not_import_hydra_to_compose(store):
    script = ("import sys; from hermes_eval.config.compose import compose; "
              "cfg = compose(['retriever=bm25', 'chunker=whole_file']); "
              "print(cfg.retriever.name, 'hydra' in sys.modules)")
    env = {**os.environ, compose_cache.ENV: str(store)}
    runs = [subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(2)]
    assert runs[0][1] == "True" and runs[1][1] == "False"
    assert runs[0][0] == runs[1][0]


def test_plain_values_are_set_after_composition_and_others_compose():
    structural, values = compose_cache.split(
        ["retriever=bm25", "queryset.name=cachetools-7", "paths.runs=/tmp/r-1", "progress=off", "seed=3",
         "rerun=true", "+benchmark=x", "paths.cache=a,b", "queryset.name2=${paths.runs}", "~reranker",
         "hydra.job.chdir=yes", "chunker=whole_file"], CONF_DIR)
    assert values == [("queryset.name", "cachetools-7"), ("paths.runs", "/tmp/r-1"), ("progress", "off")]
    assert structural == ["retriever=bm25", "seed=3", "rerun=true", "+benchmark=x", "paths.cache=a,b",
                          "queryset.name2=${paths.runs}", "~reranker", "hydra.job.chdir=yes", "chunker=whole_file"]
    twice = ["paths.runs=/a", "paths.runs=/b"]  # Hydra's order decides: all of it composes
    assert compose_cache.split(twice, CONF_DIR) == (twice, [])


def test_runs_that_differ_in_folders_share_one_composition(store):
    base = ["queryset=imported", "corpus=imported", "retriever=bm25", "chunker=whole_file"]
    for i in range(3):
        words = [*base, f"queryset.name=set-{i}", f"paths.runs=/tmp/runs-{i}", "progress=off"]
        cfg = compose(words)
        assert OmegaConf.to_container(cfg) == OmegaConf.to_container(_composed(words))
        assert (cfg.paths.runs, cfg.queryset.name) == (f"/tmp/runs-{i}", f"set-{i}")
    assert len(list(store.glob("*.pickle"))) == 1
    with pytest.raises(UserError, match="paths.nope"):  # a key the config lacks: Hydra's refusal, as before
        compose([*base, "paths.nope=/tmp/x"])
    seeded = compose([*base, "seed=abc"])  # not a string node: composed by Hydra, which sets it as it does
    assert seeded.seed == _composed([*base, "seed=abc"]).seed


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="abcefinXYZ019_./:@+-~ ,=$[]{}'\"", min_size=1, max_size=12))
@example(".0")
@example("1_0")
@example("infinity")
@example("NaN")
@example("True")
@example("x~y")
@example("a:b/c")
def test_a_value_set_after_composition_is_the_string_hydras_parser_reads(value):
    """Whatever ``split`` sets itself is a string Hydra's own override parser reads as that very string;
    anything else (a number, a list, a sweep, a character Hydra refuses) is left to Hydra."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    _, values = compose_cache.split([f"paths.runs={value}"], CONF_DIR)
    if values:
        assert values == [("paths.runs", value)]
        assert OverridesParser.create().parse_override(f"paths.runs={value}").value() == value
