"""Build ONNX encoders from a local transformers/sentence-transformers model folder.

``fp32``: ``torch.onnx.export`` of the transformer (the TorchScript exporter, ``dynamo=False``: it
needs no ``onnxscript``), wrapped so inputs pass by name; the output is the last hidden state and
pooling happens in the embedder, as in sentence-transformers. ``int8``: onnxruntime's dynamic
quantization (``quantize_dynamic``: int8 weights, activations quantized per batch at run time) of
the fp32 export. The tokenizer files are copied beside ``model.onnx`` so a build is self-contained.
(sentence-transformers' own ONNX backend needs ``optimum-onnx``, whose only release pins
``transformers<4.58``; it is not used.)
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from retrievers.identity.declare import PartId
from retrievers.identity.key import part_key
from retrievers.identity.libraries import library_versions
from retrievers.embedders.builds import BuildSpec, Built, ensure_built, require, source_model
from retrievers.embedders.model_source import model_identity

ONNX_FILE = "model.onnx"
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt",
                   "config.json")
INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT_NAME = "last_hidden_state"
# pip specs named in errors; the versions pyproject.toml pins
PIP = {"onnx": "onnx==1.23.2", "onnxruntime": "onnxruntime==1.32.0"}


# a build is minutes of work, so it has no probe: bump the version when the export changes
EXPORT = PartId("retrievers.embedders.onnx_export", 1)


def export_code() -> str:
    """Identity of the export: its declared version and the libraries that shape the graph."""
    return part_key([EXPORT], None, library_versions([__name__], ("torch", "transformers", "onnx", "onnxruntime",
                                                                 "tokenizers")))


def fp32_spec(model: str, opset: int) -> BuildSpec:
    src = source_model(model)
    return BuildSpec("onnx-fp32", model_identity(str(src)), {"opset": opset}, export_code())


def int8_spec(model: str, opset: int, per_channel: bool, reduce_range: bool) -> BuildSpec:
    base = fp32_spec(model, opset)
    return BuildSpec("onnx-int8", f"{base.kind}-{base.key}",
                     {"weight_type": "QInt8", "per_channel": per_channel, "reduce_range": reduce_range},
                     export_code())


def _copy_tokenizer(src: Path, out: Path) -> None:
    for name in TOKENIZER_FILES:
        if (src / name).exists():
            shutil.copy2(src / name, out / name)


def _export_fp32(src: Path, out: Path, opset: int) -> None:
    from tqdm.auto import tqdm

    require("onnx", PIP["onnx"])
    torch = require("torch", "torch==2.13.0")
    transformers = require("transformers", "transformers")
    with tqdm(total=3, desc=f"onnx-fp32 export of {src.name}", unit="step") as bar:
        model = transformers.AutoModel.from_pretrained(str(src), attn_implementation="eager").eval()
        bar.update()

        class ByName(torch.nn.Module):
            """The transformer with inputs passed by name (positional order differs across models)."""

            def __init__(self, inner: Any):
                super().__init__()
                self.inner = inner

            def forward(self, input_ids, attention_mask, token_type_ids):
                return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                                  token_type_ids=token_type_ids).last_hidden_state

        dummy = tuple(torch.ones((2, 8), dtype=torch.long) for _ in INPUT_NAMES)
        axes = {name: {0: "batch", 1: "sequence"} for name in (*INPUT_NAMES, OUTPUT_NAME)}
        with torch.no_grad():
            torch.onnx.export(ByName(model), dummy, str(out / ONNX_FILE), input_names=list(INPUT_NAMES),
                              output_names=[OUTPUT_NAME], dynamic_axes=axes, opset_version=opset,
                              do_constant_folding=True, dynamo=False)
        bar.update()
        _copy_tokenizer(src, out)
        bar.update()


def build_fp32(model: str, cache_dir: str, opset: int) -> Built:
    """The fp32 ONNX export of ``model``, from the cache or built now."""
    spec = fp32_spec(model, opset)
    src = source_model(model)
    return ensure_built(cache_dir, spec, lambda out: _export_fp32(src, out, opset))


def build_int8(model: str, cache_dir: str, opset: int, per_channel: bool = False,
               reduce_range: bool = False) -> Built:
    """The int8 dynamic quantization of the fp32 export (built first when missing)."""
    spec = int8_spec(model, opset, per_channel, reduce_range)

    def build(out: Path) -> None:
        from tqdm.auto import tqdm

        fp32 = build_fp32(model, cache_dir, opset)
        quant = require("onnxruntime.quantization", PIP["onnxruntime"])
        with tqdm(total=2, desc="onnx-int8 dynamic quantization", unit="step") as bar:
            quant.quantize_dynamic(str(fp32.path / ONNX_FILE), str(out / ONNX_FILE),
                                   weight_type=quant.QuantType.QInt8, per_channel=per_channel,
                                   reduce_range=reduce_range)
            bar.update()
            _copy_tokenizer(fp32.path, out)
            bar.update()

    return ensure_built(cache_dir, spec, build)
