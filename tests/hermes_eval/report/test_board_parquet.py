"""How a board's results write their tables (report/board_parquet.py): the query id plain, every other
column dictionary-encoded, so the ids that each run of a set repeats in the same order cost one copy."""
from __future__ import annotations

import io

import pyarrow as pa
import pyarrow.parquet as pq

from hermes_eval.report.board_parquet import ids_plain, parquet_bytes


def _runs_of_one_set(runs: int = 20, queries: int = 301) -> pa.Table:
    """``runs`` runs of one set, each listing its queries in the same order (an odd count: no run starts
    where bit-packed dictionary indices would line up)."""
    qids = [f"report-{4096 + 37 * i}" for i in range(queries)]
    return pa.table({"_run": pa.array([r for r in range(runs) for _ in qids], pa.int32()),
                     "qid": qids * runs, "kind": ["bug_report"] * (runs * queries)})


def test_the_query_id_is_stored_plain_and_every_other_column_with_a_dictionary():
    table = _runs_of_one_set()
    data = parquet_bytes(table, use_dictionary=ids_plain(table))
    meta = pq.ParquetFile(io.BytesIO(data)).metadata.row_group(0)
    encodings = {meta.column(i).path_in_schema: meta.column(i).encodings for i in range(meta.num_columns)}
    assert not any("DICTIONARY" in e for e in encodings["qid"])
    assert any("DICTIONARY" in e for e in encodings["kind"]) and any("DICTIONARY" in e for e in encodings["_run"])
    assert pq.read_table(io.BytesIO(data)).equals(table)


def test_repeated_query_ids_cost_less_plain_than_as_dictionary_indices():
    table = _runs_of_one_set()
    assert len(parquet_bytes(table, use_dictionary=ids_plain(table))) < len(parquet_bytes(table))
