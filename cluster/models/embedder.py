"""The text embedder: fastembed on onnxruntime, CUDA provider when a GPU is visible.

>>> # emb = Embedder.load(resolve_embedder(cfg.models), EmbedderConfig())
>>> # emb.embed(["hello world"]).shape  -> (1, 384)
"""

from __future__ import annotations

import ctypes
import functools
import os
from collections.abc import Sequence
from typing import Literal

import numpy as np

from cluster.config import EmbedderConfig
from cluster.models.registry import ResolvedEmbedder


CPU_BATCH_SIZE = 1  # no padding at all; `strata ingest` 10% faster than at 4 and the bound's sweep fastest (README)
CUDA_BATCH_SIZE = 128


def cuda_available() -> bool:
    """True when onnxruntime offers the CUDA provider, the NVIDIA driver loads *and* a device is visible."""
    try:
        import onnxruntime as ort
    except ImportError:  # pragma: no cover - onnxruntime is a hard dependency of fastembed
        return False
    if "CUDAExecutionProvider" not in ort.get_available_providers():
        return False
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None and visible.strip() in ("", "-1"):
        return False
    try:  # the NVIDIA driver: without it (a GPU install on a CPU node) the provider cannot load
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    preload_cuda_libraries()
    return True


@functools.cache
def preload_cuda_libraries() -> None:
    """Load the CUDA 13 runtime, cuBLAS, cuFFT, cuRAND and cuDNN 9 that onnxruntime-gpu's CUDA provider
    needs from the ``nvidia-*`` wheels of ``requirements/gpu.lock`` (they are not on the loader's path;
    without this the provider fails to load and onnxruntime falls back to the CPU). A no-op with the CPU
    onnxruntime, or where the libraries come from the system instead."""
    import onnxruntime as ort

    if hasattr(ort, "preload_dlls") and "CUDAExecutionProvider" in ort.get_available_providers():
        ort.preload_dlls()


