"""Ray Data stages of the ingest pipeline, in data-flow order: parse_chunk → embed → (sink)."""
