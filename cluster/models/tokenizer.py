"""The embedder's tokenizer, used to measure chunk budgets in the model's own tokens and (on GPU
pools) to send the embedding actors their inputs as token ids.

>>> # tok = load_tokenizer(resolve_embedder(cfg.models))
>>> # len(tok.encode("hello world", add_special_tokens=False).ids)  -> 2
"""

from __future__ import annotations

from collections.abc import Callable

from tokenizers import Tokenizer

from cluster.models.registry import ResolvedEmbedder


def input_tokenizer(resolved: ResolvedEmbedder) -> Tokenizer:
    """The tokenizer the embedder runs on its inputs: special tokens added (``encode(text).ids``),
    truncated to the model's window (``manifest.max_tokens``), no padding. Parse tasks use it to send
    token ids (``ingest.token_ids``); :meth:`cluster.models.embedder.Embedder.embed_ids` embeds them
    to the same vectors as :meth:`~cluster.models.embedder.Embedder.embed` of the texts (tested)."""
    tokenizer = load_tokenizer(resolved)
    tokenizer.enable_truncation(resolved.manifest.max_tokens)
    return tokenizer


def passage_encoder(resolved: ResolvedEmbedder) -> Callable[[list[str]], list[list[int]]]:
    """``encode(texts)`` → the token ids the embedder runs for each passage: the model's passage prefix in
    front (as :meth:`cluster.models.embedder.Embedder.embed` puts it), special tokens in, truncated to the
    window (:func:`input_tokenizer`). Parse tasks send these ids (``ingest.token_ids``).

    >>> # passage_encoder(resolve_embedder(cfg.models))(["hello world"])  -> [[101, 7592, 2088, 102]]
    """
    tokenizer, prefix = input_tokenizer(resolved), resolved.manifest.passage_prefix

    def encode(texts: list[str]) -> list[list[int]]:
        return [e.ids for e in tokenizer.encode_batch([prefix + t for t in texts], add_special_tokens=True)]

    return encode


def load_tokenizer(resolved: ResolvedEmbedder) -> Tokenizer:
    """A tokenizer with truncation and padding disabled (counting must see every token)."""
    if resolved.path is not None:
        tokenizer = Tokenizer.from_file(str(resolved.path / "tokenizer.json"))
    else:  # hub model: fastembed has downloaded it into its cache
        tokenizer = Tokenizer.from_pretrained(resolved.hub_name)
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer
