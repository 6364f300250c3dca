"""Which torch device an embedder computes on: the one its config names, else a GPU when torch sees one
(CUDA, then Apple's MPS), else the CPU.

The device is part of what makes a vector: a GPU's kernels sum in another order than the CPU's, so its
vectors differ from the CPU's in their low bits. An embedder's identity (the key its cache rows are
stored under) therefore names the device kind when it is not the CPU (:func:`identity_suffix`); CPU
vectors keep the key they always had, whatever SIMD path the CPU takes (that spread is the golden
check's tolerance, retrievers/identity/key.py).
"""
from __future__ import annotations

import os
import sys

# the device files a GPU torch can compute on needs on Linux: NVIDIA's driver (CUDA, in containers too),
# WSL2's GPU bridge, AMD's ROCm (which torch reports through torch.cuda)
GPU_DEVICE_FILES = ("/dev/nvidiactl", "/dev/nvidia0", "/dev/dxg", "/dev/kfd")


def resolve_device(requested: str | None, cuda: bool, mps: bool) -> str:
    """``requested`` when the config names a device (``cpu``, ``cuda``, ``cuda:1``, ``mps``); otherwise
    ``cuda`` when ``cuda`` is available, ``mps`` when ``mps`` is, else ``cpu``."""
    if requested not in (None, "", "auto"):
        return str(requested)
    if cuda:
        return "cuda"
    if mps:
        return "mps"
    return "cpu"


def no_gpu_here(device_files: tuple[str, ...] = GPU_DEVICE_FILES) -> bool:
    """Whether no torch could see a GPU on this machine, known without importing torch (about 1.5 s): Linux
    with none of the device files a GPU needs. Elsewhere (macOS's MPS, Windows) torch is asked."""
    return sys.platform.startswith("linux") and not any(os.path.exists(f) for f in device_files)


def pick_device(requested: str | None, device_files: tuple[str, ...] = GPU_DEVICE_FILES) -> str:
    """:func:`resolve_device` with what this process's torch sees (imports torch only when it must: not on a
    machine without GPU device files, where torch could only answer the CPU)."""
    if requested not in (None, "", "auto"):
        return str(requested)
    if no_gpu_here(device_files):
        return "cpu"
    import torch

    mps = getattr(torch.backends, "mps", None)
    return resolve_device(None, torch.cuda.is_available(), bool(mps is not None and mps.is_available()))


def device_kind(device: str) -> str:
    """``cuda:1`` -> ``cuda``: the kind of device, which decides the kernels (not which card of a kind)."""
    return device.split(":", 1)[0]


def identity_suffix(device: str) -> str:
    """What an embedder's identity adds for ``device``: nothing on the CPU (its keys stay as they were),
    ``|device=<kind>`` on any other kind."""
    kind = device_kind(device)
    return "" if kind == "cpu" else f"|device={kind}"
