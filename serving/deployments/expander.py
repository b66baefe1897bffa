"""``AwarenessExpander``: builds context packs (section tier, neighbours, parents, siblings, budget).

>>> # handle.expand.remote(candidates, sections, vectors, targets, settings)  -> ExpansionResult
"""

from __future__ import annotations

import asyncio

from ray import serve

from cluster.config import StrataConfig
from serving.expansion.awareness import AwarenessExpander, ExpansionResult
from serving.index.handle import IndexHandle


def _expand(index: IndexHandle, *args) -> ExpansionResult:
    view = index.get()
    index.version()
    return AwarenessExpander(view).expand(*args)


@serve.deployment(name="AwarenessExpander")
class AwarenessExpanderDeployment:
    def __init__(self, config: dict) -> None:
        self.index = IndexHandle(StrataConfig.model_validate(config))

    async def expand(self, candidates, sections, vectors, target_texts, settings) -> ExpansionResult:
        return await asyncio.to_thread(_expand, self.index, candidates, sections, vectors, target_texts, settings)

    async def ready(self) -> str:
        return await asyncio.to_thread(self.index.version)
