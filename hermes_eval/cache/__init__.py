"""Content-addressed caches shared by sweep jobs: pickled artifacts with checksums and locks, and the index store."""
