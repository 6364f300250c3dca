"""MiniLM (or any local BERT-style sentence-transformers model) run by onnxruntime, fp32 or int8.

The model is exported and quantized locally on first use (:mod:`retrievers.embedders.onnx_export`, cached by
content in ``models_dir``). Vectors are made as sentence-transformers makes them: the model's own
fast tokenizer (``tokenizer.json``) truncating at ``max_seq_length`` and padding to the longest
text of the batch, mean pooling over the attention mask, then L2 normalization. An int8 model
quantizes activations over the whole batch, so its vectors depend on the batch unless ``batch_size``
is 1 (conf/embedder/minilm_onnx_int8.yaml sets it).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from retrievers.embedders.builds import BuildSpec, Built, require
from retrievers.embedders.clip import tokenizers_clipper
from retrievers.embedders.base import CachedEmbedder
from retrievers.embedders.onnx_export import (INPUT_NAMES, ONNX_FILE, PIP, build_fp32, build_int8, fp32_spec,
                                              int8_spec)
from retrievers.identity.declare import declare
from retrievers.identity.key import part_key
from retrievers.identity.libraries import library_versions

QUANTIZE = {"none": "fp32", "int8": "int8"}
DEFAULT_MODELS_DIR = Path.home() / ".cache" / "hermes-eval"


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of the token vectors the attention mask keeps (sentence-transformers' mean pooling)."""
    m = mask[..., None].astype(np.float32)
    return (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)


def load_tokenizer(folder: Path, max_seq_length: int):
    """The folder's fast tokenizer, truncating at ``max_seq_length`` and padding to the batch's longest."""
    tokenizers = require("tokenizers", "tokenizers")
    tok = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.enable_truncation(max_length=max_seq_length)
    pad_id = tok.token_to_id("[PAD]")
    tok.enable_padding(pad_id=0 if pad_id is None else pad_id, pad_token="[PAD]")
    return tok


def session(folder: Path, threads: int | None):
    """An onnxruntime CPU session on ``folder/model.onnx`` with ``threads`` intra-op threads."""
    ort = require("onnxruntime", PIP["onnxruntime"])
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if threads:
        opts.intra_op_num_threads = int(threads)
        opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(folder / ONNX_FILE), sess_options=opts, providers=["CPUExecutionProvider"])


def encode_batch(sess, tokenizer, texts: list[str]) -> np.ndarray:
    """Pooled (not normalized) vectors of one batch: tokenize, run, mean-pool."""
    enc = tokenizer.encode_batch(texts)
    ids = np.asarray([e.ids for e in enc], dtype=np.int64)
    mask = np.asarray([e.attention_mask for e in enc], dtype=np.int64)
    types = np.asarray([e.type_ids for e in enc], dtype=np.int64)
    feeds = dict(zip(INPUT_NAMES, (ids, mask, types)))
    hidden = sess.run(None, feeds)[0]
    return mean_pool(hidden, mask)


@declare("retrievers.embedders_onnx.OnnxEmbedder")
@dataclass
class OnnxEmbedder(CachedEmbedder):
    """A sentence-transformers model exported to ONNX (``quantize: none``) or int8 (``quantize: int8``)."""

    model: str = "all-MiniLM-L6-v2"
    quantize: str = "none"
    opset: int = 17
    per_channel: bool = False
    reduce_range: bool = False
    # where built models are kept (content-addressed); default: cache_dir, else ~/.cache/hermes-eval
    models_dir: str | None = None
    # intra-op threads for one query (1: steady on shared cores, like the torch path) and for
    # document batches (None: onnxruntime's default, all cores)
    query_threads: int | None = 1
    document_threads: int | None = None
    # the document session holds its own copy of the weights; by default it is released after a
    # document call so a run's peak memory is one session (benchmarks keep it to time encode alone)
    keep_document_session: bool = False
    # documents are cut before tokenizing to a head holding more tokens than max_seq_length
    # (retrievers/embedders/clip.py): the same input ids, without tokenizing whole files of up to 1 MB
    clip: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.quantize not in QUANTIZE:
            raise ValueError(f"embedder.quantize must be one of {', '.join(QUANTIZE)} (got {self.quantize!r})")
        self._built: Built | None = None
        self._tokenizer = None
        self._sessions: dict[str, object] = {}
        self._clipper: Callable[[str], str] | None = None

    @property
    def spec(self) -> BuildSpec:
        """What the model is built from (its folder's name is the build key)."""
        if self.quantize == "int8":
            return int8_spec(self.model, self.opset, self.per_channel, self.reduce_range)
        return fp32_spec(self.model, self.opset)

    @property
    def built(self) -> Built:
        """The ONNX model folder, built on first use (a cached step)."""
        if self._built is None:
            where = self.models_dir or self.cache_dir or str(DEFAULT_MODELS_DIR)
            if self.quantize == "int8":
                self._built = build_int8(self.model, where, self.opset, self.per_channel, self.reduce_range)
            else:
                self._built = build_fp32(self.model, where, self.opset)
            self.stats["model_bytes"] = self._built.bytes
            self.stats["model_build"] = self._built.source
        return self._built

    @property
    def tokenizer(self):
        if self._tokenizer is None:
            self._tokenizer = load_tokenizer(self.built.path, self.max_seq_length)
        return self._tokenizer

    def _session(self, query: bool):
        kind = "query" if query else "documents"
        if kind not in self._sessions:
            self._sessions[kind] = session(self.built.path, self.query_threads if query else self.document_threads)
        return self._sessions[kind]

    @property
    def identity(self) -> str:
        """The built model's key (source model content, build settings, export code and library
        versions: what it is built from, known before it is built) plus the settings, declared
        identity and libraries that turn its output into vectors; never its vectors (they differ by CPU)."""
        if not hasattr(self, "_identity"):
            code = part_key([self], None, library_versions([__name__], ("onnxruntime", "tokenizers")))
            self._identity = (f"{self.spec.folder_name}|msl={self.max_seq_length}|norm={self.normalize}"
                              f"|code={code}")
        return self._identity

    @property
    def dim(self) -> int:
        out = self._session(query=True).get_outputs()[0]
        return int(out.shape[-1])

    def ready(self) -> None:
        self._session(query=False), self.tokenizer  # noqa: B018 - builds (first time) and opens the model

    def _encode(self, texts: list[str], query: bool) -> np.ndarray:
        sess, tok = self._session(query), self.tokenizer
        if not query and self.clip:
            if self._clipper is None:
                self._clipper = tokenizers_clipper(tok, self.max_seq_length) or (lambda text: text)
            texts = [self._clipper(text) for text in texts]
        # longest first, as sentence-transformers batches: less padding per batch; order restored below
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        ranked = [texts[i] for i in order]
        parts = [encode_batch(sess, tok, ranked[i:i + self.batch_size]) for i in range(0, len(ranked), self.batch_size)]
        vecs = np.empty((len(texts), parts[0].shape[1]), dtype=np.float32)
        vecs[order] = np.concatenate(parts)
        if not query and not self.keep_document_session:
            self._sessions.pop("documents", None)
        return self.l2_normalize(vecs) if self.normalize else vecs
