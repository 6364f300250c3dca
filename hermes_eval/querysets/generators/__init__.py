"""Query generators over a corpus: one module per generator, the protocol they share and the manifest they write."""
