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

    @classmethod
    def from_config(cls, cfg: StrataConfig, *, threads: int | None = None) -> "CrossEncoderReranker":
        """The configured reranker (``rerank.model_dir``, else ``rerank.model`` under ``models.home``)."""
        from cluster.models.registry import resolve_reranker_dir

        return cls.load(cfg.rerank, directory=resolve_reranker_dir(cfg), threads=threads)

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
        if not texts:
            return []
        return [float(s) for s in self._model.rerank(query, texts, batch_size=self.settings.batch_size)]

    def score_pairs(self, pairs: list[tuple[str, str]]) -> list[float]:
        """Scores for (query, text) pairs from several requests (one batched call)."""
        if not pairs:
            return []
        return [float(s) for s in self._model.rerank_pairs(pairs, batch_size=self.settings.batch_size)]
