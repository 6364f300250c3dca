"""Query sets: generators, importers, storage (parquet + manifest) and integrity checks against the corpus."""
