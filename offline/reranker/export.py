"""Export the trained cross-encoder to ONNX (fp32), quantize it to int8, and check they agree.

The graph takes ``input_ids``, ``attention_mask``, ``token_type_ids`` (int64, dynamic batch and
sequence axes) and returns ``logits`` of shape ``[batch, 1]`` — what fastembed's
``TextCrossEncoder`` reads (``outputs[0][:, 0]``). Int8 uses onnxruntime's dynamic quantization
(weights int8, activations quantized at run time), about a quarter of the fp32 size.

>>> # export_onnx(model, Path("out/model-fp32.onnx")); quantize_int8(Path("out/model-fp32.onnx"), Path("out/model.onnx"))
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

__all__ = ["ONNX_INPUTS", "OnnxScorer", "agreement", "export_onnx", "quantize_int8"]

ONNX_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OPSET = 17


def export_onnx(model, path: Path, *, opset: int = OPSET) -> Path:
    """Write ``model`` (a ``*ForSequenceClassification``) as an ONNX graph with one ``logits`` output."""
    import torch

    class _Logits(torch.nn.Module):
        def __init__(self, inner) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).logits

    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = tuple(torch.ones(2, 16, dtype=torch.long) for _ in ONNX_INPUTS)
    axes = {name: {0: "batch", 1: "sequence"} for name in ONNX_INPUTS}
    axes["logits"] = {0: "batch"}
    with torch.inference_mode():
        torch.onnx.export(_Logits(model), dummy, str(path), input_names=list(ONNX_INPUTS), output_names=["logits"],
                          dynamic_axes=axes, opset_version=opset, do_constant_folding=True, dynamo=False)
    return path


def quantize_int8(source: Path, target: Path) -> Path:
    """Dynamic int8 quantization of the weights (``onnxruntime.quantization.quantize_dynamic``)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    target.parent.mkdir(parents=True, exist_ok=True)
    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8)
    return target


class OnnxScorer:
    """Scores (query, passage) pairs with an ONNX cross-encoder file and a pair tokenizer."""

    def __init__(self, path: Path, tokenizer, *, threads: int = 2, batch_size: int = 32) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.tokenizer = tokenizer
        self.batch_size = batch_size

    def __call__(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        out: list[float] = []
        for i in range(0, len(pairs), self.batch_size):
            feed = {k: v.numpy() for k, v in self.tokenizer(pairs[i:i + self.batch_size]).items()}
            out.extend(float(x) for x in self.session.run(["logits"], feed)[0][:, 0])
        return out


def agreement(a: Sequence[float], b: Sequence[float]) -> dict[str, float]:
    """How closely two score lists over the same pairs agree: max |diff| and Pearson r.

    >>> agreement([1.0, 2.0, 3.0], [1.1, 2.0, 2.9])["pearson"] > 0.99
    True
    """
    import numpy as np

    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    r = float(np.corrcoef(x, y)[0, 1]) if len(x) > 1 and x.std() > 0 and y.std() > 0 else 1.0
    return {"max_abs_diff": float(np.max(np.abs(x - y))) if len(x) else 0.0, "pearson": r, "pairs": float(len(x))}
