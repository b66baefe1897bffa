"""``AwarenessExpander``: builds context packs (section tier, neighbours, parents, siblings, budget).

>>> # handle.expand.remote(candidates, sections, vectors, targets, settings, "default")  -> ExpansionResult
"""

from __future__ import annotations

import asyncio

from ray import serve

from cluster.config import StrataConfig
from cluster.telemetry.tracing import traced_call
from serving.expansion.awareness import AwarenessExpander, ExpansionResult
from serving.index.handle import IndexHandle


def _expand(index: IndexHandle, tenant: str, *args) -> ExpansionResult:
    view = index.get(tenant)
    index.version(tenant)
    return AwarenessExpander(view).expand(*args)


@serve.deployment(name="AwarenessExpander")
class AwarenessExpanderDeployment:
    def __init__(self, config: dict) -> None:
        self.index = IndexHandle(StrataConfig.model_validate(config))

    @traced_call("serve.AwarenessExpander.expand")
    async def expand(self, candidates, sections, vectors, target_texts, settings, tenant: str) -> ExpansionResult:
        return await asyncio.to_thread(_expand, self.index, tenant, candidates, sections, vectors, target_texts,
                                       settings)

    @traced_call("serve.AwarenessExpander.ready")
    async def ready(self) -> str:
        return await asyncio.to_thread(self.index.probe)
