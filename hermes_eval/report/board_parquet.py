"""How a board's results write their parquet tables: zstd, one dictionary per column (a text the runs
share is stored once), no statistics, and the column naming each row's run."""
from __future__ import annotations

import io

import pyarrow as pa
import pyarrow.parquet as pq

RUN_KEY = "_run"  # the parquet column naming a row's run (its index in runs.json)
PARQUET = {"compression": "zstd", "compression_level": 19, "write_statistics": False,
           "dictionary_pagesize_limit": 1 << 26}  # one dictionary per column: texts stored once


def ids_plain(table: pa.Table) -> list[str]:
    """The columns of a flat ``table`` to dictionary-encode: all but the query id. Each run of a set lists its
    queries in the same order, so a plain qid column repeats byte for byte, run after run, and zstd stores
    it once a page; its dictionary indices, bit-packed from wherever a run starts, do not repeat (a
    trial merge of the history board's queries table: 767,118 -> 724,435 bytes)."""
    return [c for c in table.column_names if c != "qid"]


def parquet_bytes(table: pa.Table, **options) -> bytes:
    """``table`` as parquet with :data:`PARQUET`'s options (``options`` override them), no schema metadata."""
    buf = io.BytesIO()
    pq.write_table(table.replace_schema_metadata(None), buf, **{**PARQUET, **options})
    return buf.getvalue()


__all__ = ["PARQUET", "RUN_KEY", "ids_plain", "parquet_bytes"]
