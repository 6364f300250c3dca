"""per_query.parquet's table, read from JSON lines by Arrow, equals the table Arrow builds from the Python rows
(what pandas wrote before): types, values bit for bit, column order, nulls, unicode; NaN takes the other way."""
from __future__ import annotations

import random
import subprocess
import sys

import pyarrow as pa

from hermes_eval.record.write import rows_table


def _reference(rows):
    table = pa.Table.from_pylist(rows)
    return table.cast(pa.schema([pa.field(f.name, pa.large_string()) if f.type == pa.string() else f
                                 for f in table.schema]))


def _rows(seed: int, n: int = 300):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        out.append({"qid": f"q{i}", "query": rng.choice(["fix the ü parser", "", "a \"quoted\"\nline", "1.5"]),
                    "ndcg@10": rng.random() * rng.choice([1, 0, 1e-300, 1e300]), "recall@1": float(rng.random() < 0.5),
                    "mixed": rng.choice([1, 2.5, 0]), "count": rng.randint(-3, 10 ** 12), "flag": rng.random() < 0.5,
                    "none": None, "ms_total": rng.random() / 3})
    return out


def test_equal_to_the_table_of_the_python_rows():
    for seed in range(3):
        rows = _rows(seed)
        got, want = rows_table(rows), _reference(rows)
        assert got.schema == want.schema and got.equals(want)


def test_nan_and_ragged_rows_take_the_python_way():
    rows = _rows(9, 10)
    rows[3]["ndcg@10"] = float("nan")
    assert rows_table(rows).schema == _reference(rows).schema
    ragged = _rows(4, 5)
    del ragged[2]["flag"]
    assert rows_table(ragged).column_names == _reference(ragged).column_names


def test_text_missing_from_the_first_rows_is_still_text():
    rows = _rows(5, 20)
    for r in rows[:7]:
        r["query"] = None
    got, want = rows_table(rows), _reference(rows)
    assert got.schema == want.schema and got.equals(want)


def test_writing_a_run_s_table_imports_neither_pandas_nor_arrow_compute():
    """pandas (0.3 s) and pyarrow.compute (a cast's kernels, about 0.02 s) stay out of a small run."""
    code = ("import sys; from hermes_eval.record.write import rows_table; "
            "rows_table([{'qid': 'a', 'x': 1.0}, {'qid': 'b', 'x': 2.0}]); "
            "print('pandas' in sys.modules, 'pyarrow.compute' in sys.modules)")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert got == "False False"
