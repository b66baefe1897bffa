"""What `scripts/install.sh` leaves behind that the defaults' speed depends on."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

# Imported by every Ray worker, Serve replica or CLI process (Ray, Ray Data and its pandas, the
# ingest's actors): without their bytecode each process compiles them from source where Python may
# not write __pycache__ (PYTHONDONTWRITEBYTECODE=1, read-only images), and on 2 cores that doubled
# the start-up of `strata ingest`.
MODULES_EVERY_WORKER_IMPORTS = ["ray", "ray.data", "pyarrow", "pandas", "lancedb", "fastembed", "onnxruntime"]


@pytest.mark.parametrize("name", MODULES_EVERY_WORKER_IMPORTS)
def test_installed_packages_have_bytecode(name: str) -> None:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin, name
    source = Path(spec.origin)
    cached = Path(importlib.util.cache_from_source(str(source)))
    assert cached.exists(), (
        f"{name} has no bytecode ({cached} missing): install with scripts/install.sh, which compiles it "
        f"(uv pip install --compile-bytecode); {sys.executable}")
