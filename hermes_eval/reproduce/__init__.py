"""The ``reproduce`` kind: a published system's own protocol re-run here, query by query, beside its published
numbers. Each reproduction is registered by name (``registry.py``) behind one interface (``kind.py``): a
record, a variant and runs in; a per-query table and a summary out. A record names its reproductions
(``reproductions:`` in ``conf/benchmarks/NAME.yaml``) and ``hermes-eval benchmark NAME --reproduce`` writes
their tables into its board's README (``board_section.py``)."""