class Embedder:
    """Embeds text into L2-normalised float32 vectors of ``manifest.dim`` dimensions."""

    def __init__(self, model, resolved: ResolvedEmbedder, batch_size: int, device: str) -> None:
        self._model = model
        self.resolved = resolved
        self.batch_size = batch_size
        self.device = device
        tokenizer = _fastembed_tokenizer(model)
        self._counter = _token_counter(tokenizer)
        self._pad_id = int((getattr(tokenizer, "padding", None) or {}).get("pad_id", 0))

    @property
    def dim(self) -> int:
        return self.resolved.manifest.dim

    @classmethod
    def load(cls, resolved: ResolvedEmbedder, settings: EmbedderConfig) -> "Embedder":
        from fastembed import TextEmbedding
        from fastembed.common.model_description import ModelSource, PoolingType

        use_cuda = settings.device == "cuda" or (settings.device == "auto" and cuda_available())
        if use_cuda:
            preload_cuda_libraries()
        providers = ["CUDAExecutionProvider", "CPUExecutionProvider"] if use_cuda else ["CPUExecutionProvider"]
        threads = settings.threads or os.cpu_count() or 1
        session = {"enable_cpu_mem_arena": settings.cpu_mem_arena, "lazy_load": True}  # loaded below
        manifest = resolved.manifest
        if resolved.hub_name:
            model = TextEmbedding(resolved.hub_name, threads=threads, providers=providers, **session)
        else:
            name = f"strata/{manifest.name}"
            known = {d.model for d in TextEmbedding._list_supported_models()}
            if name not in known:
                TextEmbedding.add_custom_model(
                    model=name,
                    pooling=PoolingType.MEAN if manifest.pooling == "mean" else PoolingType.CLS,
                    normalization=manifest.normalize,
                    sources=ModelSource(hf=name),
                    dim=manifest.dim,
                    model_file=manifest.model_file,
                )
            model = TextEmbedding(name, specific_model_path=str(resolved.path), threads=threads, providers=providers,
                                  **session)
        _load_session(model.model, settings)
        batch_size = settings.batch_size or (CUDA_BATCH_SIZE if use_cuda else CPU_BATCH_SIZE)
        return cls(model, resolved, batch_size, "cuda" if use_cuda else "cpu")

    def embed(self, texts: Sequence[str], *, kind: Literal["passage", "query"] = "passage") -> np.ndarray:
        """Embed ``texts`` → array of shape (len(texts), dim), float32. ``kind`` says which of the model's
        prefixes goes in front of each text (``manifest.passage_prefix`` / ``query_prefix``; none for MiniLM)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        manifest = self.resolved.manifest
        prefix = manifest.query_prefix if kind == "query" else manifest.passage_prefix
        if prefix:
            texts = [prefix + t for t in texts]
        if self.batch_size == 1:  # one text a call (the CPU default): nothing is padded, no order needed
            return np.asarray(list(self._model.embed(list(texts), batch_size=1)), dtype=np.float32)
        # A batch is padded to its longest text: embed in token-length order. Sorting by characters
        # instead padded 15.3% more tokens (3.2% by tokens) on Debian documentation, whose markup
        # and code tokenize far from 4 characters a token; counting costs ~1% of embedding them.
        lengths = self._counter(texts)
        order = sorted(range(len(texts)), key=lengths.__getitem__)
        vectors = np.asarray(list(self._model.embed([texts[i] for i in order], batch_size=self.batch_size)),
                             dtype=np.float32)
        out = np.empty_like(vectors)
        out[order] = vectors
        return out

    def embed_ids(self, ids: Sequence[Sequence[int]]) -> np.ndarray:
        """Embed passages given as their token ids (:func:`cluster.models.tokenizer.passage_encoder`: the
        passage prefix and special tokens in, truncated to the window) → the vectors :meth:`embed` gives the texts, with no
        tokenizing here. fastembed's own model runs them, in batches of ``batch_size`` in length order,
        padded as its tokenizer pads, and pools and normalises them (its ``_post_process_onnx_output``).

        >>> # emb.embed_ids(passage_encoder(resolved)(["hello world"]))  -> (1, 384)
        """
        if not len(ids):
            return np.zeros((0, self.dim), dtype=np.float32)
        from fastembed.common.onnx_model import OnnxOutputContext

        onnx_model = self._model.model
        names = {node.name for node in onnx_model.model.get_inputs()}
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        out = np.empty((len(ids), self.dim), dtype=np.float32)
        for at in range(0, len(order), self.batch_size):
            part = order[at:at + self.batch_size]
            input_ids = np.full((len(part), max(len(ids[i]) for i in part)), self._pad_id, dtype=np.int64)
            mask = np.zeros_like(input_ids)
            for row, i in enumerate(part):
                input_ids[row, :len(ids[i])] = ids[i]
                mask[row, :len(ids[i])] = 1
            onnx_input = {"input_ids": input_ids}
            if "attention_mask" in names:
                onnx_input["attention_mask"] = mask
            if "token_type_ids" in names:
                onnx_input["token_type_ids"] = np.zeros_like(input_ids)
            onnx_input = onnx_model._preprocess_onnx_input(onnx_input)
            output = onnx_model._run_model(onnx_input=onnx_input, onnx_output_names=onnx_model.ONNX_OUTPUT_NAMES)
            context = OnnxOutputContext(model_output=output, attention_mask=onnx_input.get("attention_mask", mask),
                                        input_ids=onnx_input.get("input_ids", input_ids))
            out[part] = np.asarray(list(onnx_model._post_process_onnx_output(context)), dtype=np.float32)
        return out


def _load_session(onnx_model, settings: EmbedderConfig) -> None:
    """Create fastembed's onnxruntime session (it was built with ``lazy_load``) with the session options
    fastembed does not expose: ``enable_mem_pattern`` (``settings.mem_pattern``). With memory patterns on,
    onnxruntime keeps a plan and its arena blocks for every input shape it meets; a length-sorted
    embedder meets a new (batch, length) shape on most calls, so an actor's RSS kept growing over a
    long ingest (+59 MB vs +10 MB over 1,200 chunk texts, the same speed; README, 10M tokens)."""
    def session_options(options, _extra) -> None:  # fastembed calls this on the instance
        options.enable_cpu_mem_arena = settings.cpu_mem_arena
        options.enable_mem_pattern = settings.mem_pattern

    onnx_model.add_extra_session_options = session_options
    onnx_model.load_onnx_model()


def _fastembed_tokenizer(model):
    """The tokenizer fastembed runs ``model``'s texts through (None when the model exposes none)."""
    return getattr(getattr(model, "model", None), "tokenizer", None)


def _token_counter(tokenizer):
    """``texts -> token counts`` with the model's own ``tokenizer`` (fastembed's, truncation kept,
    padding off); character counts when there is none."""
    if tokenizer is None:
        return lambda texts: [len(t) for t in texts]
    from tokenizers import Tokenizer

    counter = Tokenizer.from_str(tokenizer.to_str())
    counter.no_padding()
    return lambda texts: [len(e.ids) for e in counter.encode_batch(list(texts))]
