"""Vector indexes, one module per engine. Vectors are L2-normalised float32 rows."""
