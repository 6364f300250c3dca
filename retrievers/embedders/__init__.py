"""Embedders: the protocol, sentence-transformers, ONNX, static (model2vec), the vector cache, model sources and local model builds."""
