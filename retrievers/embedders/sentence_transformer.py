"""Sentence-transformers embedder: any sentence-transformers model by name or path, over the shared
prefixes, document cache and counters of :class:`~retrievers.embedders.base.CachedEmbedder`."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ContextManager

import numpy as np

from retrievers.embedders.base import CachedEmbedder
from retrievers.embedders.clip import clipper
from retrievers.embedders.device import identity_suffix, pick_device
from retrievers.embedders.model_source import ModelUnavailable, model_identity, resolve_model
from retrievers.identity.declare import declare
from retrievers.identity.key import part_key
from retrievers.identity.libraries import library_versions
from retrievers.progress import count_forward_passes


@declare("retrievers.embedders.SentenceTransformerEmbedder")
@dataclass
class SentenceTransformerEmbedder(CachedEmbedder):
    """Any sentence-transformers model by name or path; the default is the packaged MiniLM."""

    model: str = "all-MiniLM-L6-v2"
    max_seq_length: int | None = 256
    # torch device; None: a GPU when torch sees one (cuda, then mps), else the CPU (embedders/device.py).
    # The resolved device is in the run record (embedding.device) and, when not the CPU, in the identity
    device: str | None = None
    # hand the tokenizer a head of each long document that already holds more tokens than the model keeps
    # (retrievers/embedders/clip.py): the same input ids, without tokenizing whole files of up to 1 MB
    clip: bool = True
    # torch intra-op threads while embedding one query: 1 is barely slower than 2 on short text
    # and far steadier when other processes share the cores (None leaves torch's default)
    query_threads: int | None = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        self._model = None

    @property
    def st(self):
        if self._model is None:
            self._model = self._load()
        return self._model

    def _load(self):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        path = resolve_model(self.model)
        try:
            model = SentenceTransformer(path, device=self.resolved_device)
        except Exception as exc:  # hub errors come in many types
            raise ModelUnavailable(
                f"embedder model {self.model!r} cannot be loaded ({type(exc).__name__}); no model hub is "
                f"reachable here: set embedder.model to a local folder or to all-MiniLM-L6-v2") from None
        if self.max_seq_length:
            model.max_seq_length = self.max_seq_length
        self._path = path
        if Path(path).is_dir():
            self.stats["model_bytes"] = sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())
        return model

    def ready(self) -> None:
        self.st  # noqa: B018 - loads the model and resolves its path

    @property
    def resolved_device(self) -> str:
        """The device the model runs on: ``device``, else the GPU torch sees, else ``cpu``."""
        if getattr(self, "_device", None) is None:
            self._device = pick_device(self.device)
            self.stats["device"] = self._device  # in the run record
        return self._device

    def worker_kwargs(self) -> dict:
        """A worker's copy computes on this embedder's device, so its vectors are the ones keyed here."""
        return {**super().worker_kwargs(), "device": self.resolved_device}

    @property
    def identity(self) -> str:
        """What makes its vectors, the same on every CPU: the model files' content hash, the settings,
        this wrapper's declared name and version, and the versions of the libraries under it
        (sentence-transformers, transformers, torch...), and the device kind when it is not the CPU (a
        GPU's vectors differ in their low bits: embedders/device.py). Never its vectors: their low bits
        follow the SIMD path; a change in them is caught by the golden check
        (``tests/retrievers/identity``) within a tolerance and declared by bumping the version. Loads
        no model."""
        if not hasattr(self, "_identity"):
            code = part_key([self], None, library_versions([__name__], ("transformers", "tokenizers", "torch")))
            self._identity = (f"{model_identity(resolve_model(self.model))}|msl={self.max_seq_length}"
                              f"|norm={self.normalize}|code={code}{identity_suffix(self.resolved_device)}")
        return self._identity

    @property
    def dim(self) -> int:
        get = getattr(self.st, "get_embedding_dimension", None) or self.st.get_sentence_embedding_dimension
        return int(get())

    def _library_encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self.st.encode(texts, batch_size=self.batch_size, show_progress_bar=False,
                                         normalize_embeddings=self.normalize,
                                         convert_to_numpy=True), dtype=np.float32)

    def _clipped_encode(self, texts: list[str]) -> np.ndarray:
        """Document vectors, each document first cut to a head the model's window cannot see past."""
        cut = clipper(self.st.tokenizer, self.st.max_seq_length) if self.clip else None
        return self._library_encode([cut(x) for x in texts] if cut is not None else texts)

    def _encode(self, texts: list[str], query: bool) -> np.ndarray:
        if not query:
            return self._clipped_encode(texts)
        if self.query_threads is None:
            return self._library_encode(texts)
        import torch

        before = torch.get_num_threads()
        torch.set_num_threads(self.query_threads)
        try:
            return self._library_encode(texts)
        finally:
            torch.set_num_threads(before)

    def _document_progress(self) -> Callable[[int], ContextManager] | None:
        return lambda n: count_forward_passes(self.st, "embedding", n)
