"""Imports run one way: no module imports one above its layer (ARCHITECTURE.md, "Layers").

The layers, bottom first. A module may import its own layer and those below; the test reads every
``import`` statement (function-local ones included) of the project's packages with :mod:`ast`.
"""

from __future__ import annotations

import ast

import pytest

from support import REPO

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("cluster: config, storage, models, telemetry, runtime", ("cluster",)),
    ("pipelines: source → parse → chunk → embed → single writer", ("pipelines",)),
    ("serving protocol: the API's schemas", ("serving.protocol",)),
    ("serving runtime: index reader, caches, query encoder, LLM engine", (
        "serving.index", "serving.cache", "serving.embedding", "serving.llm")),
    ("stage: analysis", ("serving.analysis",)),
    ("stage: retrieval", ("serving.retrieval",)),
    ("stage: rerank", ("serving.rerank",)),
    ("stage: expansion", ("serving.expansion",)),
    ("stage: answer", ("serving.answer",)),
    ("services: orchestration of the stages", ("serving.services",)),
    ("HTTP routes", ("serving.api",)),
    ("Serve deployments", ("serving.deployments",)),
    ("the Serve application", ("serving.app", "serving.resources")),
    ("offline: evaluation, reranker training", ("offline",)),
    ("cli: the strata command", ("cli",)),
]
PACKAGES = ("cluster", "pipelines", "serving", "offline", "cli")


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` of ``module`` (longest prefix wins), None outside the project."""
    best, best_len = None, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = i, len(prefix)
    return best


def project_imports() -> list[tuple[str, str, int]]:
    """(importing module, imported module, line) for every import of a project module."""
    out = []
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            module = ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    targets = [node.module]
                elif isinstance(node, ast.Import):
                    targets = [alias.name for alias in node.names]
                else:
                    continue
                out += [(module, t, node.lineno) for t in targets if t.split(".")[0] in PACKAGES]
    return out


def test_every_project_module_has_a_layer():
    modules = {m for m, _, _ in project_imports()} | {t for _, t, _ in project_imports()}
    assert [m for m in sorted(modules) if layer_of(m) is None] == []


def test_no_module_imports_one_above_its_layer():
    upward = [f"{m}:{line} imports {t} ({LAYERS[layer_of(t)][0]} is above {LAYERS[layer_of(m)][0]})"
              for m, t, line in project_imports() if layer_of(t) > layer_of(m)]
    assert upward == []


@pytest.mark.parametrize("module, expected", [
    ("serving.protocol", 2), ("serving.index.view", 3), ("serving.answer.extractive", 8),
    ("serving.services.local", 9), ("offline.eval.beir", 13), ("cli.main", 14), ("cluster.config", 0)])
def test_layer_of(module, expected):
    assert layer_of(module) == expected
