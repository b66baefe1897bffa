"""A local ONNX cross-encoder through fastembed's ``TextCrossEncoder`` (CPU, or CUDA when present).

The model directory holds ``model.onnx`` (a sequence-classification head with one logit) and its
tokenizer files; nothing is downloaded. The default, ``strata-reranker-minilm-l6``, is trained by
``strata reranker train`` and installed under ``models.home`` by ``strata models install``
(:func:`cluster.models.registry.resolve_reranker_dir`).

>>> # r = CrossEncoderReranker.from_config(cfg); r.score("what is venv", ["venv creates…", "tuples are…"])
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cluster.config import RerankConfig, StrataConfig
from cluster.models.embedder import cuda_available


class CrossEncoderReranker:
    def __init__(self, model, settings: RerankConfig, name: str) -> None:
        self._model = model
        self.settings = settings
        self.name = name
        tokenizer = getattr(getattr(model, "model", None), "tokenizer", None)
        self._counter = None
        self.max_length = None
        if tokenizer is not None:
            if settings.max_length is not None:
                tokenizer.enable_truncation(max_length=settings.max_length)
            self.max_length = (tokenizer.truncation or {}).get("max_length")
            from tokenizers import Tokenizer

            self._counter = Tokenizer.from_str(tokenizer.to_str())
            self._counter.no_truncation()
            self._counter.no_padding()

    def _count(self, texts: list[str]) -> list[int]:
        return [len(e.ids) for e in self._counter.encode_batch(texts, add_special_tokens=False)]

    def _inputs(self, query: str, texts: list[str]) -> list[str]:
        """The passages as the model reads them: the best sentence window when ``passage_window``."""
        if not self.settings.passage_window or self._counter is None or not self.max_length:
            return texts
        from serving.rerank.text import window_text

        budget = self.max_length - self._count([query])[0] - 3  # [CLS] query [SEP] passage [SEP]
        return [window_text(query, t, self._count, budget) for t in texts]

    @classmethod
    def from_config(cls, cfg: StrataConfig, *, threads: int | None = None,
                    max_length: int | None = None) -> "CrossEncoderReranker":
        """The configured reranker (``rerank.model_dir``, else ``rerank.model`` under ``models.home``);
        ``max_length`` replaces ``rerank.max_length`` (tokens per pair) when given."""
        from cluster.models.registry import resolve_reranker_dir

        settings = cfg.rerank if max_length is None else cfg.rerank.model_copy(update={"max_length": max_length})
        return cls.load(settings, directory=resolve_reranker_dir(cfg), threads=threads)

    @classmethod
    def load(cls, settings: RerankConfig, *, directory: Path | None = None,
             threads: int | None = None) -> "CrossEncoderReranker":
        """Load ``directory`` (default ``settings.model_dir``) with fastembed, offline."""
        from fastembed.common.model_description import ModelSource
        from fastembed.rerank.cross_encoder import TextCrossEncoder

        directory = Path(directory or settings.model_dir or "").expanduser()
        if not (directory / "model.onnx").is_file():
            raise FileNotFoundError(f"rerank.model_dir {directory} has no model.onnx")
        name = "strata/reranker-" + hashlib.sha1(str(directory.resolve()).encode()).hexdigest()[:8]
        if name not in {d.model for d in TextCrossEncoder._list_supported_models()}:
            TextCrossEncoder.add_custom_model(model=name, sources=ModelSource(hf=name), model_file="model.onnx")
        providers = ["CUDAExecutionProvider", "CPUExecutionProvider"] if cuda_available() else ["CPUExecutionProvider"]
        model = TextCrossEncoder(name, specific_model_path=str(directory), providers=providers,
                                 threads=threads or os.cpu_count() or 1)
        return cls(model, settings, name)

    def score(self, query: str, texts: list[str]) -> list[float]:
        """Relevance logits of ``texts`` for ``query`` (higher is better), in input order."""
        return self.score_pairs([(query, t) for t in texts])

    def score_pairs(self, pairs: list[tuple[str, str]]) -> list[float]:
        """Scores for (query, text) pairs from several requests (one batched call)."""
        if not pairs:
            return []
        by_query: dict[str, list[int]] = {}
        for i, (q, _) in enumerate(pairs):
            by_query.setdefault(q, []).append(i)
        inputs = list(pairs)
        for q, idx in by_query.items():
            for i, t in zip(idx, self._inputs(q, [pairs[i][1] for i in idx])):
                inputs[i] = (q, t)
        # Length-sorted batches pad less; scores go back in input order.
        order = sorted(range(len(inputs)), key=lambda i: len(inputs[i][0]) + len(inputs[i][1]))
        scores = list(self._model.rerank_pairs([inputs[i] for i in order], batch_size=self.settings.batch_size))
        out = [0.0] * len(inputs)
        for i, score in zip(order, scores):
            out[i] = float(score)
        return out
