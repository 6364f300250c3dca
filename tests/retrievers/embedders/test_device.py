"""Which device the sentence-transformers embedder computes on, and what that does to its identity (the key
its cache rows are stored under). Real torch: this machine has no GPU, so auto resolves to the CPU here."""
from __future__ import annotations

import pytest

from retrievers.embedders.device import device_kind, identity_suffix, pick_device, resolve_device


@pytest.mark.parametrize("requested, cuda, mps, expected", [
    (None, True, False, "cuda"), (None, True, True, "cuda"), (None, False, True, "mps"), (None, False, False, "cpu"),
    ("auto", True, False, "cuda"), ("cpu", True, True, "cpu"), ("cuda:1", False, False, "cuda:1"), ("mps", False, False, "mps"),
])
def test_a_named_device_wins_else_a_gpu_torch_sees_else_the_cpu(requested, cuda, mps, expected):
    assert resolve_device(requested, cuda, mps) == expected


def test_auto_asks_this_process_torch():
    import torch

    mps = bool(getattr(torch.backends, "mps", None) and torch.backends.mps.is_available())
    assert pick_device(None) == resolve_device(None, torch.cuda.is_available(), mps)
    assert pick_device("cuda:3") == "cuda:3"  # a named device is taken as named, torch not asked


def _pick_in_a_new_process(device_files: list[str]) -> tuple[str, bool]:
    """(pick_device(None) with these GPU device files, whether torch got imported) in a fresh interpreter."""
    import json
    import subprocess
    import sys

    code = ("import json, sys; from retrievers.embedders.device import pick_device; "
            f"d = pick_device(None, tuple({device_files!r})); print(json.dumps([d, 'torch' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    device, imported = json.loads(out.stdout.strip().splitlines()[-1])
    return device, imported


def test_without_gpu_device_files_the_cpu_is_known_without_importing_torch(tmp_path):
    import torch

    assert not torch.cuda.is_available()  # what the fast path stands for: no device files, no GPU torch sees
    assert _pick_in_a_new_process([str(tmp_path / "no-such-device")]) == ("cpu", False)
    present = tmp_path / "nvidiactl"
    present.write_text("")  # a machine that has one: torch is asked, and answers what it sees
    assert _pick_in_a_new_process([str(tmp_path / "no-such-device"), str(present)]) == ("cpu", True)


def test_the_device_kind_enters_the_key_except_on_the_cpu():
    assert identity_suffix("cpu") == "" and device_kind("cuda:1") == "cuda"
    assert identity_suffix("cuda:0") == identity_suffix("cuda") == "|device=cuda" != identity_suffix("mps")


def test_the_embedder_identity_and_record_name_the_device():
    """No model is loaded: the identity is the model files' hash, settings, code and device kind."""
    from retrievers.embedders.sentence_transformer import SentenceTransformerEmbedder as ST

    auto, cpu, gpu0, gpu1 = ST(), ST(device="cpu"), ST(device="cuda:0"), ST(device="cuda:1")
    assert auto.identity == cpu.identity and "device=" not in cpu.identity  # CPU keys are the ones they were
    assert auto.stats["device"] == pick_device(None) == "cpu"  # no GPU here; what the run record shows
    assert gpu0.identity == gpu1.identity == cpu.identity + "|device=cuda"  # no cache row shared with the CPU's
    assert gpu1.stats["device"] == "cuda:1"
    assert gpu1.worker_kwargs()["device"] == "cuda:1" and auto.worker_kwargs()["device"] == "cpu"
    assert "stats" not in auto.worker_kwargs() and "scale_out" not in auto.worker_kwargs()
