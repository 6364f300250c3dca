"""The digest texts are keyed by in on-disk stores (term counts, chunks per file)."""
from __future__ import annotations

import hashlib


def text_sha(text: str) -> str:
    """sha256 of ``text`` as UTF-8 (lone surrogates kept), in hex."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
