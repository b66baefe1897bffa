"""The public Python API page (docs/python-api.md) is a doctest: its examples ingest a two-note corpus,
then search, pack a context, answer and check tenant isolation through the real pipelines and models."""

from __future__ import annotations

import doctest

from support import REPO


def test_python_api_page_examples_run(ray_session, installed_models):
    page = REPO / "docs" / "python-api.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted >= 25, f"only {result.attempted} examples ran: the page lost its examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {page.name} failed (see above)"
