"""How Lucene stores a document's length in one byte (``org.apache.lucene.util.SmallFloat``), in its two
encodings, and the length BM25 reads back from each byte.

- Lucene 6: ``SmallFloat.floatToByte315(1 / sqrt(length))``, read back through ``BM25Similarity``'s table
  ``1 / byte315ToFloat(b)^2``, so lengths are quantized (about 12% steps) and documents of nearby lengths score
  alike: :func:`encode_norm`, :data:`NORM_TABLE`.
- Lucene 8 and 9: ``SmallFloat.intToByte4(length)``, read back through :data:`LENGTH_TABLE`.
"""
from __future__ import annotations

import math

import numpy as np

# --- Lucene 6: the 3-bit-mantissa, zero-exponent-15 byte of 1 / sqrt(length) ----------------------------------

def float_to_byte315(f: float) -> int:
    """``SmallFloat.floatToByte315(f)`` as an unsigned byte (0..255)."""
    bits = int(np.array(f, dtype=np.float32).view(np.int32))
    small = bits >> (24 - 3)  # arithmetic shift, as Java's >>
    if small <= (63 - 15) << 3:
        return 0 if bits <= 0 else 1
    if small >= ((63 - 15) << 3) + 0x100:
        return 255
    return small - ((63 - 15) << 3)


def byte315_to_float(b: int) -> float:
    """``SmallFloat.byte315ToFloat(b)`` for an unsigned byte ``b``."""
    if b & 0xFF == 0:
        return 0.0
    bits = ((b & 0xFF) << (24 - 3)) + ((63 - 15) << 24)
    return float(np.array(bits, dtype=np.int32).view(np.float32))


def encode_norm(length: int) -> int:
    """``BM25Similarity.encodeNormValue(1f, length)``: ``floatToByte315(1f / (float) Math.sqrt(length))``."""
    root = np.float32(math.sqrt(length))
    with np.errstate(divide="ignore"):
        return float_to_byte315(np.float32(1.0) / root)


def _norm_table() -> np.ndarray:
    """``BM25Similarity.NORM_TABLE``: the document length each norm byte stands for."""
    table = np.zeros(256, dtype=np.float32)
    for i in range(1, 256):
        f = np.float32(byte315_to_float(i))
        table[i] = np.float32(1.0) / (f * f)
    table[0] = np.float32(1.0) / table[255]
    return table


NORM_TABLE = _norm_table()


def decoded_length(length: int) -> float:
    """The length BM25 sees for a document of ``length`` tokens (``NORM_TABLE[encode_norm(length)]``)."""
    return float(NORM_TABLE[encode_norm(length)])


# --- Lucene 8 and 9 (what Pyserini/Anserini run): the length itself, exact below 24, then 4 significant bits ---

def _long_to_int4(i: int) -> int:
    """``SmallFloat.longToInt4``: 4 significant bits, the top one implicit, and a 4-bit shift."""
    bits = i.bit_length()
    if bits < 4:
        return i
    shift = bits - 4
    return ((i >> shift) & 0x07) | ((shift + 1) << 3)


def _int4_to_long(i: int) -> int:
    bits, shift = i & 0x07, (i >> 3) - 1
    return bits if shift == -1 else (bits | 0x08) << shift


_FREE_VALUES = 255 - _long_to_int4(2**31 - 1)  # SmallFloat.NUM_FREE_VALUES: 24


def int_to_byte4(i: int) -> int:
    """``SmallFloat.intToByte4``: how Lucene 8+'s ``BM25Similarity.computeNorm`` stores a length
    (exact below 24, then 4 significant bits)."""
    return i if i < _FREE_VALUES else _FREE_VALUES + _long_to_int4(i - _FREE_VALUES)


def byte4_to_int(b: int) -> int:
    b &= 0xFF
    return b if b < _FREE_VALUES else _FREE_VALUES + _int4_to_long(b - _FREE_VALUES)


LENGTH_TABLE = np.array([byte4_to_int(i) for i in range(256)], dtype=np.float32)  # BM25Similarity's
