"""The embedder's tokenizer, used to measure chunk budgets in the model's own tokens.

>>> # tok = load_tokenizer(resolve_embedder(cfg.models))
>>> # len(tok.encode("hello world", add_special_tokens=False).ids)  -> 2
"""

from __future__ import annotations

from tokenizers import Tokenizer

from cluster.models.registry import ResolvedEmbedder


def load_tokenizer(resolved: ResolvedEmbedder) -> Tokenizer:
    """A tokenizer with truncation and padding disabled (counting must see every token)."""
    if resolved.path is not None:
        tokenizer = Tokenizer.from_file(str(resolved.path / "tokenizer.json"))
    else:  # hub model: fastembed has downloaded it into its cache
        tokenizer = Tokenizer.from_pretrained(resolved.hub_name)
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer
