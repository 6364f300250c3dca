"""Query expanders: the protocol and the LLM expander."""
