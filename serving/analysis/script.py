"""Which script a query is written in, and whether the embedder reads it.

An English-only embedder (all-MiniLM-L6-v2) embeds Arabic, Chinese or Cyrillic text to vectors that
retrieve almost nothing (dense nDCG@10 0.05 on ARCD), so such a query leans on BM25
(``retrieval.foreign_script_bm25_weight``) unless the embedder's manifest says it is multilingual.

>>> latin_share("How do I create a venv?"), latin_share("كم يبلغ عدد سكان مكة؟"), latin_share("2010 / 42")
(1.0, 0.0, 1.0)
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from cluster.config import ModelsConfig


def latin_share(text: str) -> float:
    """The share of ``text``'s letters that are Latin (1.0 for a text without letters)."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 1.0
    return sum(1 for c in letters if c.isascii() or unicodedata.name(c, "").startswith("LATIN")) / len(letters)


def embedder_reads(models: ModelsConfig, text: str) -> bool:
    """Whether the configured embedder reads ``text``: a multilingual one reads every script, any other one
    text that is mostly Latin. An embedder that cannot be resolved here counts as reading it (no change)."""
    return latin_share(text) >= 0.5 or _multilingual(models.model_dump_json())


@lru_cache(maxsize=8)
def _multilingual(models_json: str) -> bool:
    from cluster.models.registry import resolve_embedder

    try:
        return resolve_embedder(ModelsConfig.model_validate_json(models_json)).manifest.multilingual
    except Exception:  # noqa: BLE001 - no model installed (a bare config): leave the weights as configured
        return True
