"""Every docstring example in the project runs (``>>>`` lines; ``# ``-commented ones are shown, not run)."""

from __future__ import annotations

import doctest
import importlib

import pytest

from support import REPO

PACKAGES = ("cluster", "pipelines", "serving", "offline", "cli")
MODULES = sorted(".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
                 for package in PACKAGES for p in (REPO / package).rglob("*.py") if ">>>" in p.read_text())


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
