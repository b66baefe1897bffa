"""The usage examples in the parse modules' docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["__init__", "decode", "detect", "sections", "markdown", "rst", "html", "text", "man", "pod", "pdf", "office", "document"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = importlib.import_module("pipelines.parse" if name == "__init__" else f"pipelines.parse.{name}")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
