"""Corpus sources: where ingestable files come from."""
