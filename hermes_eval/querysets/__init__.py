"""Query sets: generators, storage (HF datasets + manifest) and hygiene checks."""
