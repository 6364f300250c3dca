"""What a run leaves on disk: manifest, TREC files, the run folder (written and read back) and the results table."""
