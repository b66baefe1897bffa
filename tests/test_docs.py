"""The documentation: generated pages match the code and the result files, and the site builds.

``docs/gen_reference.py`` writes the reference pages (configuration, CLI, HTTP API, metrics and spans,
alert rules), ``docs/benchmarks.md`` and the README's headline table from the code and
``bench/results/*.jsonl``. A change to any of those sources without a regenerated page fails here;
the fix is always the same command: ``.venv/bin/python docs/gen_reference.py``.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys

import pytest

from support import REPO

REGENERATE = ".venv/bin/python docs/gen_reference.py"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_reference", REPO / "docs" / "gen_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pages():
    return _generator().generate()


def test_generated_pages_are_current(pages):
    stale = [str(path.relative_to(REPO)) for path, text in pages.items()
             if not path.is_file() or path.read_text() != text]
    assert not stale, f"stale generated pages {stale}: run `{REGENERATE}` and commit the result"


def test_every_reference_page_is_generated(pages):
    names = {str(p.relative_to(REPO)) for p in pages}
    for page in ("config", "cli", "http", "metrics", "alerts"):
        assert f"docs/reference/{page}.md" in names
    assert "docs/benchmarks.md" in names
    assert "README.md" in names, "README.md lost its headline-figures block (the BEGIN/END markers)"


def test_config_reference_names_every_key(pages):
    from cluster.config import StrataConfig

    text = pages[REPO / "docs" / "reference" / "config.md"]
    for section, field in StrataConfig.model_fields.items():
        assert f"## `[{section}]`" in text
        for key in field.annotation.model_fields:
            assert f"| `{key}` |" in text or f"`[{section}.{key}]`" in text, f"{section}.{key} missing"


def test_cli_reference_names_every_command(pages):
    import click

    from cli.main import main

    text = pages[REPO / "docs" / "reference" / "cli.md"]

    def walk(cmd: click.Command, path: str) -> None:
        assert f"`{path}`" in text, f"{path} missing"
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, f"{path} {name}")

    walk(main, "strata")


def test_readme_is_short():
    lines = (REPO / "README.md").read_text().count("\n")
    assert lines <= 400, f"README.md has {lines} lines: move depth into docs/"


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None,
                    reason="mkdocs is not installed (the `docs` extra: pip install -e '.[docs]')")
def test_site_builds_strict(tmp_path):
    mkdocs = shutil.which("mkdocs", path=str(REPO / ".venv" / "bin")) or shutil.which("mkdocs")
    command = [mkdocs] if mkdocs else [sys.executable, "-m", "mkdocs"]
    done = subprocess.run([*command, "build", "--strict", "--site-dir", str(tmp_path / "site")], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "reference" / "config" / "index.html").is_file()


def test_every_config_key_is_described_in_the_model():
    """The configuration reference takes each key's description from its pydantic field
    (cluster/config.py), so a key added without ``Field(description=…)`` would reach the reference blank."""
    from pydantic import BaseModel

    from cluster.config import StrataConfig

    def keys(model: type[BaseModel], prefix: str = ""):
        for name, field in model.model_fields.items():
            if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel):
                yield from keys(field.annotation, f"{prefix}{name}.")
            else:
                yield f"{prefix}{name}", field.description

    blank = [key for key, description in keys(StrataConfig) if not (description or "").strip()]
    assert not blank, f"config keys without a description in cluster/config.py: {blank}"
