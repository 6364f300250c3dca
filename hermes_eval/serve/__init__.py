"""A configured pipeline served as a HERMES-style POST /search on loopback."""
