"""Deterministic live-scene suite for the rlbarcode element.

`scenes` draws seeded video scenes with per-frame ground truth, `families`
defines the scenes of each family, `pipeline` pushes them through the
element (and the zbar and zxing elements), `score` turns the bus messages
into per-family figures, `run` is the command line.
"""
