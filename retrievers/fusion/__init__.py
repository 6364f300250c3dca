"""Fusion of ranked lists: the protocol, weighted RRF and every ranx method."""
