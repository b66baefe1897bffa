"""Training Strata's cross-encoder reranker (``strata reranker train``; needs the ``train`` extra).

One job per module: :mod:`.mining` (candidate lists and hard negatives from the hybrid
retriever), :mod:`.model` (base model and pair tokenizer), :mod:`.loop` (fine-tuning),
:mod:`.rank_eval` (reranked metrics on mined lists), :mod:`.export` (ONNX, int8),
:mod:`.card` (model directory, manifest, model card), :mod:`.job` (the whole run) and
:mod:`.heldout` (held-out evaluation of a trained model).

>>> from offline.reranker import TrainSettings
>>> TrainSettings().negatives
3
"""

from offline.reranker.loop import TrainSettings

__all__ = ["TrainSettings"]
